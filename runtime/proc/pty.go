package proc

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Commands with a terminal, and input written to a running job
// (spec/exec.md §5.4, §6.8).
//
// A pty command gets a new pseudo-terminal: a0 opens the pair
// (github.com/creack/pty), sets its size, and starts the command with
// the terminal's slave as its standard input, output and error; the
// child makes it the controlling terminal of its new session (setsid,
// then TIOCSCTTY: forkexec_vfork_linux.go, or SysProcAttr.Setctty where
// os/exec starts it). a0 keeps the master: it reads the command's output
// from it (one stream: stdout) and writes its input to it. A confined
// pty command gets one more Landlock rule, for its terminal (and
// /dev/tty, the same device); /dev/ptmx is opened by a0, never by the
// command.
//
// A job whose shell runs job control puts its pipelines in process
// groups of their own, in the same session: a pty command's stop
// sequences signal every process group of its session, and its group
// counts as alive while any member of the session is (Linux, /proc;
// elsewhere the leader's group only).

// Default terminal size and TERM of a pty command.
const (
	defaultCols = 80
	defaultRows = 24
	defaultTerm = "xterm-256color"
)

// setTerminal applies the request's terminal options: login (argv[0]
// prefixed with "-", the convention by which shells start as login
// shells), pty (merged output, size, TERM when the environment has
// none) and stdinOpen (jobs only).
func setTerminal(r *Request, p *Prepared) {
	if r.Login && len(p.Spec.Args) > 0 {
		p.Spec.Args[0] = "-" + filepath.Base(p.Spec.Args[0])
	}
	p.Spec.StdinOpen = r.StdinOpen && r.IsJob
	if !r.Pty {
		return
	}
	p.Spec.Pty, p.Spec.Merge = true, true
	p.Spec.Cols, p.Spec.Rows = defaultCols, defaultRows
	if r.Cols > 0 {
		p.Spec.Cols = uint16(min(r.Cols, 1<<16-1))
	}
	if r.Rows > 0 {
		p.Spec.Rows = uint16(min(r.Rows, 1<<16-1))
	}
	for _, kv := range p.Spec.Env {
		if strings.HasPrefix(kv, "TERM=") {
			return
		}
	}
	p.Spec.Env = append(p.Spec.Env, "TERM="+defaultTerm)
	if p.EnvNames != nil {
		p.EnvNames = append(p.EnvNames, "TERM")
		sort.Strings(p.EnvNames)
	}
}

// ptyEnded reports whether a read error on a pty's master is its end:
// Linux returns EIO once no process holds the slave any more.
func ptyEnded(err error) bool { return errors.Is(err, syscall.EIO) }

// groupAlive reports whether the command's processes are still running:
// its process group, or for a pty command its session. The session is
// looked for (a /proc scan) only while some process still holds the
// terminal: a member of another group that let go of it is treated as
// one that left the group (spec/exec.md §5.4).
func (p *Process) groupAlive() bool {
	if alive := groupAlive(p.pid); alive || !p.s.Pty {
		return alive
	}
	if p.in != nil && !ttyHeld(p.in.w) {
		return false
	}
	groups, ok := sessionGroups(p.pid)
	return ok && len(groups) > 0
}

// signal sends sig to the command's group, and for a pty command to the
// other process groups of its session.
func (p *Process) signal(sig string) {
	signalGroup(p.pid, sig)
	if !p.s.Pty {
		return
	}
	groups, _ := sessionGroups(p.pid)
	for _, g := range groups {
		if g != p.pid {
			signalGroup(g, sig)
		}
	}
}

// Input errors of [Job.Write].
var (
	// ErrInputNotOpen: the job was started without stdinOpen (or pty).
	ErrInputNotOpen = errors.New("the job's standard input is not open for writing")
	// ErrInputClosed: an earlier write closed the job's input (eof).
	ErrInputClosed = errors.New("the job's standard input was closed by an earlier eof")
	// ErrJobEnded: the job has ended.
	ErrJobEnded = errors.New("the job has ended")
	// ErrInputBusy: another write to the job was still waiting.
	ErrInputBusy = errors.New("another write to the job's input is still under way")
)

