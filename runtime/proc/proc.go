// Package proc is a0's process engine: it runs one command in its own
// process group with bounded output capture, stdin, timeouts that stop the
// whole group (SIGTERM, grace, SIGKILL), a bounded drain of pipes held by
// escaped grandchildren, and a leftover check so nothing outlives a call.
// Background jobs (jobs.go) and the optional job store (store.go) are
// built on the same Process.
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
	"sync/atomic"
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
	// tail or both. A Job keeps a head of min(64 KiB, MaxOutput) plus a
	// MaxOutput tail instead, and its Result carries no Output copies.
	MaxOutput int
	Truncate  string
	Job       bool
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
	// OnSignalEvent, when set, is called instead, for group signals and
	// sweeps.
	OnSignal      func(signal, reason string)
	OnSignalEvent func(SignalEvent)
	// Kill, when tripped, makes the command's stop sequences skip their
	// grace period; [Run] takes it from its context when it is nil.
	Kill *KillSwitch
	// SweepID is the command's A0_EXEC_ID; with Sweep, a drain that times
	// out kills every process carrying it (Linux, spec/exec.md §4.5).
	SweepID string
	Sweep   bool
	// Masker replaces secret values in the output before it is kept or
	// counted (nil: none).
	Masker *Masker
	// OnOutput, when set, sees every (masked) chunk of output as it
	// arrives; stderr is true for the stderr stream. It is called with the
	// process's output lock held, in stream order, so it must not call
	// back into the Process. Jobs use it for their logs.
	OnOutput func(stderr bool, chunk []byte)
	// Pty runs the command with a new pseudo-terminal as its standard
	// streams and controlling terminal, Cols x Rows big (0: 80 x 24);
	// its output is one stream (stdout). StdinOpen keeps a job's input
	// open for [Job.Write] (a pty's always is). See pty.go.
	Pty        bool
	Cols, Rows uint16
	StdinOpen  bool

	// confine, when set, confines the child (sandbox.go); its private
	// temporary folder is made at spawn and removed when the command
	// has been finalised.
	confine *confinement
}

// SignalEvent describes a signal the engine sent (an exec_signal event).
type SignalEvent struct {
	Signal string // "SIGTERM", "SIGKILL", …
	Reason string // timeout, budget, kill, run_end, host_cancel, output_limit, leftover, escaped, owner_died
	Target string // "group" or "sweep"
	Pid    int    // leader pid (= pgid); 0 when unknown (run-end sweep)
	Count  int    // sweep: processes signalled
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
	Escalated        bool // SIGKILL was sent by a stop sequence
	Failed           bool // reading a pipe failed
	Pid              int
	// Confined tells whether the command ran confined by the sandbox.
	Confined bool
}

// StartError reports a command that could not be started.
type StartError struct {
	Reason Reason // ReasonNotFound, ReasonPermissionDenied, ReasonCwdNotFound, ReasonSpawnFailed
	Err    error
}

// Error implements error with the text of Err.
func (e *StartError) Error() string { return e.Err.Error() }

// StopReason, used as a context cause, names the stop reason recorded when
// the context is cancelled (e.g. "budget", "run_end").
type StopReason string

// Error implements error: the reason itself.
func (s StopReason) Error() string { return string(s) }

// KillSwitch makes the stop sequences of the commands it is attached to —
// those under way and those to come — skip their grace period and send
// SIGKILL at once (the CLI's second SIGINT, spec/exec.md §4.5). It is
// attached to a context with [WithKillSwitch]; [Run] and the job tools take
// it from the context of the call that starts a command. A nil KillSwitch
// never trips. Tripping one has no effect on commands started under
// another, so a REPL's second Ctrl-C shortens the stops of that input
// only.
type KillSwitch struct {
	once sync.Once
	ch   chan struct{}
}

// NewKillSwitch returns a KillSwitch that has not tripped.
func NewKillSwitch() *KillSwitch { return &KillSwitch{ch: make(chan struct{})} }

// Trip makes every stop sequence under k kill at once. It may be called
// more than once, from any goroutine.
func (k *KillSwitch) Trip() {
	if k != nil {
		k.once.Do(func() { close(k.ch) })
	}
}

