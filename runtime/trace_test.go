package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// collector is a TraceSink that keeps every event.
type collector struct {
	events []runtime.TraceEvent
	failAt int // when > 0, Event fails on this (1-based) event
}

func (c *collector) Event(ev runtime.TraceEvent) error {
	c.events = append(c.events, ev)
	if c.failAt > 0 && len(c.events) == c.failAt {
		return errors.New("disk full")
	}
	return nil
}

var durationRe = regexp.MustCompile(`"durationMs":\d+`)

// lines renders each event as "name @span data" with durations zeroed.
func (c *collector) lines() []string {
	out := make([]string, len(c.events))
	for i, ev := range c.events {
		s := ev.Event + " " + spanText(ev.Span)
		if ev.Data.Kind() != value.Undefined {
			s += " " + durationRe.ReplaceAllString(value.JSON(ev.Data), `"durationMs":0`)
		}
		out[i] = s
	}
	return out
}

func (c *collector) names() []string {
	out := make([]string, len(c.events))
	for i, ev := range c.events {
		out[i] = ev.Event
	}
	return out
}

// realDir is dir with symlinks resolved (tool paths are physical).
func realDir(t *testing.T, dir string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func runTraced(t *testing.T, src string) (*collector, outcome) {
	t.Helper()
	c := &collector{}
	o := runProgram(t, t.TempDir(), src, runtime.RunOptions{Trace: c})
	if o.static {
		t.Fatalf("static diagnostics:\n%s", o.text)
	}
	return c, o
}

func compareLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return
	}
	var b strings.Builder
	for i := 0; i < len(got) || i < len(want); i++ {
		g, w := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		mark := "  "
		if g != w {
			mark = "! "
		}
		fmt.Fprintf(&b, "%sgot:  %s\n%swant: %s\n", mark, g, mark, w)
	}
	t.Errorf("trace differs:\n%s", b.String())
}

func TestTraceEventsInOrder(t *testing.T) {
	src := `cap { fs.read: true }
budget { maxIterations: 10, timeMs: 60000 }
fn inc { x } { return x + 1 }
let a = inc { x: inc { x: 1 } }
let xs = for { in: [1, 2], as: "i" } { return i }
map { in: [5], fn: "inc" } -> m
let e = call? fs.exists { path: "nope", path: "ab" }
check { that: true, msg: "fine" }
return a
`
	c, o := runTraced(t, src)
	if o.isErr || o.text != "3" {
		t.Fatalf("result %s", o.text)
	}
	want := []string{
		`run_start @1:1-9:9 {"file":"t.a0","capabilities":["fs.read"],"budget":{"maxIterations":10,"timeMs":60000}}`,
		`stmt_start @3:1-3:30`,
		`stmt_end @3:1-3:30`,
		`stmt_start @4:1-4:32`,
		`fn_call_start @4:9-4:32 {"fn":"inc"}`,
		`fn_call_start @4:18-4:30 {"fn":"inc"}`,
		`stmt_start @3:16-3:28`,
		`stmt_end @3:16-3:28`,
		`fn_call_end @4:18-4:30 {"fn":"inc"}`,
		`stmt_start @3:16-3:28`,
		`stmt_end @3:16-3:28`,
		`fn_call_end @4:9-4:32 {"fn":"inc"}`,
		`stmt_end @4:1-4:32`,
		`stmt_start @5:1-5:50`,
		`for_start @5:10-5:50 {"listLength":2,"as":"i"}`,
		`stmt_start @5:40-5:48`,
		`stmt_end @5:40-5:48`,
		`stmt_start @5:40-5:48`,
		`stmt_end @5:40-5:48`,
		`for_end @5:10-5:50 {"iterations":2}`,
		`stmt_end @5:1-5:50`,
		`stmt_start @6:1-6:32`,
		`map_start @6:1-6:27 {"fn":"inc","listLength":1}`,
		`fn_call_start @6:1-6:27 {"fn":"inc"}`,
		`stmt_start @3:16-3:28`,
		`stmt_end @3:16-3:28`,
		`fn_call_end @6:1-6:27 {"fn":"inc"}`,
		`map_end @6:1-6:27 {"fn":"inc","iterations":1}`,
		`stmt_end @6:1-6:32`,
		`stmt_start @7:1-7:53`,
		`tool_start @7:9-7:53 {"tool":"fs.exists","args":{"path":"ab"},"mode":"read"}`,
		`tool_end @7:9-7:53 {"tool":"fs.exists","outcome":"ok","durationMs":0}`,
		`stmt_end @7:1-7:53`,
		`stmt_start @8:1-8:34`,
		`evidence @8:1-8:34 {"kind":"check","ok":true,"msg":"fine","span":{"file":"t.a0","startLine":8,"startCol":1,"endLine":8,"endCol":34}}`,
		`stmt_end @8:1-8:34`,
		`stmt_start @9:1-9:9`,
		`stmt_end @9:1-9:9`,
		`run_end @1:1-9:9 {"durationMs":0}`,
	}
	compareLines(t, c.lines(), want)
}

