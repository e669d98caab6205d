// Package proc is a0's process engine: it runs one command in its own
// process group with bounded output capture, stdin, timeouts that stop the
// whole group (SIGTERM, grace, SIGKILL), a bounded drain of pipes held by
// escaped grandchildren, and a leftover check so nothing outlives a call.
//
// It knows nothing about A0 values: runtime/tools turns tool arguments into
// a Spec and a Result into an A0 record.
package proc

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Spec describes one command.
type Spec struct {
	// Path is the executable to run; Args[0] is what the program sees.
	Path string
	Args []string
	Dir  string
	Env  []string
	// Stdin is fed to the child when HasStdin; otherwise stdin is the null
	// device.
	Stdin    []byte
	HasStdin bool
	// Merge sends stderr into the stdout pipe.
	Merge bool
	// MaxOutput is the number of bytes kept per stream; Truncate is head,
	// tail or both.
	MaxOutput int
	Truncate  string
	// OutputLimit stops the group when stdout+stderr exceed it (0: off).
	OutputLimit int64
	// Timeout stops the command after this long (0: none); TimeoutReason is
	// the reason recorded then ("timeout" or "budget").
	Timeout       time.Duration
	TimeoutReason string
	// Grace is the time between SIGTERM and SIGKILL; Drain bounds the wait
	// for output pipes after the leader ended.
	Grace, Drain time.Duration
	// OnSignal is called for every signal the engine sends to the group.
	OnSignal func(signal, reason string)
	// Masker replaces secret values in the output before it is kept or
	// counted (nil: none).
	Masker *Masker
	// OnOutput, when set, sees every (masked) chunk of output as it
	// arrives; stderr is true for the stderr stream. Jobs use it for their
	// logs and offsets.
	OnOutput func(stderr bool, chunk []byte)
}

// Result is the outcome of a command that started.
type Result struct {
	ExitCode         int
	Signal           string // "" when the leader exited normally
	Stdout, Stderr   Output
	Duration         time.Duration
	TimedOut         bool
	KillReason       string // first stop reason before the leader exited, "" if none
	OutputIncomplete bool
	LeftoverKilled   bool
	Pid              int
}

// StartError reports a command that could not be started.
type StartError struct {
	Reason string // not_found, permission_denied, cwd_not_found, spawn_failed
	Err    error
}

func (e *StartError) Error() string { return e.Err.Error() }

