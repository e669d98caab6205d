package runtime

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/stdlib"
)

// StandardCaps are the capability ids of the built-in tools, in the order
// hints list them.
var StandardCaps = []string{"fs.read", "fs.write", "http.get", "sh.exec"}

// BudgetFields are the fields a `budget { … }` header may set.
var BudgetFields = []string{"timeMs", "maxToolCalls", "maxBytesWritten", "maxIterations"}

// Grants decides which capabilities a run may use.
type Grants interface {
	Allowed(capability string) bool
}

// GrantFunc adapts a function to [Grants].
type GrantFunc func(capability string) bool

// Allowed implements Grants.
func (f GrantFunc) Allowed(c string) bool { return f(c) }

// DenyAll grants nothing.
var DenyAll Grants = GrantFunc(func(string) bool { return false })

// AllowAll grants every capability.
var AllowAll Grants = GrantFunc(func(string) bool { return true })

// Env is a configured interpreter: its tools, grants and limits. An Env is
// immutable after NewEnv and safe for concurrent use. The zero Env (and a
// nil *Env) behaves as NewEnv with no options: no tools, every capability
// denied, the default limits.
type Env struct {
	tools    map[string]Tool
	toolList []Tool
	caps     []string
	grants   Grants
	maxDepth int
	workDir  string
	checkCfg *check.Config
	ceiling  Budget
	values   map[string]any
	memLimit int64
}

// Option configures an Env.
type Option func(*Env) error

// WithTools registers tools. Without it an Env exposes no tools at all.
func WithTools(ts ...Tool) Option {
	return func(e *Env) error {
		for i, t := range ts {
			if isNilTool(t) {
				return fmt.Errorf("a0: WithTools: tool %d of %d is nil", i+1, len(ts))
			}
			if _, dup := e.tools[t.Name()]; dup {
				return fmt.Errorf("a0: tool %q registered twice", t.Name())
			}
			e.tools[t.Name()] = t
			e.toolList = append(e.toolList, t)
		}
		return nil
	}
}

// WithGrants sets which capabilities runs may use (default: none). A nil
// g is DenyAll.
func WithGrants(g Grants) Option {
	return func(e *Env) error {
		if g == nil {
			g = DenyAll
		}
		e.grants = g
		return nil
	}
}

// WithMaxDepth bounds the user-function call depth (default 10000); n
// below 0 or above MaxDepthLimit is an error of NewEnv.
func WithMaxDepth(n int) Option {
	return func(e *Env) error {
		if n < 0 || n > MaxDepthLimit {
			return fmt.Errorf("a0: WithMaxDepth(%d): the depth bound must be between 0 and %d", n, MaxDepthLimit)
		}
		e.maxDepth = n
		return nil
	}
}

