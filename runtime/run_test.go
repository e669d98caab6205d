package runtime_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

func compile(t *testing.T, src string) *runtime.Program {
	t.Helper()
	prog, ds := newEnv(t, t.TempDir()).Compile("t.a0", src)
	if len(ds) > 0 {
		t.Fatal(renderDiags(ds))
	}
	return prog
}

// Host cancellation ends the run with E_CANCELLED, which try does not catch.
func TestCancelNotCaughtByTry(t *testing.T) {
	prog := compile(t, `let r = try {
  return loop { in: 0, times: 1000000000, as: "x" } { return x + 1 }
} catch { e } { return "caught" }
return r
`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	c := &collector{}
	start := time.Now()
	_, err := prog.Run(ctx, runtime.RunOptions{Trace: c})
	if time.Since(start) > 10*time.Second {
		t.Errorf("cancellation took %v", time.Since(start))
	}
	e, ok := err.(*runtime.Error)
	if !ok || e.Code != "E_CANCELLED" {
		t.Fatalf("err %v", err)
	}
	if e.Span == nil {
		t.Error("E_CANCELLED without a span")
	}
	last := c.events[len(c.events)-1]
	if last.Event != "run_end" || !strings.Contains(value.JSON(last.Data), `"error":"E_CANCELLED"`) {
		t.Errorf("last event %s %s", last.Event, value.JSON(last.Data))
	}
}

// A Program keeps no run state: the function table, evidence and budget
// counters start fresh for every run, also when runs overlap.
func TestProgramRunsAreIndependent(t *testing.T) {
	prog := compile(t, `budget { maxIterations: 3 }
fn mk {} {
  fn h {} { return "inner" }
  return 0
}
fn h {} { return "top" }
fn pair { a, b } { return [a, b] }
let before = h {}
let x = mk {}
let after = h {}
check { that: false, msg: "once" }
let xs = for { in: [1, 2, 3], as: "i" } { return pair { b: i } }
return [before, after, xs]
`)
	want := `["top","inner",[[null,1],[null,2],[null,3]]]`
	check := func() error {
		res, err := prog.Run(context.Background(), runtime.RunOptions{})
		if err != nil {
			return err
		}
		if got := value.JSON(res.Value); got != want {
			t.Errorf("got %s", got)
		}
		if len(res.Evidence) != 1 || !res.Failed {
			t.Errorf("evidence %d failed %v", len(res.Evidence), res.Failed)
		}
		return nil
	}
	for i := 0; i < 3; i++ {
		if err := check(); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := check(); err != nil {
				t.Errorf("concurrent run: %v", err)
			}
		}()
	}
	wg.Wait()
}

// The same call site reached with different declarations of one name binds
// each declaration's own parameters.
func TestCallSiteSeesEachDeclarationsParams(t *testing.T) {
	prog := compile(t, `fn a {} {
  fn f { x, y } { return ["a", x, y] }
  return 0
}
fn b {} {
  fn f { y, x } { return ["b", x, y] }
  return 0
}
let nm = "f"
let r = for { in: [1, 2, 1], as: "k" } {
  let reg = if { cond: k == 1, then: a {}, else: b {} }
  return map { in: [{ x: 10, y: 20 }], fn: nm }
}
return r
`)
	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := value.JSON(res.Value); got != `[[["a",10,20]],[["b",10,20]],[["a",10,20]]]` {
		t.Errorf("got %s", got)
	}
}

// Nested user calls through one call site, with declarations switching,
// keep binding by name.
func TestPlainCallSiteAfterRedeclaration(t *testing.T) {
	run := switchingCallSite(t)
	run()
	run()
}

// Overlapping runs of one Program (documented as safe for concurrent use)
// while a call site switches between declarations of one name.
func TestConcurrentRunsSwitchingCallSite(t *testing.T) {
	run := switchingCallSite(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				run()
			}
		}()
	}
	wg.Wait()
}

