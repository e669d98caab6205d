//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/creack/pty"
)

// startPty runs `a0 args…` in dir on a pseudo-terminal and collects its
// output.
func startPty(t *testing.T, dir string, args ...string) (*ptySession, *exec.Cmd) {
	t.Helper()
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("a0 is not on PATH:", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "NO_COLOR=1", "TERM=xterm")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	t.Cleanup(func() { f.Close() })
	p := &ptySession{t: t, f: f}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			p.mu.Lock()
			p.buf.Write(b[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p, cmd
}

// TestRunPromptsOnTerminal: `a0 run` in a terminal asks about a capability
// the policy does not grant, naming the tools that need it; "y" grants it
// for the run, "n" refuses it with the usual E_CAP_DENIED.
func TestRunPromptsOnTerminal(t *testing.T) {
	dir := t.TempDir()
	src := "cap { fs.read: true }\nreturn call? fs.read { path: \"note.txt\" }\n"
	if err := os.WriteFile(filepath.Join(dir, "p.a0"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}

	p, cmd := startPty(t, dir, "run", "p.a0")
	p.expect("a0: p.a0 needs fs.read (fs.read), which the policy does not grant.")
	p.expect("Allow for this run? [y]es, [N]o, [a]ll it declares: ")
	p.send("y\r")
	p.expect(`"hello"`)
	if err := cmd.Wait(); err != nil {
		t.Errorf("granted run: %v", err)
	}

	p, cmd = startPty(t, dir, "run", "p.a0")
	p.expect("Allow for this run?")
	p.send("n\r")
	p.expect(`"code":"E_CAP_DENIED"`)
	var ee *exec.ExitError
	if err := cmd.Wait(); err == nil || !errorsAs(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("refused run: %v", err)
	}
}

func errorsAs(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*target = e
	}
	return ok
}
