package runtime

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/proc"
)

// Mode says how a tool may be called: read tools with `call?` (or `do`),
// effect tools only with `do`.
type Mode int

// Tool modes.
const (
	ModeRead Mode = iota
	ModeEffect
)

// String returns "read" or "effect".
func (m Mode) String() string {
	if m == ModeEffect {
		return "effect"
	}
	return "read"
}

// ParamType is the type of a tool argument.
type ParamType int

// Argument types.
const (
	TypeAny ParamType = iota
	TypeString
	TypeNumber
	TypeBool
	TypeStringMap  // a record whose values are strings
	TypeStringList // a list of strings
	TypeRecord
	TypeList
)

// Param describes one named tool argument.
type Param struct {
	Name     string
	Type     ParamType
	Required bool
	// Doc is the argument's description (help texts, JSON Schema).
	Doc string
}

// Tool is a capability-gated operation callable from A0 with `call?` or
// `do`. Implementations must honour c.Ctx (cancelled when the run is
// cancelled or its time budget ends): a call of a tool that is not
// Awaited still running ToolStopGrace after that is abandoned.
type Tool interface {
	// Name is the dotted name programs call the tool by ("fs.read").
	Name() string
	// Capability is the capability id that gates the tool.
	Capability() string
	// Mode is ModeRead (callable with call? or do) or ModeEffect (do only).
	Mode() Mode
	// Params lists the arguments, in the order E_TOOL_ARGS reports them.
	// Unknown extra arguments are accepted and passed through unless the
	// tool is ClosedArgs (every built-in tool is). It is read
	// on every call and never modified, so it may return a shared slice.
	Params() []Param
	// Call runs the tool with validated arguments. A returned error
	// becomes E_TOOL (see ToolError); an *Error is raised as it is.
	Call(c *Call) (value.Value, error)
}

// Call is the per-call context handed to a tool.
type Call struct {
	// Ctx is cancelled when the run is cancelled or its time budget ends.
	Ctx context.Context
	// Tool is the tool's name.
	Tool string
	// Args are the validated arguments.
	Args *value.Record
	// Span is the source span of the call expression.
	Span diag.Span
	// WorkDir is the directory relative paths resolve against.
	WorkDir string

	r        *run
	server   string // the MCP server of an MCP tool
	reserved bool
	charged  int64
	endData  value.Value

	// mu guards gone, set when the evaluator gave up waiting for the
	// call (a tool that did not return after its context ended, see
	// Awaited), and what the tool writes that the evaluator reads
	// (endData, reserved, charged, the run's bytes). From then on those
	// writes are dropped. No callback runs under mu.
	mu   sync.Mutex
	gone bool
}

// Emit writes a trace event with the call's span (no-op without a trace).
// It is safe to call from other goroutines (jobs finish in the background).
func (c *Call) Emit(event string, data value.Value) error {
	return c.EmitAt(event, c.Span, data)
}

// EmitAt writes a trace event with the given span.
func (c *Call) EmitAt(event string, sp diag.Span, data value.Value) error {
	if c.r == nil {
		return nil
	}
	return c.r.emit(event, sp, nilRecordSafe(data))
}

// nilRecordSafe is v, with value.RecordOf(nil) (a record value without a
// record, which a host may build) replaced by an empty record.
func nilRecordSafe(v value.Value) value.Value {
	if v.Kind() == value.RecordKind && v.AsRecord() == nil {
		return value.RecordOf(value.NewRecord(0))
	}
	return v
}

// SetEndData attaches extra data to the call's tool_end event (as its
// "exec" member).
func (c *Call) SetEndData(v value.Value) {
	v = nilRecordSafe(v)
	c.mu.Lock()
	if !c.gone {
		c.endData = v
	}
	c.mu.Unlock()
}

// Resource is per-run state a tool keeps (the exec engine's jobs). Close
// is called once when the run ends, however it ends, before run_end is
// written; reason is "run_end", or "host_cancel" when the host cancelled
// the run.
type Resource interface {
	Close(reason string)
}

