//go:build linux || darwin

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptySession is `a0 repl` on the far side of a pseudo-terminal.
type ptySession struct {
	t    *testing.T
	f    *os.File
	mu   sync.Mutex
	buf  bytes.Buffer
	seen int    // offset of the text already matched by expect
	dir  string // the session's working folder (startREPLPty)
}

var ansiSeq = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// text is the output so far without escape sequences and carriage returns.
func (p *ptySession) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.ReplaceAll(ansiSeq.ReplaceAllString(p.buf.String(), ""), "\r", "")
}

// expect waits until want appears after the previous match.
func (p *ptySession) expect(want string) {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := p.text()
		if i := strings.Index(s[p.seen:], want); i >= 0 {
			p.seen += i + len(want)
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting for %q; output after the last match:\n%s", want, s[p.seen:])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (p *ptySession) send(s string) {
	p.t.Helper()
	if _, err := p.f.WriteString(s); err != nil {
		p.t.Fatal(err)
	}
}

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
	p.dir = dir
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

// TestREPLPseudoTerminal drives a real `a0 repl` (the test binary, which
// testscript installs as a0 on PATH) through a pseudo-terminal: readline,
// the capability question, Ctrl-C, completion, history and Ctrl-D.
func TestREPLPseudoTerminal(t *testing.T) {
	p, exited := startREPLPty(t)
	dir := p.dir
	p.expect("a0> ")
	p.send("let x = 40\r")
	p.expect("a0> ")
	p.send("x + 2\r")
	p.expect("\n42\n")
	p.expect("a0> ")

	p.send("let rec = {\r")
	p.expect("... ")
	p.send("a: 7 }\r")
	p.expect("a0> ")
	p.send("rec.a\r")
	p.expect("\n7\n")
	p.expect("a0> ")

	p.send(`do sh.exec { argv: ["echo", "granted"] } -> g` + "\r")
	p.expect("allow sh.exec for this session? [y/N] ")
	p.send("y\r")
	p.expect("a0> ")
	p.send("g.stdout\r")
	p.expect(`"granted\n"`)
	p.expect("a0> ")

	// Ctrl-C clears an unfinished input.
	p.send("let z = [1,\r")
	p.expect("... ")
	p.send("\x03")
	p.expect("a0> ")
	p.send("z\r")
	p.expect("error[E_UNBOUND]: Unbound variable 'z'.")
	p.expect("a0> ")

	// Ctrl-C during evaluation cancels the statement and stops its process.
	started := filepath.Join(dir, "started")
	p.send(`do sh.exec { cmd: "touch started; sleep 30" }` + "\r")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not start; output:\n%s", p.text())
		}
	}
	p.send("\x03")
	p.expect("error[E_CANCELLED]: Run cancelled by SIGINT.")
	p.expect("a0> ")

	// Tab completes a bound name.
	p.send("let zebra = 5\r")
	p.expect("a0> ")
	p.send("zeb\t")
	p.expect("zebra")
	p.send("\r")
	p.expect("\n5\n")
	p.expect("a0> ")

	// Ctrl-D on an empty line exits 0.
	p.send("\x04")
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit: %v; output:\n%s", err, p.text())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("a0 repl did not exit; output:\n%s", p.text())
	}
	hist, err := os.ReadFile(filepath.Join(dir, "state", "a0", "history"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"let x = 40\n", "let rec = { a: 7 }\n", "zebra\n"} {
		if !strings.Contains(string(hist), want) {
			t.Errorf("history lacks %q:\n%s", want, hist)
		}
	}
	if strings.Contains(string(hist), "\ny\n") || strings.Contains(string(hist), "let z =") {
		t.Errorf("history holds an answer or a cleared input:\n%s", hist)
	}
}