// tripped is closed once k has tripped; nil (never ready) for a nil k.
func (k *KillSwitch) tripped() <-chan struct{} {
	if k == nil {
		return nil
	}
	return k.ch
}

type killSwitchKey struct{}

// WithKillSwitch returns a copy of ctx that carries k.
func WithKillSwitch(ctx context.Context, k *KillSwitch) context.Context {
	return context.WithValue(ctx, killSwitchKey{}, k)
}

// KillSwitchFrom returns the KillSwitch ctx carries, or nil.
func KillSwitchFrom(ctx context.Context) *KillSwitch {
	k, _ := ctx.Value(killSwitchKey{}).(*KillSwitch)
	return k
}

// Process is a started command: its leader, its group and its captured
// output. It is finalised (Done closed) once the leader has been reaped,
// any stop sequence has ended and the output pipes are drained.
type Process struct {
	s      *Spec
	cmd    *exec.Cmd
	pid    int
	start  time.Time // at spawn (wall clock and monotonic)
	ticks  int64     // leader's start ticks (jobs, Linux; 0 = unknown)
	src    source    // the leader's exit, its output and wake-ups
	stdinW io.Closer
	killed atomic.Bool // a stop sequence sent SIGKILL
	// in is the command's input when a0 keeps it (pty, stdinOpen).
	in *input

	mu          sync.Mutex
	outK, errK  *keeper
	limitHit    chan struct{}
	limitOnce   sync.Once
	failCh      chan struct{}
	failOnce    sync.Once
	failed      bool
	exited      bool // the leader was reaped (or given up on)
	closing     bool // finalising: the group is never signalled again
	activeStops int
	outcome     string // first stop reason before the leader exited
	fullStop    bool   // an escalating stop sequence started before the leader exited
	timedOut    bool
	escalated   bool
	leftover    bool

	done chan struct{}
	res  *Result
}

// Start spawns the command in a new session (and so a new process group)
// and returns at once; the Process supervises it from its own goroutines.
func Start(s *Spec) (*Process, error) {
	p, err := start(s, false)
	if err != nil {
		return nil, err
	}
	go p.supervise(context.Background())
	return p, nil
}

// start spawns the command. With poll (Run, on Linux) one poll(2) in the
// supervising goroutine watches the output pipes and the leader; without,
// goroutines read the pipes and wait for the leader (see source.go).
func start(s *Spec, poll bool) (p *Process, err error) {
	if c := s.confine; c != nil {
		// A command that does not start gives its confinement (private
		// folder, cgroup) back at once.
		defer func() {
			if err != nil {
				c.cleanup()
			}
		}()
	}
	cmd := &exec.Cmd{Path: s.Path, Args: s.Args, Dir: s.Dir, Env: s.Env}
	setGroup(cmd)
	var pp *pipes
	var stdinR, stdinW *os.File
	if s.Pty {
		pp, stdinW, err = openTerminal(s, poll)
	} else {
		pp, err = newPipes(s.Merge, poll)
	}
	if err != nil {
		return nil, &StartError{Reason: ReasonSpawnFailed, Err: err}
	}
	cmd.Stdout = pp.outW
	cmd.Stderr = pp.errW
	if s.Pty {
		cmd.Stdin = pp.outW
		setCtty(cmd)
		if c := s.confine; c != nil {
			c.tty = pp.outW
		}
	}
	// The input pipe is made here, not by cmd.StdinPipe: a confined
	// command is not started by cmd.Start, and takes files only.
	if !s.Pty && (s.HasStdin || s.StdinOpen && s.Job) {
		stdinR, stdinW, err = os.Pipe()
		if err != nil {
			pp.closeAll()
			return nil, &StartError{Reason: ReasonSpawnFailed, Err: err}
		}
		cmd.Stdin = stdinR
	}
	start := time.Now()
	var err2 error
	if c := s.confine; c != nil {
		err2 = c.startConfined(cmd)
	} else {
		err2 = startPlain(cmd)
	}
	if stdinR != nil {
		stdinR.Close()
	}
	if err2 != nil {
		pp.closeAll()
		if stdinW != nil {
			stdinW.Close()
		}
		return nil, &StartError{Reason: ReasonSpawnFailed, Err: err2}
	}
	pp.closeWriters()
	p = &Process{
		s: s, cmd: cmd, pid: cmd.Process.Pid, start: start,
		limitHit: make(chan struct{}),
		failCh:   make(chan struct{}),
		done:     make(chan struct{}),
	}
	if s.Job {
		// Before the waiter can reap it: a zombie's stat is still readable.
		p.ticks, _ = startTicks(p.pid)
		p.outK, p.errK = newJobKeeper(s.MaxOutput), newJobKeeper(s.MaxOutput)
	} else {
		p.outK, p.errK = newKeeper(s.MaxOutput, s.Truncate), newKeeper(s.MaxOutput, s.Truncate)
	}
	if stdinW != nil {
		p.stdinW = stdinW
		p.in = newInput(stdinW, s)
	}
	if poll {
		p.src = newPollSource(p, pp)
	} else {
		p.src = newChanSource(p, pp)
	}
	return p, nil
}