// isNilTool reports whether t is nil, or a nil pointer in the interface.
func isNilTool(t Tool) bool {
	if t == nil {
		return true
	}
	v := reflect.ValueOf(t)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// WithWorkDir sets the directory tools resolve relative paths against.
func WithWorkDir(dir string) Option {
	return func(e *Env) error { e.workDir = dir; return nil }
}

// DefaultMaxDepth is the default bound on nested user-function calls.
const DefaultMaxDepth = 10000

// MaxDepthLimit is the largest WithMaxDepth: deeper recursion could pass
// the Go stack's limit (1 GB), a fatal error no recover catches, which
// would end the host process (about a million nested calls do).
const MaxDepthLimit = 100000

// NewEnv builds an environment.
func NewEnv(opts ...Option) (*Env, error) {
	e := &Env{tools: map[string]Tool{}, grants: DenyAll, maxDepth: DefaultMaxDepth, memLimit: DefaultMemoryLimit}
	for _, o := range opts {
		if err := o(e); err != nil {
			return nil, err
		}
	}
	if e.memLimit > 0 {
		memMonitor.readGCSetting()
	}
	e.caps = append([]string(nil), StandardCaps...)
	cfg := &check.Config{Stdlib: stdlib.CheckerNames(), BudgetFields: BudgetFields, Params: stdlib.Params}
	for _, t := range e.toolList {
		cfg.Tools = append(cfg.Tools, check.Tool{Name: t.Name(), Cap: t.Capability(), Effect: t.Mode() == ModeEffect, Detail: toolDetail(t)})
		if !contains(e.caps, t.Capability()) {
			e.caps = append(e.caps, t.Capability())
		}
	}
	cfg.Caps = e.caps
	e.checkCfg = cfg
	return e, nil
}

// toolDetail gives what the checker reads of t at a call of it, worked out
// the first time a program names it: an Env with many tools compiles a
// program that uses none of them without reading their parameters or
// schemas.
func toolDetail(t Tool) func() check.ToolDetail {
	return sync.OnceValue(func() check.ToolDetail {
		names, args := toolCheckArgs(t)
		in, out := staticSchemas(t)
		return check.ToolDetail{Params: names, Args: args, Input: in, Output: out}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// CheckConfig returns the names the static checker validates against.
func (e *Env) CheckConfig() *check.Config { return e.ready().checkCfg }

// Tools returns the registered tools in registration order.
func (e *Env) Tools() []Tool { return append([]Tool(nil), e.ready().toolList...) }

// defaultEnv is what a zero Env (or a nil *Env) stands for: NewEnv with no
// options (no tools, every capability denied).
var defaultEnv = sync.OnceValue(func() *Env {
	e, _ := NewEnv()
	return e
})

// ready returns e, or the default Env when e is nil or was not made by
// NewEnv: a host that declares `var env runtime.Env` gets a working,
// deny-all interpreter rather than a nil dereference.
func (e *Env) ready() *Env {
	if e == nil || e.checkCfg == nil {
		return defaultEnv()
	}
	return e
}

// Program is a parsed, checked and compiled A0 program. It is immutable and
// may be run many times, concurrently.
type Program struct {
	env    *Env
	ast    *ast.Program
	top    *blockCode
	fnIDs  map[string]int
	nfns   int
	nargs  int // reusable argument records (see stdCallNode.reuse)
	caps   []string
	limits budgetLimits
	budget value.Value // declared budget fields in source order (record)
	// checkNotes: see compiler.checkNotes.
	checkNotes map[diag.Span]string
}

// CompileOptions controls Compile.
type CompileOptions struct {
	// DebugParse keeps the parser generator's raw E_PARSE messages.
	DebugParse bool
	// Strict adds the checks of `a0 check --strict` (E_UNKNOWN_ARG).
	Strict bool
	// Literals adds what only `a0 check` (and a0_check) report: string
	// literals a library function refuses whatever its other arguments,
	// such as a re.* pattern that does not compile (E_FN, with the
	// literal's span). A run does not stop on them: the call fails with
	// the same E_FN when it is reached, like any refused argument.
	Literals bool
	// ToolSchemas judges the calls of tools whose schemas are known before
	// they run (StaticSchemer: an MCP tool whose server was listed, or
	// that a0's schema cache holds; spec/mcp.md §8): literal arguments
	// the input schema refuses, and result fields the output schema does
	// not declare, are static errors. Literals implies it.
	ToolSchemas bool
}

// Compile parses, checks and compiles src. On failure it returns the static
// diagnostics (exit code 2). Bytes of src that are not UTF-8 are read as
// U+FFFD, as the CLI reads files.
func (e *Env) Compile(file, src string) (*Program, diag.List) {
	return e.CompileWith(file, src, CompileOptions{})
}

// CompileWith is Compile with options.
func (e *Env) CompileWith(file, src string, o CompileOptions) (*Program, diag.List) {
	e = e.ready()
	p, ds := parser.Parse(file, src, parser.Options{DebugParse: o.DebugParse, Signatures: stdlib.Params})
	if ds != nil {
		return nil, ds
	}
	cfg := e.checkCfg
	if o.Strict || o.Literals || o.ToolSchemas {
		more := *cfg
		more.Strict = o.Strict
		more.ToolSchemas = o.ToolSchemas || o.Literals
		if o.Literals {
			more.LiteralArg = stdlib.CheckLiteral
		}
		cfg = &more
	}
	info, ds := check.Resolve(p, cfg)
	if len(ds) > 0 {
		return nil, ds
	}
	return newCompiler(info).program(e, p), nil
}

// AST returns the program's syntax tree.
func (p *Program) AST() *ast.Program { return p.ast }

// Capabilities returns the capabilities the program declares.
func (p *Program) Capabilities() []string { return append([]string(nil), p.caps...) }

type budgetLimits struct {
	hasTime, hasToolCalls, hasBytes, hasIterations bool
	timeMs, maxToolCalls, maxBytes, maxIterations  int64
}

// maxBudget is the largest budget value honoured (about 31 years in ms);
// larger literals mean "practically unlimited" without overflowing.
const maxBudget = 1 << 50

func clampBudget(f float64) int64 {
	if f > maxBudget {
		return maxBudget
	}
	return int64(f)
}

// budgetOf reads the budget headers: the limits, and the declared fields
// as a record in source order (the zero Value when there is none).
func budgetOf(p *ast.Program) (budgetLimits, value.Value) {
	var b budgetLimits
	var rec *value.Record // made at the first budget header: most programs have none
	for _, h := range p.Headers {
		if h.Kind != ast.BudgetHeader {
			continue
		}
		if rec == nil {
			rec = value.NewRecord(4)
		}
		for _, e := range h.Rec.Entries {
			lit, ok := e.Value.(*ast.Literal)
			if !ok || e.Spread {
				continue
			}
			n := clampBudget(lit.Num)
			rec.Set(e.Key, value.Num(lit.Num))
			switch e.Key {
			case "timeMs":
				b.hasTime, b.timeMs = true, n
			case "maxToolCalls":
				b.hasToolCalls, b.maxToolCalls = true, n
			case "maxBytesWritten":
				b.hasBytes, b.maxBytes = true, n
			case "maxIterations":
				b.hasIterations, b.maxIterations = true, n
			}
		}
	}
	if rec == nil {
		return b, value.Value{}
	}
	return b, value.RecordOf(rec)
}

// TraceEvent is one trace event.
type TraceEvent struct {
	Event string
	Span  diag.Span
	// Data is a record, or the zero Value for events without data.
	Data value.Value
}

// TraceSink receives trace events as they happen. An error from Event ends
// the run with E_IO.
type TraceSink interface {
	Event(ev TraceEvent) error
}

// RunOptions are per-run settings.
type RunOptions struct {
	// Trace receives trace events (nil: no tracing).
	Trace TraceSink
	// Values are host values tools can read with Call.Value: per-run data
	// of host tools only. No configuration of the built-in tools travels
	// here; it has the typed fields below.
	Values map[string]any
	// RunID is the id the exec tools record this run's background jobs
	// under (the CLI passes its trace's run id); "" gives each run a
	// random one. Tools read it with Call.RunID.
	RunID string
	// Exec, when set, replaces the built-in exec tools' configuration
	// (tools.Config.Exec) for this run. Tools read it with Call.Exec.
	Exec *proc.Config
	// Grants overrides the Env's grants for this run when not nil.
	Grants Grants
	// Ceiling further caps this run's budget (the CLI passes the policy
	// file's limits here); the Env's ceiling applies too.
	Ceiling Budget
	// Start is when the run's time budget starts counting (zero: when
	// execution starts). The CLI passes its own start, so timeMs bounds
	// the whole invocation as the user sees it, reading and checking the
	// program included.
	Start time.Time
	// BeforeTool, when set, is called before each tool call runs (after
	// its arguments were validated and counted, before tool_start). The
	// CLI installs its signal handlers there, so a run that never calls a
	// tool does not pay for them.
	BeforeTool func()
	// Input holds the values of the program's declared inputs by name
	// (spec/embedding.md §5.1): JSON-like Go values as value.FromGo
	// takes them, value.Value, or InputText for text to parse as the
	// declared type. They are checked against the program's input header
	// before the run starts: a missing required input, an undeclared one,
	// a wrong type or any input for a program without the header ends the
	// run with E_INPUT (exit 2) and Result.Started false.
	Input map[string]any
	// InputMask lists globs of input names whose values the trace masks
	// (nil: DefaultInputMask). The CLI passes the policy's exec mask.
	InputMask []string
	// Observe, when set, receives the tool-level trace events as they
	// happen, exactly as Trace would show them: tool_start, tool_end,
	// evidence and the events tools write (Call.Emit: jobs, MCP server
	// notifications). Unlike Trace it does not turn on the events of
	// statements, functions and loops, so a run observed this way runs at
	// full speed; its errors are ignored. a0 mcp reports a run's progress
	// from it.
	Observe TraceSink
}

// Result is the outcome of a run. It is returned even when the run fails,
// with the evidence collected so far.
type Result struct {
	Value    value.Value
	Evidence []value.Value
	// Failed is true when any evidence record has ok:false.
	Failed bool
	// Started is false when the run stopped at the start-up capability check.
	Started bool
	// HasValue is false for a session input that produced no value (a let,
	// a fn declaration, a statement with a target).
	HasValue bool
}

// ExitCode returns the process exit code for a run that ended with err.
func ExitCode(res *Result, err error) int {
	if err != nil {
		if e, ok := err.(*Error); ok {
			return e.ExitCode()
		}
		return diag.ExitRuntime
	}
	if res != nil && res.Failed {
		return diag.ExitAssert
	}
	return diag.ExitOK
}

// SignalCause is the cancellation cause a host (the CLI) gives when a
// signal cancels a run: the run then ends with E_CANCELLED "Run cancelled
// by <Signal>." and details {signal}.
type SignalCause struct {
	Signal string // e.g. "SIGINT"
}

// Error implements error: "cancelled by <Signal>".
func (s SignalCause) Error() string { return "cancelled by " + s.Signal }

type run struct {
	env    *Env
	prog   *Program
	opts   RunOptions
	ctx    context.Context // the run's: host cancellation and the timeMs deadline (nil until runContext)
	cancel context.CancelFunc
	host   context.Context // the host's, which ctx derives from
	// stoppable: the run can be stopped while it is on (the host's
	// context can end or there is a time budget), so a tool call that
	// ignores its context may have to be abandoned (invoke).
	stoppable bool
	worker    *toolWorker // runs the calls of tools that are not Awaited
	flag      atomic.Int32
	start     time.Time
	limits    budgetLimits

	iterations, toolCalls, bytesWritten int64

	fns      []closure
	evidence []value.Value
	tr       TraceSink
	obs      TraceSink // RunOptions.Observe
	depth    int
	grants   Grants
	res      *runResources
	pool     []*frame     // recycled frames of blocks no closure can capture
	args     []argRec     // argument records of stdlib calls, reused (see stdCallNode.reuse)
	memSeen  atomic.Int64 // heap size seen past the memory ceiling
	monIdx   int          // index in memMonitor.runs while registered (under its lock)
	// trFailed is set (under res.trMu) once this run's sink failed; its
	// later events are dropped. It is per run, not per session, so an
	// earlier input's failing sink (written by a job that input started)
	// does not silence a later input's sink.
	trFailed bool
	// ended is set (under res.trMu) when a run (not a session input) has
	// returned: events of a call it abandoned are dropped.
	ended bool
}

func (r *run) allowed(c string) bool { return r.grants.Allowed(c) }

// Run executes the program. The returned error is an *Error carrying the
// A0 code (use ExitCode for the process exit code).
//
// A nil p (what Compile returns with its diagnostics) gives E_RUNTIME, and a
// nil ctx is context.Background().
func (p *Program) Run(ctx context.Context, opts RunOptions) (res *Result, err error) {
	if p == nil {
		return &Result{}, &Error{Diagnostic: diag.Diagnostic{Code: diag.ERuntime, Message: "Run of a nil *Program.",
			Hint: "Env.Compile returns nil with its diagnostics when the program does not compile: report them instead of running."}}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return p.execute(ctx, opts, nil)
}

// execute runs the program; sess is nil except for session inputs, whose
// top-level frame and function table persist across inputs.
func (p *Program) execute(ctx context.Context, opts RunOptions, sess *Session) (res *Result, err error) {
	r := &run{env: p.env, prog: p, opts: opts, tr: opts.Trace, obs: opts.Observe, grants: p.env.grants, host: ctx}
	if sess != nil {
		r.host = context.WithValue(ctx, sessionKey{}, sess) // see Session.Eval
	}
	limits, budgetRec := applyCeiling(p.limits, p.budget, p.env.ceiling)
	limits, budgetRec = applyCeiling(limits, budgetRec, opts.Ceiling)
	r.limits = limits
	if sess != nil {
		r.res = sess.res
		for len(sess.fns) < p.nfns {
			sess.fns = append(sess.fns, closure{})
		}
		r.fns = sess.fns
	} else {
		r.fns = make([]closure, p.nfns)
		r.res = &runResources{}
	}
	if opts.Grants != nil {
		r.grants = opts.Grants
	}
	res = &Result{}
	defer func() {
		if rec := recover(); rec != nil {
			err = &Error{Diagnostic: diag.Diagnostic{Code: diag.ERuntime, Message: fmt.Sprintf("internal error: %v", rec), Cause: panicCause(rec)}}
			res.Evidence = r.evidence
			if sess == nil && r.res != nil {
				_ = r.res.close("run_end")
			}
		}
	}()
	// The inputs are checked first: a mismatch is E_INPUT (exit 2), like a
	// static error. A session's inputs are bound with Session.Bind.
	mask := opts.InputMask
	if mask == nil {
		mask = DefaultInputMask
	}
	var inputRec value.Value
	if sess == nil {
		if inputRec, err = p.bindInputs(opts.Input, mask); err != nil {
			return res, err
		}
	} else if len(opts.Input) > 0 {
		return res, inputError(nil, "", "session", "A session input takes no RunOptions.Input.", "Bind the session's inputs with Session.Bind (:input in the REPL).")
	}
	traceInput := inputRec
	if sess != nil {
		traceInput, _ = sess.boundInput()
	}
	// Start-up capability check, before run_start.
	for _, c := range p.caps {
		if !r.allowed(c) {
			e := &Error{Diagnostic: diag.Diagnostic{Code: diag.ECapDenied, Message: "Capability '" + c + "' is not allowed by policy.", Hint: GrantHint(c)}}
			if h := firstCapHeader(p.ast); h != nil {
				sp := h.Span
				e.Span = &sp
			}
			e.Details = details("capability", c)
			return res, e
		}
	}
	res.Started = true
	if sess == nil {
		defer func() {
			r.res.trMu.Lock()
			r.ended = true
			r.res.trMu.Unlock()
		}()
	}
	r.start = time.Now()
	if !opts.Start.IsZero() && opts.Start.Before(r.start) {
		r.start = opts.Start
	}
	defer r.endContext()
	if ctx.Done() != nil || r.limits.hasTime {
		r.stoppable = true
		runCtx := r.runContext()
		if r.limits.hasTime {
			var c2 context.CancelFunc
			runCtx, c2 = context.WithDeadline(runCtx, r.start.Add(time.Duration(r.limits.timeMs)*time.Millisecond))
			defer c2()
			r.ctx = runCtx
		}
		// Only the host or the deadline can end runCtx while the run is
		// on (its own cancel comes after): with neither, no watcher, and
		// the context is made at its first use (runContext).
		stop := context.AfterFunc(runCtx, func() { r.flag.Store(1) })
		defer stop()
		if runCtx.Err() != nil {
			r.flag.Store(1) // already past the deadline: do not wait for AfterFunc
		}
	}
	if r.startMemoryMonitor() {
		defer r.stopMemoryMonitor()
	}

	if r.tr != nil {
		data := value.NewRecord(3)
		data.Set("file", value.Str(p.ast.Span.File))
		capv := make([]value.Value, len(p.caps))
		for i, c := range p.caps {
			capv[i] = value.Str(c)
		}
		data.Set("capabilities", value.ListOf(capv))
		if budgetRec.AsRecord().Len() > 0 {
			data.Set("budget", budgetRec)
		}
		if !traceInput.IsUndefined() {
			data.Set("input", maskedInputs(traceInput, mask))
		}
		if err := r.event("run_start", p.ast.Span, value.RecordOf(data)); err != nil {
			return res, err
		}
	}
	var v value.Value
	if sess != nil {
		v, res.HasValue, err = r.execSession(p.top, sess.frame)
	} else {
		if inputRec.IsUndefined() {
			v, err = r.execBlock(p.top, nil)
		} else {
			v, err = r.execBlock(p.top, nil, inputRec) // `input` is slot 0
		}
		res.HasValue = err == nil
	}
	if sess == nil {
		// Run-end cleanup of tool resources (jobs), before run_end.
		reason := "run_end"
		if ctx.Err() != nil {
			reason = "host_cancel"
		}
		if cerr := r.res.close(reason); cerr != nil && err == nil {
			err = cerr
		}
	}
	res.Evidence = r.evidence
	for _, ev := range r.evidence {
		if ok, _ := ev.AsRecord().Get("ok"); !ok.AsBool() {
			res.Failed = true
		}
	}
	if r.tr != nil {
		if e, ok := err.(*Error); ok && e.Code == diag.EIO {
			return res, err
		}
		data := value.NewRecord(3)
		data.Set("durationMs", value.Int(int(time.Since(r.start).Milliseconds())))
		if err != nil {
			code, msg := diag.ERuntime, err.Error()
			if e, ok := err.(*Error); ok {
				code, msg = e.Code, e.Message
			}
			data.Set("error", value.Str(string(code)))
			data.Set("message", value.Str(msg))
		}
		if terr := r.event("run_end", p.ast.Span, value.RecordOf(data)); terr != nil && err == nil {
			return res, terr
		}
	}
	if err != nil {
		if _, ok := err.(*Error); !ok {
			err = &Error{Diagnostic: diag.Diagnostic{Code: diag.ERuntime, Message: err.Error(), Cause: err}}
		}
		return res, err
	}
	res.Value = v
	return res, nil
}

// panicCause is the Cause of the E_RUNTIME a recovered panic becomes: the
// panic value and the stack of the goroutine that panicked.
func panicCause(rec any) error {
	buf := make([]byte, 4096)
	buf = buf[:goruntime.Stack(buf, false)]
	return fmt.Errorf("panic: %v\n%s", rec, buf)
}

func firstCapHeader(p *ast.Program) *ast.Header {
	for _, h := range p.Headers {
		if h.Kind == ast.CapHeader {
			return h
		}
	}
	return nil
}

// event emits a trace event; a sink failure becomes E_IO (once: later
// events are dropped).
func (r *run) event(name string, sp diag.Span, data value.Value) error {
	r.res.trMu.Lock()
	defer r.res.trMu.Unlock()
	if r.ended {
		return nil // an abandoned tool call emitting after run_end
	}
	if r.obs != nil {
		_ = sinkEvent(r.obs, TraceEvent{Event: name, Span: sp, Data: data})
	}
	if r.tr == nil || r.trFailed {
		return nil
	}
	if err := sinkEvent(r.tr, TraceEvent{Event: name, Span: sp, Data: data}); err != nil {
		r.trFailed = true
		return &Error{Diagnostic: diag.Diagnostic{Code: diag.EIO, Message: "Error writing trace file: " + err.Error(), Cause: err}}
	}
	return nil
}

// sinkEvent hands ev to a host's sink, a panic in it becoming its error:
// events of background jobs are written from goroutines of their own,
// where a panic would end the host process.
func sinkEvent(s TraceSink, ev TraceEvent) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("trace sink panicked: %v", p)
		}
	}()
	return s.Event(ev)
}

// runResources are per-run resources of tools (see Call.Resource) and the
// lock serialising trace events (jobs emit from their own goroutines). A
// session shares one across inputs.
type runResources struct {
	mu     sync.Mutex
	byKey  map[string]Resource
	order  []Resource
	closed bool // closed: a resource opened later is closed at once
	trMu   sync.Mutex
}

func (r *run) resource(key string, open func() Resource) Resource {
	rr := r.res
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.closed {
		// An abandoned tool call, after the run ended: nothing would
		// close what it opens now.
		x := open()
		x.Close("run_end")
		return x
	}
	if x, ok := rr.byKey[key]; ok {
		return x
	}
	if rr.byKey == nil {
		rr.byKey = map[string]Resource{}
	}
	x := open()
	rr.byKey[key] = x
	rr.order = append(rr.order, x)
	return x
}

// close closes every resource (run end), newest first. A Close that
// panics does not keep the others open: the first panic is returned as an
// E_RUNTIME once all were closed.
func (rr *runResources) close(reason string) error {
	rr.mu.Lock()
	list := rr.order
	rr.order, rr.byKey = nil, nil
	rr.closed = true
	rr.mu.Unlock()
	var first error
	for i := len(list) - 1; i >= 0; i-- {
		if err := closeResource(list[i], reason); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// closeResource closes x, a panic in its Close becoming an E_RUNTIME.
func closeResource(x Resource, reason string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Diagnostic: diag.Diagnostic{Code: diag.ERuntime, Message: fmt.Sprintf("internal error closing a tool's resource: %v", p), Cause: panicCause(p)}}
		}
	}()
	x.Close(reason)
	return nil
}

// budgetError emits budget_exceeded and returns the E_BUDGET error.
func (r *run) budgetError(sp diag.Span, field string, limit, actual int64, msg string) error {
	d := details("budget", field, "limit", limit, "actual", actual)
	if r.tr != nil {
		if err := r.event("budget_exceeded", sp, d); err != nil {
			return err
		}
	}
	hint := budgetHint(field, actual)
	if r.prog != nil && r.cappedByHost(field, limit) {
		hint = "This limit is the host's, not the program's: the policy's \"limits\" (or the host embedding a0) caps " + field + " at " + strconv.FormatInt(limit, 10) +
			", and a budget header may ask for less, never more. Do less (" + lessOf(field) + "), or raise \"" + field + "\" in the policy's \"limits\"."
	}
	e := newErrHint(diag.EBudget, sp, msg, hint)
	e.Details = d
	return e
}

// cappedByHost reports whether the run's limit of field (limit) is a
// ceiling of the host (the policy's limits) rather than what the
// program's budget header declared: the header has no such field, or a
// larger one.
func (r *run) cappedByHost(field string, limit int64) bool {
	switch field {
	case "timeMs", "maxToolCalls", "maxBytesWritten", "maxIterations":
	default:
		return false // memory, depth: fixed bounds, not budgets
	}
	l := r.prog.limits
	has, v := map[string]bool{"timeMs": l.hasTime, "maxToolCalls": l.hasToolCalls, "maxBytesWritten": l.hasBytes, "maxIterations": l.hasIterations}[field],
		map[string]int64{"timeMs": l.timeMs, "maxToolCalls": l.maxToolCalls, "maxBytesWritten": l.maxBytes, "maxIterations": l.maxIterations}[field]
	return !has || v > limit
}

// lessOf says how a program does less of what field counts.
func lessOf(field string) string {
	switch field {
	case "maxIterations":
		return "fewer elements or passes"
	case "maxToolCalls":
		return "fewer tool calls; one sh.exec can run several commands"
	case "maxBytesWritten":
		return "write less"
	}
	return "bound the slow steps with timeoutMs"
}

// budgetHint names the fix for a budget that ran out: raise the field in
// the budget header when the work is meant, or do less of what it counts.
func budgetHint(field string, actual int64) string {
	switch field {
	case "maxIterations":
		return "Every pass of for, filter, loop, map and reduce counts: raise budget { maxIterations: … } to cover them all, or process fewer elements (a shorter in list, fewer times)."
	case "maxToolCalls":
		return "Every call? and do counts: raise budget { maxToolCalls: … } to the number of tool calls the program makes, or make fewer calls (one sh.exec can run several commands)."
	case "maxBytesWritten":
		return "fs.write counts the bytes it writes: raise budget { maxBytesWritten: … } to at least " + strconv.FormatInt(actual, 10) + ", or write less."
	case "timeMs":
		return "Raise budget { timeMs: … }, or bound the slow steps: a timeoutMs on sh.exec, sh.start for a long command you then sh.wait on."
	}
	return ""
}

// timeBudgetError is the E_BUDGET of a run whose timeMs ran out. The
// elapsed time is rounded up, so it is always reported past the limit.
func (r *run) timeBudgetError(sp diag.Span) error {
	elapsed := (time.Since(r.start) + time.Millisecond - 1).Milliseconds()
	if elapsed <= r.limits.timeMs {
		elapsed = r.limits.timeMs + 1
	}
	return r.budgetError(sp, "timeMs", r.limits.timeMs, elapsed,
		"Budget exceeded: timeMs limit of "+strconv.FormatInt(r.limits.timeMs, 10)+"ms exceeded ("+strconv.FormatInt(elapsed, 10)+"ms elapsed).")
}

// interrupted is called when the run's flag is set: the run was cancelled
// or its time budget ran out.
func (r *run) interrupted(sp diag.Span) error {
	if m := r.memSeen.Load(); m > 0 {
		return r.memoryError(sp, m)
	}
	if r.timeUp() {
		return r.timeBudgetError(sp)
	}
	if r.ctx != nil && r.ctx.Err() != nil {
		e := newErr(diag.ECancelled, sp, r.cancelMessage())
		if sig := r.cancelSignal(); sig != "" {
			e.Details = details("signal", sig)
		}
		return e
	}
	return nil
}

// runContext is the run's context: the host's, cancelled when the run
// ends, and bounded by the time budget when there is one. A run whose
// host context cannot end and that has no time budget makes it at its
// first use (a tool call): most small programs never need one.
func (r *run) runContext() context.Context {
	if r.ctx == nil {
		r.ctx, r.cancel = context.WithCancel(r.host)
	}
	return r.ctx
}

// endContext cancels the run's context, if it was made.
func (r *run) endContext() {
	r.stopWorker()
	if r.cancel != nil {
		r.cancel()
	}
}

// timeUp reports whether the run's time budget has run out.
func (r *run) timeUp() bool {
	return r.limits.hasTime && time.Since(r.start) >= time.Duration(r.limits.timeMs)*time.Millisecond
}

// cancelSignal is the signal that cancelled the run (SignalCause), or "".
func (r *run) cancelSignal() string {
	var sc SignalCause
	if r.ctx != nil && errors.As(context.Cause(r.ctx), &sc) {
		return sc.Signal
	}
	return ""
}

// cancelMessage is the message of the run's E_CANCELLED.
func (r *run) cancelMessage() string {
	if sig := r.cancelSignal(); sig != "" {
		return "Run cancelled by " + sig + "."
	}
	return "Run cancelled."
}

// budgetStopped reports whether a tool's ErrTimeBudget means the run's
// time budget stopped it. A host's own deadline also ends the run's
// context (the engine reports it as "budget" too); that is a cancellation.
func (r *run) budgetStopped(cerr error) bool {
	return errors.Is(cerr, ErrTimeBudget) && r.limits.hasTime && r.host.Err() == nil
}

// stopText is the tool_end error of a tool that gave back its context's
// error (Go's "context canceled") or ErrTimeBudget because the run's
// context ended: why, in A0's words.
func (r *run) stopText() string {
	if r.timeUp() {
		return ErrTimeBudget.Msg
	}
	return r.cancelMessage()
}

// poll is the check made at the start of every statement and expression:
// one atomic load, and the slow path only when the run was cancelled, ran
// out of time or hit the memory ceiling.
func (r *run) poll(sp diag.Span) error {
	if r.flag.Load() == 0 {
		return nil
	}
	return r.interrupted(sp)
}

// emit writes a trace event when the run is traced. It is safe to call
// from other goroutines (tools' background jobs).
func (r *run) emit(name string, sp diag.Span, data value.Value) error {
	if r.tr == nil && r.obs == nil {
		return nil
	}
	return r.event(name, sp, data)
}
