package proc

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Detached jobs (spec/exec.md §6.5). A run that starts a job with
// `detach: true` does not spawn the command itself: it starts a
// supervisor — the same executable with the hidden argument
// SupervisorArg, in a session of its own — and hands it, over the
// supervisor's stdin, the engine configuration the run already derived
// from its policy and the request. The supervisor reads no policy file
// and receives no descriptor of the run: it prepares and spawns the
// command through an Engine built from exactly that configuration, so the
// job is checked, masked and confined as an attached one would be. It
// owns the job (ownerPid in meta.json is the supervisor), writes its logs
// and state to the store, enforces its timeout and stop sequence, runs
// its notifications and exits once the job is final.

// SupervisorArg is the hidden first argument that makes a0 a job
// supervisor (not listed in any help).
const SupervisorArg = "__supervise"

// SupervisorPath returns the executable started as a supervisor: this
// program by default. A test binary that serves SupervisorArg in its
// TestMain works as well.
var SupervisorPath = os.Executable

// detachRequest is what a run hands its supervisor (as JSON; gob would
// cost every a0 start-up its package initialisation).
type detachRequest struct {
	Config  wireConfig
	Request Request
	RunID   string
	Tag     string
	Notify  *Notify
}

// wireConfig is a Config as sent to a supervisor: the sandbox without
// its OpenRoot hook (the supervisor opens the roots by their paths).
type wireConfig struct {
	Config
	Sandbox *wireSandbox
}

type wireSandbox struct {
	Read, Write  []string
	NetworkAllow bool
	Limits       Limits
	Require      bool
}

func toWireConfig(c Config) wireConfig {
	w := wireConfig{Config: c}
	w.Config.Sandbox = nil
	if sb := c.Sandbox; sb != nil {
		w.Sandbox = &wireSandbox{Read: sb.Read, Write: sb.Write, NetworkAllow: sb.NetworkAllow, Limits: sb.Limits, Require: sb.Require}
	}
	return w
}

func (w wireConfig) config() Config {
	c := w.Config
	if sb := w.Sandbox; sb != nil {
		c.Sandbox = &Sandbox{Read: sb.Read, Write: sb.Write, NetworkAllow: sb.NetworkAllow, Limits: sb.Limits, Require: sb.Require}
	}
	return c
}

// detachAck is the supervisor's answer: the job it started, or why not.
type detachAck struct {
	ID  string
	Pid int
	Err *wireError
}

// wireError carries an *Error or a *StartError across the pipe.
type wireError struct {
	Kind     ErrorKind
	Reason   Reason
	Msg      string
	Fields   [][2]string
	Start    bool
	Errno    int
	Op, Path string
}

func toWire(err error) *wireError {
	var pe *Error
	if errors.As(err, &pe) {
		return &wireError{Kind: pe.Kind, Reason: pe.Reason, Msg: pe.Msg, Fields: pe.Fields}
	}
	var se *StartError
	if errors.As(err, &se) {
		w := &wireError{Start: true, Reason: se.Reason, Msg: se.Err.Error()}
		var path *fs.PathError
		if errors.As(se.Err, &path) {
			w.Op, w.Path = path.Op, path.Path
		}
		var errno syscall.Errno
		if errors.As(se.Err, &errno) {
			w.Errno = int(errno)
		}
		return w
	}
	return &wireError{Kind: KindTool, Reason: ReasonSpawnFailed, Msg: err.Error()}
}

func (w *wireError) err() error {
	if !w.Start {
		return &Error{Kind: w.Kind, Reason: w.Reason, Msg: w.Msg, Fields: w.Fields}
	}
	var inner error = errors.New(w.Msg)
	if w.Errno != 0 {
		inner = syscall.Errno(w.Errno)
	}
	if w.Op != "" {
		inner = &fs.PathError{Op: w.Op, Path: w.Path, Err: inner}
	}
	return &StartError{Reason: w.Reason, Err: inner}
}