// Resource returns the run's resource under key, creating it with open on
// first use. A REPL session keeps its resources across inputs.
func (c *Call) Resource(key string, open func() Resource) Resource {
	if c.r == nil {
		return open()
	}
	return c.r.resource(key, open)
}

// Redactor is implemented by tools whose arguments must be redacted in the
// tool_start trace event (secrets, stdin). ignored lists argument names the
// tool accepted but does not use (shown as tool_start's ignoredArgs); the
// built-in tools refuse such names instead and return none.
type Redactor interface {
	RedactArgs(c *Call, args *value.Record) (shown value.Value, ignored []string)
}

// ReserveWrite charges n bytes against the run's maxBytesWritten budget
// before a tool writes them. It returns an E_BUDGET error (and charges
// nothing) when the write would exceed the budget; the tool must then not
// write anything.
func (c *Call) ReserveWrite(n int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone {
		return context.Canceled // the run has ended: write nothing
	}
	c.reserved = true
	if c.r == nil {
		return nil
	}
	r := c.r
	total := r.bytesWritten + n
	if r.limits.hasBytes && total > r.limits.maxBytes {
		return &bytesRefused{total: total}
	}
	r.bytesWritten = total
	c.charged += n
	return nil
}

// ReleaseWrite gives back bytes reserved by ReserveWrite when the write
// then failed, so a failed write costs nothing.
func (c *Call) ReleaseWrite(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone || c.r == nil || n > c.charged {
		return
	}
	c.charged -= n
	c.r.bytesWritten -= n
}

// bytesRefused is returned by ReserveWrite when a write would exceed
// maxBytesWritten; the evaluator turns it into E_BUDGET.
type bytesRefused struct{ total int64 }

func (b *bytesRefused) Error() string { return "maxBytesWritten exceeded" }

// Remaining returns the time left in the run's time budget, or -1 when the
// run has no time budget.
func (c *Call) Remaining() time.Duration {
	if c.r == nil || !c.r.limits.hasTime {
		return -1
	}
	left := time.Duration(c.r.limits.timeMs)*time.Millisecond - time.Since(c.r.start)
	if left < 0 {
		left = 0
	}
	return left
}

// RunID returns the run id the host set with [RunOptions.RunID] ("" when
// it set none).
func (c *Call) RunID() string {
	if c.r == nil {
		return ""
	}
	return c.r.opts.RunID
}

// Exec returns the exec configuration the host set for this run with
// [RunOptions.Exec]; nil when it set none.
func (c *Call) Exec() *proc.Config {
	if c.r == nil {
		return nil
	}
	return c.r.opts.Exec
}

// Value returns a host value attached to the run with [RunOptions.Values],
// or else to every run with [WithValue]; nil when neither sets key.
func (c *Call) Value(key string) any {
	if c.r == nil {
		return nil
	}
	if v, ok := c.r.opts.Values[key]; ok {
		return v
	}
	return c.r.env.values[key]
}

func (r *run) chargeBytes(sp diag.Span, n int64) error {
	total := r.bytesWritten + n
	if r.limits.hasBytes && total > r.limits.maxBytes {
		return r.bytesBudgetError(sp, total)
	}
	r.bytesWritten = total
	return nil
}

// bytesBudgetError is the E_BUDGET of a write that would bring the run's
// total to total bytes, past maxBytesWritten.
func (r *run) bytesBudgetError(sp diag.Span, total int64) error {
	return r.budgetError(sp, "maxBytesWritten", r.limits.maxBytes, total,
		"Budget exceeded: maxBytesWritten limit of "+strconv.FormatInt(r.limits.maxBytes, 10)+" bytes exceeded ("+strconv.FormatInt(total, 10)+" bytes written).")
}

