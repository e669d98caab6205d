package tools

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/trace"
)

// The background-job tools of spec/exec.md §6: sh.start, sh.status, sh.tail,
// sh.wait, sh.kill and sh.jobs. All are gated by the sh.exec capability;
// start and kill are effects, the others reads. Unlike sh.exec they reject
// argument keys they do not know.

const (
	defaultLines    = 50
	defaultMaxBytes = 65536
	defaultWaitMs   = 30000
)

// bind sets the job registry's run id and run-level event emitter (the
// run-end sweep and reconciliation use the span of the run's first exec
// call) and opens the job store.
func (x *execRun) bind(c *runtime.Call) {
	// Jobs are recorded under the host's run id (RunOptions.RunID: the
	// trace's runId in the CLI), else a random one.
	runID := c.RunID()
	if runID == "" {
		runID = trace.NewRunID()
	}
	x.jobs.Bind(runID, func(jobID string, ev proc.SignalEvent) {
		_ = c.Emit("exec_signal", signalData(jobID, ev))
	})
}

// signalData is an exec_signal event's data (spec/exec.md §10).
func signalData(jobID string, ev proc.SignalEvent) value.Value {
	d := value.NewRecord(7)
	d.Set("jobId", nullable(jobID))
	if ev.Pid > 0 {
		d.Set("pid", value.Int(ev.Pid))
		d.Set("pgid", value.Int(ev.Pid))
	} else {
		d.Set("pid", value.NullValue)
		d.Set("pgid", value.NullValue)
	}
	d.Set("signal", value.Str(ev.Signal))
	d.Set("reason", value.Str(ev.Reason))
	d.Set("target", value.Str(ev.Target))
	if ev.Target == "sweep" {
		d.Set("count", value.Int(ev.Count))
	}
	return value.RecordOf(d)
}

// jobRecord is the job record of spec/exec.md §6.1, keys in its order.
func jobRecord(info proc.JobInfo) *value.Record {
	r := value.NewRecord(28)
	r.Set("id", value.Str(info.ID))
	r.Set("runId", value.Str(info.RunID))
	r.Set("tag", nullable(info.Tag))
	r.Set("state", value.Str(info.State))
	r.Set("completed", value.BoolOf(info.Completed()))
	r.Set("pid", value.Int(info.Pid))
	r.Set("startedAt", value.Str(proc.FormatTime(info.StartedAt)))
	if info.FinishedAt.IsZero() {
		r.Set("finishedAt", value.NullValue)
	} else {
		r.Set("finishedAt", value.Str(proc.FormatTime(info.FinishedAt)))
	}
	r.Set("durationMs", value.Num(float64(info.DurationMs)))
	if info.HasExit {
		r.Set("exitCode", value.Int(info.ExitCode))
	} else {
		r.Set("exitCode", value.NullValue)
	}
	r.Set("signal", nullable(info.Signal))
	r.Set("timedOut", value.BoolOf(info.TimedOut))
	r.Set("killReason", nullable(info.KillReason))
	r.Set("leftoverKilled", value.BoolOf(info.LeftoverKilled))
	r.Set("stdoutTotalBytes", value.Num(float64(info.StdoutTotal)))
	r.Set("stderrTotalBytes", value.Num(float64(info.StderrTotal)))
	r.Set("merged", value.BoolOf(info.Merged))
	if info.Argv == nil {
		r.Set("cmd", value.Str(info.Cmd))
		r.Set("argv", value.NullValue)
	} else {
		r.Set("cmd", value.NullValue)
		items := make([]value.Value, len(info.Argv))
		for i, a := range info.Argv {
			items[i] = value.Str(a)
		}
		r.Set("argv", value.ListOf(items))
	}
	r.Set("cwd", value.Str(info.Cwd))
	if info.TimeoutMs > 0 {
		r.Set("timeoutMs", value.Num(float64(info.TimeoutMs)))
	} else {
		r.Set("timeoutMs", value.NullValue)
	}
	if info.Confined {
		// Only jobs of a policy with exec.sandbox carry the flag.
		r.Set("confined", value.True)
	}
	if info.Detached {
		// Only jobs a supervisor owns carry the flag.
		r.Set("detached", value.True)
	}
	return r
}

func rangeValue(a, b int64) value.Value {
	return value.ListOf([]value.Value{value.Num(float64(a)), value.Num(float64(b))})
}

// addSnapshot adds the output snapshot of spec/exec.md §6.2.
func addSnapshot(r *value.Record, v proc.JobView, merged bool, lines, maxBytes int) {
	out := v.Tail(false, lines, maxBytes)
	var errc proc.Chunk
	if !merged {
		errc = v.Tail(true, lines, maxBytes)
	}
	r.Set("stdout", value.Str(value.DecodeBytes(out.Data)))
	r.Set("stderr", value.Str(value.DecodeBytes(errc.Data)))
	r.Set("stdoutRange", rangeValue(out.Start, out.End))
	r.Set("stderrRange", rangeValue(errc.Start, errc.End))
}