// Pid returns the leader's pid (also the group id).
func (p *Process) Pid() int { return p.pid }

// StartedAt returns the wall-clock time of the spawn.
func (p *Process) StartedAt() time.Time { return p.start }

// Done is closed when the process is finalised.
func (p *Process) Done() <-chan struct{} { return p.done }

// Result returns the outcome; valid once Done is closed.
func (p *Process) Result() *Result { return p.res }

// Totals returns the stream totals so far (after masking).
func (p *Process) Totals() (stdout, stderr int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.outK.total, p.errK.total
}

// readBufs recycles the pipe read buffers: one spawn would otherwise
// allocate (and the GC clear) 64 KiB.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// consume keeps a (masked) chunk of output and notes the output limit.
func (p *Process) consume(isErr bool, chunk []byte) {
	if len(chunk) == 0 {
		return
	}
	k := p.outK
	if isErr {
		k = p.errK
	}
	p.mu.Lock()
	k.write(chunk)
	if p.s.OnOutput != nil {
		p.s.OnOutput(isErr, chunk)
	}
	over := p.s.OutputLimit > 0 && p.outK.total+p.errK.total > p.s.OutputLimit
	p.mu.Unlock()
	if over {
		p.limitOnce.Do(func() { close(p.limitHit) })
	}
}

// readFailed records a pipe that failed other than by ending.
func (p *Process) readFailed() {
	p.failOnce.Do(func() {
		p.mu.Lock()
		p.failed = true
		p.mu.Unlock()
		close(p.failCh)
	})
}

// wake interrupts the supervisor's wait (a stop sequence sent SIGKILL or
// ended, or the run's context was cancelled).
func (p *Process) wake() { p.src.wake() }

