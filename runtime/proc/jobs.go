package proc

import (
	"os"
	"sort"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// JobInfo is a job record (spec/exec.md §6.1).
type JobInfo struct {
	ID, RunID, Tag string
	State          string // running, exited, timed_out, killed, failed, lost
	Pid            int
	StartedAt      time.Time
	FinishedAt     time.Time // zero while running
	DurationMs     int64
	ExitCode       int
	HasExit        bool // ExitCode and Signal are set (terminal)
	Signal         string
	TimedOut       bool
	KillReason     string
	LeftoverKilled bool
	StdoutTotal    int64
	StderrTotal    int64
	Merged         bool
	Cmd            string   // cmd mode, masked
	Argv           []string // argv mode, masked (nil in cmd mode)
	Cwd            string
	TimeoutMs      int64 // 0: none
	// Confined tells whether the job runs confined by the sandbox.
	Confined bool
	// Detached tells whether a supervisor owns the job, so that it
	// outlives the run that started it (spec/exec.md §6.5).
	Detached bool
}

// Completed reports whether the job is terminal.
func (i JobInfo) Completed() bool { return i.State != "running" && i.State != "created" }

// Chunk is a piece of a stream: bytes [Start, End) (after masking).
type Chunk struct {
	Data       []byte
	Start, End int64
	Gap        bool // bytes between the requested offset and Start were dropped
}

// JobView is a job of this run or one read from the store.
type JobView interface {
	Info() JobInfo
	// Tail is the output snapshot of one stream: the last lines lines,
	// at most maxBytes bytes, of the kept bytes running up to the total.
	Tail(stderr bool, lines, maxBytes int) Chunk
	// ReadAt reads forward from off; ok is false when off is beyond the
	// stream's total.
	ReadAt(stderr bool, off int64, maxBytes int) (c Chunk, ok bool)
}

// JobOptions are the tool layer's hooks and labels for a new job.
type JobOptions struct {
	Tag string
	// Cmd / Argv are the command as started, already masked.
	Cmd  string
	Argv []string
	// OnStart is called once, right after the spawn and before any other
	// hook of the job (job_start). OnSignal receives the job's own signal
	// events (its timeout, output limit, run-end cleanup); OnEnd is called
	// once when the job is finalised (job_end), before waiters wake.
	OnStart  func(*Job)
	OnSignal func(*Job, SignalEvent)
	OnEnd    func(*Job, JobInfo)
	// Detached marks a job its supervisor owns (recorded in the store).
	Detached bool
	// OnOutput, when set, sees every masked chunk of output as it is
	// logged, under the job's output lock: it must not block (the
	// supervisor's output matching queues the chunk). Needs a store.
	OnOutput func(stderr bool, chunk []byte)
}

// Job is a background process tree of this run.
type Job struct {
	ID, RunID    string
	Tag          string
	ResolvedPath string
	Cwd          string
	TimeoutMs    int64
	GraceMs      int64
	Merged       bool
	// Confined tells whether the job runs confined by the sandbox.
	Confined bool
	// Detached tells whether a supervisor owns the job.
	Detached bool
	cmd      string
	argv     []string

	p        *Process
	logs     [2]*jobLog
	onOutput func(stderr bool, chunk []byte)
	dir      string
	store    *Store
	ready    chan struct{}
	done     chan struct{}

	mu    sync.Mutex
	final *JobInfo
}

// Done is closed when the job is terminal (finalised, job_end emitted).
func (j *Job) Done() <-chan struct{} { return j.done }

// Pid returns the leader's pid.
func (j *Job) Pid() int { return j.p.pid }

func (j *Job) base() JobInfo {
	return JobInfo{
		ID: j.ID, RunID: j.RunID, Tag: j.Tag, State: "running", Pid: j.p.pid,
		StartedAt: j.p.start, Merged: j.Merged, Cmd: j.cmd, Argv: j.argv, Cwd: j.Cwd,
		TimeoutMs: j.TimeoutMs, Confined: j.Confined, Detached: j.Detached,
	}
}

// Info returns the job's record: final once terminal, else "so far".
func (j *Job) Info() JobInfo {
	j.mu.Lock()
	f := j.final
	j.mu.Unlock()
	if f != nil {
		return *f
	}
	info := j.base()
	info.DurationMs = time.Since(j.p.start).Milliseconds()
	info.StdoutTotal, info.StderrTotal = j.p.Totals()
	return info
}

// Escalated reports whether a stop sequence had to send SIGKILL.
func (j *Job) Escalated() bool {
	j.p.mu.Lock()
	defer j.p.mu.Unlock()
	return j.p.escalated
}

// Stop runs a stop sequence for the job (sh.kill, run end); see
// Process.Stop. It returns the signal sent first ("" for none).
func (j *Job) Stop(o StopOpts) string {
	select {
	case <-j.done:
		return ""
	default:
	}
	return j.p.Stop(o)
}

func (j *Job) logOutput(stderr bool, chunk []byte) {
	if stderr {
		j.logs[1].write(chunk)
	} else {
		j.logs[0].write(chunk)
	}
	if j.onOutput != nil {
		j.onOutput(stderr, chunk)
	}
}

// finalise waits for the process, records the final state (store
// included), calls OnEnd and wakes waiters.
func (j *Job) finalise(o JobOptions) {
	<-j.p.done
	res := j.p.res
	info := j.base()
	info.FinishedAt = time.Now()
	info.DurationMs = res.Duration.Milliseconds()
	info.ExitCode, info.Signal, info.HasExit = res.ExitCode, res.Signal, true
	info.TimedOut = res.TimedOut
	info.KillReason = res.KillReason
	info.LeftoverKilled = res.LeftoverKilled
	info.StdoutTotal, info.StderrTotal = res.Stdout.Total, res.Stderr.Total
	switch {
	case res.Failed:
		info.State = "failed"
	case res.TimedOut:
		info.State = "timed_out"
	case res.KillReason != "":
		info.State = "killed"
	default:
		info.State = "exited"
	}
	j.p.mu.Lock()
	j.logs[0].close()
	j.logs[1].close()
	outTrunc := j.logs[0] != nil && j.logs[0].truncated
	errTrunc := j.logs[1] != nil && j.logs[1].truncated
	j.p.mu.Unlock()
	j.mu.Lock()
	j.final = &info
	j.mu.Unlock()
	if j.store != nil {
		_ = j.store.writeState(j.dir, stateOf(info, time.Now(), outTrunc, errTrunc))
	}
	<-j.ready
	if o.OnEnd != nil {
		o.OnEnd(j, info)
	}
	close(j.done)
}

// view describes what is kept of one stream: a head [0, headLen), a ring
// [ringStart, total) and a log file [0, logLen).
type view struct {
	total, headLen, ringStart, logLen int64
}

// low is the end of the kept prefix [0, low).
func (v view) low() int64 { return max(v.headLen, v.logLen) }

// snapshotWindow is the range holding the last maxBytes kept bytes that
// run contiguously up to the total.
func (v view) snapshotWindow(maxBytes int) (int64, int64) {
	start := v.ringStart
	if v.low() >= v.ringStart {
		start = 0
	}
	return max(start, v.total-int64(maxBytes)), v.total
}

// readWindow is the longest run of kept bytes starting at the first kept
// byte at or after off, at most maxBytes long.
func (v view) readWindow(off int64, maxBytes int) (a, b int64, gap bool) {
	low := v.low()
	switch {
	case off < low && low >= v.ringStart:
		a, b = off, v.total
	case off < low:
		a, b = off, low
	case off < v.ringStart:
		a, b, gap = v.ringStart, v.total, true
	default:
		a, b = off, v.total
	}
	if b-a > int64(maxBytes) {
		b = a + int64(maxBytes)
	}
	return a, b, gap
}

// piece is part of a range: bytes copied from memory, or a log range.
type piece struct {
	data     []byte
	fromLog  bool
	from, to int64
}

// plan copies the in-memory parts of [a, b) (call with the output lock
// held) and names the parts to read from the log.
func (v view) plan(k *keeper, a, b int64) []piece {
	var out []piece
	for pos := a; pos < b; {
		switch {
		case pos < v.headLen:
			e := min(b, v.headLen)
			out = append(out, piece{data: append([]byte(nil), k.head[pos:e]...)})
			pos = e
		case pos >= v.ringStart:
			out = append(out, piece{data: k.ringCopy(nil, pos, b)})
			pos = b
		default:
			e := min(b, v.ringStart, max(v.logLen, pos))
			if e <= pos {
				return out
			}
			out = append(out, piece{fromLog: true, from: pos, to: e})
			pos = e
		}
	}
	return out
}

func assemble(pieces []piece, logPath string) []byte {
	var out []byte
	for _, p := range pieces {
		if p.fromLog {
			out = append(out, readLog(logPath, p.from, p.to)...)
		} else {
			out = append(out, p.data...)
		}
	}
	return out
}

// stream reads the range the window function picks of a live job's
// stream: memory parts under the output lock, log parts after it.
func (j *Job) stream(stderr bool, window func(v view) (a, b int64, gap bool)) (data []byte, a, b int64, gap bool, total int64) {
	k := j.p.outK
	log := j.logs[0]
	if stderr {
		k, log = j.p.errK, j.logs[1]
	}
	j.p.mu.Lock()
	v := view{total: k.total, headLen: int64(len(k.head)), ringStart: k.ringStart()}
	path := ""
	if log != nil {
		v.logLen, path = log.n, log.path
	}
	a, b, gap = window(v)
	pieces := v.plan(k, a, b)
	j.p.mu.Unlock()
	return assemble(pieces, path), a, b, gap, v.total
}

// Tail implements JobView.
func (j *Job) Tail(stderr bool, lines, maxBytes int) Chunk {
	data, a, b, _, _ := j.stream(stderr, func(v view) (int64, int64, bool) {
		a, b := v.snapshotWindow(maxBytes)
		return a, b, false
	})
	return snapshot(data, a, b, lines)
}

// ReadAt implements JobView.
func (j *Job) ReadAt(stderr bool, off int64, maxBytes int) (Chunk, bool) {
	beyond := false
	data, a, b, gap, total := j.stream(stderr, func(v view) (int64, int64, bool) {
		if off > v.total {
			beyond = true
			return 0, 0, false
		}
		return v.readWindow(off, maxBytes)
	})
	if beyond {
		return Chunk{}, false
	}
	running := j.Info().State == "running"
	return readChunk(data, a, b, gap, total, running), true
}

// snapshot cuts data (stream bytes [a, b)) to its last `lines` lines and
// moves its start forward to a character boundary (when it is a cut).
func snapshot(data []byte, a, b int64, lines int) Chunk {
	if int64(len(data)) < b-a {
		// A log read came up short: keep what is contiguous to the end.
		a = b - int64(len(data))
	}
	start := 0
	i := len(data) - 1
	if i >= 0 && data[i] == '\n' {
		i-- // a final newline does not start an empty line
	}
	n := 0
	for ; i >= 0; i-- {
		if data[i] == '\n' {
			n++
			if n == lines {
				start = i + 1
				break
			}
		}
	}
	if start == 0 && a > 0 {
		start = skipContinuation(data, 0)
	}
	return Chunk{Data: data[start:], Start: a + int64(start), End: b}
}

// readChunk moves the start of data (stream bytes [a, b)) forward and its
// end back to character boundaries; the end is kept when it is the end of
// a finished stream.
func readChunk(data []byte, a, b int64, gap bool, total int64, running bool) Chunk {
	if int64(len(data)) < b-a {
		b = a + int64(len(data))
	}
	start := 0
	if a > 0 {
		start = skipContinuation(data, 0)
	}
	end := len(data)
	if b < total || running {
		end = start + trimIncomplete(data[start:])
	}
	return Chunk{Data: data[start:end], Start: a + int64(start), End: a + int64(end), Gap: gap}
}

// skipContinuation skips at most 3 UTF-8 continuation bytes from i.
func skipContinuation(b []byte, i int) int {
	for n := 0; n < 3 && i < len(b) && !utf8.RuneStart(b[i]); n++ {
		i++
	}
	return i
}

// trimIncomplete returns the length of b without an incomplete final
// character.
func trimIncomplete(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-4; i-- {
		if !utf8.RuneStart(b[i]) {
			continue
		}
		if !utf8.FullRune(b[i:]) {
			return i
		}
		return len(b)
	}
	return len(b)
}

// Jobs is the registry of a run's background jobs (spec/exec.md §6).
type Jobs struct {
	engine *Engine

	mu       sync.Mutex
	runID    string
	byID     map[string]*Job
	list     []*Job
	started  int
	closed   bool
	bound    bool
	store    *Store
	storeErr error
	emit     func(jobID string, ev SignalEvent)
	detached []string // ids of the detached jobs this run started
}

// NewJobs returns an empty registry for the engine's run.
func NewJobs(e *Engine) *Jobs { return &Jobs{engine: e, byID: map[string]*Job{}} }

// Bind sets the run id and the emitter of run-level signal events (the
// run-end sweep, reconciliation; jobID "" for none), opens the job store,
// reconciles the records of dead owners and applies retention. Only the
// first call has an effect.
func (js *Jobs) Bind(runID string, emit func(jobID string, ev SignalEvent)) {
	js.mu.Lock()
	if js.bound {
		js.mu.Unlock()
		return
	}
	js.bound = true
	js.runID, js.emit = runID, emit
	cfg := js.engine.cfg
	js.store, js.storeErr = OpenStore(cfg)
	st := js.store
	js.mu.Unlock()
	if st != nil {
		st.reconcile(cfg.SweepEscaped, js.emitRun)
		st.gc()
	}
}

func (js *Jobs) emitRun(jobID string, ev SignalEvent) {
	if js.emit != nil {
		js.emit(jobID, ev)
	}
}

// RunID returns the run id jobs are recorded under.
func (js *Jobs) RunID() string {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.runID
}

// Store returns the job store (nil when off) and the error opening it.
func (js *Jobs) Store() (*Store, error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.store, js.storeErr
}

// Get returns a job of this run.
func (js *Jobs) Get(id string) *Job {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.byID[id]
}

// List returns this run's jobs in start order.
func (js *Jobs) List() []*Job {
	js.mu.Lock()
	defer js.mu.Unlock()
	return append([]*Job(nil), js.list...)
}

func running(list []*Job) int {
	n := 0
	for _, j := range list {
		select {
		case <-j.done:
		default:
			n++
		}
	}
	return n
}

// Start starts a prepared job (spec/exec.md §6.4, §7.1): job limits, store files,
// spawn. The job is stopped at run end (CloseAll).
func (js *Jobs) Start(p *Prepared, o JobOptions) (*Job, error) {
	cfg := js.engine.cfg
	refuse := func(msg string) (*Job, error) {
		js.mu.Unlock()
		if c := p.Spec.confine; c != nil {
			c.cleanup()
		}
		return nil, &Error{Kind: KindTool, Reason: ReasonJobLimit, Msg: msg}
	}
	js.mu.Lock()
	if js.closed {
		return refuse("the run is ending; no new jobs can start")
	}
	if n := running(js.list); cfg.MaxJobs > 0 && n >= cfg.MaxJobs {
		return refuse("already " + strconv.Itoa(n) + " running jobs, the policy's exec.maxJobs; wait for or kill one first")
	}
	if cfg.MaxJobsPerRun > 0 && js.started >= cfg.MaxJobsPerRun {
		return refuse("this run already started " + strconv.Itoa(js.started) + " jobs, the policy's exec.maxJobsPerRun")
	}
	js.started++
	store, storeErr := js.store, js.storeErr
	runID := js.runID
	js.mu.Unlock()
	fail := func(err error) (*Job, error) {
		if c := p.Spec.confine; c != nil {
			c.cleanup()
		}
		js.mu.Lock()
		js.started--
		js.mu.Unlock()
		return nil, err
	}
	if storeErr != nil {
		return fail(&Error{Kind: KindTool, Reason: StoreErrorReason(storeErr), Msg: "cannot open the job store: " + storeErr.Error()})
	}
	m := p.Masker
	j := &Job{
		ID: p.ID, RunID: runID, Tag: o.Tag, ResolvedPath: m.String(p.ResolvedPath), Cwd: m.String(p.Cwd),
		TimeoutMs: p.TimeoutMs, GraceMs: p.GraceMs, Merged: p.Spec.Merge, Confined: p.Confined, Detached: o.Detached, cmd: o.Cmd, argv: o.Argv,
		store: store, ready: make(chan struct{}), done: make(chan struct{}),
	}
	if store != nil {
		dir, logs, err := store.createJobDir(j.ID, j.Merged)
		if err != nil {
			return fail(&Error{Kind: KindTool, Reason: ReasonIOError, Msg: "cannot create the job's store directory: " + err.Error()})
		}
		j.dir, j.logs = dir, logs
		j.onOutput = o.OnOutput
		p.Spec.OnOutput = j.logOutput
	}
	p.Spec.Job = true
	p.Spec.OnSignalEvent = func(ev SignalEvent) {
		<-j.ready
		if o.OnSignal != nil {
			o.OnSignal(j, ev)
		}
	}
	proc, err := Start(&p.Spec)
	if err != nil {
		if j.dir != "" {
			j.logs[0].close()
			j.logs[1].close()
			os.RemoveAll(j.dir)
		}
		return fail(err)
	}
	j.p = proc
	if store != nil {
		js.writeMeta(j, p)
		_ = store.writeState(j.dir, stateOf(j.Info(), time.Now(), false, false))
	}
	js.mu.Lock()
	js.byID[j.ID] = j
	js.list = append(js.list, j)
	js.mu.Unlock()
	if o.OnStart != nil {
		o.OnStart(j)
	}
	close(j.ready)
	go j.finalise(o)
	return j, nil
}

func (js *Jobs) writeMeta(j *Job, p *Prepared) {
	owner, ownerTicks, boot := ownerIdentity()
	m := &jobMeta{
		Schema: storeSchema, ID: j.ID, RunID: j.RunID, Tag: strPtr(j.Tag), Argv: j.argv,
		Shell: strPtr(p.Shell), ResolvedPath: j.ResolvedPath, Cwd: j.Cwd,
		EnvNames: p.EnvNames, EnvMode: p.EnvMode, MaskNames: p.MaskNames, GraceMs: j.GraceMs,
		Merged: j.Merged, StartedAt: FormatTime(j.p.start), OwnerPid: owner, OwnerStartTicks: ownerTicks,
		Pid: j.p.pid, Pgid: j.p.pid, BootID: boot, A0Version: a0Version(js.engine.cfg), Detached: j.Detached,
	}
	if m.EnvNames == nil {
		m.EnvNames = []string{}
	}
	if m.MaskNames == nil {
		m.MaskNames = []string{}
	}
	if j.argv == nil {
		c := j.cmd
		m.Cmd = &c
	}
	if j.TimeoutMs > 0 {
		t := j.TimeoutMs
		m.TimeoutMs = &t
	}
	if t := j.p.ticks; t > 0 {
		m.LeaderStartTicks = &t
	}
	_ = j.store.writeMeta(j.dir, m)
}

// Lookup finds a job: one of this run (live), or — with a store — one
// read from the store (stored). Both are nil when the id is unknown; err
// reports a store read failure.
func (js *Jobs) Lookup(id string) (live *Job, stored *StoredJob, err error) {
	if j := js.Get(id); j != nil {
		return j, nil, nil
	}
	st, _ := js.Store()
	if st == nil {
		return nil, nil, nil
	}
	sj, err := st.Load(id)
	if err == ErrNoJob {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return nil, sj, nil
}

// StoreJobs lists every job of the store, newest first; this run's jobs
// are reported from memory.
func (js *Jobs) StoreJobs() []JobView {
	st, _ := js.Store()
	seen := map[string]bool{}
	var out []JobView
	for _, j := range js.List() {
		seen[j.ID] = true
		out = append(out, j)
	}
	if st != nil {
		for _, sj := range st.List() {
			if !seen[sj.state.ID] {
				out = append(out, sj)
			}
		}
	}
	SortNewestFirst(out)
	return out
}

// SortNewestFirst sorts jobs by startedAt, then id, newest first.
func SortNewestFirst(list []JobView) {
	infos := make(map[JobView]JobInfo, len(list))
	for _, v := range list {
		infos[v] = v.Info()
	}
	sort.SliceStable(list, func(a, b int) bool {
		x, y := infos[list[a]], infos[list[b]]
		if !x.StartedAt.Equal(y.StartedAt) {
			return x.StartedAt.After(y.StartedAt)
		}
		return x.ID > y.ID
	})
}

// CloseAll stops every running job with the given reason, all in
// parallel, and waits until all are terminal (their job_end emitted);
// then, on Linux with sweepEscaped, one sweep kills processes that carry
// any exec or job id of the run (run-end cleanup, spec/exec.md §6.4).
func (js *Jobs) CloseAll(reason string) {
	js.mu.Lock()
	if js.closed {
		js.mu.Unlock()
		return
	}
	js.closed = true
	list := append([]*Job(nil), js.list...)
	js.mu.Unlock()
	// No private temporary folder or pids cgroup outlives the run.
	defer js.engine.CloseSandbox()
	for _, j := range list {
		j.Stop(StopOpts{Reason: reason})
	}
	for _, j := range list {
		<-j.done
	}
	if !js.engine.cfg.SweepEscaped {
		return
	}
	ids := js.engine.ExecIDs()
	if len(ids) == 0 {
		return
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	if n := sweep(set); n > 0 {
		js.emitRun("", SignalEvent{Signal: "SIGKILL", Reason: "escaped", Target: "sweep", Count: n})
	}
}
