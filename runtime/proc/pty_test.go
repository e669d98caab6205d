//go:build linux

package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 here")
	}
}

// TestPtyIsTerminal: a pty command's standard streams are a terminal of
// the requested size, it is its controlling terminal (/dev/tty opens),
// and stderr arrives in stdout.
func TestPtyIsTerminal(t *testing.T) { bothSources(t, testPtyIsTerminal) }

func testPtyIsTerminal(t *testing.T, run runFunc) {
	needPython(t)
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Argv: []string{"python3", "-c",
		"import os,sys; print(sys.stdin.isatty(), sys.stdout.isatty(), sys.stderr.isatty(), tuple(os.get_terminal_size())); " +
			"print('sid', os.getsid(0) == os.getpid(), 'fg', os.tcgetpgrp(0) == os.getpgrp()); " +
			"open('/dev/tty', 'w').write('via-dev-tty\\n'); sys.stderr.write('on-stderr\\n')"},
		Pty: true, Cols: 123, Rows: 45})
	res, err := run(context.Background(), &p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Stdout.Head)
	for _, want := range []string{"True True True (123, 45)", "sid True fg True", "via-dev-tty", "on-stderr"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q: %q", want, out)
		}
	}
	if res.Stderr.Total != 0 || res.ExitCode != 0 {
		t.Errorf("stderr %d bytes, exit %d (want 0, 0): %q", res.Stderr.Total, res.ExitCode, out)
	}
}

// TestPtyNotByDefault: without pty nothing is a terminal, and the
// default size is 80x24 with one.
func TestPtyDefaults(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	_, res := runIn(t, e, &Request{Cmd: "test -t 1 && echo tty || echo notty"})
	if got := strings.TrimSpace(string(res.Stdout.Head)); got != "notty" {
		t.Errorf("without pty: %q", got)
	}
	p, res := runIn(t, e, &Request{Cmd: "stty size; echo TERM=$TERM", Pty: true, EnvRemove: []string{"TERM"}})
	if out := string(res.Stdout.Head); !strings.Contains(out, "24 80") || !strings.Contains(out, "TERM="+defaultTerm) {
		t.Errorf("pty defaults: %q", out)
	}
	if !p.Spec.Merge {
		t.Error("a pty command's streams are not merged")
	}
	_, res = runIn(t, e, &Request{Cmd: "echo TERM=$TERM", Pty: true, Env: [][2]string{{"TERM", "dumb"}}})
	if out := string(res.Stdout.Head); !strings.Contains(out, "TERM=dumb") {
		t.Errorf("TERM given is replaced: %q", out)
	}
}

// TestPtyStdinThenEOF: sh.exec's stdin reaches a pty command, followed
// by end of input (VEOF), so a reader ends.
func TestPtyStdinThenEOF(t *testing.T) { bothSources(t, testPtyStdinThenEOF) }

func testPtyStdinThenEOF(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "stty -echo; while read l; do echo got:$l; done; echo done", Pty: true,
		Stdin: []byte("a\nb\n"), HasStdin: true})
	start := time.Now()
	res, err := run(context.Background(), &p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.ReplaceAll(string(res.Stdout.Head), "\r", "")
	if !strings.Contains(out, "got:a\ngot:b\ndone") || res.TimedOut || time.Since(start) > 10*time.Second {
		t.Errorf("stdin on a pty: %q timedOut=%v", out, res.TimedOut)
	}
}

