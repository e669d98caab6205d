package runtime

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
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
	Doc      string
}

// Tool is a capability-gated operation callable from A0 with `call?` or
// `do`. Implementations must honour c.Ctx (cancelled when the run is
// cancelled or its time budget ends).
type Tool interface {
	Name() string
	// Capability is the capability id that gates the tool.
	Capability() string
	Mode() Mode
	// Params lists the arguments, in the order E_TOOL_ARGS reports them.
	// Unknown extra arguments are accepted and passed through.
	Params() []Param
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
	reserved bool
	charged  int64
}

// ReserveWrite charges n bytes against the run's maxBytesWritten budget
// before a tool writes them. It returns an E_BUDGET error (and charges
// nothing) when the write would exceed the budget; the tool must then not
// write anything.
func (c *Call) ReserveWrite(n int64) error {
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
	if c.r == nil || n > c.charged {
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

// Env returns a host value attached to the run with [RunOptions.Values].
func (c *Call) Value(key string) any {
	if c.r == nil {
		return nil
	}
	return c.r.opts.Values[key]
}

func (r *run) chargeBytes(sp diag.Span, n int64) error {
	total := r.bytesWritten + n
	if r.limits.hasBytes && total > r.limits.maxBytes {
		return r.budgetError(sp, "maxBytesWritten", r.limits.maxBytes, total,
			"Budget exceeded: maxBytesWritten limit of "+itoa(r.limits.maxBytes)+" bytes exceeded ("+itoa(total)+" bytes written).")
	}
	r.bytesWritten = total
	return nil
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
					issues = append(issues, p.Name+"."+itoa(int64(i))+": Expected string, received "+typeWord(x))
				}
			}
		}
		if want != "" {
			issues = append(issues, p.Name+": Expected "+want+", received "+typeWord(v))
		}
	}
	return issues
}

