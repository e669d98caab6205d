package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/stdlib"
)

// TestRuntimeHints: the run-time type errors of operators, loop, filter,
// match and the map/filter/reduce built-ins, a library function's or a
// tool's failure, budgets, asserts and runaway recursion carry a hint that names the fix (spec/diagnostics.md,
// "Run-time hints"); their codes and messages are the reference's and
// are pinned by testdata/eval.
func TestRuntimeHints(t *testing.T) {
	const toNumber = "Read a number from text with parse.number { in: … } first."
	tests := []struct{ src, hint string }{
		{`return 1 / 0`, "Check the divisor first: if (d == 0) { … } else { … }."},
		{`return 5 % 0`, "Check the divisor first: if (d == 0) { … } else { … }."},
		{`return "3" * 2`, toNumber},
		{`return 2 - "3"`, toNumber},
		{`return [1] * 2`, "Both operands of '*' must be numbers."},
		{`return null / 2`, "Both operands of '/' must be numbers."},
		{`return -"a"`, toNumber},
		{`return -null`, "Only numbers can be negated."},
		{`return 1 < "a"`, "Compare two numbers or two strings: convert one side first (parse.number { in: … } reads a number from text)."},
		{`return loop { in: 0, times: -1, as: "a" } { return a }`, "Give times a whole number of 0 or more, for example times: 3."},
		{`return filter { in: { a: 1 }, as: "x" } { return true }`, "Filter a list; for a record use keys, values or entries { in: ... }."},
		{"fn f { x } { return x }\nreturn map { in: 3, fn: \"f\" }", "Pass a list as in; for a record use keys, values or entries { in: ... }."},
		{`return filter { in: [1], fn: 3 }`, "Name a function declared with fn, as a string: filter { in: xs, fn: \"double\" }."},
		{"fn f { a } { return a }\nreturn reduce { in: [1], fn: \"f\", init: 0 }", "Declare it with the accumulator and the item: fn f { acc, item } { return … }."},
		{"fn f { a, b } { return a }\nreturn map { in: [1], fn: \"f\" }", "Declare 'f' with one parameter to take each item as it is, or give records whose keys are its parameters."},
		{"fn f { x } { return f { x: x } }\nreturn f { x: 1 }", "Give the recursion a case that returns without calling itself; for long runs use loop, for or reduce."},
		{`return parse.json { in: "{" }`, "parse.json takes { in }; `a0 help stdlib` says what each argument must be. To go on when it fails, wrap the call in try { … } catch { e } { … }."},
		{"let p = \"(\"\nreturn re.test { in: \"a\", pattern: p }", stdlib.PatternHint},
		{"budget { maxIterations: 2 }\nreturn for { in: [1, 2, 3], as: \"x\" } { return x }", "Do less work, or raise maxIterations in the program's budget header (the host's limits cap it); try { … } catch { e } { … } handles the error."},
		{"assert { that: false, msg: \"x\" }\nreturn 1", "A false assert stops the run: fix what it asserts, or use check { that: …, msg: … } to record the failure and go on."},
		{"cap { fs.read: true }\nreturn call? fs.read { path: \"nope.txt\" }", "To go on when it fails, wrap the call in try { … } catch { e } { … }: e.message says why, e.details.reason (when set) in one word."},
		{"cap { fs.read: true }\nreturn call? fs.read { path: 3 }", "`a0 help tools` lists the arguments of fs.read and their types."},
		{"let s = 3\nreturn match s { ok { v } { return v } err { e } { return e } }", "Match on a record shaped { ok: value } or { err: value }."},
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
