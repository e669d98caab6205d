//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/creack/pty"
)

// startREPLPty starts `a0 repl` (the a0 that testscript puts on PATH) on a
// pseudo-terminal in a fresh folder and returns the session and a channel
// that yields its exit.
func startREPLPty(t *testing.T) (*ptySession, <-chan error) {
	t.Helper()
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("a0 is not on PATH:", err)
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "repl")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"), "NO_COLOR=1", "TERM=xterm")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
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
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		f.Close()
	})
	return p, exited
}

// TestREPLCtrlCAfterCompletionList: Ctrl-C while Tab has listed
// candidates clears the line like any other Ctrl-C, so the next input is
// not appended to the abandoned word ("re" + "1 + 1" ran "re1 + 1").
func TestREPLCtrlCAfterCompletionList(t *testing.T) {
	p, exited := startREPLPty(t)
	p.expect("a0> ")
	p.send("re")
	p.send("\t")
	p.send("\t") // the second Tab lists the candidates (reduce, return, …)
	p.expect("reduce")
	p.send("\x03")
	p.expect("a0> ")
	p.send("1 + 1\r")
	p.expect("\n2\n")
	p.expect("a0> ")
	p.send("\x04")
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit: %v; output:\n%s", err, p.text())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("a0 repl did not exit; output:\n%s", p.text())
	}
}
