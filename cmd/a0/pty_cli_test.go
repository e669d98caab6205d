//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/runtime/proc"
)

// TestRunPtyAndWrite runs a program through `a0 run` (the built binary)
// that drives a shell on a pty with sh.write, under a policy with
// exec.sandbox: the shell is on a terminal, answers what is typed, is
// confined (cannot write outside its roots) and ends on eof.
func TestRunPtyAndWrite(t *testing.T) {
	t.Parallel()
	if !proc.SandboxStatus().Available {
		t.Skip("no Landlock here")
	}
	bin := builtA0(t)
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	outside := filepath.Join(dir, "outside")
	os.Mkdir(work, 0o755)
	os.Mkdir(outside, 0o755)
	pol := filepath.Join(dir, "policy.json")
	os.WriteFile(pol, []byte(`{"allow":["sh.exec"],"fs":{"write":["`+work+`"]},"exec":{"sandbox":{"network":"deny"}}}`), 0o644)
	prog := filepath.Join(dir, "p.a0")
	os.WriteFile(prog, []byte(`cap { sh.exec: true }
do sh.start { argv: ["sh", "-i"], pty: true, cols: 90, rows: 33, env: { PS1: "$ " } } -> j
do sh.write { id: j.id, data: "stty size; echo in > `+work+`/in; echo out > `+outside+`/out || echo refused-outside\n" } -> w
call? sh.wait { id: j.id, timeoutMs: 1500 } -> s
do sh.write { id: j.id, eof: true } -> e
call? sh.wait { id: j.id, timeoutMs: 10000 } -> end
return { out: s.stdout, state: end.state, confined: end.confined }
`), 0o644)
	code, out, errOut := runA0(t, bin, work, "", 30*time.Second, "run", "--policy", pol, prog)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	var r struct {
		Out      string `json:"out"`
		State    string `json:"state"`
		Confined bool   `json:"confined"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(r.Out, "33 90") || !strings.Contains(r.Out, "refused-outside") || r.State != "exited" || !r.Confined {
		t.Errorf("pty job through a0 run: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(work, "in")); err != nil {
		t.Error("the confined pty job could not write its root")
	}
	if _, err := os.Stat(filepath.Join(outside, "out")); err == nil {
		t.Error("the confined pty job wrote outside its roots")
	}
}