func TestTraceRunStartWithoutBudget(t *testing.T) {
	c, _ := runTraced(t, "return 1\n")
	compareLines(t, c.lines(), []string{
		`run_start @1:1-1:9 {"file":"t.a0","capabilities":[]}`,
		`stmt_start @1:1-1:9`,
		`stmt_end @1:1-1:9`,
		`run_end @1:1-1:9 {"durationMs":0}`,
	})
}

func TestTraceBudgetExceededBeforeError(t *testing.T) {
	src := `budget { maxIterations: 1 }
let xs = for { in: [1, 2], as: "i" } { return i }
return xs
`
	c, o := runTraced(t, src)
	if o.text != "E_BUDGET Budget exceeded: maxIterations limit of 1 reached. @2:10-2:50" {
		t.Fatalf("outcome %s", o.text)
	}
	compareLines(t, c.lines(), []string{
		`run_start @1:1-3:10 {"file":"t.a0","capabilities":[],"budget":{"maxIterations":1}}`,
		`stmt_start @2:1-2:50`,
		`for_start @2:10-2:50 {"listLength":2,"as":"i"}`,
		`stmt_start @2:40-2:48`,
		`stmt_end @2:40-2:48`,
		`budget_exceeded @2:10-2:50 {"budget":"maxIterations","limit":1,"actual":2}`,
		`run_end @1:1-3:10 {"durationMs":0,"error":"E_BUDGET","message":"Budget exceeded: maxIterations limit of 1 reached."}`,
	})
}

func TestTraceToolCallBudget(t *testing.T) {
	src := `cap { fs.read: true }
budget { maxToolCalls: 1 }
let a = call? fs.exists { path: "a" }
let b = call? fs.exists { path: "b" }
return 0
`
	c, o := runTraced(t, src)
	if o.text != "E_BUDGET Budget exceeded: maxToolCalls limit of 1 reached. @4:9-4:38" {
		t.Fatalf("outcome %s", o.text)
	}
	compareLines(t, c.names(), []string{
		"run_start",
		"stmt_start", "tool_start", "tool_end", "stmt_end",
		"stmt_start", "budget_exceeded",
		"run_end",
	})
}

func TestTraceToolArgsErrorEmitsNothingAndIsNotCounted(t *testing.T) {
	src := `cap { fs.read: true }
budget { maxToolCalls: 1 }
let r = try { return call? fs.read { path: 5 } } catch { e } { return e }
let ok = call? fs.exists { path: "x" }
return [r, ok]
`
	c, o := runTraced(t, src)
	want := `[{"code":"E_TOOL_ARGS","message":"Invalid arguments for tool 'fs.read': path: Expected string, received number","details":{"tool":"fs.read"}},false]`
	if o.text != want {
		t.Fatalf("got  %s\nwant %s", o.text, want)
	}
	var tools []string
	for _, l := range c.lines() {
		if strings.HasPrefix(l, "tool_") || strings.HasPrefix(l, "budget_") {
			tools = append(tools, l)
		}
	}
	compareLines(t, tools, []string{
		`tool_start @4:10-4:39 {"tool":"fs.exists","args":{"path":"x"},"mode":"read"}`,
		`tool_end @4:10-4:39 {"tool":"fs.exists","outcome":"ok","durationMs":0}`,
	})
	// The failing statement inside try has a stmt_start but no stmt_end.
	compareLines(t, c.names()[:6], []string{"run_start", "stmt_start", "stmt_start", "stmt_start", "stmt_end", "stmt_end"})
}

