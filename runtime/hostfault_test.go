package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
)

// faultErr is a host's own error type; a nil *faultErr returned as error
// is the classic typed nil.
type faultErr struct{ msg string }

func (e *faultErr) Error() string { return e.msg }

// hostEnv is an Env with one host tool, h.x (capability h), doing f, and
// grants g (nil: none).
func hostEnv(t *testing.T, g runtime.Grants, f func(c *runtime.Call) (value.Value, error)) *runtime.Env {
	t.Helper()
	tl, err := hosttool.New(hosttool.Def{Name: "h.x", Capability: "h", Mode: runtime.ModeRead, Description: "test", Func: f})
	if err != nil {
		t.Fatal(err)
	}
	opts := []runtime.Option{runtime.WithTools(tl)}
	if g != nil {
		opts = append(opts, runtime.WithGrants(g))
	}
	env, err := runtime.NewEnv(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// compileOK compiles src, failing the test on a diagnostic.
func compileOK(t *testing.T, env *runtime.Env, file, src string) *runtime.Program {
	t.Helper()
	prog, ds := env.Compile(file, src)
	if prog == nil {
		t.Fatal(ds.JSONArray())
	}
	return prog
}

// runFaulty runs src with one host tool h.x (capability h) doing f.
func runFaulty(t *testing.T, f func(c *runtime.Call) (value.Value, error), src string) (*runtime.Result, error) {
	t.Helper()
	prog := compileOK(t, hostEnv(t, runtime.AllowAll, f), "fault.a0", src)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return prog.Run(ctx, runtime.RunOptions{})
}

// TestHostToolFaults: whatever a host tool returns — the zero Value, a
// nil record, a typed-nil error, an *Error without a code, a panic — the
// run ends with a value or with an error that has a stable code; no Go
// panic reaches the host and no error comes back without a code.
func TestHostToolFaults(t *testing.T) {
	tests := []struct {
		name     string
		f        func(c *runtime.Call) (value.Value, error)
		want     string // the run's value as JSON, or
		code     string // the error's code
		contains string // and a piece of its message
	}{
		{"zero value is null", func(*runtime.Call) (value.Value, error) { return value.Value{}, nil }, `{"v":null,"s":"null"}`, "", ""},
		{"nil record is empty", func(*runtime.Call) (value.Value, error) { return value.RecordOf(nil), nil }, `{"v":{},"s":"{}"}`, "", ""},
		{"nil list is empty", func(*runtime.Call) (value.Value, error) { return value.ListOf(nil), nil }, `{"v":[],"s":"[]"}`, "", ""},
		{"typed nil error", func(*runtime.Call) (value.Value, error) { var e *faultErr; return value.Int(1), e }, "", "E_TOOL", "returned a nil *runtime_test.faultErr as its error"},
		{"typed nil ToolError", func(*runtime.Call) (value.Value, error) { var e *runtime.ToolError; return value.Value{}, e }, "", "E_TOOL", "nil *runtime.ToolError"},
		{"typed nil Error", func(*runtime.Call) (value.Value, error) { var e *runtime.Error; return value.Value{}, e }, "", "E_TOOL", "nil *runtime.Error"},
		{"Error without code", func(*runtime.Call) (value.Value, error) { return value.Value{}, &runtime.Error{} }, "", "E_TOOL", "Tool 'h.x' failed."},
		{"panic", func(*runtime.Call) (value.Value, error) { panic("boom") }, "", "E_RUNTIME", "internal error in tool 'h.x'"},
		{"panic nil", func(*runtime.Call) (value.Value, error) { panic(nil) }, "", "E_RUNTIME", "internal error in tool 'h.x'"},
		{"NaN", func(*runtime.Call) (value.Value, error) { return value.Num(math.NaN()), nil }, "", "E_TOOL", "not finite"},
		{"infinity in a record", func(*runtime.Call) (value.Value, error) {
			r := value.NewRecord(1)
			r.Set("a", value.ListOf([]value.Value{value.Num(math.Inf(1))}))
			return value.RecordOf(r), nil
		}, "", "E_TOOL", "not finite"},
		{"value and error", func(*runtime.Call) (value.Value, error) { return value.Int(3), errors.New("x") }, "", "E_TOOL", "Tool 'h.x' failed: x"},
	}
	const src = "cap { h: true }\ncall? h.x {} -> v\nreturn { v: v, s: json.stringify { in: v } }\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := runFaulty(t, tt.f, src)
			if res == nil {
				t.Fatal("nil Result")
			}
			if tt.code == "" {
				if err != nil {
					t.Fatalf("err %v", err)
				}
				if got := value.JSON(res.Value); got != tt.want {
					t.Errorf("value %s, want %s", got, tt.want)
				}
				return
			}
			e, _ := runtime.ErrorOf(err)
			if e == nil || string(e.Code) != tt.code || !contains(e.Message, tt.contains) {
				t.Errorf("error %v, want %s containing %q", err, tt.code, tt.contains)
			}
			if e != nil && e.Span == nil {
				t.Errorf("error %v has no span", err)
			}
		})
	}
}

