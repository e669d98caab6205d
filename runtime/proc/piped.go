package proc

import (
	"io"
	"os"
	"os/exec"
	"sync"
)

// Piped is a long-lived command started from a Prepared request with its
// standard input and output as pipes the caller speaks a protocol over
// (an MCP server, spec/mcp.md §5.1). It runs in its own session and
// process group, confined by the engine's sandbox when the request was
// prepared under one (the same fork-and-confine path as sh.exec), and
// carries the request's A0_EXEC_ID, so [SweepExecIDs] finds every process
// it starts. Unlike [Start], nothing supervises it: the caller stops it.
type Piped struct {
	// Stdin is the write end of the command's standard input; Stdout the
	// read end of its standard output. Both are pollable pipes (deadlines
	// work on them).
	Stdin  *os.File
	Stdout *os.File
	// ID is the command's A0_EXEC_ID.
	ID string
	// Confined tells whether the command runs confined by the sandbox.
	Confined bool

	cmd     *exec.Cmd
	errR    *os.File
	confine *confinement
	done    chan struct{}
	status  string
	errDone chan struct{}
}

// StartPiped starts a prepared request with pipes for stdin and stdout;
// its stderr is copied to stderr (which must not block for long). The
// request's output bound, timeout and stdin bytes do not apply.
func (e *Engine) StartPiped(p *Prepared, stderr io.Writer) (_ *Piped, err error) {
	c := p.Spec.confine
	if c != nil {
		defer func() {
			if err != nil {
				c.cleanup()
			}
		}()
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Reason: ReasonSpawnFailed, Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, &StartError{Reason: ReasonSpawnFailed, Err: err}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, &StartError{Reason: ReasonSpawnFailed, Err: err}
	}
	cmd := &exec.Cmd{Path: p.Spec.Path, Args: p.Spec.Args, Dir: p.Spec.Dir, Env: p.Spec.Env, Stdin: inR, Stdout: outW, Stderr: errW}
	setGroup(cmd)
	if c != nil {
		err = c.startConfined(cmd)
	} else {
		// a0's own fork where there is one: descriptors above 2
		// close-on-exec, RLIMIT_NOFILE restored, a0's full bounding set
		// even from a thread that emptied its own (boundthread_linux.go).
		err = startPlain(cmd)
	}
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, &StartError{Reason: ReasonSpawnFailed, Err: err}
	}
	pp := &Piped{Stdin: inW, Stdout: outR, ID: p.ID, Confined: c != nil, cmd: cmd, errR: errR, confine: c,
		done: make(chan struct{}), errDone: make(chan struct{})}
	go func() {
		defer close(pp.errDone)
		buf := make([]byte, 4096)
		for {
			n, err := errR.Read(buf)
			if n > 0 && stderr != nil {
				stderr.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		// cmd.Wait is not used: a confined command was not started by
		// cmd.Start.
		st, err := cmd.Process.Wait()
		cmd.ProcessState = st
		if st != nil {
			pp.status = st.String() // "exit status 2", "signal: killed"
		} else if err != nil {
			pp.status = err.Error()
		} else {
			pp.status = "ended"
		}
		if c != nil {
			c.cleanup()
		}
		close(pp.done)
	}()
	return pp, nil
}

// Pid returns the leader's pid (also its process group id).
func (pp *Piped) Pid() int { return pp.cmd.Process.Pid }

// Done is closed once the leader has been reaped.
func (pp *Piped) Done() <-chan struct{} { return pp.done }

// Status is the leader's exit status text ("exit status 2"); valid once
// Done is closed.
func (pp *Piped) Status() string { return pp.status }

// StderrDone is closed once the stderr pipe has ended (every process
// holding it has exited or closed it).
func (pp *Piped) StderrDone() <-chan struct{} { return pp.errDone }

// SignalGroup sends SIGTERM (or SIGKILL when kill) to the command's
// process group.
func (pp *Piped) SignalGroup(kill bool) {
	sig := "SIGTERM"
	if kill {
		sig = "SIGKILL"
	}
	signalGroup(pp.cmd.Process.Pid, sig)
}

// Close closes a0's ends of the pipes (stdin, stdout, stderr); a
// process still holding the other ends then sees them broken.
func (pp *Piped) Close() {
	pp.Stdin.Close()
	pp.Stdout.Close()
	pp.errR.Close()
}

var sweepMu sync.Mutex

// SweepExecIDs sends SIGKILL to every process of this user whose
// environment holds A0_EXEC_ID=<id> for one of ids — the processes a
// command started, also those that left its process group (setsid) — and
// returns how many it signalled. Linux only (/proc); elsewhere it finds
// nothing.
func SweepExecIDs(ids ...string) int {
	set := map[string]bool{}
	for _, id := range ids {
		if id != "" {
			set[id] = true
		}
	}
	sweepMu.Lock()
	defer sweepMu.Unlock()
	return sweep(set)
}

// EnvGlobMatch reports whether an environment variable name matches a
// glob of the policy's env lists (`*` matches any run of characters,
// case-insensitive), as exec.envAllow does.
func EnvGlobMatch(glob, name string) bool { return globMatch(glob, name) }
