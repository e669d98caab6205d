package runtime_test

import (
	"testing"

	"github.com/a0lang/a0/runtime"
)

// TestRuntimeFixHints: the run-time errors an agent's program commonly
// hits carry a hint that names the fix: the operand that is null or
// text, the divisor to test, the budget field to raise, the argument to
// pass, the path that is missing.
func TestRuntimeFixHints(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, src, code, hint string }{
		{"null operand", "let r = { a: 1 }\nreturn r.b + 1", "E_TYPE", "'r.b' is null (a missing field or argument reads as null): check the name, or give a default, coalesce { in: r.b, default: 0 }."},
		{"missing argument", "fn add { a, b } { return a + b }\nreturn add { a: 1 }", "E_TYPE", "'b' is null (a missing field or argument reads as null): check the name, or give a default, coalesce { in: b, default: 0 }."},
		{"text times number", "let r = { a: \"3\" }\nreturn r.a * 2", "E_TYPE", "Operator '*' needs numbers: convert the text first, parse.number { in: r.a }."},
		{"text minus literal", "return \"a\" - 1", "E_TYPE", "Operator '-' needs numbers: convert the text first, parse.number { in: \"a\" }."},
		{"compare list", "return [1] < 2", "E_TYPE", "Compare two numbers or two strings; for other values test equality with == or eq { a, b }."},
		{"division by zero", "let n = 4\nlet d = 0\nreturn n / d", "E_TYPE", "Test the divisor before dividing: `if { cond: d != 0, then: n / d, else: 0 }`."},
		{"modulo by zero", "return 4 % 0", "E_TYPE", "Test the divisor before dividing: `if { cond: d != 0, then: x % d, else: 0 }`."},
		{"string plus number", "return \"n=\" + 1", "E_TYPE", "Use str.concat { parts: [...] } or str.template to join text and numbers."},
		{"iterations", "budget { maxIterations: 2 }\nreturn for { in: [1, 2, 3], as: \"x\" } { return x }", "E_BUDGET", "Every pass of for, filter, loop, map and reduce counts: raise budget { maxIterations: … } to cover them all, or process fewer elements (a shorter in list, fewer times)."},
		{"tool calls", "cap { fs.read: true }\nbudget { maxToolCalls: 1 }\nlet a = call? fs.exists { path: \".\" }\nreturn call? fs.exists { path: \".\" }", "E_BUDGET", "Every call? and do counts: raise budget { maxToolCalls: … } to the number of tool calls the program makes, or make fewer calls (one sh.exec can run several commands)."},
		{"bytes written", "cap { fs.write: true }\nbudget { maxBytesWritten: 1 }\nreturn do fs.write { path: \"o.txt\", data: \"hello\" }", "E_BUDGET", "fs.write counts the bytes it writes: raise budget { maxBytesWritten: … } to at least 5, or write less."},
		{"missing stdlib argument", "return str.split { in: \"a,b\" }", "E_FN", "Pass 'sep' as a string: str.split { in: …, sep: … } (an argument left out is null; typeof { in: x } shows what a value is)."},
		{"wrong argument type", "return len { in: 3 }", "E_FN", "Pass 'in' as a list, string, or record: len { in: … } (an argument left out is null; typeof { in: x } shows what a value is)."},
		{"bad json", "return parse.json { in: \"{bad\" }", "E_FN", "The text is not valid JSON: return it to see what it holds, or catch the failure, `try { return parse.json { in: s } } catch { e } { return null }`."},
		{"missing file", "cap { fs.read: true }\nreturn call? fs.read { path: \"no/such.txt\" }", "E_TOOL", "The path does not exist: test it first with call? fs.exists { path: … } or list its directory with call? fs.list { path: … } (a relative path is relative to the working directory), or catch the failure with try { … } catch { e } { … }."},
		{"match on a number", "let r = 3\nreturn match r { ok { v } { return v } err { e } { return e } }", "E_MATCH_NOT_RECORD", "match takes a result record, { ok: value } or { err: error }; to branch on a plain value use if (cond) { … } else { … }."},
		{"text times number", "let s = \"ab\"\nreturn s * 3", "E_TYPE", "A0 does not repeat text with *: write str.repeat { in: s, times: … }."},
		{"numeric text times number", "let s = \"2\"\nreturn s * 3", "E_TYPE", "Operator '*' needs numbers: convert the text first, parse.number { in: s }."},
		{"assert without that", "assert { cond: true, msg: \"m\" }\nreturn 1", "E_ASSERT", "assert reads its condition from 'that', not 'cond': write assert { that: …, msg: \"…\" }."},
		{"assert false", "assert { that: false, msg: \"m\" }\nreturn 1", "E_ASSERT", "A false assert stops the run: fix what it asserts, or use check { that: …, msg: … } to record the failure and go on."},
		{"cmd as a list", "cap { sh.exec: true }\nreturn do sh.exec { cmd: [\"ls\", \"-l\"] }", "E_TOOL_ARGS", "cmd is one shell command line, cmd: \"ls -l\"; to pass the words as a list write argv: [\"ls\", \"-l\"] (runs without a shell)."},
		{"required argument", "cap { fs.read: true }\nreturn call? fs.read {}", "E_TOOL_ARGS", "Add the argument: fs.read { path: … }."},
		{"argument type", "cap { sh.exec: true }\nreturn do sh.exec { cmd: \"true\", timeoutMs: \"5\" }", "E_TOOL_ARGS", "Give 'timeoutMs' a value of type number, not string (parse.number { in: … } reads a number from text)."},
		{"argv item", "cap { sh.exec: true }\nreturn do sh.exec { argv: [\"sleep\", 2] }", "E_TOOL_ARGS", "Every element of 'argv' must be a string; item 1 is a number (write a literal in quotes; json.stringify { in: … } turns a computed value into text)."},
		{"env value", "cap { sh.exec: true }\nreturn do sh.exec { cmd: \"true\", env: { N: 1 } }", "E_TOOL_ARGS", "Every value of 'env' must be a string; 'N' is a number (write a literal in quotes; json.stringify { in: … } turns a computed value into text)."},
		{"kill signal", "cap { sh.exec: true }\nreturn do sh.kill { id: \"j_0000000000000000\", signal: \"STOP\" }", "E_TOOL_ARGS", "Set 'signal' to one of TERM, INT, HUP, KILL."},
		{"job id", "cap { sh.exec: true }\nreturn call? sh.status { id: \"nope\" }", "E_TOOL_ARGS", "Pass the id a job record carries: `let j = do sh.start { … }` then `sh.status { id: j.id }`; call? sh.jobs {} lists the jobs."},
		{"range floats", "return range { from: 0, to: 2.5 }", "E_FN", "Pass 'from' and 'to' as integers: range { from: …, to: … } (an argument left out is null; typeof { in: x } shows what a value is)."},
		{"get without path", "return get { in: { a: 1 } }", "E_FN", "Pass 'path' as a string: get { in: …, path: … } (an argument left out is null; typeof { in: x } shows what a value is)."},
		{"merge lists", "return merge { a: [1], b: [2] }", "E_FN", "Pass 'a' and 'b' as records: merge { a: …, b: … } (an argument left out is null; typeof { in: x } shows what a value is). Lists are joined with concat { a: xs, b: ys }."},
		{"reduce arity", "fn add { x } { return x }\nreturn reduce { in: [1], fn: \"add\", init: 0 }", "E_TYPE", "Declare it with the accumulator first and the item second: fn add { acc, x } { return … }, called as reduce { in: xs, fn: \"add\", init: … }."},
		{"loop times text", "return loop { in: 0, times: \"3\", as: \"i\" } { return i + 1 }", "E_TYPE", "times takes a number: convert text with parse.number { in: … }."},
		{"filter block on text", "return filter { in: \"abc\", as: \"x\" } { return true }", "E_TYPE", "A string is no list: split it first, str.split { in: s, sep: \"\\n\" } (or str.lines)."},
		{"map on a record", "fn f { x } { return x }\nreturn map { in: { a: 1 }, fn: \"f\" }", "E_TYPE", "A record is no list: pass keys { in: r }, values { in: r } or entries { in: r }."},
		{"map items not records", "fn f { a, b } { return a }\nreturn map { in: [1], fn: \"f\" }", "E_TYPE", "A callback of several parameters reads them from each item's fields; for items that are not records declare it with one parameter, fn f { x } { … }."},
		{"negate text", "let s = \"3\"\nreturn -s", "E_TYPE", "Convert the text first: -(parse.number { in: … })."},
		{"negate null", "let r = {}\nreturn -r.n", "E_TYPE", "The value is null (a missing field or argument reads as null): check the name, or give a default with coalesce { in: …, default: 0 }."},
		{"bad url", "cap { http.get: true }\nreturn call? http.get { url: \"not a url\" }", "E_TOOL", "Give a full URL with its scheme: url: \"https://example.com/path\"."},
		{"read a directory", "cap { fs.read: true }\nreturn call? fs.read { path: \".\" }", "E_TOOL", "The path is a directory: list it with call? fs.list { path: … }, or read a file inside it."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := runProgram(t, dir, tc.src, runtime.RunOptions{})
			if o.err == nil {
				t.Fatalf("no run-time error: %s", o.text)
			}
			if string(o.err.Code) != tc.code || o.err.Hint != tc.hint {
				t.Errorf("got %s %q\nwant %s %q", o.err.Code, o.err.Hint, tc.code, tc.hint)
			}
		})
	}
}
