//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestPromptNeverGrantsDenied: a capability the policy lists under "deny"
// is never offered at the terminal: `a0 run` refuses it without asking
// (also after "a" for another capability), and the REPL's question is not
// asked; the refusal says the policy denies it. The old prompt granted it
// on "y".
func TestPromptNeverGrantsDenied(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".a0policy.json": `{"version":1,"allow":[],"deny":["fs.read"]}`,
		"read.a0":        "cap { fs.read: true }\nreturn call? fs.read { path: \"note.txt\" }\n",
		"both.a0":        "cap { fs.write: true, fs.read: true }\nreturn call? fs.read { path: \"note.txt\" }\n",
		"note.txt":       "secret",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkDenied := func(p *ptySession, cmd *exec.Cmd) {
		t.Helper()
		p.expect(`"code":"E_CAP_DENIED"`)
		var ee *exec.ExitError
		if err := cmd.Wait(); err == nil || !errorsAs(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("exit: %v", err)
		}
		out := p.text()
		if strings.Contains(out, "needs fs.read") || strings.Contains(out, `"secret"`) {
			t.Errorf("the denied capability was offered or granted:\n%s", out)
		}
		if !strings.Contains(out, `denies 'fs.read': remove it from \"deny\"`) {
			t.Errorf("the refusal does not say the policy denies it:\n%s", out)
		}
	}

	// Only the denied capability: no question at all.
	p, cmd := startPty(t, dir, "run", "read.a0")
	checkDenied(p, cmd)

	// "a" for fs.write does not take fs.read along.
	p, cmd = startPty(t, dir, "run", "both.a0")
	p.expect("a0: both.a0 needs fs.write")
	p.send("a\r")
	checkDenied(p, cmd)

	// The REPL does not ask either.
	p, cmd = startPty(t, dir, "repl")
	p.expect("a0> ")
	p.send(`call? fs.read { path: "note.txt" }` + "\r")
	p.expect("error[E_CAP_DENIED]")
	p.expect("a0> ")
	p.send("\x04")
	if err := cmd.Wait(); err != nil {
		t.Errorf("repl exit: %v", err)
	}
	out := p.text()
	if strings.Contains(out, "allow fs.read for this session?") || strings.Contains(out, `"secret"`) {
		t.Errorf("the REPL offered or granted a denied capability:\n%s", out)
	}
	if !strings.Contains(out, `denies 'fs.read': remove it from "deny"`) {
		t.Errorf("the REPL's refusal does not say the policy denies it:\n%s", out)
	}
}