// ---------------------------------------------------------------- arguments

type argCheck struct {
	a      *value.Record
	issues []string
}

func (c *argCheck) add(s string) { c.issues = append(c.issues, s) }

func (c *argCheck) intRange(name string, lo, hi float64, text string) {
	if v, ok := c.a.Get(name); ok && !isInt(v, lo, hi) {
		c.add(name + ": " + text)
	}
}

func (c *argCheck) choice(name string, choices ...string) {
	if v, ok := c.a.Get(name); ok && !oneOf(v, choices...) {
		c.add(name + ": must be one of " + strings.Join(choices, ", "))
	}
}

func (c *argCheck) id() {
	if v, ok := c.a.Get("id"); ok && !proc.ValidJobID(v.AsString()) {
		c.add("id: must be a job id (j_ followed by 16 lowercase hex digits)")
	}
}

func (c *argCheck) snapshot() {
	c.intRange("lines", 1, 10000, "must be an integer from 1 to 10000")
	c.intRange("maxBytes", 1, 1048576, "must be an integer from 1 to 1048576")
}

const maxInt = 1 << 53

func intArg(a *value.Record, name string, def int64) int64 {
	if v, ok := a.Get(name); ok {
		return int64(v.AsNumber())
	}
	return def
}

func boolArg(a *value.Record, name string, def bool) bool {
	if v, ok := a.Get(name); ok {
		return v.AsBool()
	}
	return def
}

func strArg(a *value.Record, name, def string) string {
	if v, ok := a.Get(name); ok {
		return v.AsString()
	}
	return def
}

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

var idParam = runtime.Param{Name: "id", Type: runtime.TypeString, Required: true, Doc: "job id (j_…)"}

var snapshotParams = []runtime.Param{
	{Name: "lines", Type: runtime.TypeNumber, Doc: "output lines per stream (default 50)"},
	{Name: "maxBytes", Type: runtime.TypeNumber, Doc: "output bytes per stream (default 65536)"},
}

// ---------------------------------------------------------------- errors

func jobNotFound(id string) error {
	return &runtime.ToolError{Msg: "no job " + id + " in this run; sh.jobs lists the run's jobs", Reason: "job_not_found"}
}

func crossRunDenied(c *runtime.Call, what string) error {
	return engineError(c, &proc.Error{Kind: proc.KindCapDenied, Reason: proc.ReasonCrossRunNotAllowed, Msg: what})
}

func argsError(c *runtime.Call, field, msg string) error {
	return engineError(c, &proc.Error{Kind: proc.KindArgs, Reason: proc.ReasonInvalidArgs, Msg: field + ": " + msg, Fields: [][2]string{{"field", field}}})
}

// startError maps a failure to start a command (sh.exec) or a job. The
// system error is worded as Node words it ("ENOEXEC: exec format error,
// spawn '/x'"), not as Go does ("fork/exec /x: exec format error").
func startError(c *runtime.Call, err error) error {
	var se *proc.StartError
	if errors.As(err, &se) {
		text := jscompat.NodeErrorText(se.Err, "spawn", "")
		if pe := (*fs.PathError)(nil); errors.As(se.Err, &pe) {
			text = jscompat.NodeErrorText(pe.Err, "spawn", pe.Path)
		}
		return &runtime.ToolError{Msg: "cannot start the command: " + text, Reason: string(se.Reason)}
	}
	return engineError(c, err)
}

// findJob looks a job up: this run's, or (with a store and allowCrossRun)
// another run's. kill refuses other runs' jobs even with allowCrossRun.
func findJob(c *runtime.Call, x *execRun, id string, kill bool) (proc.JobView, *proc.Job, error) {
	live, stored, err := x.jobs.Lookup(id)
	if err != nil {
		return nil, nil, &runtime.ToolError{Msg: "cannot read job " + id + " from the job store: " + err.Error(), Reason: "io_error"}
	}
	if live != nil {
		return live, live, nil
	}
	if stored != nil {
		info := stored.Info()
		cfg := x.engine.Config()
		own := info.Detached && info.RunID == x.jobs.RunID() // this run's own detached job
		if kill && !info.Detached {
			return nil, nil, crossRunDenied(c, "job "+id+" belongs to another run; only the run that started a job may signal it")
		}
		if kill && !cfg.AllowDetach {
			return nil, nil, crossRunDenied(c, "job "+id+" is a detached job; set exec.allowDetach in the policy to signal detached jobs")
		}
		if !own && !cfg.AllowCrossRun {
			return nil, nil, crossRunDenied(c, "job "+id+" belongs to another run; set exec.allowCrossRun in the policy to inspect it")
		}
		return stored, nil, nil
	}
	return nil, nil, jobNotFound(id)
}

// waitOutcome is how a wait ended.
type waitOutcome int

const (
	waitDone waitOutcome = iota
	waitTimeout
	waitBudget
	waitCancel
)