func TestTraceToolErrorAndRunEnd(t *testing.T) {
	src := `cap { fs.read: true }
call? fs.read { path: "missing.txt" } -> x
return x
`
	dir := t.TempDir()
	c := &collector{}
	o := runProgram(t, dir, src, runtime.RunOptions{Trace: c})
	abs := realDir(t, dir)
	msg := "ENOENT: no such file or directory, open '" + abs + "/missing.txt'"
	if o.text != "E_TOOL Tool 'fs.read' failed: "+msg+" @2:1-2:38" {
		t.Fatalf("outcome %s", o.text)
	}
	lines := c.lines()
	compareLines(t, lines[1:], []string{
		`stmt_start @2:1-2:43`,
		`tool_start @2:1-2:38 {"tool":"fs.read","args":{"path":"missing.txt"},"mode":"read"}`,
		`tool_end @2:1-2:38 {"tool":"fs.read","outcome":"err","durationMs":0,"error":` + value.JSON(value.Str(msg)) + `}`,
		`run_end @1:1-3:9 {"durationMs":0,"error":"E_TOOL","message":` + value.JSON(value.Str("Tool 'fs.read' failed: "+msg)) + `}`,
	})
}

func TestTraceEvidenceBeforeFailingAssert(t *testing.T) {
	src := `check { that: false, msg: "c" }
assert { that: false, msg: "a", details: { n: 1 } }
return 1
`
	c, o := runTraced(t, src)
	if o.exit != 5 || !strings.HasPrefix(o.text, "E_ASSERT Assertion failed: a ") {
		t.Fatalf("outcome %s exit %d", o.text, o.exit)
	}
	compareLines(t, c.lines(), []string{
		`run_start @1:1-3:9 {"file":"t.a0","capabilities":[]}`,
		`stmt_start @1:1-1:32`,
		`evidence @1:1-1:32 {"kind":"check","ok":false,"msg":"c","span":{"file":"t.a0","startLine":1,"startCol":1,"endLine":1,"endCol":32}}`,
		`stmt_end @1:1-1:32`,
		`stmt_start @2:1-2:52`,
		`evidence @2:1-2:52 {"kind":"assert","ok":false,"msg":"a","span":{"file":"t.a0","startLine":2,"startCol":1,"endLine":2,"endCol":52},"details":{"n":1}}`,
		`run_end @1:1-3:9 {"durationMs":0,"error":"E_ASSERT","message":"Assertion failed: a"}`,
	})
}

func TestTraceLoopMatchFilterReduce(t *testing.T) {
	src := `fn add2 { a, b } { return a + b }
fn pos { x } { return x > 0 }
let l = loop { in: 0, times: 2, as: "n" } { return n + 1 }
let m = match ({ err: 1 }) { ok { v } { return v } err { e } { return e } }
let f = filter { in: [1, 0], as: "x" } { return x }
let g = filter { in: [1, 0], fn: "pos" }
let r = reduce { in: [1, 2], fn: "add2", init: 0 }
return [l, m, f, g, r]
`
	c, o := runTraced(t, src)
	if o.text != "[2,1,[1],[1],3]" {
		t.Fatalf("result %s", o.text)
	}
	var got []string
	for _, l := range c.lines() {
		if !strings.HasPrefix(l, "stmt_") && !strings.HasPrefix(l, "run_") {
			got = append(got, l)
		}
	}
	compareLines(t, got, []string{
		`loop_start @3:9-3:59 {"times":2,"as":"n"}`,
		`loop_end @3:9-3:59 {"iterations":2}`,
		`match_start @4:9-4:76 {"arm":"err"}`,
		`match_end @4:9-4:76 {"arm":"err"}`,
		`filter_start @5:9-5:52 {"listLength":2,"as":"x"}`,
		`filter_end @5:9-5:52 {"iterations":2}`,
		`fn_call_start @6:9-6:41 {"fn":"pos"}`,
		`fn_call_end @6:9-6:41 {"fn":"pos"}`,
		`fn_call_start @6:9-6:41 {"fn":"pos"}`,
		`fn_call_end @6:9-6:41 {"fn":"pos"}`,
		`reduce_start @7:9-7:51 {"fn":"add2","listLength":2}`,
		`fn_call_start @7:9-7:51 {"fn":"add2"}`,
		`fn_call_end @7:9-7:51 {"fn":"add2"}`,
		`fn_call_start @7:9-7:51 {"fn":"add2"}`,
		`fn_call_end @7:9-7:51 {"fn":"add2"}`,
		`reduce_end @7:9-7:51 {"fn":"add2","iterations":2}`,
	})
}