func typeWord(v value.Value) string {
	switch v.Kind() {
	case value.Undefined, value.Null:
		return "null"
	case value.Bool:
		return "boolean"
	case value.Number:
		return "number"
	case value.String:
		return "string"
	case value.ListKind:
		return "array"
	}
	return "object"
}

// ValidateArgs checks args against params and returns the E_TOOL_ARGS
// issues ("<path>: <text>"), in parameter order.
func ValidateArgs(tool string, params []Param, args *value.Record) []string {
	var issues []string
	for _, p := range params {
		v, ok := args.Get(p.Name)
		if !ok {
			if p.Required {
				issues = append(issues, p.Name+": "+tool+" requires a '"+p.Name+"' argument")
			}
			continue
		}
		want := ""
		switch p.Type {
		case TypeString:
			if v.Kind() != value.String {
				want = "string"
			}
		case TypeNumber:
			if v.Kind() != value.Number {
				want = "number"
			}
		case TypeBool:
			if v.Kind() != value.Bool {
				want = "boolean"
			}
		case TypeRecord:
			if v.Kind() != value.RecordKind {
				want = "object"
			}
		case TypeList:
			if v.Kind() != value.ListKind {
				want = "array"
			}
		case TypeStringMap:
			rec := v.AsRecord()
			if rec == nil {
				want = "object"
				break
			}
			for i, k := range rec.Keys() {
				if x := rec.At(i); x.Kind() != value.String {
					issues = append(issues, p.Name+"."+k+": Expected string, received "+typeWord(x))
				}
			}
		case TypeStringList:
			items := v.AsList()
			if v.Kind() != value.ListKind {
				want = "array"
				break
			}
			for i, x := range items {
				if x.Kind() != value.String {
					issues = append(issues, p.Name+"."+strconv.Itoa(i)+": Expected string, received "+typeWord(x))
				}
			}
		}
		if want != "" {
			issues = append(issues, p.Name+": Expected "+want+", received "+typeWord(v))
		}
	}
	return issues
}

// eval runs a tool call: resolve the tool and the right to call it, build
// and check the arguments, count the call against the budget, trace its
// start, invoke it, and report its end or its failure.
func (n *toolNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	t, err := n.resolve(r)
	if err != nil {
		return value.Value{}, err
	}
	args, err := n.args.build(r, f)
	if err != nil {
		return value.Value{}, err
	}
	if err := n.checkArgs(t, args); err != nil {
		return value.Value{}, err
	}
	r.toolCalls++
	if r.limits.hasToolCalls && r.toolCalls > r.limits.maxToolCalls {
		return value.Value{}, r.budgetError(n.span, "maxToolCalls", r.limits.maxToolCalls, r.toolCalls,
			"Budget exceeded: maxToolCalls limit of "+strconv.FormatInt(r.limits.maxToolCalls, 10)+" reached.")
	}
	if r.opts.BeforeTool != nil {
		r.opts.BeforeTool()
	}
	call, err := n.start(r, t, args)
	if err != nil {
		return value.Value{}, err
	}
	start := time.Now()
	res, cerr := r.invoke(t, call)
	dur := time.Since(start).Milliseconds()
	if isNilError(cerr) {
		// A typed nil (a nil *MyError returned as error) is not nil: it
		// is a bug of the tool, reported as such rather than as the
		// panic its Error method would cause.
		cerr = &ToolError{Msg: fmt.Sprintf("returned a nil %T as its error", cerr), Reason: "nil_error"}
	}
	if r.budgetStopped(cerr) || cerr != nil {
		return value.Value{}, n.failed(r, call, cerr, dur)
	}
	return n.finish(r, call, res, dur)
}