// waitFor waits for done up to want (clamped to the run's remaining time
// budget; the budget wins a tie).
func waitFor(c *runtime.Call, done <-chan struct{}, want time.Duration) waitOutcome {
	select {
	case <-done:
		return waitDone
	default:
	}
	if want <= 0 {
		return waitTimeout
	}
	d, byBudget := want, false
	if rem := c.Remaining(); rem >= 0 && rem <= d {
		d, byBudget = rem, true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	timedOut := func() waitOutcome {
		select {
		case <-done:
			return waitDone
		default:
		}
		if byBudget {
			return waitBudget
		}
		return waitTimeout
	}
	select {
	case <-done:
		return waitDone
	case <-t.C:
		return timedOut()
	case <-c.Ctx.Done():
		select {
		case <-done:
			return waitDone
		default:
		}
		if errors.Is(c.Ctx.Err(), context.DeadlineExceeded) {
			return waitBudget
		}
		return waitCancel
	}
}

// waitStored waits for a job of the store (another run's, or a detached
// one) by reading its state.json with a backoff (proc.Store.WaitStored).
// The reader has ended when it returns, so the caller may read sj.
func waitStored(c *runtime.Call, x *execRun, sj *proc.StoredJob, want time.Duration) waitOutcome {
	st, _ := x.jobs.Store()
	if st == nil || sj.Info().Completed() {
		return waitFor(c, closedChan, want)
	}
	done := make(chan struct{})
	stop := make(chan struct{})
	polled := make(chan struct{})
	defer func() {
		close(stop)
		<-polled // a Reload under way writes sj
	}()
	go func() {
		defer close(polled)
		if st.WaitStored(sj, -1, stop) {
			close(done)
		}
	}()
	return waitFor(c, done, want)
}

var closedChan = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

// endOfWait turns a budget or cancellation outcome into the error the
// evaluator expects (E_BUDGET after tool_end, or cancellation).
func endOfWait(c *runtime.Call, w waitOutcome) error {
	switch w {
	case waitBudget:
		return runtime.ErrTimeBudget
	case waitCancel:
		return cancelled(c)
	}
	return nil
}

// cancelled is the error of a call whose run was cancelled (or ran out of
// time). The evaluator sees the run's context is done and raises
// E_CANCELLED (with the signal, from the CLI) or E_BUDGET itself.
func cancelled(c *runtime.Call) error {
	if err := c.Ctx.Err(); err != nil {
		return err
	}
	return &runtime.Error{Diagnostic: *diag.New(diag.ECancelled, c.Span, "Run cancelled.", "")}
}

func jobEnd(pairs ...any) value.Value {
	d := value.NewRecord(len(pairs) / 2)
	for i := 0; i+1 < len(pairs); i += 2 {
		d.Set(pairs[i].(string), pairs[i+1].(value.Value))
	}
	return value.RecordOf(d)
}

// ---------------------------------------------------------------- sh.start

// ShStart is the sh.start tool: start a background job (spec/exec.md §6.3).
type ShStart struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShStart) Name() string { return "sh.start" }

// Capability implements runtime.Tool.
func (ShStart) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShStart) Mode() runtime.Mode { return runtime.ModeEffect }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShStart) AwaitedOnStop() bool { return true }

var startParams = func() []runtime.Param {
	var ps []runtime.Param
	for _, p := range (ShExec{}).Params() {
		switch p.Name {
		case "truncate", "encoding", "onTimeout":
			continue
		case "maxOutputBytes":
			p.Doc = "bytes of output kept in memory per stream (default 1 MiB)"
		case "timeoutMs":
			p.Doc = "job timeout in ms (default none)"
		}
		ps = append(ps, p)
	}
	return append(ps,
		stdinOpenParam,
		runtime.Param{Name: "waitMs", Type: runtime.TypeNumber, Doc: "wait up to this long for the job to end (default 0)"},
		runtime.Param{Name: "tag", Type: runtime.TypeString, Doc: "label: 1 to 64 of A-Z a-z 0-9 . _ -"},
		snapshotParams[0], snapshotParams[1],
		runtime.Param{Name: "detach", Type: runtime.TypeBool, Doc: "let a supervisor own the job so that it outlives the run (needs exec.allowDetach and exec.jobStore)"},
		runtime.Param{Name: "notify", Type: runtime.TypeRecord, Doc: "detached jobs: { command?, file?, output?: { pattern, matchType?, stream?, command?, file? } }"},
	)
}()

// Params implements runtime.Tool.
func (ShStart) Params() []runtime.Param { return startParams }

// validTag reports whether s is a job tag: 1 to 64 of A-Z a-z 0-9 . _ -
// (a loop, not a regexp: compiling `{1,64}` costs every a0 start-up).
func validTag(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// CheckArgs implements runtime.ArgChecker.
func (ShStart) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a, issues: checkExecArgs("sh.start", a)}
	c.intRange("waitMs", 0, maxInt, "must be a non-negative integer")
	if v, ok := a.Get("tag"); ok && !validTag(v.AsString()) {
		c.add("tag: must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', '-'")
	}
	c.snapshot()
	if v, ok := a.Get("notify"); ok {
		if !a.GetOrNull("detach").AsBool() {
			c.add("notify: notifications need detach: true (a supervisor runs them)")
		} else if _, msg := notifyArg(v, ""); msg != "" {
			c.add("notify: " + msg)
		}
	}
	return c.issues
}