// TestErrorOf: ErrorOf never panics and always gives a code: nil is nil,
// a wrapped *Error is found, a typed nil and an *Error without a code
// become E_RUNTIME.
func TestErrorOf(t *testing.T) {
	coded := &runtime.Error{}
	coded.Code = "E_TOOL"
	coded.Message = "m"
	var typedNil *runtime.Error
	tests := []struct {
		name string
		err  error
		code string
	}{
		{"plain", errors.New("x"), "E_RUNTIME"},
		{"wrapped", fmt.Errorf("run: %w", coded), "E_TOOL"},
		{"typed nil", typedNil, "E_RUNTIME"},
		{"no code", &runtime.Error{}, "E_RUNTIME"},
		{"nil faultErr", (*faultErr)(nil), "E_RUNTIME"},
	}
	for _, tt := range tests {
		e, _ := runtime.ErrorOf(tt.err)
		if e == nil || string(e.Code) != tt.code || e.Message == "" {
			t.Errorf("%s: ErrorOf = %+v, want code %s and a message", tt.name, e, tt.code)
		}
	}
	if e, _ := runtime.ErrorOf(nil); e != nil {
		t.Errorf("ErrorOf(nil) = %v", e)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// nopResource counts its closes.
type nopResource struct{ closed chan string }

func (n *nopResource) Close(reason string) { n.closed <- reason }

// TestAbandonedToolCall: a host tool that ignores its cancelled context
// (here: sleeps) does not hold the run: Run returns ToolStopGrace after
// the cancellation (host context or time budget) with E_CANCELLED or
// E_BUDGET, and what the tool does with its Call afterwards reaches
// nothing (run under -race: no data race with the run's end).
func TestAbandonedToolCall(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		cancel time.Duration // host context timeout; 0: none
		code   string
	}{
		{"host cancel", "cap { h: true }\ncall? h.x {} -> v\nreturn v\n", 100 * time.Millisecond, "E_CANCELLED"},
		{"time budget", "cap { h: true }\nbudget { timeMs: 100 }\ncall? h.x {} -> v\nreturn v\n", 0, "E_BUDGET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			finished := make(chan error, 1)
			closed := make(chan string, 1)
			env := hostEnv(t, runtime.AllowAll, func(c *runtime.Call) (value.Value, error) {
				<-release // ignores c.Ctx
				c.SetEndData(value.Int(1))
				_ = c.Emit("late", value.NullValue)
				c.Resource("k", func() runtime.Resource { return &nopResource{closed: closed} })
				err := c.ReserveWrite(10)
				finished <- err
				return value.Int(1), nil
			})
			prog := compileOK(t, env, "abandon.a0", tt.src)
			ctx := context.Background()
			if tt.cancel > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.cancel)
				defer cancel()
			}
			var events []string
			sink := traceFunc(func(ev runtime.TraceEvent) error { events = append(events, ev.Event); return nil })
			start := time.Now()
			_, err := prog.Run(ctx, runtime.RunOptions{Trace: sink})
			took := time.Since(start)
			if e, _ := runtime.ErrorOf(err); e == nil || string(e.Code) != tt.code {
				t.Errorf("err %v, want %s", err, tt.code)
			}
			if took > 100*time.Millisecond+runtime.ToolStopGrace+500*time.Millisecond {
				t.Errorf("Run took %v, want about %v", took, 100*time.Millisecond+runtime.ToolStopGrace)
			}
			n := len(events)
			close(release)
			if err := <-finished; err == nil {
				t.Error("ReserveWrite of an abandoned call succeeded")
			}
			if r := <-closed; r != "run_end" {
				t.Errorf("resource of an abandoned call closed with %q", r)
			}
			if len(events) != n || events[n-1] != "run_end" {
				t.Errorf("events after the run: %v", events)
			}
		})
	}
}

