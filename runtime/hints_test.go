package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/stdlib"
)

// TestRuntimeHints: the run-time type errors of operators, loop, filter,
// match and the map/filter/reduce built-ins, a library function's or a
// tool's failure, budgets, asserts and runaway recursion carry a hint that names the fix (spec/diagnostics.md,
// "Run-time hints"); their codes and messages are the reference's and
// are pinned by testdata/eval.
func TestRuntimeHints(t *testing.T) {
	tests := []struct{ src, hint string }{
		{"return 1 / 0", "Test the divisor before dividing: `if { cond: d != 0, then: x / d, else: 0 }`."},
		{"return 5 % 0", "Test the divisor before dividing: `if { cond: d != 0, then: x % d, else: 0 }`."},
		{"return \"3\" * 2", "Operator '*' needs numbers: convert the text first, parse.number { in: \"3\" }."},
		{"return 2 - \"3\"", "Operator '-' needs numbers: convert the text first, parse.number { in: \"3\" }."},
		{"return [1] * 2", "Operator '*' works on numbers only: typeof { in: x } shows what a value is."},
		{"return null / 2", "An operand is null (a missing field or argument reads as null): check the names, or give a default with coalesce { in: …, default: 0 }."},
		{"return -\"a\"", "Convert the text first: -(parse.number { in: … })."},
		{"return -null", "The value is null (a missing field or argument reads as null): check the name, or give a default with coalesce { in: …, default: 0 }."},
		{"return 1 < \"a\"", "Operator '<' needs numbers: convert the text first, parse.number { in: \"a\" }."},
		{"return loop { in: 0, times: -1, as: \"a\" } { return a }", "Give times a whole number of passes, 0 or more."},
		{"return filter { in: { a: 1 }, as: \"x\" } { return true }", "A record is no list: pass keys { in: r }, values { in: r } or entries { in: r }."},
		{"fn f { x } { return x }\nreturn map { in: 3, fn: \"f\" }", "Pass a list as in: typeof { in: x } shows what the value is."},
		{"return filter { in: [1], fn: 3 }", "Pass the function's name as a string: filter { in: xs, fn: \"name\" }, with fn name { … } { return … } declared above."},
		{"fn f { a } { return a }\nreturn reduce { in: [1], fn: \"f\", init: 0 }", "Declare it with the accumulator first and the item second: fn f { acc, x } { return … }, called as reduce { in: xs, fn: \"f\", init: … }."},
		{"fn f { a, b } { return a }\nreturn map { in: [1], fn: \"f\" }", "A callback of several parameters reads them from each item's fields; for items that are not records declare it with one parameter, fn f { x } { … }."},
		{"fn f { x } { return f { x: x } }\nreturn f { x: 1 }", "Give the recursion a case that returns without calling itself; for long runs use loop, for or reduce."},
		{"return parse.json { in: \"{\" }", "The text is not valid JSON: return it to see what it holds, or catch the failure, `try { return parse.json { in: s } } catch { e } { return null }`."},
		{"let p = \"(\"\nreturn re.test { in: \"a\", pattern: p }", stdlib.PatternHint},
		{"budget { maxIterations: 2 }\nreturn for { in: [1, 2, 3], as: \"x\" } { return x }", "Every pass of for, filter, loop, map and reduce counts: raise budget { maxIterations: … } to cover them all, or process fewer elements (a shorter in list, fewer times)."},
		{"assert { that: false, msg: \"x\" }\nreturn 1", "A false assert stops the run: fix what it asserts, or use check { that: …, msg: … } to record the failure and go on."},
		{"cap { fs.read: true }\nreturn call? fs.read { path: \"nope.txt\" }", "The path does not exist: test it first with call? fs.exists { path: … } or list its directory with call? fs.list { path: … } (a relative path is relative to the working directory), or catch the failure with try { … } catch { e } { … }."},
		{"cap { fs.read: true }\nreturn call? fs.read { path: 3 }", "Give 'path' a value of type string, not number (write a literal in quotes; json.stringify { in: … } turns a computed value into text)."},
		{"let s = 3\nreturn match s { ok { v } { return v } err { e } { return e } }", "match takes a result record, { ok: value } or { err: error }; to branch on a plain value use if (cond) { … } else { … }."},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			_, err := compile(t, tc.src).Run(context.Background(), runtime.RunOptions{})
			var re *runtime.Error
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want a *runtime.Error", err)
			}
			if re.Hint != tc.hint {
				t.Errorf("%s %s: hint %q, want %q", re.Code, re.Message, re.Hint, tc.hint)
			}
		})
	}
}

// failTool fails every call with a text no hint knows.
type failTool struct{}

func (failTool) Name() string            { return "t.fail" }
func (failTool) Capability() string      { return "t" }
func (failTool) Mode() runtime.Mode      { return runtime.ModeRead }
func (failTool) Params() []runtime.Param { return nil }
func (failTool) Call(*runtime.Call) (value.Value, error) {
	return value.Value{}, errors.New("quota exceeded")
}

// TestToolFailureFallbackHint: a tool failure no specific hint covers
// still names the way on: try, and what the caught error holds.
func TestToolFailureFallbackHint(t *testing.T) {
	env, err := runtime.NewEnv(runtime.WithTools(failTool{}), runtime.WithGrants(runtime.AllowAll))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", "cap { t: true }\nreturn call? t.fail {}")
	if len(ds) > 0 {
		t.Fatal(renderDiags(ds))
	}
	_, rerr := prog.Run(context.Background(), runtime.RunOptions{})
	var re *runtime.Error
	if !errors.As(rerr, &re) {
		t.Fatalf("got %v, want a *runtime.Error", rerr)
	}
	if re.Code != "E_TOOL" || !strings.HasPrefix(re.Hint, "To go on when it fails, wrap the call in try") {
		t.Fatalf("got %s %q (hint %q)", re.Code, re.Message, re.Hint)
	}
}