// notifyArg decodes a notify record (sh.start, sh.notify); relative file
// paths resolve against workDir. msg says what is wrong.
func notifyArg(v value.Value, workDir string) (*proc.Notify, string) {
	if v.Kind() != value.RecordKind {
		return nil, "must be a record { command?, file?, output? }"
	}
	r := v.AsRecord()
	str := func(r *value.Record, key, where string) (string, string) {
		x, ok := r.Get(key)
		if !ok || x.Kind() == value.Null {
			return "", ""
		}
		if x.Kind() != value.String || x.AsString() == "" {
			return "", where + key + ": must be a non-empty string"
		}
		return x.AsString(), ""
	}
	path := func(p string) string {
		if p != "" && !filepath.IsAbs(p) && workDir != "" {
			return filepath.Join(workDir, p)
		}
		return p
	}
	n := &proc.Notify{}
	for _, k := range r.Keys() {
		if k != "command" && k != "file" && k != "output" {
			return nil, k + ": unknown key; notify takes command, file and output"
		}
	}
	var msg string
	if n.Command, msg = str(r, "command", ""); msg != "" {
		return nil, msg
	}
	if n.File, msg = str(r, "file", ""); msg != "" {
		return nil, msg
	}
	n.File = path(n.File)
	if ov, ok := r.Get("output"); ok && ov.Kind() != value.Null {
		if ov.Kind() != value.RecordKind {
			return nil, "output: must be a record { pattern, matchType?, stream?, command?, file? }"
		}
		or := ov.AsRecord()
		o := &proc.OutputNotify{}
		for _, k := range or.Keys() {
			switch k {
			case "pattern", "matchType", "stream", "command", "file":
			default:
				return nil, "output." + k + ": unknown key; output takes pattern, matchType, stream, command and file"
			}
		}
		for key, dst := range map[string]*string{"pattern": &o.Pattern, "matchType": &o.MatchType, "stream": &o.Stream, "command": &o.Command, "file": &o.File} {
			if *dst, msg = str(or, key, "output."); msg != "" {
				return nil, msg
			}
		}
		o.File = path(o.File)
		n.Output = o
	}
	if msg := n.Check(); msg != "" {
		return nil, msg
	}
	return n, ""
}

// RedactArgs implements runtime.Redactor (as sh.exec's).
func (t ShStart) RedactArgs(c *runtime.Call, args *value.Record) (value.Value, []string) {
	return redactExecArgs(c, t.cfg, args), nil
}

// Call implements runtime.Tool.
func (t ShStart) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	if c.Args.GetOrNull("detach").AsBool() {
		return t.detached(c, x)
	}
	req := request(c, true)
	req.Secrets = secretsFor(c, t.cfg).execUse()
	prep, err := x.engine.Prepare(req)
	if err != nil {
		return value.Value{}, engineError(c, err)
	}
	m := prep.Masker
	opts := proc.JobOptions{Tag: c.Args.GetOrNull("tag").AsString()}
	if req.Argv != nil {
		opts.Argv = make([]string, len(req.Argv))
		for i, a := range req.Argv {
			opts.Argv[i] = m.String(a)
		}
	} else {
		opts.Cmd = m.String(req.Cmd)
	}
	opts.OnStart = func(j *proc.Job) {
		d := value.NewRecord(6)
		d.Set("jobId", value.Str(j.ID))
		d.Set("tag", nullable(j.Tag))
		d.Set("pid", value.Int(j.Pid()))
		d.Set("resolvedPath", value.Str(j.ResolvedPath))
		d.Set("cwd", value.Str(j.Cwd))
		if j.TimeoutMs > 0 {
			d.Set("timeoutMs", value.Num(float64(j.TimeoutMs)))
		} else {
			d.Set("timeoutMs", value.NullValue)
		}
		if sandboxOn(prep) {
			d.Set("confined", value.BoolOf(j.Confined))
		}
		_ = c.Emit("job_start", value.RecordOf(d))
	}
	opts.OnSignal = func(j *proc.Job, ev proc.SignalEvent) {
		_ = c.Emit("exec_signal", signalData(j.ID, ev))
	}
	opts.OnEnd = func(j *proc.Job, info proc.JobInfo) {
		d := value.NewRecord(9)
		d.Set("jobId", value.Str(info.ID))
		d.Set("state", value.Str(info.State))
		d.Set("exitCode", value.Int(info.ExitCode))
		d.Set("signal", nullable(info.Signal))
		d.Set("killReason", nullable(info.KillReason))
		d.Set("durationMs", value.Num(float64(info.DurationMs)))
		d.Set("stdoutTotalBytes", value.Num(float64(info.StdoutTotal)))
		d.Set("stderrTotalBytes", value.Num(float64(info.StderrTotal)))
		d.Set("leftoverKilled", value.BoolOf(info.LeftoverKilled))
		_ = c.Emit("job_end", value.RecordOf(d))
	}
	emitUnconfined(c, prep)
	prep.Spec.Kill = proc.KillSwitchFrom(c.Ctx)
	job, err := x.jobs.Start(prep, opts)
	if err != nil {
		return value.Value{}, startError(c, err)
	}
	want := ms(intArg(c.Args, "waitMs", 0))
	if mw := x.engine.Config().MaxWait; want > mw {
		want = mw
	}
	w := waitFor(c, job.Done(), want)
	info := job.Info()
	lim := value.NewRecord(3)
	if prep.TimeoutMs > 0 {
		lim.Set("timeoutMs", value.Num(float64(prep.TimeoutMs)))
	} else {
		lim.Set("timeoutMs", value.NullValue)
	}
	lim.Set("graceMs", value.Num(float64(prep.GraceMs)))
	lim.Set("maxOutputBytes", value.Num(float64(prep.MaxOutput)))
	c.SetEndData(jobEnd("jobId", value.Str(job.ID), "state", value.Str(info.State), "pid", value.Int(job.Pid()),
		"resolvedPath", value.Str(job.ResolvedPath), "limits", value.RecordOf(lim)))
	if err := endOfWait(c, w); err != nil {
		return value.Value{}, err
	}
	r := jobRecord(info)
	addSnapshot(r, job, info.Merged, int(intArg(c.Args, "lines", defaultLines)), int(intArg(c.Args, "maxBytes", defaultMaxBytes)))
	return value.RecordOf(r), nil
}