// StartDetached starts a job that outlives the run (spec/exec.md §6.5):
// a supervisor started with this engine's configuration prepares the
// request (every policy refusal of sh.start applies), spawns the command
// and records it in the job store. It returns the stored job once the
// supervisor has written its first state. The caller checks the policy's
// allowDetach; a job store is required.
func (js *Jobs) StartDetached(r *Request, tag string, n *Notify) (*StoredJob, error) {
	if msg := n.Check(); msg != "" {
		return nil, &Error{Kind: KindArgs, Reason: ReasonInvalidArgs, Msg: "notify: " + msg, Fields: [][2]string{{"field", "notify"}}}
	}
	st, serr := js.Store()
	if serr != nil {
		return nil, &Error{Kind: KindTool, Reason: StoreErrorReason(serr), Msg: "cannot open the job store: " + serr.Error()}
	}
	if st == nil {
		return nil, &Error{Kind: KindTool, Reason: ReasonStoreUnavailable, Fields: [][2]string{{"field", "detach"}},
			Msg: "detach: a detached job is kept in the job store, and none is configured; set exec.jobStore in the policy"}
	}
	if name := firstPlaceholder(r); name != "" {
		// The supervisor gets the request, never a secret's value: a
		// detached job cannot use one (yet).
		return nil, secretRefused(name, "sh.start { detach: true }", "secret "+name+" is named in a detached job: a supervisor is never handed a secret's value; start the job attached (without detach) to use the secret")
	}
	cfg := js.engine.cfg
	js.mu.Lock()
	if js.closed {
		js.mu.Unlock()
		return nil, &Error{Kind: KindTool, Reason: ReasonJobLimit, Msg: "the run is ending; no new jobs can start"}
	}
	if cfg.MaxJobsPerRun > 0 && js.started >= cfg.MaxJobsPerRun {
		js.mu.Unlock()
		return nil, &Error{Kind: KindTool, Reason: ReasonJobLimit, Msg: "this run already started " + strconv.Itoa(js.started) + " jobs, the policy's exec.maxJobsPerRun"}
	}
	js.started++
	runID := js.runID
	js.mu.Unlock()
	d := &detachRequest{Config: toWireConfig(cfg), Request: *r, RunID: runID, Tag: tag, Notify: n}
	d.Request.IsJob = true
	d.Request.Remaining = -1 // the job outlives the run and its budget
	if d.Config.BaseEnv == nil {
		d.Config.BaseEnv = os.Environ()
	}
	d.Config.StoreDir = st.dir
	ack, err := spawnSupervisor(d)
	if err == nil && ack.Err != nil {
		err = ack.Err.err()
	}
	if err != nil {
		js.mu.Lock()
		js.started--
		js.mu.Unlock()
		return nil, err
	}
	js.mu.Lock()
	js.detached = append(js.detached, ack.ID)
	js.mu.Unlock()
	sj, err := st.Load(ack.ID)
	if err != nil {
		return nil, &Error{Kind: KindTool, Reason: ReasonIOError, Msg: "cannot read detached job " + ack.ID + " from the job store: " + err.Error()}
	}
	return sj, nil
}

// DetachedJobs reads from the store the detached jobs this run started
// (those it can still read), in start order.
func (js *Jobs) DetachedJobs() []*StoredJob {
	js.mu.Lock()
	ids := append([]string(nil), js.detached...)
	st := js.store
	js.mu.Unlock()
	var out []*StoredJob
	for _, id := range ids {
		if sj, err := st.Load(id); err == nil {
			out = append(out, sj)
		}
	}
	return out
}

// BindStore sets the run id and opens the job store, like Bind but
// without reconciliation and retention: a command that only starts a
// detached job (a0 jobs run) leaves store upkeep to the commands that
// read it. Only the first Bind or BindStore has an effect.
func (js *Jobs) BindStore(runID string) {
	js.mu.Lock()
	defer js.mu.Unlock()
	if js.bound {
		return
	}
	js.bound, js.runID = true, runID
	js.store, js.storeErr = OpenStore(js.engine.cfg)
}

// spawnSupervisor starts the supervisor, sends it d and reads its answer.
// The supervisor inherits only its stdin and stdout pipes (stderr is the
// null device) and runs in its own session from the root folder.
func spawnSupervisor(d *detachRequest) (*detachAck, error) {
	exe, err := SupervisorPath()
	if err != nil {
		return nil, &Error{Kind: KindTool, Reason: ReasonSpawnFailed, Msg: "cannot find the a0 executable to supervise a detached job: " + err.Error()}
	}
	ack := &detachAck{}
	if err := startSupervisor(exe, d, ack); err != nil {
		return nil, &Error{Kind: KindTool, Reason: ReasonSpawnFailed, Msg: "cannot start the supervisor of a detached job: " + err.Error()}
	}
	return ack, nil
}

// controlRequest is control.json: a stop sequence asked of a supervisor
// (GraceMs -1: the job's own grace period).
type controlRequest struct {
	Signal     string `json:"signal"`
	GraceMs    int64  `json:"graceMs"`
	NoEscalate bool   `json:"noEscalate"`
}

var stopSignals = map[string]bool{"SIGTERM": true, "SIGINT": true, "SIGHUP": true, "SIGKILL": true}