func TestTraceEffectToolMode(t *testing.T) {
	src := `cap { fs.write: true }
do fs.write { path: "o.txt", data: "x", data:  "x" } -> w
return w.bytes
`
	c, o := runTraced(t, src)
	if o.text != "1" {
		t.Fatalf("result %s", o.text)
	}
	found := false
	for _, l := range c.lines() {
		if strings.HasPrefix(l, "tool_start ") {
			found = true
			want := `tool_start @2:1-2:53 {"tool":"fs.write","args":{"path":"o.txt","data":"x"},"mode":"effect"}`
			if l != want {
				t.Errorf("got  %s\nwant %s", l, want)
			}
		}
	}
	if !found {
		t.Error("no tool_start event")
	}
}

func TestCapDeniedAtStartEmitsNothing(t *testing.T) {
	src := `cap { fs.read: true }
cap { fs.write: true }
return 1
`
	env := newEnv(t, t.TempDir())
	prog, ds := env.Compile("t.a0", src)
	if len(ds) > 0 {
		t.Fatal(renderDiags(ds))
	}
	c := &collector{}
	only := runtime.GrantFunc(func(capability string) bool { return capability == "fs.read" })
	res, err := prog.Run(context.Background(), runtime.RunOptions{Trace: c, Grants: only})
	if got := renderErr(err); got != "E_CAP_DENIED Capability 'fs.write' is not allowed by policy. @1:1-1:22" {
		t.Errorf("error %s", got)
	}
	if e, ok := err.(*runtime.Error); ok {
		if d := value.JSON(e.Details); d != `{"capability":"fs.write"}` {
			t.Errorf("details %s", d)
		}
	}
	if code := runtime.ExitCode(res, err); code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	if len(c.events) != 0 {
		t.Errorf("events at start-up denial: %v", c.names())
	}
	if res == nil || len(res.Evidence) != 0 || res.Started {
		t.Errorf("result %+v", res)
	}
}

func TestTraceSinkErrorIsEIO(t *testing.T) {
	env := newEnv(t, t.TempDir())
	prog, ds := env.Compile("t.a0", "let a = 1\nlet b = 2\nreturn a + b\n")
	if len(ds) > 0 {
		t.Fatal(renderDiags(ds))
	}
	c := &collector{failAt: 3}
	res, err := prog.Run(context.Background(), runtime.RunOptions{Trace: c})
	e, ok := err.(*runtime.Error)
	if !ok || e.Code != "E_IO" {
		t.Fatalf("err %v", err)
	}
	if code := runtime.ExitCode(res, err); code != 4 {
		t.Errorf("exit %d", code)
	}
	if len(c.events) != 3 {
		t.Errorf("events after a failing sink: %v", c.names())
	}
}

func TestTraceFnCallStartBeforeArgs(t *testing.T) {
	src := `fn id { x } { return x }
fn boom {} { return 1 / 0 }
let r = try { return id { x: boom {} } } catch { e } { return e.code }
return r
`
	c, o := runTraced(t, src)
	if o.text != `"E_TYPE"` {
		t.Fatalf("result %s", o.text)
	}
	var calls []string
	for _, l := range c.lines() {
		if strings.HasPrefix(l, "fn_call") {
			calls = append(calls, l)
		}
	}
	// id's start comes before its argument runs; neither call ends.
	compareLines(t, calls, []string{
		`fn_call_start @3:22-3:39 {"fn":"id"}`,
		`fn_call_start @3:30-3:37 {"fn":"boom"}`,
	})
}