// ---------------------------------------------------------------- sh.status

// ShStatus is the sh.status tool: a job's record (spec/exec.md §6.3).
type ShStatus struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShStatus) Name() string { return "sh.status" }

// Capability implements runtime.Tool.
func (ShStatus) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShStatus) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShStatus) AwaitedOnStop() bool { return true }

var statusParams = []runtime.Param{idParam}

// Params implements runtime.Tool.
func (ShStatus) Params() []runtime.Param { return statusParams }

// CheckArgs implements runtime.ArgChecker.
func (ShStatus) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a}
	c.id()
	return c.issues
}

// Call implements runtime.Tool.
func (t ShStatus) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	id := c.Args.GetOrNull("id").AsString()
	v, _, err := findJob(c, x, id, false)
	if err != nil {
		return value.Value{}, err
	}
	info := v.Info()
	c.SetEndData(jobEnd("jobId", value.Str(id), "state", value.Str(info.State)))
	return value.RecordOf(jobRecord(info)), nil
}

// ---------------------------------------------------------------- sh.tail

// ShTail is the sh.tail tool: a job's recent output, or output from a
// byte offset (spec/exec.md §6.3).
type ShTail struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShTail) Name() string { return "sh.tail" }

// Capability implements runtime.Tool.
func (ShTail) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShTail) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShTail) AwaitedOnStop() bool { return true }

var tailParams = []runtime.Param{
	idParam,
	{Name: "stream", Type: runtime.TypeString, Doc: "stdout, stderr or both (default)"},
	snapshotParams[0], snapshotParams[1],
	{Name: "offset", Type: runtime.TypeNumber, Doc: "read forward from this byte offset (stream stdout or stderr)"},
}

// Params implements runtime.Tool.
func (ShTail) Params() []runtime.Param { return tailParams }

// CheckArgs implements runtime.ArgChecker.
func (ShTail) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a}
	c.id()
	c.choice("stream", "stdout", "stderr", "both")
	c.snapshot()
	c.intRange("offset", 0, maxInt, "must be a non-negative integer")
	if _, ok := a.Get("offset"); ok {
		if s := strArg(a, "stream", "both"); s != "stdout" && s != "stderr" {
			c.add("stream: offset requires stream \"stdout\" or \"stderr\"")
		}
	}
	return c.issues
}

// Call implements runtime.Tool.
func (t ShTail) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	a := c.Args
	id := a.GetOrNull("id").AsString()
	v, _, err := findJob(c, x, id, false)
	if err != nil {
		return value.Value{}, err
	}
	off, hasOffset := int64(0), false
	if v, ok := a.Get("offset"); ok {
		off, hasOffset = int64(v.AsNumber()), true
	}
	r, msg := TailRecord(v, strArg(a, "stream", "both"), int(intArg(a, "lines", defaultLines)),
		int(intArg(a, "maxBytes", defaultMaxBytes)), off, hasOffset)
	if msg != "" {
		return value.Value{}, argsError(c, "offset", msg)
	}
	info := v.Info()
	c.SetEndData(jobEnd("jobId", value.Str(id), "state", value.Str(info.State)))
	return value.RecordOf(r), nil
}