// resolve finds the tool called, checks that the policy allows it,
// prepares it, and checks that it may be called this way (call? only for
// read tools).
func (n *toolNode) resolve(r *run) (Tool, error) {
	t, ok := r.env.tools[n.name]
	if !ok {
		return nil, newErr(diag.EUnknownTool, n.span, "Unknown tool '"+n.name+"'.")
	}
	// The grant comes first: a tool the policy does not allow is never
	// prepared, so an MCP server no grant names is never started.
	capID := t.Capability()
	if !r.allowed(capID) {
		e := newErrHint(diag.ECapDenied, n.span, "Capability '"+capID+"' required by tool '"+n.name+"' is not allowed.", GrantHint(capID))
		e.Details = details("capability", capID, "tool", n.name)
		return nil, e
	}
	if p, ok := t.(Preparer); ok {
		var err error
		if tp, ok := t.(TracingPreparer); ok {
			err = tp.PrepareTraced(r.runContext(), func(event string, data value.Value) { _ = r.emit(event, n.span, data) })
		} else {
			err = p.Prepare(r.runContext())
		}
		if err != nil {
			if e, ok := err.(*Error); ok {
				if e.Span == nil {
					sp := n.span
					e.Span = &sp
				}
				return nil, e
			}
		}
	}
	if !n.do && t.Mode() == ModeEffect {
		return nil, newErr(diag.ECallEffect, n.span, "Cannot use 'call?' with effectful tool '"+n.name+"'. Use 'do' instead.")
	}
	return t, nil
}

// checkArgs refuses arguments the tool does not take, or that fail its
// parameter types or its own checks (E_TOOL_ARGS).
func (n *toolNode) checkArgs(t Tool, args *value.Record) error {
	if e := unknownToolArgs(t, n.name, n.args.span, args); e != nil {
		return e
	}
	issues := ValidateArgs(n.name, t.Params(), args)
	ac, checker := t.(ArgChecker)
	if checker && len(issues) == 0 {
		issues = ac.CheckArgs(args)
	}
	if len(issues) == 0 {
		return nil
	}
	e := newErrHint(diag.EToolArgs, n.args.span, "Invalid arguments for tool '"+n.name+"': "+strings.Join(issues, "; "), toolArgsHint(n.name, issues[0]))
	e.Details = details("tool", n.name)
	if checker {
		field, _, _ := strings.Cut(issues[0], ":")
		if i := strings.IndexAny(field, ".["); i > 0 {
			field = field[:i] // the top-level key of "o.x" or "tags[2]"
		}
		e.Details.AsRecord().Set("reason", value.Str("invalid_args"))
		e.Details.AsRecord().Set("field", value.Str(field))
	}
	return e
}

// start makes the call and traces its tool_start event, with the
// arguments the tool lets a trace show.
func (n *toolNode) start(r *run, t Tool, args *value.Record) (*Call, error) {
	call := &Call{Ctx: r.runContext(), Tool: n.name, Args: args, Span: n.span, WorkDir: r.env.workDir, r: r}
	if sv, ok := t.(interface{ Server() string }); ok {
		call.server = sv.Server() // an MCP tool: traces name its server
	}
	if r.tr == nil && r.obs == nil {
		return call, nil
	}
	shown := value.RecordOf(args)
	var ignored []string
	if rd, ok := t.(Redactor); ok {
		shown, ignored = rd.RedactArgs(call, args)
	}
	d := details("tool", n.name, "args", shown, "mode", t.Mode().String())
	if call.server != "" {
		d.AsRecord().Set("server", value.Str(call.server))
	}
	if len(ignored) > 0 {
		iv := make([]value.Value, len(ignored))
		for i, s := range ignored {
			iv[i] = value.Str(s)
		}
		d.AsRecord().Set("ignoredArgs", value.ListOf(iv))
	}
	if err := r.event("tool_start", n.span, d); err != nil {
		return nil, err
	}
	return call, nil
}

