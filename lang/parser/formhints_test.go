package parser

import (
	"testing"
)

// TestKeywordFormHints: the forms of other languages around A0's keywords
// and comments get a hint with the A0 form, written from the program's
// own names.
func TestKeywordFormHints(t *testing.T) {
	sigs := func(name string) ([]string, bool) {
		if name == "typeof" || name == "len" {
			return []string{"in"}, true
		}
		return nil, false
	}
	tests := []struct{ src, want string }{
		{"// comment\nreturn 1", "A0 comments start with # and run to the end of the line: write `# …` instead of `//` or `/* … */`."},
		{"let x = 1 // one more\nreturn x", "A0 comments start with # and run to the end of the line: write `# …` instead of `//` or `/* … */`."},
		{"/* c */\nreturn 1", "A0 comments start with # and run to the end of the line: write `# …` instead of `//` or `/* … */`."},
		{"assert(1 == 1)\nreturn 1", "assert takes a record, not parentheses: write `assert { that: 1 == 1, msg: \"…\" }`."},
		{"check(ok)\nreturn 1", "check takes a record, not parentheses: write `check { that: ok, msg: \"…\" }`."},
		{"try { return 1 } catch (err) { return 2 }", "The caught error is bound in braces, not parentheses: write `catch { err } { … return … }` (err is { code, message, details? })."},
		{"let r = { ok: 1 }\nreturn match r { ok(x) { return x } err(e) { return 0 } }", "A match arm binds its value in braces, not parentheses: write `ok { x } { … return … }`; match needs both arms, `match r { ok { v } { … } err { e } { … } }`."},
		{"let r = { ok: 1 }\nreturn match r { ok { v } { return v } }", "match needs both arms, ok and err: `match r { ok { v } { … return … } err { e } { … return … } }`."},
		{"let a = 1\nif a > 0 { return 1 } else { return 2 }", "Put the condition in parentheses: `if (a > 0) { … } else { … }`, or use the expression form `if { cond: a > 0, then: x, else: y }`."},
		{"return match f {} { ok {v} { return v } err {e} { return e } }", "match takes a name, not a call: bind the result first, `let r = f { … }`, then `match r { ok { v } { … } err { e } { … } }`."},
		{"let r = { a: 1 }\nlet { a } = r\nreturn a", "A0 has no destructuring: bind the record to one name and read its fields, `let r = …` then `let a = r.a`."},
		{"let [a, b] = [1, 2]\nreturn a", "A0 has no destructuring: bind the list to one name and read its items, `let xs = …` then `let a = get { in: xs, path: \"[0]\" }`."},
		{"let a = 1\nreturn if (a > 1) { return 1 } elif (a > 0) { return 2 } else { return 3 }", "A0 has no elif: nest the next if inside the else block, `else { return if (c2) { … } else { … } }`."},
		{"fn f { a = 1 } { return a }\nreturn f {}", "Parameters have no defaults: declare `fn f { a }` and give the default in the body, `let a2 = coalesce { in: a, default: … }` (an argument left out is null)."},
		{"fn f { a } { return a }\nreturn f { 1 }", "A0 calls take named arguments, not positional ones: write `f { a: 1 }`."},
		{"let xs = [1]\nreturn len { xs }", "A0 calls take named arguments, not positional ones: write `len { in: xs }`."},
		{"return try { return 1 } catch { return 2 }", "catch binds the error to a name: write `catch { e } { … return … }` (e is { code, message, details? })."},
		{"let xs = [1]\nreturn [...xs, 2]", "Lists have no spread (records do): join lists with concat { a: xs, b: [ … ] }, add one item with append { in: xs, value: … }."},
		{"cap [fs.read]\nreturn 1", "cap takes a record of capabilities set to true: `cap { fs.read: true, sh.exec: true }`."},
		{"budget 100\nreturn 1", "budget takes a record of integer limits: `budget { timeMs: 5000, maxToolCalls: 10 }`."},
		{"let x = 1\nreturn if (x = 1) { return 1 } else { return 2 }", "A0 compares with ==: write `x == 1` (a single = never compares; let binds)."},
		{"let r = { a: 1 }\nreturn if { cond: r.a = 1, then: 1, else: 2 }", "A0 compares with ==: write `r.a == 1` (a single = never compares; let binds)."},
		{"let x = 1 +\nreturn x", "Line 1 ends with '+', which needs a right-hand operand: finish the expression there, or remove the '+'."},
		{"let r = { items: [1] }\nreturn r.items.0", "A path step is a name, not a position: read item 0 of a list with get { in: r.items, path: \"[0]\" }."},
		{"return for { in: [1], as: x } { return x }", "Write the variable's name in quotes: as: \"x\" (a name without quotes reads a variable). Use syntax: for { in: <list>, as: \"name\" } { ... }."},
		{"return for { in: [1] } { return 1 }", "Name the variable each item is bound to with as, in quotes: as: \"x\". Use syntax: for { in: <list>, as: \"name\" } { ... }."},
		{"return for { items: [1], as: \"x\" } { return x }", "The head reads 'in', not 'items': write in: … . Use syntax: for { in: <list>, as: \"name\" } { ... }."},
		{"return loop { in: 0, times: 2, as: acc } { return acc }", "Write the variable's name in quotes: as: \"acc\" (a name without quotes reads a variable). Use syntax: loop { in: <init>, times: <N>, as: \"name\" } { ... }."},
		{"let x = 1\ncap { fs.read: true }\nreturn x", "Headers come first: move `cap { … }` to the top of the program, above the first statement (headers never go inside a block)."},
		{"let x = 1\nbudget { timeMs: 10 }\nreturn x", "Headers come first: move `budget { … }` to the top of the program, above the first statement (headers never go inside a block)."},
		{"fn f {} { cap { fs.read: true }\nreturn 1 }\nreturn f {}", "Headers come first: move `cap { … }` to the top of the program, above the first statement (headers never go inside a block)."},
		{"let x = 1\nimport \"a.a0\" as a\nreturn x", "Headers come first: move `import \"…\" as name` to the top of the program, above the first statement (headers never go inside a block)."},
		{"cap { fs.read }\nreturn 1", "Set each capability to true: `cap { fs.read: true }`."},
		{"return 1 <> 2", "A0 writes 'not equal' as !=: `a != b`."},
		{"return 2 ** 3", "A0 has no ** (power) operator: multiply, `x * x * x`."},
		{"let x = 7 // 2\nreturn x", "A0 comments start with #, not //. If this is floor division: A0 has none, write `(a - a % b) / b`."},
		{"let x = 7 // the answer\nreturn x", "A0 comments start with # and run to the end of the line: write `# …` instead of `//` or `/* … */`."},
		{"let xs = [1]\nreturn if (1 in xs) { return 1 } else { return 0 }", "A0 has no `in` operator: write `contains { in: xs, value: x }` (a list, a string, or a record's keys)."},
		{"fn f() { return 1 }\nreturn f {}", "Parameters go in braces, not parentheses: `fn f {} { … return … }`."},
		{"fn f {} { return 1 }\nreturn f()", "A0 calls take one record of named arguments, not parentheses: write `f {}`."},
		{"cap { sh.exec: true }\nreturn (do sh.exec { cmd: \"true\" }).exitCode", "A value in parentheses cannot be read with a path: bind it first, `let r = do sh.exec { cmd: \"true\" }` and then `r.exitCode`, or write `get { in: do sh.exec { cmd: \"true\" }, path: \"exitCode\" }`."},
		{"fn str.concat { parts } { return 1 }\nreturn 1", "A function's name is one word: write `fn str_concat { … } { … }` (dotted names belong to the stdlib)."},
		{"fn f { a } { return }\nreturn f { a: 1 }", "`return` needs a value: write `return null` when there is nothing to give back, or `return { … }` with the results."},
		{"let x = null\nreturn if (x is null) { return 1 } else { return 2 }", "A0 has no `is`: compare values with == and != (`x == null`, `x != null`)."},
		{"let x = 1\nreturn if (typeof x == \"number\") { return 1 } else { return 0 }", "A0 calls take one record of named arguments: write `typeof { in: x }`."},
		{"fn f { a } { return { x: a } }\nreturn f { a: 1 }.x", "A call's result cannot be read with a path: bind it first, `let r = f { a: 1 }` and then `r.x`, or write `get { in: f { a: 1 }, path: \"x\" }`."},
	}
	for _, tc := range tests {
		_, ds := Parse("t.a0", tc.src, Options{Signatures: sigs})
		if len(ds) == 0 {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if ds[0].Hint != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, ds[0].Hint, tc.want)
		}
	}
	// A division stays a division; a name before a value that is no
	// function gets no call hint.
	for _, src := range []string{"let x = 4 / 2 /\nreturn x", "let a = 1\nlet b = a c )\nreturn b"} {
		_, ds := Parse("t.a0", src, Options{Signatures: sigs})
		if len(ds) == 0 {
			t.Errorf("%q: no error", src)
			continue
		}
		if h := ds[0].Hint; h == "" || contains(h, "comments") || contains(h, "calls take") {
			t.Errorf("%q: hint %q", src, h)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