// traceFunc is a TraceSink from a function.
type traceFunc func(ev runtime.TraceEvent) error

func (f traceFunc) Event(ev runtime.TraceEvent) error { return f(ev) }

// TestSessionReentry: a tool of a session input that calls Eval on the
// same session with its Call.Ctx gets E_RUNTIME at once, instead of
// waiting for itself; an Eval waiting for another input's turn ends with
// E_CANCELLED when its context does.
func TestSessionReentry(t *testing.T) {
	var sess *runtime.Session
	release := make(chan struct{})
	nested := make(chan error, 1)
	env := hostEnv(t, runtime.AllowAll, func(c *runtime.Call) (value.Value, error) {
		if c.Args.GetOrNull("wait").AsBool() {
			<-release
			return value.True, nil
		}
		_, _, err := sess.Eval(c.Ctx, "<nested>", "1 + 1", runtime.RunOptions{})
		nested <- err
		return value.True, nil
	})
	sess = env.NewSession()
	defer sess.Close()
	res, ds, err := sess.Eval(context.Background(), "<top>", "cap { h: true }\ncall? h.x {}", runtime.RunOptions{})
	if err != nil || len(ds) > 0 || !res.Value.AsBool() {
		t.Fatalf("outer input: %v %v %v", res, ds, err)
	}
	if e, _ := runtime.ErrorOf(<-nested); e == nil || e.Code != "E_RUNTIME" || !strings.Contains(e.Message, "wait for itself") {
		t.Errorf("nested Eval: %v", e)
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _, _ = sess.Eval(context.Background(), "<busy>", "cap { h: true }\ncall? h.x { wait: true }", runtime.RunOptions{})
	}()
	time.Sleep(50 * time.Millisecond) // let it take the turn
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = sess.Eval(ctx, "<waiting>", "1", runtime.RunOptions{})
	if e, _ := runtime.ErrorOf(err); e == nil || e.Code != "E_CANCELLED" || time.Since(start) > 2*time.Second {
		t.Errorf("waiting Eval: %v after %v", err, time.Since(start))
	}
	close(release)
	<-done
}

// TestCapDeniedHasHint: both E_CAP_DENIED a run raises for missing
// grants (at start-up and at a tool call) carry a hint saying who grants
// the capability, so a host that grants nothing still gives the program's
// author a fix.
func TestCapDeniedHasHint(t *testing.T) {
	env := hostEnv(t, nil, func(*runtime.Call) (value.Value, error) { return value.True, nil }) // grants nothing
	prog := compileOK(t, env, "deny.a0", "cap { h: true }\ncall? h.x {} -> v\nreturn v\n")
	first := true
	grants := []runtime.Grants{nil, runtime.GrantFunc(func(string) bool { f := first; first = false; return f })}
	for i, g := range grants {
		res, err := prog.Run(context.Background(), runtime.RunOptions{Grants: g})
		e, _ := runtime.ErrorOf(err)
		if e == nil || e.Code != "E_CAP_DENIED" || e.Hint != runtime.GrantHint("h") {
			t.Errorf("%d: %v (hint %q)", i, err, e.Hint)
		}
		if want := i == 1; res.Started != want {
			t.Errorf("%d: Started %v", i, res.Started)
		}
	}
}