type panicTool struct{}

func (panicTool) Name() string            { return "t.boom" }
func (panicTool) Capability() string      { return "t" }
func (panicTool) Mode() runtime.Mode      { return runtime.ModeRead }
func (panicTool) Params() []runtime.Param { return nil }
func (panicTool) Call(*runtime.Call) (value.Value, error) {
	panic("boom")
}

// A panicking tool ends the run with E_RUNTIME; the panic stays available
// to the host as the error's cause.
func TestToolPanicIsRuntimeError(t *testing.T) {
	env, err := runtime.NewEnv(runtime.WithTools(panicTool{}), runtime.WithGrants(runtime.AllowAll))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", "cap { t: true }\nlet x = call? t.boom {}\nreturn x")
	if len(ds) > 0 {
		t.Fatal(renderDiags(ds))
	}
	_, rerr := prog.Run(context.Background(), runtime.RunOptions{})
	e, ok := rerr.(*runtime.Error)
	if !ok || e.Code != "E_RUNTIME" || e.Message != "internal error in tool 't.boom'" {
		t.Fatalf("got %v", rerr)
	}
	if e.Cause == nil || !strings.Contains(e.Cause.Error(), "panic: boom") {
		t.Errorf("cause = %v, want the panic", e.Cause)
	}
}

// switchingCallSite compiles a program whose call site f { p, q } reaches
// two declarations of f with differently ordered parameters, and returns
// a function that runs it once and checks the binding by name.
func switchingCallSite(t *testing.T) func() {
	prog := compile(t, `fn g {} {
  fn f { q, p } { return [p, q, "g"] }
  return 0
}
fn f { p, q } { return [p, q, "top"] }
fn call {} { return f { p: 1, q: 2 } }
let a = call {}
let x = g {}
let b = call {}
return [a, b]
`)
	return func() {
		res, err := prog.Run(context.Background(), runtime.RunOptions{})
		if err != nil {
			t.Error(err)
			return
		}
		if got := value.JSON(res.Value); got != `[[1,2,"top"],[1,2,"g"]]` {
			t.Errorf("got %s", got)
		}
	}
}

// countTool counts how often its parameter list is read.
type countTool struct{ reads *atomic.Int32 }

func (countTool) Name() string       { return "t.count" }
func (countTool) Capability() string { return "t" }
func (countTool) Mode() runtime.Mode { return runtime.ModeRead }
func (c countTool) Params() []runtime.Param {
	c.reads.Add(1)
	return []runtime.Param{{Name: "n", Type: runtime.TypeNumber, Required: true}}
}
func (countTool) ClosedArgs() bool                        { return true }
func (countTool) Call(*runtime.Call) (value.Value, error) { return value.Int(1), nil }

// A tool's parameters are read when a program first names it, once per
// Env, and not at all for programs that do not: a host with many tools
// pays nothing per tool at NewEnv or per compile.
func TestToolDetailReadOnce(t *testing.T) {
	var reads atomic.Int32
	env, err := runtime.NewEnv(runtime.WithTools(countTool{&reads}), runtime.WithGrants(runtime.AllowAll))
	if err != nil {
		t.Fatal(err)
	}
	if _, ds := env.Compile("a.a0", "return 1"); len(ds) > 0 || reads.Load() != 0 {
		t.Fatalf("program without the tool: %d reads, %v", reads.Load(), ds)
	}
	for i := 0; i < 3; i++ {
		_, ds := env.CompileWith("b.a0", "cap { t: true }\nlet x = call? t.count { m: 1 }\nreturn x", runtime.CompileOptions{Strict: true})
		if len(ds) != 1 || ds[0].Code != "E_UNKNOWN_ARG" {
			t.Fatalf("strict compile %d: %s", i, renderDiags(ds))
		}
	}
	if n := reads.Load(); n != 1 {
		t.Fatalf("parameters read %d times; want once", n)
	}
}