// failed traces the end of a call that did not succeed and returns its
// error: the time budget ran out, the bytes budget refused the write, the
// run was stopped, or the tool failed (E_TOOL with the tool's details).
func (n *toolNode) failed(r *run, call *Call, cerr error, dur int64) error {
	if r.budgetStopped(cerr) {
		// The tool was stopped because the run's time budget ran out.
		var kill []any
		if call.endData.IsUndefined() {
			kill = []any{"killReason", "budget"}
		}
		if err := r.toolEnd(n, call, "ok", dur, kill...); err != nil {
			return err
		}
		return r.timeBudgetError(n.span)
	}
	if br, ok := cerr.(*bytesRefused); ok {
		// Refused before writing anything (maxBytesWritten).
		if err := r.toolEnd(n, call, "err", dur, "error", "maxBytesWritten exceeded"); err != nil {
			return err
		}
		return r.bytesBudgetError(n.span, br.total)
	}
	msg := cerr.Error()
	if r.runContext().Err() != nil && (errors.Is(cerr, context.Canceled) || errors.Is(cerr, context.DeadlineExceeded) || errors.Is(cerr, ErrTimeBudget)) {
		msg = r.stopText()
		if _, ok := cerr.(*abandoned); ok {
			msg += " The tool " + cerr.Error() + "."
		}
	}
	if err := r.toolEnd(n, call, "err", dur, "error", msg); err != nil {
		return err
	}
	if r.runContext().Err() != nil {
		// The tool failed because the run was cancelled or ran out of
		// time; do not wait for the asynchronous flag to say so.
		r.flag.Store(1)
	}
	if err := r.poll(n.span); err != nil {
		return err
	}
	if e, ok := cerr.(*Error); ok {
		if e.Code == "" {
			// An *Error without a code still fails with one.
			c := *e
			c.Code = diag.ETool
			if c.Message == "" {
				c.Message = "Tool '" + n.name + "' failed."
			}
			if c.Span == nil {
				sp := n.span
				c.Span = &sp
			}
			return &c
		}
		return e
	}
	e := newErrHint(diag.ETool, n.span, "Tool '"+n.name+"' failed: "+msg, toolFailHint(n.name, msg))
	e.Details = details("tool", n.name)
	if te, ok := cerr.(*ToolError); ok {
		d := e.Details.AsRecord()
		if te.Reason != "" {
			d.Set("reason", value.Str(te.Reason))
		}
		if te.Extra != nil {
			for i, k := range te.Extra.Keys() {
				d.Set(k, te.Extra.At(i))
			}
		}
		if h := execFailHint(te.Reason, d); h != "" {
			e.Hint = h
		}
	}
	e.Cause = cerr
	return e
}

// execFailHint names the fix for an sh.* tool that could not start its
// command, from the failure's reason and details: a program not on PATH,
// a file that is not executable, a cwd that does not exist. "" for the
// other reasons.
func execFailHint(reason string, d *value.Record) string {
	exe := d.GetOrNull("executable").AsString()
	catch := " To go on without it, wrap the call in try { … } catch { e } { … }."
	switch reason {
	case "not_found":
		if exe == "" {
			return ""
		}
		if strings.ContainsRune(exe, '/') {
			return "There is no file '" + exe + "': check the path (a relative one starts from the command's cwd)." + catch
		}
		return "No program '" + exe + "' is on the PATH of the command: check its name (`command -v " + exe + "` in a shell), give its absolute path, or install it." + catch
	case "permission_denied":
		if exe == "" {
			return ""
		}
		return "'" + exe + "' is not a program a0 may run: give the path of an executable file (chmod +x for a script with a #! line), or run it through its interpreter, argv: [\"sh\", \"" + exe + "\"]." + catch
	case "cwd_not_found":
		return "The cwd does not exist: create it first, or give an existing folder (a relative cwd starts from the working directory or exec.root); call? fs.exists { path: … } tests one."
	}
	return ""
}