// Run runs the command to completion. Cancelling ctx stops the group with
// reason "host_cancel" (or context.Cause's text when it is a StopReason).
func Run(ctx context.Context, s *Spec) (*Result, error) {
	start := time.Now()
	cmd := &exec.Cmd{Path: s.Path, Args: s.Args, Dir: s.Dir, Env: s.Env}
	setGroup(cmd)
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Reason: "spawn_failed", Err: err}
	}
	cmd.Stdout = outW
	var errR, errW *os.File
	if s.Merge {
		cmd.Stderr = outW
	} else {
		errR, errW, err = os.Pipe()
		if err != nil {
			outR.Close()
			outW.Close()
			return nil, &StartError{Reason: "spawn_failed", Err: err}
		}
		cmd.Stderr = errW
	}
	var stdinW io.WriteCloser
	if s.HasStdin {
		stdinW, err = cmd.StdinPipe()
		if err != nil {
			return nil, &StartError{Reason: "spawn_failed", Err: err}
		}
	}
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		if errR != nil {
			errR.Close()
			errW.Close()
		}
		return nil, &StartError{Reason: "spawn_failed", Err: err}
	}
	outW.Close()
	if errW != nil {
		errW.Close()
	}
	pid := cmd.Process.Pid
	res := &Result{Pid: pid}
	if stdinW != nil {
		go func() {
			stdinW.Write(s.Stdin)
			stdinW.Close()
		}()
	}

	var mu sync.Mutex // guards keepers and the output-limit trigger
	outK := newKeeper(s.MaxOutput, s.Truncate)
	errK := newKeeper(s.MaxOutput, s.Truncate)
	limitHit := make(chan struct{})
	var limitOnce sync.Once
	var readers sync.WaitGroup
	read := func(r *os.File, k *keeper) {
		defer readers.Done()
		m := s.Masker.stream()
		buf := make([]byte, 32<<10)
		emit := func(chunk []byte) {
			if len(chunk) == 0 {
				return
			}
			mu.Lock()
			k.write(chunk)
			over := s.OutputLimit > 0 && outK.total+errK.total > s.OutputLimit
			mu.Unlock()
			if over {
				limitOnce.Do(func() { close(limitHit) })
			}
			if s.OnOutput != nil {
				s.OnOutput(k == errK, chunk)
			}
		}
		for {
			n, err := r.Read(buf)
			if n > 0 {
				emit(m.Write(buf[:n]))
			}
			if err != nil {
				emit(m.Flush())
				return
			}
		}
	}
	readers.Add(1)
	go read(outR, outK)
	if errR != nil {
		readers.Add(1)
		go read(errR, errK)
	}

	waitDone := make(chan error, 1)
	go func() { waitDone <- cmd.Wait() }()

	var timer <-chan time.Time
	if s.Timeout > 0 {
		t := time.NewTimer(s.Timeout)
		defer t.Stop()
		timer = t.C
	}
	var waitErr error
	stopped := false
	var stopping sync.WaitGroup
	stop := func(reason string) {
		if !stopped {
			stopped = true
			res.KillReason = reason
			if reason == "timeout" {
				res.TimedOut = true
			}
		}
		stopping.Add(1)
		go func() {
			defer stopping.Done()
			stopGroupSync(pid, s.Grace, reason, s.OnSignal)
		}()
	}
	ctxDone := ctx.Done()
loop:
	for {
		select {
		case waitErr = <-waitDone:
			break loop
		case <-timer:
			timer = nil
			reason := s.TimeoutReason
			if reason == "" {
				reason = "timeout"
			}
			stop(reason)
		case <-limitHit:
			limitHit = nil
			stop("output_limit")
		case <-ctxDone:
			ctxDone = nil
			reason := "host_cancel"
			var sr StopReason
			if errors.As(context.Cause(ctx), &sr) {
				reason = string(sr)
			}
			stop(reason)
		}
	}
	// A stop sequence in progress finishes the group; otherwise leftover
	// members of the group are stopped.
	if stopped {
		stopping.Wait()
	} else if groupAlive(pid) {
		res.LeftoverKilled = true
		stopGroupSync(pid, s.Grace, "leftover", s.OnSignal)
	}
	// Bounded drain of the output pipes.
	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	drain := s.Drain
	if drain <= 0 {
		drain = 2 * time.Second
	}
	select {
	case <-drained:
	case <-time.After(drain):
		res.OutputIncomplete = true
		outR.Close()
		if errR != nil {
			errR.Close()
		}
		<-drained
	}
	outR.Close()
	if errR != nil {
		errR.Close()
	}
	res.ExitCode, res.Signal = exitStatus(cmd, waitErr)
	res.Duration = time.Since(start)
	mu.Lock()
	res.Stdout = outK.output()
	res.Stderr = errK.output()
	mu.Unlock()
	return res, nil
}

// StopReason, used as a context cause, names the stop reason recorded when
// the context is cancelled (e.g. "budget", "run_end").
type StopReason string

func (s StopReason) Error() string { return string(s) }

// stopGroupSync sends SIGTERM to the group, waits up to grace for it to
// empty, then sends SIGKILL.
func stopGroupSync(pid int, grace time.Duration, reason string, onSignal func(string, string)) {
	if onSignal != nil {
		onSignal("SIGTERM", reason)
	}
	signalGroup(pid, false)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !groupAlive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !groupAlive(pid) {
		return
	}
	if onSignal != nil {
		onSignal("SIGKILL", reason)
	}
	signalGroup(pid, true)
}