// supervise waits for the leader, runs the stop sequences its timeout and
// output limit call for, then finalises: leftover probe, drain, result.
// Cancelling ctx (Run's, which supervises in its caller's goroutine)
// stops the group.
func (p *Process) supervise(ctx context.Context) {
	s := p.s
	defer context.AfterFunc(ctx, p.wake)()
	var timeoutAt, stuckAt time.Time
	if s.Timeout > 0 {
		timeoutAt = time.Now().Add(s.Timeout)
	}
	drain := s.Drain
	if drain <= 0 {
		drain = 2 * time.Second
	}
	var waitErr error
	reaped := true
	limitSeen, failSeen, cancelSeen := false, false, false
	for {
		exited, err := p.src.wait(earliest(timeoutAt, stuckAt))
		if exited {
			waitErr = err
			break
		}
		if !timeoutAt.IsZero() && !time.Now().Before(timeoutAt) {
			timeoutAt = time.Time{}
			reason := s.TimeoutReason
			if reason == "" {
				reason = "timeout"
			}
			p.Stop(StopOpts{Reason: reason})
		}
		if !limitSeen && isClosed(p.limitHit) {
			limitSeen = true
			p.Stop(StopOpts{Reason: "output_limit"})
		}
		if !failSeen && isClosed(p.failCh) {
			failSeen = true
			p.Stop(StopOpts{Reason: "kill", keepOutcome: true})
		}
		if !cancelSeen && ctx.Err() != nil {
			cancelSeen = true
			p.Stop(StopOpts{Reason: cancelReason(ctx)})
		}
		if stuckAt.IsZero() && p.killed.Load() {
			// A leader stuck in the kernel is given up on drainMs after
			// SIGKILL; the source reaps it whenever it ends.
			stuckAt = time.Now().Add(drain)
		}
		if !stuckAt.IsZero() && !time.Now().Before(stuckAt) {
			reaped = false
			p.src.abandon()
			break
		}
	}
	p.mu.Lock()
	p.exited = true
	probe := !p.fullStop
	p.mu.Unlock()
	// Leftover probe: members left in the group after the leader ended on
	// its own (or after a signal sent without escalation) are stopped. An
	// escalating stop sequence empties the group itself.
	if probe && p.groupAlive() {
		p.mu.Lock()
		p.leftover = true
		p.mu.Unlock()
		p.Stop(StopOpts{Reason: "leftover"})
	}
	// Output keeps being read while stop sequences run.
	for {
		p.mu.Lock()
		if p.activeStops == 0 {
			p.closing = true
			p.mu.Unlock()
			break
		}
		p.mu.Unlock()
		p.src.wait(time.Time{})
	}

	res := &Result{Pid: p.pid, Confined: s.confine != nil}
	// Bounded drain of the output pipes.
	if !p.src.drain(time.Now().Add(drain)) {
		res.OutputIncomplete = true
		if s.Sweep && s.SweepID != "" {
			if n := sweep(map[string]bool{s.SweepID: true}); n > 0 {
				p.emit(nil, SignalEvent{Signal: "SIGKILL", Reason: "escaped", Target: "sweep", Pid: p.pid, Count: n})
			}
		}
	}
	p.src.release()
	if p.stdinW != nil {
		p.stdinW.Close()
	}
	if reaped {
		res.ExitCode, res.Signal = exitStatus(p.cmd, waitErr)
	} else {
		res.ExitCode, res.Signal = 137, "SIGKILL"
	}
	res.Duration = time.Since(p.start)
	if s.confine != nil {
		s.confine.cleanup()
	}
	p.mu.Lock()
	res.KillReason = p.outcome
	res.TimedOut = p.timedOut
	res.LeftoverKilled = p.leftover
	res.Escalated = p.escalated
	res.Failed = p.failed
	if !s.Job {
		res.Stdout = p.outK.output()
		res.Stderr = p.errK.output()
	} else {
		res.Stdout = Output{Total: p.outK.total, Truncated: p.outK.truncated()}
		res.Stderr = Output{Total: p.errK.total, Truncated: p.errK.truncated()}
	}
	p.res = res
	p.mu.Unlock()
	close(p.done)
}

func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// StopOpts configures one stop sequence (spec/exec.md §4.5).
type StopOpts struct {
	// Reason is recorded as the outcome when this is the first stop before
	// the leader exited (except "leftover").
	Reason string
	// Signal is the first signal: "SIGTERM" (default), "SIGINT", "SIGHUP"
	// or "SIGKILL" (straight to the kill step).
	Signal string
	// Grace overrides the spec's grace period when HasGrace.
	Grace    time.Duration
	HasGrace bool
	// NoEscalate sends Signal only, never SIGKILL.
	NoEscalate bool
	// OnSignal receives this sequence's signal events (nil: the spec's).
	OnSignal func(SignalEvent)

	keepOutcome bool
}