// finish traces the end of a successful call, charges the bytes it
// reports written (unless reserved before), and checks the result's size.
func (n *toolNode) finish(r *run, call *Call, res value.Value, dur int64) (value.Value, error) {
	switch {
	case res.IsUndefined():
		res = value.NullValue // value.Value{}: the tool returned nothing
	default:
		res = nilRecordSafe(res)
	}
	if err := r.toolEnd(n, call, "ok", dur); err != nil {
		return value.Value{}, err
	}
	if !call.reserved {
		if rec := res.AsRecord(); rec != nil {
			if b, ok := rec.Get("bytes"); ok && b.Kind() == value.Number {
				if err := r.chargeBytes(n.span, int64(b.AsNumber())); err != nil {
					return value.Value{}, err
				}
			}
		}
	}
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	if r.tooBig(res) {
		return value.Value{}, r.valueError(n.span, res)
	}
	if nonFinite(res) {
		// A0 arithmetic never makes NaN or an infinity (1 / 0 is an
		// error): one from a tool would compare unequal to itself and
		// print as null.
		e := newErrHint(diag.ETool, n.span, "Tool '"+n.name+"' failed: it returned a number that is not finite (NaN or an infinity).",
			"The tool (the host's) must return finite numbers, or null where it has none.")
		e.Details = details("tool", n.name, "reason", "invalid_result")
		return value.Value{}, e
	}
	return res, nil
}

// toolEnd emits a call's tool_end event: its outcome and duration, the
// given extra fields, then the tool's SetEndData (as "exec").
func (r *run) toolEnd(n *toolNode, c *Call, outcome string, dur int64, extra ...any) error {
	if r.tr == nil && r.obs == nil {
		return nil
	}
	d := details(append([]any{"tool", n.name, "outcome", outcome, "durationMs", dur}, extra...)...)
	if c.server != "" {
		d.AsRecord().Set("server", value.Str(c.server))
	}
	if !c.endData.IsUndefined() {
		d.AsRecord().Set("exec", c.endData)
	}
	return r.event("tool_end", n.span, d)
}

// invoke runs a tool, turning a panic inside it into an error. When the
// run can be stopped (a host context that can end, or a time budget) and
// the tool is not Awaited, the tool runs on a goroutine of its own, so
// that one that ignores its cancelled context is abandoned ToolStopGrace
// after the context ended: Run returns, and the call's methods stop
// reaching the run.
func (r *run) invoke(t Tool, c *Call) (value.Value, error) {
	if !r.stoppable || isAwaited(t) {
		return r.invokeHere(t, c)
	}
	w := r.worker
	if w == nil {
		w = &toolWorker{jobs: make(chan toolJob), out: make(chan toolOutcome, 1)}
		go w.loop(r)
		r.worker = w
	}
	w.jobs <- toolJob{t, c}
	select {
	case o := <-w.out:
		return o.v, o.err
	case <-c.Ctx.Done():
	}
	timer := time.NewTimer(ToolStopGrace)
	defer timer.Stop()
	select {
	case o := <-w.out:
		return o.v, o.err
	case <-timer.C:
	}
	c.mu.Lock()
	c.gone = true
	c.mu.Unlock()
	select {
	case o := <-w.out: // it returned while we took the lock
		return o.v, o.err
	default:
	}
	// The worker is left to the tool; it ends when the tool returns.
	close(w.jobs)
	r.worker = nil
	return value.Value{}, &abandoned{cause: c.Ctx.Err()}
}

// toolWorker is the goroutine that runs a run's calls of tools that are
// not Awaited, so that the run can leave one that does not return.
type toolWorker struct {
	jobs chan toolJob
	out  chan toolOutcome
}

type toolJob struct {
	t Tool
	c *Call
}

type toolOutcome struct {
	v   value.Value
	err error
}

func (w *toolWorker) loop(r *run) {
	for j := range w.jobs {
		v, err := r.invokeHere(j.t, j.c)
		w.out <- toolOutcome{v, err}
	}
}

// stopWorker ends the run's tool worker, if it has one.
func (r *run) stopWorker() {
	if r.worker != nil {
		close(r.worker.jobs)
		r.worker = nil
	}
}