// TestNilRecordEvents: value.RecordOf(nil) given to Call.Emit or
// Call.SetEndData is an empty record in the trace, not a crash of the run.
func TestNilRecordEvents(t *testing.T) {
	env := hostEnv(t, runtime.AllowAll, func(c *runtime.Call) (value.Value, error) {
		if err := c.Emit("h_event", value.RecordOf(nil)); err != nil {
			return value.Value{}, err
		}
		c.SetEndData(value.RecordOf(nil))
		return value.True, nil
	})
	prog := compileOK(t, env, "nilrec.a0", "cap { h: true }\ncall? h.x {} -> v\nreturn v\n")
	var got []string
	sink := traceFunc(func(ev runtime.TraceEvent) error {
		if ev.Event == "h_event" || ev.Event == "tool_end" {
			got = append(got, ev.Event+" "+value.JSON(ev.Data))
		}
		return nil
	})
	if _, err := prog.Run(context.Background(), runtime.RunOptions{Trace: sink}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != `h_event {}` || !strings.HasSuffix(got[1], `"exec":{}}`) {
		t.Errorf("events %q, want h_event {} and a tool_end with exec {}", got)
	}
}

// TestHostMisuse: what a careless host passes — a nil Program, a nil
// context, a nil tool, nil grants, negative bounds — is an error of
// NewEnv or a coded error of Run, never a panic.
func TestHostMisuse(t *testing.T) {
	var nilProg *runtime.Program
	res, err := nilProg.Run(context.Background(), runtime.RunOptions{})
	if e, _ := runtime.ErrorOf(err); res == nil || e == nil || e.Code != "E_RUNTIME" || e.Hint == "" {
		t.Errorf("nil Program: %v %v", res, err)
	}
	var nilHost *hostTool
	for name, opt := range map[string]runtime.Option{
		"nil tool":         runtime.WithTools(nil),
		"nil pointer tool": runtime.WithTools(nilHost),
		"negative depth":   runtime.WithMaxDepth(-1),
		"negative memory":  runtime.WithMemoryLimit(-5),
		"negative ceiling": runtime.WithBudgetCeiling(runtime.Budget{MaxToolCalls: runtime.Limit(-3)}),
	} {
		if env, err := runtime.NewEnv(opt); err == nil || env != nil {
			t.Errorf("%s: NewEnv gave %v, %v", name, env, err)
		}
	}
	env, err := runtime.NewEnv(runtime.WithGrants(nil))
	if err != nil {
		t.Fatal(err)
	}
	prog := compileOK(t, env, "misuse.a0", "cap { fs.read: true }\nreturn 1\n")
	//lint:ignore SA1012 a nil context is what is tested
	_, err = prog.Run(nil, runtime.RunOptions{}) //nolint:staticcheck
	if e, _ := runtime.ErrorOf(err); e == nil || e.Code != "E_CAP_DENIED" {
		t.Errorf("nil grants, nil ctx: %v", err)
	}
	prog, _ = env.Compile("misuse.a0", "budget { maxIterations: 100 }\nreturn loop { in: 0, times: 3, as: \"n\" } {\n  return n + 1\n}\n")
	_, err = prog.Run(context.Background(), runtime.RunOptions{Ceiling: runtime.Budget{MaxIterations: runtime.Limit(-1)}})
	if e, _ := runtime.ErrorOf(err); e == nil || e.Code != "E_BUDGET" || !strings.Contains(e.Message, "limit of 0 ") {
		t.Errorf("negative run ceiling: %v", err)
	}
}

// TestZeroEnv: a host that declares `var env runtime.Env` (or holds a nil
// *Env) gets NewEnv's defaults, not a nil dereference: no tools, every
// capability denied.
func TestZeroEnv(t *testing.T) {
	var zero runtime.Env
	var nilEnv *runtime.Env
	for name, env := range map[string]*runtime.Env{"zero": &zero, "nil": nilEnv} {
		prog := compileOK(t, env, "zero.a0", "let xs = [1, 2]\nreturn { n: len { in: xs } }\n")
		res, err := prog.Run(context.Background(), runtime.RunOptions{})
		if err != nil || value.JSON(res.Value) != `{"n":2}` {
			t.Errorf("%s: run gave %v, %v", name, res, err)
		}
		if _, ds := env.Compile("zero.a0", "return do sh.exec { cmd: \"true\" }\n"); len(ds) == 0 {
			t.Errorf("%s: a tool call compiled in an Env without tools", name)
		}
		if len(env.Tools()) != 0 || env.CheckConfig() == nil {
			t.Errorf("%s: Tools %v, CheckConfig %v", name, env.Tools(), env.CheckConfig())
		}
		s := env.NewSession()
		if r, ds, err := s.Eval(context.Background(), "repl", "let y = 40\nreturn y + 2\n", runtime.RunOptions{}); err != nil || len(ds) > 0 || r == nil || value.JSON(r.Value) != "42" {
			t.Errorf("%s: session gave %v, %v, %v", name, r, ds, err)
		}
		s.Close()
	}
}

// hostTool is a Tool type whose nil pointer a host might register.
type hostTool struct{}

func (*hostTool) Name() string                            { return "h.nil" }
func (*hostTool) Capability() string                      { return "h" }
func (*hostTool) Mode() runtime.Mode                      { return runtime.ModeRead }
func (*hostTool) Params() []runtime.Param                 { return nil }
func (*hostTool) Call(*runtime.Call) (value.Value, error) { return value.NullValue, nil }

// TestMaxDepthLimitIsSafe: runaway recursion at the largest allowed depth
// ends with the depth error, not with a fatal Go stack overflow (which
// WithMaxDepth(1000000) caused: the host process died).
func TestMaxDepthLimitIsSafe(t *testing.T) {
	if testing.Short() {
		t.Skip("deep recursion")
	}
	env, err := runtime.NewEnv(runtime.WithMaxDepth(runtime.MaxDepthLimit))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"fn f { n } {\n  return f { n: n + 1 }\n}\nreturn f { n: 0 }\n",
		"fn f { n } {\n  return map { in: [n + 1], fn: \"f\" }\n}\nreturn f { n: 0 }\n",
	} {
		prog := compileOK(t, env, "deep.a0", src)
		_, err := prog.Run(context.Background(), runtime.RunOptions{})
		if e, _ := runtime.ErrorOf(err); e == nil || !strings.Contains(e.Message, "Maximum call depth") {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestConcurrentHostToolRuns: many runs of one Program on one Env, each
// with a context that can end (so its host tool calls go through the
// run's worker), some cancelled mid-call: every run gives its own value
// or E_CANCELLED, the counts and evidence of one run never leak into
// another (run it under -race).
func TestConcurrentHostToolRuns(t *testing.T) {
	env := hostEnv(t, runtime.AllowAll, func(c *runtime.Call) (value.Value, error) {
		if c.Args.GetOrNull("slow").AsBool() {
			<-c.Ctx.Done()
			return value.Value{}, c.Ctx.Err()
		}
		return c.Args.GetOrNull("n"), nil
	})
	prog := compileOK(t, env, "conc.a0", "cap { h: true }\ninput { n: \"int\", slow: \"bool\" }\nbudget { maxToolCalls: 3 }\ncall? h.x { n: input.n } -> a\ncall? h.x { n: a + 1 } -> b\ncheck { that: b == input.n + 1, msg: \"b\" }\ncall? h.x { n: b, slow: input.slow } -> c\nreturn c\n")
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				slow := (g+i)%5 == 0
				ctx, cancel := context.WithCancel(context.Background())
				if slow {
					time.AfterFunc(5*time.Millisecond, cancel)
				}
				n := g*100 + i
				res, err := prog.Run(ctx, runtime.RunOptions{Input: map[string]any{"n": n, "slow": slow}})
				cancel()
				if len(res.Evidence) > 1 || !slow && len(res.Evidence) != 1 {
					// (a slow run may be cancelled before its check)
					t.Errorf("run %d: evidence %v", n, res.Evidence)
				}
				if slow {
					if e, _ := runtime.ErrorOf(err); e == nil || e.Code != "E_CANCELLED" {
						t.Errorf("run %d: %v", n, err)
					}
					continue
				}
				if err != nil || value.JSON(res.Value) != strconv.Itoa(n+1) {
					t.Errorf("run %d: %v %v", n, value.JSON(res.Value), err)
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestWrappedTimeBudget: a host tool that stops at its time budget and
// wraps runtime.ErrTimeBudget in its own error still ends the run with
// E_BUDGET (timeMs), as the bare sentinel does.
func TestWrappedTimeBudget(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		res, err := runFaulty(t, func(c *runtime.Call) (value.Value, error) {
			<-c.Ctx.Done()
			if wrap {
				return value.Value{}, fmt.Errorf("fetching: %w", runtime.ErrTimeBudget)
			}
			return value.Value{}, runtime.ErrTimeBudget
		}, "cap { h: true }\nbudget { timeMs: 50 }\ncall? h.x {} -> v\nreturn v\n")
		e, _ := runtime.ErrorOf(err)
		if res == nil || e == nil || e.Code != "E_BUDGET" || e.Details.AsRecord().GetOrNull("budget").AsString() != "timeMs" {
			t.Errorf("wrap %v: %v", wrap, err)
		}
	}
}

// closeRes records its close and panics when told to.
type closeRes struct {
	panics bool
	closed *[]string
	name   string
}

func (c *closeRes) Close(reason string) {
	*c.closed = append(*c.closed, c.name)
	if c.panics {
		panic("close " + c.name)
	}
}

// TestResourceClosePanics: a tool resource whose Close panics at run end
// does not keep the run's other resources open, and comes back as
// E_RUNTIME from Run; from Session.Close it does not escape.
func TestResourceClosePanics(t *testing.T) {
	var closed []string
	env := hostEnv(t, runtime.AllowAll, func(c *runtime.Call) (value.Value, error) {
		c.Resource("a", func() runtime.Resource { return &closeRes{closed: &closed, name: "a"} })
		c.Resource("b", func() runtime.Resource { return &closeRes{panics: true, closed: &closed, name: "b"} })
		return value.True, nil
	})
	prog := compileOK(t, env, "res.a0", "cap { h: true }\ncall? h.x {} -> v\nreturn v\n")
	_, err := prog.Run(context.Background(), runtime.RunOptions{})
	if e, _ := runtime.ErrorOf(err); e == nil || e.Code != "E_RUNTIME" || !strings.Contains(e.Message, "close b") {
		t.Errorf("run: %v", err)
	}
	if strings.Join(closed, ",") != "b,a" {
		t.Errorf("closed %v, want b,a", closed)
	}
	closed = nil
	s := env.NewSession()
	if _, _, err := s.Eval(context.Background(), "<in>", "cap { h: true }\ncall? h.x {}", runtime.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if strings.Join(closed, ",") != "b,a" {
		t.Errorf("session closed %v, want b,a", closed)
	}
}

// TestNonFiniteInput: a Go input holding NaN or an infinity, at any depth
// and for any declared type, is E_INPUT saying so (before: accepted as
// "any" and printed as null, or refused as an int that "got null").
func TestNonFiniteInput(t *testing.T) {
	env, err := runtime.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	for _, ty := range []string{"any", "float", "int", "list"} {
		prog := compileOK(t, env, "in.a0", "input { x: \""+ty+"\" }\nreturn input.x\n")
		for _, v := range []any{math.NaN(), math.Inf(-1), []any{1, math.Inf(1)}, map[string]any{"a": []float64{math.NaN()}}} {
			res, err := prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"x": v}})
			e, _ := runtime.ErrorOf(err)
			if e == nil || e.Code != "E_INPUT" || !strings.Contains(e.Message, "not finite") || res.Started {
				t.Errorf("%s %v: %v", ty, v, err)
			}
		}
	}
	prog, _ := env.Compile("in.a0", "input { x: \"rec\" }\nreturn input.x\n")
	var nilRec *value.Record
	res, err := prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"x": nilRec}})
	if e, _ := runtime.ErrorOf(err); e == nil || e.Code != "E_INPUT" {
		t.Errorf("nil *Record input (null for rec): %v %v", value.JSON(res.Value), err)
	}
	res, err = prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"x": value.RecordOf(nil)}})
	if err != nil || value.JSON(res.Value) != "{}" {
		t.Errorf("RecordOf(nil) input: %v %v", value.JSON(res.Value), err)
	}
}