func waitOutput(t *testing.T, j *Job, want string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c := j.Tail(false, 1000, 1<<20)
		if strings.Contains(string(c.Data), want) {
			return string(c.Data)
		}
		if time.Now().After(deadline) {
			t.Fatalf("job output never showed %q: %q", want, c.Data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestJobWritePty drives an interactive shell on a pty: each written
// line is answered, VEOF ends it.
func TestJobWritePty(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	js := NewJobs(e)
	t.Cleanup(func() { js.CloseAll("run_end") })
	p := prepare(t, e, &Request{Argv: []string{"sh", "-i"}, Pty: true, IsJob: true, Env: [][2]string{{"PS1", "$ "}}})
	j, err := js.Start(p, JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !j.Terminal() || !j.Writable() || !j.Info().Merged {
		t.Fatal("a pty job is not a writable merged terminal job")
	}
	dl := time.Now().Add(5 * time.Second)
	if _, err := j.Write([]byte("echo answer-$((6*7))\n"), false, dl); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, j, "answer-42")
	if _, err := j.Write([]byte("test -t 0 && echo is-a-tty\n"), false, dl); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, j, "is-a-tty")
	if _, err := j.Write(nil, true, dl); err != nil {
		t.Fatal(err)
	}
	select {
	case <-j.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("VEOF did not end the shell")
	}
	if info := j.Info(); info.State != "exited" || info.ExitCode != 0 {
		t.Errorf("after eof: %+v", info)
	}
	if _, err := j.Write([]byte("x"), false, dl); !errors.Is(err, ErrJobEnded) {
		t.Errorf("write to an ended job: %v", err)
	}
}

// TestJobWritePipe: a pipe job with StdinOpen takes writes and eof closes
// its input; one without refuses.
func TestJobWritePipe(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	js := NewJobs(e)
	t.Cleanup(func() { js.CloseAll("run_end") })
	p := prepare(t, e, &Request{Argv: []string{"cat"}, IsJob: true, StdinOpen: true, Stdin: []byte("first\n"), HasStdin: true})
	j, err := js.Start(p, JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dl := time.Now().Add(5 * time.Second)
	if n, err := j.Write([]byte("second\n"), false, dl); err != nil || n != 7 {
		t.Fatal(n, err)
	}
	waitOutput(t, j, "first\nsecond\n")
	if _, err := j.Write([]byte("third\n"), true, dl); err != nil {
		t.Fatal(err)
	}
	select {
	case <-j.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("eof did not close cat's input")
	}
	if info := j.Info(); info.State != "exited" || info.ExitCode != 0 {
		t.Errorf("after eof: %+v", info)
	}
	waitOutput(t, j, "first\nsecond\nthird\n")

	p = prepare(t, e, &Request{Argv: []string{"sleep", "30"}, IsJob: true})
	j2, err := js.Start(p, JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j2.Write([]byte("x"), false, dl); !errors.Is(err, ErrInputNotOpen) {
		t.Errorf("write without stdinOpen: %v", err)
	}
	j2.Stop(StopOpts{Reason: "kill", Signal: "SIGKILL"})
}

// TestJobWriteFull: a job that does not read its input makes a write give
// up at its deadline with what was taken.
func TestJobWriteFull(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	js := NewJobs(e)
	t.Cleanup(func() { js.CloseAll("run_end") })
	p := prepare(t, e, &Request{Argv: []string{"sleep", "30"}, IsJob: true, StdinOpen: true})
	j, err := js.Start(p, JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Write(make([]byte, 1<<20), false, time.Now().Add(300*time.Millisecond))
	var full *InputFullError
	if !errors.As(err, &full) || full.Written <= 0 || full.Written >= 1<<20 {
		t.Errorf("write to a job that does not read: %v", err)
	}
}

// TestPtyJobKilledWithSession: a pty shell's background and foreground
// jobs (process groups of their own, job control) are stopped with it
// on timeout: nothing survives.
func TestPtyJobKilledWithSession(t *testing.T) {
	t.Parallel()
	e := testEngine(t, func(c *Config) { c.SweepEscaped = false })
	js := NewJobs(e)
	t.Cleanup(func() { js.CloseAll("run_end") })
	p := prepare(t, e, &Request{Argv: []string{"sh", "-i"}, Pty: true, IsJob: true, HasTimeout: true, Timeout: 1500 * time.Millisecond,
		Env: [][2]string{{"PS1", "$ "}}})
	j, err := js.Start(p, JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dl := time.Now().Add(5 * time.Second)
	if _, err := j.Write([]byte("trap '' HUP TERM; sleep 300 & echo bg-$!\n"), false, dl); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, j, "bg-")
	if _, err := j.Write([]byte("sleep 301\n"), false, dl); err != nil {
		t.Fatal(err)
	}
	select {
	case <-j.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("the pty job did not end at its timeout")
	}
	if info := j.Info(); info.State != "timed_out" {
		t.Errorf("state %s, want timed_out", info.State)
	}
	noSurvivors(t, p.ID)
	deadline := time.Now().Add(2 * time.Second)
	g, _ := sessionGroups(j.Pid())
	for len(g) != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		g, _ = sessionGroups(j.Pid())
	}
	if len(g) != 0 {
		st, _ := os.ReadFile("/proc/" + strconv.Itoa(g[0]) + "/stat")
		cl, _ := os.ReadFile("/proc/" + strconv.Itoa(g[0]) + "/cmdline")
		t.Errorf("session members left: %v %s %q; events %v", g, st, cl, j.Info())
	}
}

// TestPtyConfined: a confined pty command writes its terminal (also by
// /dev/tty and its /dev/pts name) but nothing outside its roots, and no
// other terminal device.
func TestPtyConfined(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rw := t.TempDir()
	e := sandboxEngine(t, &Sandbox{Write: []string{rw}, Require: true})
	_, res := runIn(t, e, &Request{Cmd: "echo via-tty > /dev/tty; echo via-name > $(tty); echo in > " + rw + "/in; " +
		"echo out > " + dir + "/out || echo outside-refused; cat /dev/null > /dev/ptmx || echo ptmx-refused; test -t 0 && echo is-tty", Pty: true})
	out := string(res.Stdout.Head)
	for _, want := range []string{"via-tty", "via-name", "outside-refused", "ptmx-refused", "is-tty"} {
		if !strings.Contains(out, want) {
			t.Errorf("confined pty output lacks %q: %q", want, out)
		}
	}
	if !res.Confined {
		t.Error("not confined")
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("a confined pty command wrote outside its roots")
	}
	if _, err := os.Stat(filepath.Join(rw, "in")); err != nil {
		t.Error("a confined pty command could not write its root")
	}
}

// TestLoginShell: login runs the shell with argv[0] "-sh".
func TestLoginShell(t *testing.T) {
	t.Parallel()
	needPython(t)
	e := testEngine(t, nil)
	p, res := runIn(t, e, &Request{Argv: []string{"python3", "-c", "import sys; print(sys.argv)"}, Login: true})
	if p.Spec.Args[0] != "-python3" || res.ExitCode != 0 {
		t.Errorf("argv[0] %q, exit %d", p.Spec.Args[0], res.ExitCode)
	}
	p, res = runIn(t, e, &Request{Cmd: "echo $0", Login: true})
	if got := strings.TrimSpace(string(res.Stdout.Head)); got != "-sh" || p.Spec.Args[0] != "-sh" {
		t.Errorf("login shell $0 = %q", got)
	}
}

// TestPtyControllingTerminal: the terminal is the shell's controlling
// terminal (tty_nr in its stat is set, /dev/tty opens) — the child's
// TIOCSCTTY step; a shell never acquires one by itself.
func TestPtyControllingTerminal(t *testing.T) { bothSources(t, testPtyControllingTerminal) }

func testPtyControllingTerminal(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "cut -d' ' -f7 /proc/$$/stat; echo x > /dev/tty && echo devtty-ok", Pty: true})
	res, err := run(context.Background(), &p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(res.Stdout.Head), "\r", ""), "\n")
	if len(lines) < 3 || lines[0] == "0" || lines[2] != "devtty-ok" {
		t.Errorf("no controlling terminal: %q", res.Stdout.Head)
	}
}

// TestPtyConfinedOtherTerminal: the Landlock rule a confined pty command
// gets is for its own terminal only: another terminal (here one the test
// holds) cannot be opened, nor can a pipe command open any.
func TestPtyConfinedOtherTerminal(t *testing.T) {
	t.Parallel()
	e := sandboxEngine(t, &Sandbox{Require: true})
	m, other, err := pty.Open()
	if err != nil {
		t.Skip("no pseudo-terminals here: ", err)
	}
	defer m.Close()
	defer other.Close()
	name := other.Name()
	_, res := runIn(t, e, &Request{Cmd: "echo x > $(tty) && echo own-ok; echo x > " + name + " || echo other-refused", Pty: true})
	if out := string(res.Stdout.Head); !strings.Contains(out, "own-ok") || !strings.Contains(out, "other-refused") {
		t.Errorf("confined pty command and another terminal: %q", out)
	}
	_, res = runIn(t, e, &Request{Cmd: "echo x > " + name + " || echo other-refused; echo x > /dev/tty || echo no-tty"})
	if out := string(res.Stdout.Head) + string(res.Stderr.Head); !strings.Contains(out, "other-refused") || !strings.Contains(out, "no-tty") {
		t.Errorf("confined pipe command and a terminal: %q", out)
	}
}
