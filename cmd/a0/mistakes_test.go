package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateMistakes = flag.Bool("update", false, "rewrite testdata/mistakes/*.golden")

// TestMistakes: each habit from another language, written as a small
// program in testdata/mistakes, gets the diagnostic recorded in its
// .golden file: the output of `a0 check`, then of `a0 check --strict`
// and `a0 run` when the program passes the plain check. The golden files
// are the review surface for the hints (spec/diagnostics.md
// "Hints for habits of other languages"); `go test
// ./cmd/a0 -run TestMistakes -update` rewrites them.
//
// A first line `# flags: …` adds options to a0 run.
func TestMistakes(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("NO_COLOR", "1")
	files, err := filepath.Glob(filepath.Join("testdata", "mistakes", "*.a0"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".a0"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var flags []string
			if first, _, _ := strings.Cut(string(src), "\n"); strings.HasPrefix(first, "# flags:") {
				flags = strings.Fields(strings.TrimPrefix(first, "# flags:"))
			}
			var b strings.Builder
			code := mistakeRun(&b, "check", file)
			if code == 0 {
				mistakeRun(&b, "check --strict", file)
				mistakeRun(&b, strings.Join(append([]string{"run"}, flags...), " "), file)
			}
			got := b.String()
			golden := strings.TrimSuffix(file, ".a0") + ".golden"
			if *updateMistakes {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("missing golden (run with -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("mismatch\n--- got ---\n%s--- want ---\n%s", got, want)
			}
			if !strings.Contains(got, `"hint":"`) {
				t.Errorf("no hint in the output:\n%s", got)
			}
		})
	}
}

// mistakeRun runs `a0 <cmd> file` in-process and writes the command, its
// exit code and its stderr (stdout too when not empty) to b.
func mistakeRun(b *strings.Builder, cmd, file string) int {
	var out, errOut bytes.Buffer
	args := append(strings.Fields(cmd), file)
	code := realMain(args, strings.NewReader(""), &out, &errOut)
	b.WriteString("$ a0 " + cmd + " " + filepath.Base(file) + "   # exit " + strconv.Itoa(code) + "\n")
	if out.Len() > 0 && code != 0 {
		b.WriteString("stdout: " + strings.TrimSpace(out.String()) + "\n")
	}
	b.WriteString(strings.ReplaceAll(errOut.String(), file, filepath.Base(file)))
	return code
}