// Supervise is the supervisor's main (the hidden `a0 __supervise`): it
// reads the run's request from stdin, answers on stdout, then owns the
// job until it is final. It returns the process's exit code.
func Supervise() int {
	d := &detachRequest{}
	err := json.NewDecoder(io.LimitReader(os.Stdin, 64<<20)).Decode(d)
	if err != nil {
		return 2
	}
	answer := func(a *detachAck) {
		// The run's pipes go before it reads the answer: stdin and
		// stdout become the null device (not closed, so no later file
		// takes descriptor 0 or 1), the answer leaves on a copy.
		w := handOffStdout()
		_, _ = w.Write(marshal(a))
		w.Close()
	}
	ignoreHangup()
	control := controlSignals()
	cfg := d.Config.config()
	e := NewEngine(cfg)
	js := NewJobs(e)
	st, serr := OpenStore(cfg)
	js.bound, js.runID, js.store, js.storeErr = true, d.RunID, st, serr
	if serr == nil && st == nil {
		serr = errors.New("no job store")
	}
	if serr != nil {
		answer(&detachAck{Err: toWire(&Error{Kind: KindTool, Reason: StoreErrorReason(serr), Msg: "cannot open the job store: " + serr.Error()})})
		return 1
	}
	p, err := e.Prepare(&d.Request)
	if err != nil {
		answer(&detachAck{Err: toWire(err)})
		return 1
	}
	o := JobOptions{Tag: d.Tag, Detached: true}
	if d.Request.Argv != nil {
		o.Argv = make([]string, len(d.Request.Argv))
		for i, a := range d.Request.Argv {
			o.Argv[i] = p.Masker.String(a)
		}
	} else {
		o.Cmd = p.Masker.String(d.Request.Cmd)
	}
	nt := newNotifier(e, d.Request.Shell, d.Notify)
	o.OnOutput = nt.onOutput
	job, err := js.Start(p, o)
	if err != nil {
		answer(&detachAck{Err: toWire(err)})
		return 1
	}
	nt.job, nt.dir = job, job.dir
	if d.Notify != nil {
		_ = writeAtomic(job.dir, "notify.json", marshal(d.Notify))
	}
	go nt.run()
	answer(&detachAck{ID: job.ID, Pid: job.Pid()})
	stopOnControl(job, control, func() { nt.set(readNotify(job.dir)) })
	<-job.Done()
	nt.close()
	nt.finished()
	// The job is final: one sweep for what escaped its group.
	js.CloseAll("run_end")
	return 0
}

// readControl reads control.json of the job's folder (never through a
// link, a regular file only) and removes it.
func readControl(dir string) (*controlRequest, bool) {
	path := filepath.Join(dir, "control.json")
	c := &controlRequest{}
	err := readJSON(path, c)
	os.Remove(path)
	if err != nil || !stopSignals[c.Signal] || c.GraceMs < -1 || c.GraceMs > 60000 {
		return nil, false
	}
	return c, true
}

// StopDetached asks the supervisor of a detached job to run a stop
// sequence (sh.kill, `a0 jobs kill`): it writes control.json in the job's
// folder and signals the supervisor, after checking that the process
// named as owner is this user's live supervisor of that job (same boot,
// the recorded start time, `__supervise` in its command line). When the
// supervisor is gone the job is reconciled instead (it becomes lost) and
// asked is false. It does not wait for the job to end.
func (s *Store) StopDetached(id string, o StopOpts) (asked bool, err error) {
	sj, err := s.Load(id)
	if err != nil {
		return false, err
	}
	m := sj.meta
	if m == nil || !m.Detached || m.ID != id {
		return false, errors.New("job " + id + " is not a detached job")
	}
	if sj.state.State != "running" {
		return false, nil
	}
	if !supervisorOf(m) {
		s.ReconcileJob(id)
		return false, nil
	}
	sig := o.Signal
	if sig == "" {
		sig = "SIGTERM"
	}
	grace := int64(-1)
	if o.HasGrace {
		grace = o.Grace.Milliseconds()
	}
	c := &controlRequest{Signal: sig, GraceMs: grace, NoEscalate: o.NoEscalate}
	if err := writeAtomic(sj.dir, "control.json", marshal(c)); err != nil {
		return false, err
	}
	return true, signalSupervisor(m.OwnerPid)
}

// supervisorOf reports whether the record's owner is, provably, this
// user's live supervisor of the job.
func supervisorOf(m *jobMeta) bool {
	if !ownerAlive(m, bootID()) || m.OwnerStartTicks == nil {
		return false
	}
	return isSupervisor(m.OwnerPid)
}

// WaitStored waits until a stored job is terminal or d passes (d < 0:
// no bound); done ends the wait early. It reads state.json when inotify
// reports a change in the job's folder (Linux) and, in any case, with a
// backoff from 5 ms to 250 ms (1 s with inotify) — never a busy loop. It
// reports whether the job is terminal. A job whose supervisor died is
// reconciled (lost) on the way.
func (s *Store) WaitStored(sj *StoredJob, d time.Duration, done <-chan struct{}) bool {
	var deadline time.Time
	if d >= 0 {
		deadline = time.Now().Add(d)
	}
	if sj.Info().Completed() {
		return true
	}
	changed, stop, watching := watchState(sj.dir)
	maxStep := 250 * time.Millisecond
	if watching {
		defer stop()
		maxStep = time.Second
	}
	step := 5 * time.Millisecond
	checked := time.Now()
	for {
		_ = sj.Reload()
		if sj.Info().Completed() {
			return true
		}
		if time.Since(checked) > time.Second {
			checked = time.Now()
			if sj.meta != nil && sj.meta.Detached && !ownerAlive(sj.meta, bootID()) {
				s.ReconcileJob(sj.meta.ID)
			}
		}
		wait := step
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left <= 0 {
				return false
			}
			wait = min(wait, left)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-changed:
			t.Stop()
		case <-done:
			t.Stop()
			_ = sj.Reload()
			return sj.Info().Completed()
		}
		step = min(step*2, maxStep)
	}
}