// InputFullError is a write the job did not take in time: it does not
// read its input. Written bytes were taken.
type InputFullError struct{ Written int }

// Error implements error: the job did not read its input in time.
func (e *InputFullError) Error() string {
	return "the job did not read its input in time"
}

// input is a command's standard input kept by a0: a pipe's write end or
// a pty's master. Writes are serialised by sem (the initial stdin bytes
// first).
type input struct {
	w      *os.File
	pty    bool
	open   bool // takes Job.Write: a pty, or a pipe job started with StdinOpen
	sem    chan struct{}
	closed bool // under sem: the pipe was closed (eof)
}

// newInput takes the command's input w and feeds it the spec's stdin
// bytes in the background. A pipe that is not kept open is then closed
// (end of input); a pty command run to completion (not a job) gets the
// terminal's EOF character after them, as its end of input.
func newInput(w *os.File, s *Spec) *input {
	in := &input{w: w, pty: s.Pty, open: s.Pty || s.StdinOpen && s.Job, sem: make(chan struct{}, 1)}
	in.sem <- struct{}{}
	go func() {
		defer func() { <-in.sem }()
		if s.HasStdin && len(s.Stdin) > 0 {
			// EPIPE or EIO (a child that does not read its input, or
			// has ended) is not an error.
			if _, err := w.Write(s.Stdin); err != nil {
				return
			}
		}
		switch {
		case !in.open:
			in.closed = true
			w.Close()
		case in.pty && !s.Job:
			w.Write([]byte{veof(w)})
		}
	}()
	return in
}

// write writes data, then ends the input when eof: a pipe is closed, a
// pty gets its EOF character (VEOF). It gives up at deadline.
func (in *input) write(data []byte, eof bool, deadline time.Time) (int, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case in.sem <- struct{}{}:
	case <-t.C:
		return 0, ErrInputBusy
	}
	defer func() { <-in.sem }()
	if in.closed {
		return 0, ErrInputClosed
	}
	n := 0
	if len(data) > 0 {
		_ = in.w.SetWriteDeadline(deadline)
		var err error
		n, err = in.w.Write(data)
		_ = in.w.SetWriteDeadline(time.Time{})
		if err != nil {
			return n, inputError(err, n)
		}
	}
	if eof {
		if in.pty {
			if _, err := in.w.Write([]byte{veof(in.w)}); err != nil {
				return n, inputError(err, n)
			}
		} else {
			in.closed = true
			if err := in.w.Close(); err != nil {
				return n, inputError(err, n)
			}
		}
	}
	return n, nil
}

func inputError(err error, n int) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &InputFullError{Written: n}
	}
	// A closed input (the job was finalised), a broken pipe (nothing
	// reads it any more) or a hung-up terminal.
	return ErrJobEnded
}

// Write writes data to the job's standard input and, with eof, ends it
// (closes a pipe, or sends a pty the terminal's EOF character). A pty
// job always takes input; a pipe job when it was started with
// StdinOpen. It waits until deadline at most for the job to take the
// data (*InputFullError). Errors: ErrInputNotOpen, ErrInputClosed,
// ErrJobEnded, ErrInputBusy.
func (j *Job) Write(data []byte, eof bool, deadline time.Time) (int, error) {
	select {
	case <-j.done:
		return 0, ErrJobEnded
	default:
	}
	in := j.p.in
	if in == nil || !in.open {
		return 0, ErrInputNotOpen
	}
	return in.write(data, eof, deadline)
}

// Terminal reports whether the job runs on a pseudo-terminal; Writable
// whether it takes input (Write).
func (j *Job) Terminal() bool { return j.p.s.Pty }

// Writable reports whether the job takes input through Write.
func (j *Job) Writable() bool { return j.p.in != nil && j.p.in.open }
