package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime/proc"
)

// TestInheritedDescriptorBuilt: the built a0, started with fd 7 open on a
// file outside every root (as a careless parent would leave it), runs
// `cat <&7` confined and unconfined: neither command reads the file, and
// neither has fd 7 open.
func TestInheritedDescriptorBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a0")
	}
	bin := builtA0(t)
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("parent-secret"), 0o600)
	work := filepath.Join(dir, "work")
	os.Mkdir(work, 0o755)
	prog := filepath.Join(dir, "p.a0")
	os.WriteFile(prog, []byte(`cap { sh.exec: true }
do sh.exec { cmd: "cat <&7; echo \" cat=$? \"; ls /proc/self/fd | tr '\\n' ' '" } -> r
return { out: r.stdout, code: r.exitCode }
`), 0o644)
	policies := map[string]string{
		"unconfined": `{"allow":["sh.exec"]}`,
	}
	if proc.SandboxStatus().Available {
		policies["confined"] = `{"allow":["sh.exec"],"fs":{"write":["` + work + `"]},"exec":{"sandbox":{"network":"deny","limits":{"cpuSeconds":10,"openFiles":64}}}}`
	}
	for name, pol := range policies {
		pf := filepath.Join(dir, name+".json")
		os.WriteFile(pf, []byte(pol), 0o644)
		f, err := os.Open(secret)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "run", "--policy", pf, prog)
		cmd.Dir = work
		cmd.ExtraFiles = []*os.File{nil, nil, nil, nil, f} // fd 7
		out, err := cmd.CombinedOutput()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		s := string(out)
		if strings.Contains(s, "parent-secret") {
			t.Errorf("%s: the command read a0's inherited fd 7: %s", name, s)
		}
		if strings.Contains(s, " 7 ") || strings.Contains(s, " cat=0 ") || !strings.Contains(s, " cat=") {
			t.Errorf("%s: fd 7 open in the command, or cat did not fail: %s", name, s)
		}
	}
}