// invokeHere runs a tool on the calling goroutine.
func (r *run) invokeHere(t Tool, c *Call) (v value.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			d := diag.New(diag.ERuntime, c.Span, "internal error in tool '"+t.Name()+"'", "")
			d.Cause = panicCause(p)
			err = &Error{Diagnostic: *d}
		}
	}()
	return t.Call(c)
}

// ToolStopGrace is how long a run waits for a tool that is not Awaited to
// return once its Call.Ctx has ended (the host cancelled the run, or its
// time budget ran out) before it abandons the call and ends.
const ToolStopGrace = time.Second

// Awaited is implemented by tools that stop on their own once Call.Ctx
// ends, and must be waited for however long that takes: the built-in
// tools, whose commands get their stop sequence (exec.graceMs), and MCP
// tools. A tool that is not Awaited, or whose AwaitedOnStop returns false
// (host tools), is abandoned ToolStopGrace after its context ended.
type Awaited interface {
	AwaitedOnStop() bool
}

func isAwaited(t Tool) bool {
	a, ok := t.(Awaited)
	return ok && a.AwaitedOnStop()
}

// abandoned is the error of a call the run stopped waiting for.
type abandoned struct{ cause error }

func (a *abandoned) Error() string {
	return "did not return within " + ToolStopGrace.String() + " of its cancellation (abandoned)"
}

func (a *abandoned) Unwrap() error { return a.cause }

// GrantHint is the hint of the E_CAP_DENIED a run raises when its grants
// do not allow capability c: who can grant it. A host that knows how its
// grants are made (the a0 command: its policy files) replaces it with its
// own (hostpolicy.GrantHint does).
func GrantHint(c string) string {
	return "The host running this program does not grant '" + c + "': it must allow it (runtime.WithGrants or RunOptions.Grants; with a policy file, its \"allow\" list); otherwise leave '" + c + "' out of the cap header and do without the tools that need it."
}

// ToolNames returns the names of the given tools, sorted.
func ToolNames(ts []Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	sort.Strings(out)
	return out
}

// ToolError is an error a tool returns to give E_TOOL a reason and extra
// details. The evaluator reports it as E_TOOL "Tool '<t>' failed: <Msg>"
// with details {tool, reason, ...Extra}.
type ToolError struct {
	// Msg is the message after "Tool '<t>' failed: ".
	Msg string
	// Reason is a stable machine-readable word (details.reason).
	Reason string
	// Extra holds more detail fields (may be nil).
	Extra *value.Record
}

// Error implements error with Msg.
func (e *ToolError) Error() string { return e.Msg }

// ErrTimeBudget is returned by a tool whose work was stopped because the
// run's time budget (Call.Remaining) ran out; the evaluator raises E_BUDGET.
var ErrTimeBudget = &ToolError{Msg: "stopped: time budget exhausted", Reason: "budget"}

// ArgChecker is implemented by tools with argument rules beyond Params
// (ranges, exclusive fields). CheckArgs returns E_TOOL_ARGS issues.
type ArgChecker interface {
	CheckArgs(args *value.Record) []string
}

// Preparer is implemented by tools that must learn about themselves before
// their mode, capability and arguments are checked: an MCP tool starts its
// server and lists its tools (spec/mcp.md). Prepare runs before every call
// with the run's context. An *Error it returns is raised as it is (E_UNKNOWN_TOOL
// when the server has no such tool); any other error is left for Call to
// report.
type Preparer interface {
	Prepare(ctx context.Context) error
}

// TracingPreparer is a Preparer whose preparation may be worth a trace
// event (an MCP tool starting its server writes mcp_server_start): the
// evaluator calls PrepareTraced instead of Prepare, with an emit that
// writes an event at the call's span (a no-op without a trace).
type TracingPreparer interface {
	Preparer
	PrepareTraced(ctx context.Context, emit func(event string, data value.Value)) error
}