func (n *toolNode) eval(r *run, f *frame) (value.Value, error) {
	if r.flag.Load() != 0 {
		if err := r.interrupted(n.span); err != nil {
			return value.Value{}, err
		}
	}
	t, ok := r.env.tools[n.name]
	if !ok {
		return value.Value{}, newErr(diag.EUnknownTool, n.span, "Unknown tool '"+n.name+"'.")
	}
	if !n.do && t.Mode() == ModeEffect {
		return value.Value{}, newErr(diag.ECallEffect, n.span, "Cannot use 'call?' with effectful tool '"+n.name+"'. Use 'do' instead.")
	}
	capID := t.Capability()
	if !r.allowed(capID) {
		e := newErr(diag.ECapDenied, n.span, "Capability '"+capID+"' required by tool '"+n.name+"' is not allowed.")
		e.Details = details("capability", capID, "tool", n.name)
		return value.Value{}, e
	}
	args, err := n.args.build(r, f)
	if err != nil {
		return value.Value{}, err
	}
	issues := ValidateArgs(n.name, t.Params(), args)
	if ac, ok := t.(ArgChecker); ok && len(issues) == 0 {
		issues = ac.CheckArgs(args)
	}
	if len(issues) > 0 {
		e := newErr(diag.EToolArgs, n.args.span, "Invalid arguments for tool '"+n.name+"': "+strings.Join(issues, "; "))
		e.Details = details("tool", n.name)
		return value.Value{}, e
	}
	r.toolCalls++
	if r.limits.hasToolCalls && r.toolCalls > r.limits.maxToolCalls {
		return value.Value{}, r.budgetError(n.span, "maxToolCalls", r.limits.maxToolCalls, r.toolCalls,
			"Budget exceeded: maxToolCalls limit of "+itoa(r.limits.maxToolCalls)+" reached.")
	}
	argv := value.RecordOf(args)
	if r.tr != nil {
		if err := r.event("tool_start", n.span, details("tool", n.name, "args", r.redact(argv), "mode", t.Mode().String())); err != nil {
			return value.Value{}, err
		}
	}
	call := &Call{Ctx: r.ctx, Tool: n.name, Args: args, Span: n.span, WorkDir: r.env.workDir, r: r}
	start := time.Now()
	res, cerr := r.invoke(t, call)
	dur := time.Since(start).Milliseconds()
	if cerr == ErrTimeBudget {
		// The tool was stopped because the run's time budget ran out.
		if r.tr != nil {
			if err := r.event("tool_end", n.span, details("tool", n.name, "outcome", "ok", "durationMs", dur, "killReason", "budget")); err != nil {
				return value.Value{}, err
			}
		}
		elapsed := time.Since(r.start).Milliseconds()
		return value.Value{}, r.budgetError(n.span, "timeMs", r.limits.timeMs, elapsed,
			"Budget exceeded: timeMs limit of "+itoa(r.limits.timeMs)+"ms exceeded ("+itoa(elapsed)+"ms elapsed).")
	}
	if br, ok := cerr.(*bytesRefused); ok {
		// Refused before writing anything (maxBytesWritten).
		if r.tr != nil {
			if err := r.event("tool_end", n.span, details("tool", n.name, "outcome", "err", "durationMs", dur, "error", "maxBytesWritten exceeded")); err != nil {
				return value.Value{}, err
			}
		}
		return value.Value{}, r.budgetError(n.span, "maxBytesWritten", r.limits.maxBytes, br.total,
			"Budget exceeded: maxBytesWritten limit of "+itoa(r.limits.maxBytes)+" bytes exceeded ("+itoa(br.total)+" bytes written).")
	}
	if cerr != nil {
		msg := r.mask(cerr.Error())
		if r.tr != nil {
			if err := r.event("tool_end", n.span, details("tool", n.name, "outcome", "err", "durationMs", dur, "error", msg)); err != nil {
				return value.Value{}, err
			}
		}
		if r.flag.Load() != 0 {
			if err := r.interrupted(n.span); err != nil {
				return value.Value{}, err
			}
		}
		if e, ok := cerr.(*Error); ok {
			return value.Value{}, e
		}
		e := newErr(diag.ETool, n.span, "Tool '"+n.name+"' failed: "+msg)
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
		}
		e.Cause = cerr
		return value.Value{}, e
	}
	if r.tr != nil {
		if err := r.event("tool_end", n.span, details("tool", n.name, "outcome", "ok", "durationMs", dur)); err != nil {
			return value.Value{}, err
		}
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
	if r.flag.Load() != 0 {
		if err := r.interrupted(n.span); err != nil {
			return value.Value{}, err
		}
	}
	return res, nil
}

// invoke runs a tool, turning a panic inside it into an error.
func (r *run) invoke(t Tool, c *Call) (v value.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Code: diag.ERuntime, Message: "internal error in tool '" + t.Name() + "'", Span: c.Span, HasSpan: true}
		}
	}()
	return t.Call(c)
}

// redact hides secret values in trace data (hook for the exec engine's
// masking; identity for now).
func (r *run) redact(v value.Value) value.Value { return v }

// mask hides secret values in messages (hook for the exec engine's
// masking; identity for now).
func (r *run) mask(s string) string { return s }

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
	Msg    string
	Reason string
	// Extra holds more detail fields (may be nil).
	Extra *value.Record
}

func (e *ToolError) Error() string { return e.Msg }

// ErrTimeBudget is returned by a tool whose work was stopped because the
// run's time budget (Call.Remaining) ran out; the evaluator raises E_BUDGET.
var ErrTimeBudget = &ToolError{Msg: "stopped: time budget exhausted", Reason: "budget"}

// ArgChecker is implemented by tools with argument rules beyond Params
// (ranges, exclusive fields). CheckArgs returns E_TOOL_ARGS issues.
type ArgChecker interface {
	CheckArgs(args *value.Record) []string
}