// TailRecord is the result of sh.tail (and `a0 jobs tail`) for a job:
// the last lines of each selected stream, or with hasOffset the bytes
// from offset on. msg is the complaint about an offset beyond a stream's
// total ("" when none).
func TailRecord(v proc.JobView, stream string, lines, maxBytes int, offset int64, hasOffset bool) (*value.Record, string) {
	merged := v.Info().Merged
	type part struct {
		text string
		rng  value.Value
	}
	var parts [2]part
	gap := false
	next := value.NullValue
	for i, name := range []string{"stdout", "stderr"} {
		if stream != "both" && stream != name {
			parts[i] = part{rng: value.NullValue}
			continue
		}
		stderr := i == 1
		var ch proc.Chunk
		switch {
		case stderr && merged:
			if hasOffset && offset > 0 {
				return nil, "beyond the stream's total of 0 bytes (the job merges stderr into stdout)"
			}
		case hasOffset:
			var ok bool
			ch, ok = v.ReadAt(stderr, offset, maxBytes)
			if !ok {
				total := v.Info().StdoutTotal
				if stderr {
					total = v.Info().StderrTotal
				}
				return nil, "beyond the stream's total of " + strconv.FormatInt(total, 10) + " bytes"
			}
			gap = ch.Gap
		default:
			ch = v.Tail(stderr, lines, maxBytes)
		}
		parts[i] = part{text: value.DecodeBytes(ch.Data), rng: rangeValue(ch.Start, ch.End)}
		if stream != "both" {
			next = value.Num(float64(ch.End))
		}
	}
	info := v.Info()
	r := value.NewRecord(11)
	r.Set("id", value.Str(info.ID))
	r.Set("state", value.Str(info.State))
	r.Set("completed", value.BoolOf(info.Completed()))
	r.Set("stdout", value.Str(parts[0].text))
	r.Set("stderr", value.Str(parts[1].text))
	r.Set("stdoutRange", parts[0].rng)
	r.Set("stderrRange", parts[1].rng)
	r.Set("stdoutTotalBytes", value.Num(float64(info.StdoutTotal)))
	r.Set("stderrTotalBytes", value.Num(float64(info.StderrTotal)))
	r.Set("gap", value.BoolOf(gap))
	r.Set("nextOffset", next)
	return r, ""
}

// JobRecord is the job record of spec/exec.md §6.1 (sh.status, `a0 jobs`).
func JobRecord(info proc.JobInfo) *value.Record { return jobRecord(info) }

// AddSnapshot adds the output snapshot of spec/exec.md §6.2 to a job record.
func AddSnapshot(r *value.Record, v proc.JobView, lines, maxBytes int) {
	addSnapshot(r, v, v.Info().Merged, lines, maxBytes)
}

// ---------------------------------------------------------------- sh.wait

// ShWait is the sh.wait tool: block until a job ends or a timeout passes
// (spec/exec.md §6.3).
type ShWait struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShWait) Name() string { return "sh.wait" }

// Capability implements runtime.Tool.
func (ShWait) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShWait) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShWait) AwaitedOnStop() bool { return true }

var waitParams = []runtime.Param{
	idParam,
	{Name: "timeoutMs", Type: runtime.TypeNumber, Doc: "wait at most this long (default 30000; 0 = look and return)"},
	snapshotParams[0], snapshotParams[1],
}

// Params implements runtime.Tool.
func (ShWait) Params() []runtime.Param { return waitParams }

// CheckArgs implements runtime.ArgChecker.
func (ShWait) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a}
	c.id()
	c.intRange("timeoutMs", 0, maxInt, "must be a non-negative integer")
	c.snapshot()
	return c.issues
}

// Call implements runtime.Tool.
func (t ShWait) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	id := c.Args.GetOrNull("id").AsString()
	v, live, err := findJob(c, x, id, false)
	if err != nil {
		return value.Value{}, err
	}
	want := ms(intArg(c.Args, "timeoutMs", defaultWaitMs))
	if mw := x.engine.Config().MaxWait; want > mw {
		want = mw
	}
	var w waitOutcome
	if live != nil {
		w = waitFor(c, live.Done(), want)
	} else {
		w = waitStored(c, x, v.(*proc.StoredJob), want)
	}
	info := v.Info()
	timedOut := w != waitDone && !info.Completed()
	c.SetEndData(jobEnd("jobId", value.Str(id), "state", value.Str(info.State), "waitTimedOut", value.BoolOf(timedOut)))
	if err := endOfWait(c, w); err != nil {
		return value.Value{}, err
	}
	r := jobRecord(info)
	addSnapshot(r, v, info.Merged, int(intArg(c.Args, "lines", defaultLines)), int(intArg(c.Args, "maxBytes", defaultMaxBytes)))
	r.Set("waitTimedOut", value.BoolOf(timedOut))
	return value.RecordOf(r), nil
}

// ---------------------------------------------------------------- sh.kill

// ShKill is the sh.kill tool: signal a job's group, escalating to SIGKILL
// after a grace period (spec/exec.md §6.3).
type ShKill struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShKill) Name() string { return "sh.kill" }