// Stop starts a stop sequence for the group and returns the signal it
// sent first, or "" when it sent nothing: the process is finalising, a
// stop sequence is already under way (which the call joins; a SIGKILL
// request is still sent at once), or the leader has exited (or an earlier
// sequence already ran) and nothing is left in its group. It does not wait
// for the group to end.
func (p *Process) Stop(o StopOpts) string {
	sig := o.Signal
	if sig == "" {
		sig = "SIGTERM"
	}
	grace := p.s.Grace
	if o.HasGrace {
		grace = o.Grace
	}
	p.mu.Lock()
	if p.closing {
		p.mu.Unlock()
		return ""
	}
	if p.activeStops > 0 {
		if sig != "SIGKILL" {
			p.mu.Unlock()
			return ""
		}
		p.escalated = true
		p.activeStops++
		p.mu.Unlock()
		p.send(o.OnSignal, "SIGKILL", o.Reason)
		p.stopDone()
		return "SIGKILL"
	}
	if (p.exited || p.fullStop) && o.Reason != "leftover" {
		// The leader is gone, or an earlier stop sequence already ran:
		// only a group that still has members is signalled again.
		p.mu.Unlock()
		if !p.groupAlive() {
			return ""
		}
		p.mu.Lock()
		if p.closing || p.activeStops > 0 {
			p.mu.Unlock()
			return ""
		}
	}
	if !p.exited && p.outcome == "" && !o.keepOutcome {
		p.outcome = o.Reason
		p.timedOut = o.Reason == "timeout"
	}
	if !p.exited && (!o.NoEscalate || sig == "SIGKILL") {
		p.fullStop = true
	}
	p.activeStops++
	if sig == "SIGKILL" {
		p.escalated = true
	}
	p.mu.Unlock()
	if o.NoEscalate || sig == "SIGKILL" {
		p.send(o.OnSignal, sig, o.Reason)
		p.stopDone()
		return sig
	}
	// Send the first signal before returning, so a caller sees it in
	// order; the grace wait and the escalation run in the background.
	p.send(o.OnSignal, sig, o.Reason)
	go func() {
		defer p.stopDone()
		if waitEmpty(p.groupAlive, grace, p.s.Kill.tripped()) {
			return
		}
		p.mu.Lock()
		p.escalated = true
		p.mu.Unlock()
		p.send(o.OnSignal, "SIGKILL", o.Reason)
	}()
	return sig
}

func (p *Process) stopDone() {
	p.mu.Lock()
	p.activeStops--
	p.mu.Unlock()
	p.wake()
}

// send emits the event, then signals the group.
func (p *Process) send(on func(SignalEvent), sig, reason string) {
	p.emit(on, SignalEvent{Signal: sig, Reason: reason, Target: "group", Pid: p.pid})
	p.signal(sig)
	if sig == "SIGKILL" {
		p.killed.Store(true)
		p.wake()
	}
}

func (p *Process) emit(on func(SignalEvent), ev SignalEvent) {
	switch {
	case on != nil:
		on(ev)
	case p.s.OnSignalEvent != nil:
		p.s.OnSignalEvent(ev)
	case p.s.OnSignal != nil && ev.Target == "group":
		p.s.OnSignal(ev.Signal, ev.Reason)
	}
}

// waitGroupEmpty polls the group (about every 20 ms) until it is empty
// or grace passes; kill (a tripped KillSwitch; nil for none) cuts the
// wait short. It reports whether the group is empty.
func waitGroupEmpty(pgid int, grace time.Duration, kill <-chan struct{}) bool {
	return waitEmpty(func() bool { return groupAlive(pgid) }, grace, kill)
}

// waitEmpty is waitGroupEmpty for any liveness probe (a pty command's
// session: pty.go).
func waitEmpty(groupAlive func() bool, grace time.Duration, kill <-chan struct{}) bool {
	if kill != nil && isClosed(kill) {
		return !groupAlive()
	}
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if !groupAlive() {
			return true
		}
		select {
		case <-deadline.C:
			return !groupAlive()
		case <-kill:
			return !groupAlive()
		case <-tick.C:
		}
	}
}

// Run runs the command to completion, supervising it from the calling
// goroutine. Cancelling ctx stops the group with reason "host_cancel"
// ("budget" when its deadline passed, or context.Cause's text when it is a
// StopReason).
func Run(ctx context.Context, s *Spec) (*Result, error) {
	return run(ctx, s, pollSupported())
}

func run(ctx context.Context, s *Spec, poll bool) (*Result, error) {
	if s.Kill == nil {
		s.Kill = KillSwitchFrom(ctx)
	}
	p, err := start(s, poll)
	if err != nil {
		return nil, err
	}
	p.supervise(ctx)
	return p.res, nil
}

func cancelReason(ctx context.Context) string {
	// The run's context carries its time budget as a deadline.
	reason := "host_cancel"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		reason = "budget"
	}
	var sr StopReason
	if errors.As(context.Cause(ctx), &sr) {
		reason = string(sr)
	}
	return reason
}
