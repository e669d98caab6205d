//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// spec/exec.md §6.1, spec/embedding.md §5: `a0 run` records its jobs under
// its trace's run id (RunOptions.RunID), and the REPL session's jobs under
// the session's.
func TestJobsCarryTheTraceRunID(t *testing.T) {
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("no a0 command on PATH")
	}
	dir := t.TempDir()
	src := "cap { sh.exec: true }\ndo sh.start { argv: [\"true\"], waitMs: 5000 } -> j\nreturn j.runId\n"
	if err := os.WriteFile(filepath.Join(dir, "p.a0"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	traceRunIDs := func(path string) map[string]bool {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var ev struct {
				RunID string `json:"runId"`
			}
			if err := json.Unmarshal([]byte(l), &ev); err != nil {
				t.Fatalf("trace line %q: %v", l, err)
			}
			ids[ev.RunID] = true
		}
		return ids
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
	}{
		{"run", "", []string{"run", "--unsafe-allow-all", "--trace", "run.jsonl", "p.a0"}},
		{"repl", src, []string{"repl", "--unsafe-allow-all", "--trace", "repl.jsonl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runA0(t, bin, dir, tc.stdin, 30*time.Second, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			var jobRunID string
			for _, l := range strings.Split(out, "\n") {
				if s := strings.TrimSpace(l); strings.HasPrefix(s, `"`) {
					if err := json.Unmarshal([]byte(s), &jobRunID); err != nil {
						t.Fatal(err)
					}
				}
			}
			ids := traceRunIDs(filepath.Join(dir, tc.name+".jsonl"))
			if jobRunID == "" || len(ids) != 1 || !ids[jobRunID] {
				t.Errorf("job runId %q, trace run ids %v; output %q", jobRunID, ids, out)
			}
		})
	}
}