// Capability implements runtime.Tool.
func (ShKill) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShKill) Mode() runtime.Mode { return runtime.ModeEffect }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShKill) AwaitedOnStop() bool { return true }

var killParams = []runtime.Param{
	idParam,
	{Name: "signal", Type: runtime.TypeString, Doc: "TERM (default), INT, HUP or KILL"},
	{Name: "graceMs", Type: runtime.TypeNumber, Doc: "ms before SIGKILL (default: the policy's graceMs)"},
	{Name: "escalate", Type: runtime.TypeBool, Doc: "send SIGKILL after graceMs (default true)"},
	{Name: "wait", Type: runtime.TypeBool, Doc: "wait until the job has ended (default true)"},
}

// Params implements runtime.Tool.
func (ShKill) Params() []runtime.Param { return killParams }

// CheckArgs implements runtime.ArgChecker.
func (ShKill) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a}
	c.id()
	c.choice("signal", "TERM", "INT", "HUP", "KILL")
	c.intRange("graceMs", 0, 60000, "must be an integer from 0 to 60000")
	return c.issues
}

// Call implements runtime.Tool.
func (t ShKill) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	a := c.Args
	id := a.GetOrNull("id").AsString()
	v, job, err := findJob(c, x, id, true)
	if err != nil {
		return value.Value{}, err
	}
	if job == nil {
		return killDetached(c, x, v.(*proc.StoredJob))
	}
	cfg := x.engine.Config()
	grace := cfg.Grace
	if v, ok := a.Get("graceMs"); ok {
		grace = ms(int64(v.AsNumber()))
	}
	escalate := boolArg(a, "escalate", true)
	sent := ""
	acted := false
	if !job.Info().Completed() {
		acted = true
		sent = job.Stop(proc.StopOpts{
			Reason: "kill", Signal: "SIG" + strArg(a, "signal", "TERM"), Grace: grace, HasGrace: true,
			NoEscalate: !escalate,
			OnSignal: func(ev proc.SignalEvent) {
				_ = c.Emit("exec_signal", signalData(id, ev))
			},
		})
	}
	if acted && boolArg(a, "wait", true) {
		bound := grace
		if escalate {
			bound += cfg.Drain + 100*time.Millisecond
		}
		t := time.NewTimer(bound)
		select {
		case <-job.Done():
		case <-t.C:
		}
		t.Stop()
	}
	info := job.Info()
	escalated := acted && job.Escalated()
	c.SetEndData(jobEnd("jobId", value.Str(id), "state", value.Str(info.State), "signalSent", nullable(sent),
		"escalated", value.BoolOf(escalated)))
	r := jobRecord(info)
	r.Set("signalSent", nullable(sent))
	r.Set("escalated", value.BoolOf(escalated))
	return value.RecordOf(r), nil
}

// killDetached runs sh.kill on a detached job: its supervisor runs the
// stop sequence (proc.Store.StopDetached); the call waits on the store.
func killDetached(c *runtime.Call, x *execRun, sj *proc.StoredJob) (value.Value, error) {
	a := c.Args
	id := sj.Info().ID
	cfg := x.engine.Config()
	grace := cfg.Grace
	if v, ok := a.Get("graceMs"); ok {
		grace = ms(int64(v.AsNumber()))
	}
	escalate := boolArg(a, "escalate", true)
	sig := "SIG" + strArg(a, "signal", "TERM")
	st, _ := x.jobs.Store()
	sent := ""
	if !sj.Info().Completed() {
		asked, err := st.StopDetached(id, proc.StopOpts{Signal: sig, Grace: grace, HasGrace: true, NoEscalate: !escalate})
		if err != nil {
			return value.Value{}, &runtime.ToolError{Msg: "cannot signal detached job " + id + ": " + err.Error(), Reason: "io_error"}
		}
		if asked {
			sent = sig
		}
		if asked && boolArg(a, "wait", true) {
			bound := grace
			if escalate {
				bound += cfg.Drain + 500*time.Millisecond
			}
			st.WaitStored(sj, bound, c.Ctx.Done())
		} else {
			_ = sj.Reload()
		}
	}
	info := sj.Info()
	escalated := sent != "" && sent != "SIGKILL" && info.Signal == "SIGKILL"
	c.SetEndData(jobEnd("jobId", value.Str(id), "state", value.Str(info.State), "signalSent", nullable(sent),
		"escalated", value.BoolOf(escalated)))
	r := jobRecord(info)
	r.Set("signalSent", nullable(sent))
	r.Set("escalated", value.BoolOf(escalated))
	return value.RecordOf(r), nil
}