func TestRunResultEvidenceAndExitCodes(t *testing.T) {
	cases := []struct {
		src  string
		exit int
		n    int
	}{
		{"return 1\n", 0, 0},
		{"check { that: true }\nreturn 1\n", 0, 1},
		{"check { that: false }\nreturn 1\n", 5, 1},
		{"let r = try { assert { that: false } return 1 } catch { e } { return 2 }\nreturn r\n", 5, 1},
		{"assert { that: false }\nreturn 1\n", 5, 1},
		{"check { that: false }\nreturn 1 / 0\n", 4, 1},
	}
	for _, tc := range cases {
		o := runProgram(t, t.TempDir(), tc.src, runtime.RunOptions{})
		if o.exit != tc.exit {
			t.Errorf("%q: exit %d, want %d", tc.src, o.exit, tc.exit)
		}
		if o.res == nil || len(o.res.Evidence) != tc.n {
			t.Errorf("%q: evidence %s", tc.src, o.evidence)
		}
		if o.res != nil && o.res.Failed != (tc.exit == 5 || strings.Contains(tc.src, "false")) {
			t.Errorf("%q: Failed = %v", tc.src, o.res.Failed)
		}
	}
}

// waitTool waits until its run's context ends and returns the context's
// error, as a Go tool honouring Call.Ctx does.
type waitTool struct{}

func (waitTool) Name() string            { return "t.wait" }
func (waitTool) Capability() string      { return "t" }
func (waitTool) Mode() runtime.Mode      { return runtime.ModeRead }
func (waitTool) Params() []runtime.Param { return nil }
func (waitTool) Call(c *runtime.Call) (value.Value, error) {
	<-c.Ctx.Done()
	return value.Value{}, c.Ctx.Err()
}

// A tool stopped by the run's end records why in A0's words, not Go's
// "context canceled" / "context deadline exceeded".
func TestTraceToolStoppedByRunEnd(t *testing.T) {
	env, err := runtime.NewEnv(runtime.WithTools(waitTool{}), runtime.WithGrants(runtime.AllowAll))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		budget, code, text string
		cause              error
	}{
		{"", "E_CANCELLED", "Run cancelled.", nil},
		{"", "E_CANCELLED", "Run cancelled by SIGTERM.", runtime.SignalCause{Signal: "SIGTERM"}},
		{"budget { timeMs: 50 }\n", "E_BUDGET", "stopped: time budget exhausted", nil},
	} {
		prog, ds := env.Compile("t.a0", tc.budget+"cap { t: true }\nlet x = call? t.wait {}\nreturn x")
		if len(ds) > 0 {
			t.Fatal(renderDiags(ds))
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		if tc.budget == "" {
			time.AfterFunc(50*time.Millisecond, func() { cancel(tc.cause) })
		}
		c := &collector{}
		_, rerr := prog.Run(ctx, runtime.RunOptions{Trace: c})
		cancel(nil)
		if e, ok := rerr.(*runtime.Error); !ok || string(e.Code) != tc.code {
			t.Fatalf("err %v, want %s", rerr, tc.code)
		}
		var got string
		for _, ev := range c.events {
			if ev.Event == "tool_end" {
				got = ev.Data.AsRecord().GetOrNull("error").AsString()
			}
		}
		if got != tc.text {
			t.Errorf("tool_end error %q, want %q", got, tc.text)
		}
	}
}

// TestTraceMapFnCallStartBeforeItemCheck: map emits fn_call_start before it
// finds that an item is not the record a two-parameter function needs, as
// the reference does (map_start, fn_call_start, run_end).
func TestTraceMapFnCallStartBeforeItemCheck(t *testing.T) {
	src := `fn pair { a, b } { return a }
return map { in: [1], fn: "pair" }
`
	c, o := runTraced(t, src)
	if !strings.HasPrefix(o.text, "E_TYPE map item must be a record") {
		t.Fatalf("outcome %s", o.text)
	}
	var events []string
	for _, l := range c.lines() {
		events = append(events, strings.Fields(l)[0])
	}
	want := "run_start stmt_start stmt_end stmt_start map_start fn_call_start run_end"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("events %s\nwant   %s", got, want)
	}
}