// detached runs sh.start { detach: true } (spec/exec.md §6.5): allowed by
// exec.allowDetach, kept in exec.jobStore, owned by a supervisor.
func (t ShStart) detached(c *runtime.Call, x *execRun) (value.Value, error) {
	cfg := x.engine.Config()
	if !cfg.AllowDetach {
		return value.Value{}, engineError(c, &proc.Error{Kind: proc.KindCapDenied, Reason: proc.ReasonDetachNotAllowed, Fields: [][2]string{{"field", "detach"}},
			Msg: "detach: detached jobs are not allowed by the policy; set exec.allowDetach: true (with an exec.jobStore) in the policy"})
	}
	req := request(c, true)
	var n *proc.Notify
	if v, ok := c.Args.Get("notify"); ok {
		n, _ = notifyArg(v, c.WorkDir)
	}
	sj, err := x.jobs.StartDetached(req, c.Args.GetOrNull("tag").AsString(), n)
	if err != nil {
		return value.Value{}, startError(c, err)
	}
	info := sj.Info()
	d := value.NewRecord(6)
	d.Set("jobId", value.Str(info.ID))
	d.Set("tag", nullable(info.Tag))
	d.Set("pid", value.Int(info.Pid))
	d.Set("cwd", value.Str(info.Cwd))
	d.Set("detached", value.True)
	_ = c.Emit("job_start", value.RecordOf(d))
	want := ms(intArg(c.Args, "waitMs", 0))
	if mw := cfg.MaxWait; want > mw {
		want = mw
	}
	w := waitStored(c, x, sj, want)
	info = sj.Info()
	c.SetEndData(jobEnd("jobId", value.Str(info.ID), "state", value.Str(info.State), "pid", value.Int(info.Pid), "detached", value.True))
	if err := endOfWait(c, w); err != nil {
		return value.Value{}, err
	}
	r := jobRecord(info)
	addSnapshot(r, sj, info.Merged, int(intArg(c.Args, "lines", defaultLines)), int(intArg(c.Args, "maxBytes", defaultMaxBytes)))
	return value.RecordOf(r), nil
}

// ---------------------------------------------------------------- sh.jobs

// ShJobs is the sh.jobs tool: list jobs (spec/exec.md §6.3).
type ShJobs struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShJobs) Name() string { return "sh.jobs" }

// Capability implements runtime.Tool.
func (ShJobs) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShJobs) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShJobs) AwaitedOnStop() bool { return true }

var jobsParams = []runtime.Param{
	{Name: "state", Type: runtime.TypeString, Doc: "running, terminal or all (default)"},
	{Name: "tag", Type: runtime.TypeString, Doc: "only jobs with this tag"},
	{Name: "scope", Type: runtime.TypeString, Doc: "run (default: this run's jobs) or store (every stored job)"},
	{Name: "limit", Type: runtime.TypeNumber, Doc: "at most this many records (default 50, 1 to 500)"},
}

// Params implements runtime.Tool.
func (ShJobs) Params() []runtime.Param { return jobsParams }

// CheckArgs implements runtime.ArgChecker.
func (ShJobs) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a}
	c.choice("state", "running", "terminal", "all")
	c.choice("scope", "run", "store")
	c.intRange("limit", 1, 500, "must be an integer from 1 to 500")
	return c.issues
}

// Call implements runtime.Tool.
func (t ShJobs) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	a := c.Args
	var list []proc.JobView
	if strArg(a, "scope", "run") == "store" {
		if !x.engine.Config().AllowCrossRun {
			return value.Value{}, crossRunDenied(c, "listing the job store needs exec.allowCrossRun in the policy")
		}
		st, serr := x.jobs.Store()
		if serr != nil {
			return value.Value{}, &runtime.ToolError{Msg: "cannot open the job store: " + serr.Error(), Reason: string(proc.StoreErrorReason(serr))}
		}
		if st == nil {
			return value.Value{}, &runtime.ToolError{Msg: "no job store is configured; set exec.jobStore in the policy", Reason: "store_unavailable"}
		}
		list = x.jobs.StoreJobs()
	} else {
		for _, j := range x.jobs.List() {
			list = append(list, j)
		}
		for _, sj := range x.jobs.DetachedJobs() {
			list = append(list, sj)
		}
		proc.SortNewestFirst(list)
	}
	state := strArg(a, "state", "all")
	tag, hasTag := a.Get("tag")
	limit := int(intArg(a, "limit", 50))
	var items []value.Value
	truncated := false
	for _, v := range list {
		info := v.Info()
		if state == "running" && info.Completed() || state == "terminal" && !info.Completed() {
			continue
		}
		if hasTag && info.Tag != tag.AsString() {
			continue
		}
		if len(items) == limit {
			truncated = true
			break
		}
		items = append(items, value.RecordOf(jobRecord(info)))
	}
	if items == nil {
		items = []value.Value{}
	}
	r := value.NewRecord(3)
	r.Set("jobs", value.ListOf(items))
	r.Set("count", value.Int(len(items)))
	r.Set("truncated", value.BoolOf(truncated))
	c.SetEndData(jobEnd("count", value.Int(len(items))))
	return value.RecordOf(r), nil
}

// ClosedArgs implements runtime.ClosedArgs: the job tools refuse argument
// keys they do not know (before their own rules), and their published
// schemas say so.
func (ShStart) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (ShStatus) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (ShTail) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (ShWait) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (ShKill) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (ShJobs) ClosedArgs() bool { return true }
