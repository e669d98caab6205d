package check_test

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// stdlibNames are the 36 names the checker knows, in the order of the
// E_UNKNOWN_FN hint (spec/stdlib.md "Registry order"). (lang must not import stdlib.)
var stdlibNames = []string{
	"parse.json", "get", "put", "patch", "eq", "contains", "not", "and", "or", "len", "map", "append",
	"concat", "sort", "filter", "find", "range", "join", "str.concat", "str.split", "str.starts",
	"str.replace", "keys", "values", "merge", "math.max", "math.min", "str.ends", "unique", "reduce",
	"coalesce", "typeof", "pluck", "flat", "entries", "str.template",
}

func config() *check.Config {
	return &check.Config{
		Stdlib: append([]string(nil), stdlibNames...),
		Tools: []check.Tool{
			{Name: "fs.read", Cap: "fs.read"},
			{Name: "fs.write", Cap: "fs.write", Effect: true},
			{Name: "fs.list", Cap: "fs.read"},
			{Name: "fs.exists", Cap: "fs.read"},
			{Name: "http.get", Cap: "http.get"},
			{Name: "sh.exec", Cap: "sh.exec", Effect: true},
		},
		Caps:         []string{"fs.read", "fs.write", "http.get", "sh.exec"},
		BudgetFields: []string{"timeMs", "maxToolCalls", "maxBytesWritten", "maxIterations"},
	}
}

// knownBugs lists golden cases whose .golden file holds the output the spec
// requires but the implementation does not produce yet. They are skipped
// and never rewritten by -update.
var knownBugs = map[string]string{}

func parse(t *testing.T, file, src string) *ast.Program {
	t.Helper()
	p, ds := parser.Parse(file, src, parser.Options{})
	if len(ds) > 0 {
		t.Fatalf("parse %s: %s", file, ds.JSONArray())
	}
	return p
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.a0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	sort.Strings(files)
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p := parse(t, name, string(src))
			got := check.Program(p, config()).JSONArray() + "\n"
			golden := strings.TrimSuffix(file, ".a0") + ".golden"
			bug, isBug := knownBugs[name]
			if *update && !isBug {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("missing golden (run with -update): %v", err)
			}
			if got != string(want) {
				if isBug {
					t.Skip(bug)
				}
				t.Errorf("mismatch for %s\n--- got ---\n%s--- want ---\n%s", name, got, want)
			} else if isBug {
				t.Errorf("%s is listed as a known bug (%s) but now matches", name, bug)
			}
		})
	}
}

// TestValidProgramHasNoDiagnostics: Program returns nil (not an empty,
// non-nil list is fine too) for a valid program.
func TestValidProgramHasNoDiagnostics(t *testing.T) {
	src := `cap { fs.read: true }
budget { timeMs: 1000, maxIterations: 10 }
fn twice { x } { return x * 2 }
let xs = map { in: [1, 2], fn: "twice" }
let r = call? fs.read { path: "a" }
return { xs: xs, r: r }`
	if ds := check.Program(parse(t, "ok.a0", src), config()); len(ds) != 0 {
		t.Errorf("unexpected diagnostics: %s", ds.JSONArray())
	}
}

// TestUnknownFnHint: the hint names the nearest functions (not all 36),
// an alias from another language, or a tool called as a function.
func TestUnknownFnHint(t *testing.T) {
	tests := []struct{ src, want string }{
		{"return qqqqqq {}", "No known function is close to 'qqqqqq'."},
		{"return lne { in: [] }", "Did you mean 'len' or 'and'?"},
		{"return str.startz { in: \"a\", value: \"a\" }", "Did you mean 'str.starts' (str.starts { in: …, value: … })?"},
		{"return push { in: [], value: 1 }", "A0 calls it append: `append { in: …, value: … }`."},
		{"return fs.read { path: \"a\" }", "'fs.read' is a tool, not a function"},
	}
	for _, tc := range tests {
		cfg := config()
		cfg.Params = func(n string) ([]string, bool) {
			m := map[string][]string{"append": {"in", "value"}, "str.starts": {"in", "value"}}
			p, ok := m[n]
			return p, ok
		}
		ds := check.Program(parse(t, "t.a0", tc.src), cfg)
		if len(ds) != 1 {
			t.Fatalf("%s: got %s", tc.src, ds.JSONArray())
		}
		if !strings.HasPrefix(ds[0].Hint, tc.want) {
			t.Errorf("%s: hint\n got %q\nwant prefix %q", tc.src, ds[0].Hint, tc.want)
		}
		if strings.Contains(ds[0].Hint, "parse.json, get, put") {
			t.Errorf("%s: hint lists every function: %q", tc.src, ds[0].Hint)
		}
	}
	if len(stdlibNames) != 36 {
		t.Errorf("have %d names", len(stdlibNames))
	}
}

// TestStrictArgNames: with Strict, a call naming an argument its function
// or tool does not take is E_UNKNOWN_ARG naming the key and the expected
// ones; without it the output is the reference's (nothing).
func TestStrictArgNames(t *testing.T) {
	src := "fn area { w, h } { return w * h }\nlet a = area { w: 1, height: 2 }\nlet b = str.starts { in: \"ab\", prefix: \"a\" }\nreturn call? fs.read { path: \"x\", encodng: \"utf8\" }"
	cfg := config()
	if ds := check.Program(parse(t, "t.a0", src), cfg); len(ds) != 1 || ds[0].Code != "E_UNDECLARED_CAP" {
		t.Fatalf("plain check: %s", ds.JSONArray())
	}
	cfg.Strict = true
	cfg.Params = func(n string) ([]string, bool) {
		if n == "str.starts" {
			return []string{"in", "value"}, true
		}
		return nil, false
	}
	for i := range cfg.Tools {
		if cfg.Tools[i].Name == "fs.read" {
			cfg.Tools[i].Params = []string{"path", "encoding"}
		}
	}
	ds := check.Program(parse(t, "t.a0", src), cfg)
	var got []string
	for _, d := range ds {
		if d.Code == "E_UNKNOWN_ARG" {
			got = append(got, d.Message+" | "+d.Hint)
		}
	}
	want := []string{
		"area takes { w, h }; got height. | Rename 'height' to 'h': area { w: …, h: … }.",
		"str.starts takes { in, value }; got prefix. | Rename 'prefix' to 'value': str.starts { in: …, value: … }.",
		"fs.read takes { path, encoding }; got encodng. | Rename 'encodng' to 'encoding': fs.read { path: …, encoding: … }.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHintSuggestions: the static hints start with the reference's fixed
// text (spec/diagnostics.md "Static codes"), and a near miss appends the
// project's "Did you mean" suggestion after it (spec/diagnostics.md
// "Suggestions": every diagnostic names the fix).
func TestHintSuggestions(t *testing.T) {
	tests := []struct {
		name, src, hint, suggest string
	}{
		{"unbound", "let count = 1\nreturn cuont", "Make sure the variable is defined with 'let' (or '-> name') before use.", "count"},
		{"unknown map fn", "fn double { x } { return x * 2 }\nreturn map { in: [], fn: \"duoble\" }", "For map, define the user function with 'fn' before use and pass its name as a string.", "double"},
		{"unknown cap", "cap { fs.raed: true }\nreturn 1", "Valid capabilities: fs.read, fs.write, http.get, sh.exec.", "fs.read"},
		{"unknown budget", "budget { timeMS: 1 }\nreturn 1", "Valid budget fields: timeMs, maxToolCalls, maxBytesWritten, maxIterations.", "timeMs"},
		{"unknown tool", "return call? fs.raed {}", "Valid tools: fs.read, fs.write, fs.list, fs.exists, http.get, sh.exec.", "fs.read"},
		{"budget alias", "budget { timeout: 1 }\nreturn 1", "Valid budget fields: timeMs, maxToolCalls, maxBytesWritten, maxIterations.", "timeMs"},
		{"budget alias calls", "budget { toolCalls: 1 }\nreturn 1", "Valid budget fields: timeMs, maxToolCalls, maxBytesWritten, maxIterations.", "maxToolCalls"},
		{"cap alias", "cap { shell: true }\nreturn 1", "Valid capabilities: fs.read, fs.write, http.get, sh.exec.", "sh.exec"},
		{"cap alias tool", "cap { fs.list: true }\nreturn 1", "Valid capabilities: fs.read, fs.write, http.get, sh.exec.", "fs.read"},
		{"no near miss", "return zzzzzz", "Make sure the variable is defined with 'let' (or '-> name') before use.", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds := check.Program(parse(t, "t.a0", tc.src), config())
			if len(ds) != 1 {
				t.Fatalf("got %s", ds.JSONArray())
			}
			want := tc.hint
			if tc.suggest != "" {
				want += " Did you mean '" + tc.suggest + "'?"
			}
			if ds[0].Hint != want {
				t.Errorf("hint %q, want %q", ds[0].Hint, want)
			}
		})
	}
}

// TestCheckDoesNotMutate: checking twice gives the same result (the checker
// keeps no state between calls and does not change the tree).
func TestCheckDoesNotMutate(t *testing.T) {
	src := "fn f { a, a } { let z = q }\nlet x = f {}\nlet x = 2\nreturn call? sh.exec {}"
	p := parse(t, "t.a0", src)
	cfg := config()
	a := check.Program(p, cfg).JSONArray()
	b := check.Program(p, cfg).JSONArray()
	if a != b {
		t.Errorf("second run differs:\n%s\n%s", a, b)
	}
}

func TestDeclaredCapsAndUsedTools(t *testing.T) {
	src := `cap { http.get: true, fs.read: false, fs.write: true }
cap { sh.exec: true, http.get: true, bogus: true }
let a = call? http.get { url: "u" }
fn f {} { return do sh.exec { cmd: "x" } }
let b = for { in: [1], as: "i" } { return call? fs.list { path: "." } }
return [a, b, do http.get { url: "v" }]`
	p := parse(t, "t.a0", src)
	caps := check.DeclaredCaps(p)
	if got, want := strings.Join(caps, ","), "http.get,fs.write,sh.exec,bogus"; got != want {
		t.Errorf("DeclaredCaps = %s, want %s", got, want)
	}
	tools := check.UsedTools(p)
	if got, want := strings.Join(tools, ","), "fs.list,http.get,sh.exec"; got != want {
		t.Errorf("UsedTools = %s, want %s", got, want)
	}
}

// TestDiagnosticSpansAreInFile: every span names the file being checked.
func TestDiagnosticSpansAreInFile(t *testing.T) {
	ds := check.Program(parse(t, "named.a0", "cap { x: 1 }\nlet a = b\nlet a = 1"), config())
	if len(ds) == 0 {
		t.Fatal("no diagnostics")
	}
	for _, d := range ds {
		if d.Span != nil && d.Span.File != "named.a0" {
			t.Errorf("%s span file %q", d.Code, d.Span.File)
		}
		if d.Hint == "" {
			t.Errorf("%s has no hint", d.Code)
		}
	}
	_ = diag.List(ds)
}

// TestLiteralArg: a string literal argument that Config.LiteralArg
// refuses is E_FN (the code the call would fail with) with the literal's span, after every other
// diagnostic; spreads, non-literals, other keys and user functions are
// not asked about.
func TestLiteralArg(t *testing.T) {
	cfg := config()
	cfg.Stdlib = append(cfg.Stdlib, "re.test")
	var asked []string
	cfg.LiteralArg = func(fn, arg, s string) (string, string) {
		asked = append(asked, fn+" "+arg+" "+s)
		if arg == "pattern" && s == "(" {
			return fn + ": bad pattern.", "fix it"
		}
		return "", ""
	}
	src := "fn f { pattern } { return pattern }\n" +
		"let p = \"(\"\n" +
		"let a = re.test { in: \"x\", pattern: p }\n" +
		"let b = f { pattern: \"(\" }\n" +
		"let c = re.test { in: \"(\", pattern: \"(\" }\n" +
		"return nope\n"
	ds := check.Program(parse(t, "t.a0", src), cfg)
	got := ds.JSONArray()
	want := `[{"code":"E_UNBOUND","message":"Unbound variable 'nope'.","span":{"file":"t.a0","startLine":6,"startCol":8,"endLine":6,"endCol":12},"hint":"Make sure the variable is defined with 'let' (or '-> name') before use. Bound here: a, b, c, p."},` +
		`{"code":"E_FN","message":"re.test: bad pattern.","span":{"file":"t.a0","startLine":5,"startCol":37,"endLine":5,"endCol":40},"hint":"fix it"}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if strings.Join(asked, "|") != `re.test in x|re.test in (|re.test pattern (` {
		t.Errorf("asked about %q", asked)
	}
	if ds[1].Code != diag.EFn {
		t.Errorf("code %s, want E_FN", ds[1].Code)
	}
}

// TestStrictToolArgs: with Strict, a tool call's argument names and
// literal values are checked against the tool's Params and Args: every
// problem of every call is reported, an entry a later spread or entry may
// replace is not judged, and a misspelling in another word style
// (timeout_ms, max_output_bytes) gets the rename even when its edit
// distance is large. A long parameter list keeps the hint to the call as
// written.
func TestStrictToolArgs(t *testing.T) {
	execParams := []string{"cmd", "argv", "shell", "cwd", "env", "envMode", "envRemove", "mask", "stdin", "stdinEncoding",
		"merge", "maxOutputBytes", "truncate", "encoding", "outputLimitBytes", "timeoutMs", "graceMs", "onTimeout"}
	cfg := config()
	cfg.Strict = true
	for i := range cfg.Tools {
		if cfg.Tools[i].Name == "sh.exec" {
			cfg.Tools[i].Params = execParams
			cfg.Tools[i].Args = []check.Arg{
				{Name: "argv", Types: []string{"array"}, Elem: "string"},
				{Name: "cwd", Types: []string{"string"}},
				{Name: "env", Types: []string{"object"}, Elem: "string"},
				{Name: "merge", Types: []string{"boolean"}},
				{Name: "timeoutMs", Types: []string{"number"}},
				{Name: "graceMs", Types: []string{"integer"}},
			}
		}
	}
	src := `cap { sh.exec: true }
let o = { cwd: 1 }
do sh.exec { argv: ["sleep", "2"], timeout_ms: 300 } -> a
do sh.exec { argv: ["x", 2, "y", true], max_output_bytes: 1, timeoutMs: "300" } -> b
do sh.exec { cmd: "x", cwd: 1, cwd: "/", env: { A: 1, ...o, B: 2, C: "c", C: 3, C: "c" }, merge: ("true") } -> c
do sh.exec { cmd: "x", timeoutMs: -5, graceMs: 2.5, timeoutMs: "y", env: { PATH: k } } -> d
do sh.exec { cmd: "x", graceMs: -2, timeoutMs: 1000.0, merge: true, cwd: "/" } -> e
return [a, b, c, d, e]`
	ds := check.Program(parse(t, "t.a0", src), cfg)
	var got []string
	for _, d := range ds {
		if d.Code == "E_UNBOUND" {
			continue
		}
		got = append(got, string(d.Code)+" "+d.Message+" | "+d.Hint)
	}
	takes := "sh.exec takes { " + strings.Join(execParams, ", ") + " }; got "
	want := []string{
		"E_UNKNOWN_ARG " + takes + "timeout_ms. | Rename 'timeout_ms' to 'timeoutMs': sh.exec { argv: …, timeoutMs: … }.",
		"E_UNKNOWN_ARG " + takes + "max_output_bytes. | Rename 'max_output_bytes' to 'maxOutputBytes': sh.exec { argv: …, maxOutputBytes: …, timeoutMs: … }.",
		"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': argv.1: Expected string, received number | Every element of 'argv' must be a string: quote it, \"2\".",
		"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': argv.3: Expected string, received boolean | Every element of 'argv' must be a string: quote it, \"true\".",
		"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': timeoutMs: Expected number, received string | 'timeoutMs' takes a number: write 300 without quotes.",
		"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': env.B: Expected string, received number | Every value of 'env' must be a string: quote it, \"2\".",
		"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': merge: Expected boolean, received string | 'merge' takes a boolean: write true without quotes.",
		"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': graceMs: Expected integer, received number | 'graceMs' takes an integer.",
		"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': timeoutMs: Expected number, received string | 'timeoutMs' takes a number.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without Strict the reference's output: nothing about arguments.
	cfg.Strict = false
	for _, d := range check.Program(parse(t, "t.a0", src), cfg) {
		if d.Code != "E_UNBOUND" {
			t.Errorf("plain check: %s %s", d.Code, d.Message)
		}
	}
}

// TestFixHints: the hints that name the fix from the program itself: the
// return a block lacks, a name bound twice, an input read without a
// header, an f-string.
func TestFixHints(t *testing.T) {
	tests := []struct{ name, src, code, hint string }{
		{"let last", "let x = 1", "E_NO_RETURN", "Add `return x` after the last let (or write `return` in place of `let x =`)."},
		{"bind last", "let xs = [1]\nlen { in: xs } -> n", "E_NO_RETURN", "Add `return n` as the last statement."},
		{"expr last in fn", "fn f { a } { a + 1 }\nreturn f { a: 1 }", "E_NO_RETURN", "Write `return a + 1`: the last statement must be a return."},
		{"expr last in filter", "return filter { in: [1, 2], as: \"x\" } { x > 1 }", "E_NO_RETURN", "Write `return x > 1`: the last statement must be a return."},
		{"if statement last", "let a = 1\nif (a == 1) { return 1 } else { return 2 }", "E_NO_RETURN", "An if statement's returns end its own blocks only: write `return if (…) { … } else { … }` (or bind it, `let r = if …`, then `return r`)."},
		{"dup let", "let x = 1\nlet x = 2\nreturn x", "E_DUP_BINDING", "'x' is already bound in this scope and bindings are immutable: give the new value its own name, `let x2 = …`, and use x2 from there on."},
		{"dup arrow", "let n = 1\nlen { in: [] } -> n\nreturn n", "E_DUP_BINDING", "'n' is already bound in this scope and bindings are immutable: give the new value its own name, `let n2 = …`, and use n2 from there on."},
		{"input without header", "return input.repo", "E_UNBOUND", "Inputs are declared in a header before the statements: add `input { repo: \"str\" }` (or another type) at the top, then pass it with a0 run --arg repo=… or --input '{…}'."},
		{"f-string", "let name = \"a\"\nlet s = f\"hi {name}!\"\nreturn s", "E_UNBOUND", "A0 has no f-strings or prefixed strings: write `str.template { in: \"hi {name}!\", vars: { name: name } }`."},
		{"fn declared later", "let x = g { a: 1 }\nfn g { a } { return a }\nreturn x", "E_UNKNOWN_FN", "'g' is declared at line 2, after this call or in a block the call cannot see: move `fn g { … }` to the top level, above its first use."},
		{"str.contains", "return str.contains { in: \"abc\", value: \"a\" }", "E_UNKNOWN_FN", "A0 calls it contains: `contains { … }`."},
		{"return then more on its line", "let a = 1\nlet b = 2\nreturn a b", "E_RETURN_NOT_LAST", "A return takes one expression and ends its block: the rest of this line is a separate statement. Join it to the expression with an operator, or move it before the return."},
		{"return then next line", "return 1\nlet b = 2", "E_RETURN_NOT_LAST", "Move any statements after return before it, or remove them."},
		{"digit separator", "let x = 1_000\nreturn x", "E_UNBOUND", "A0 numbers have no digit separators: write the digits together (1000, not 1_000)."},
		{"hex literal", "let x = 0xff\nreturn x", "E_UNBOUND", "A0 numbers are decimal: if you wrote 0xff, write 255."},
		{"binary literal", "let x = 0b101\nreturn x", "E_UNBOUND", "A0 numbers are decimal: if you wrote 0b101, write 5."},
		{"misspelt namespace", "return strs.concat { parts: [] }", "E_UNKNOWN_FN", "Did you mean 'str.concat' (str.concat { parts: … })? User functions must be declared with fn before the call; `a0 help stdlib --index` lists the stdlib."},
		{"method of a bound name", "let xs = [2, 1]\nreturn xs.sort {}", "E_UNKNOWN_FN", "A0 has no methods: call the function with the value as an argument, `sort { in: xs, by: … }`."},
		{"cap value", "cap { sh.exec: \"yes\" }\nreturn 1", "E_CAP_VALUE", "Write 'sh.exec: true' (a capability is only ever declared true; leave out the ones the program does not use)."},
		{"budget quoted digits", "budget { maxToolCalls: \"3\" }\nreturn 1", "E_BUDGET_TYPE", "Write an integer without quotes: budget { maxToolCalls: 3 }."},
		{"budget seconds", "budget { timeMs: \"5s\" }\nreturn 1", "E_BUDGET_TYPE", "Write an integer without quotes: budget { timeMs: 5000 } (milliseconds)."},
		{"budget bool", "budget { maxIterations: true }\nreturn 1", "E_BUDGET_TYPE", "Write an integer: budget { maxIterations: 1000 }."},
		{"budget negative", "budget { maxToolCalls: -1 }\nreturn 1", "E_BUDGET_TYPE", "A budget limit is 0 or more, never negative (leave the field out for no limit): budget { maxToolCalls: 10 }."},
		{"budget fraction", "budget { timeMs: 2.5 }\nreturn 1", "E_BUDGET_TYPE", "Write a whole number, without a fraction: budget { timeMs: 2 } (milliseconds)."},
		{"budget expression", "budget { timeMs: 60 * 1000 }\nreturn 1", "E_BUDGET_TYPE", "Write the number itself, a literal (a budget is fixed before the program runs, so it takes no name or expression): budget { timeMs: 5000 } (milliseconds)."},
		{"fn twice", "fn f {} { return 1 }\nfn f {} { return 2 }\nreturn f {}", "E_FN_DUP", "'f' is already declared in this scope: remove the older declaration, or rename this one (`fn f2 { … }`) and its calls."},
		{"fn named like stdlib", "fn len { in } { return 1 }\nreturn 1", "E_FN_DUP", "The stdlib's len is always there: call it directly, or name yours differently (`fn my_len { … }`)."},
		{"map fn declared after", "let ys = map { in: [1], fn: \"twice\" }\nfn twice { x } { return x * 2 }\nreturn ys", "E_UNKNOWN_FN", "'twice' is declared at line 2, after this call or in a block the call cannot see: move `fn twice { … }` to the top level, above its first use."},
		{"map fn stdlib", "return map { in: [\"a\"], fn: \"sort\" }", "E_UNKNOWN_FN", "fn names a function the program declares; sort is a stdlib function: declare one that calls it, `fn f { x } { return sort { in: x, by: … } }`, and pass fn: \"f\"."},
		{"f with space is a name", "let s = f \"x\"\nreturn s", "E_UNBOUND", "Make sure the variable is defined with 'let' (or '-> name') before use."},
		{"quote inside a string", "let s = \"say \"hi\"\"\nreturn s", "E_UNBOUND", "A \" inside a string ends it: write the inner quotes as \\\", `\"say \\\"hi\\\"\"`, or use single quotes inside (\"say 'hi'\")."},
		{"bound later", "let y = x + 1\nlet x = 2\nreturn y", "E_UNBOUND", "'x' is bound at line 2, which this use cannot see (after it, or inside another block or function): bind it before its first use, in this block or one around it."},
		{"bound names listed", "let count = 1\nlet total = 2\nreturn cnt", "E_UNBOUND", "Make sure the variable is defined with 'let' (or '-> name') before use. Bound here: count, total."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config()
			cfg.Params = func(name string) ([]string, bool) {
				ps, ok := map[string][]string{"sort": {"in", "by"}, "str.concat": {"parts"}}[name]
				return ps, ok
			}
			ds := check.Program(parse(t, "t.a0", tc.src), cfg)
			if len(ds) != 1 {
				t.Fatalf("got %s", ds.JSONArray())
			}
			if ds[0].Code != tc.code || ds[0].Hint != tc.hint {
				t.Errorf("got %s %q\nwant %s %q", ds[0].Code, ds[0].Hint, tc.code, tc.hint)
			}
		})
	}
}

// TestArgAliasRenames: an argument name of another language or tool that
// no edit distance reaches is renamed to the A0 name it stands for.
func TestArgAliasRenames(t *testing.T) {
	tests := []struct {
		fn            string
		params, given []string
		hint          string
	}{
		{"range", []string{"from", "to"}, []string{"start", "end"}, "Rename 'start' to 'from', 'end' to 'to': range { from: …, to: … }."},
		{"fs.write", []string{"path", "data", "format"}, []string{"file", "content"}, "Rename 'file' to 'path', 'content' to 'data': fs.write { path: …, data: …, format: … }."},
		{"join", []string{"in", "sep"}, []string{"in", "separator"}, "Rename 'separator' to 'sep': join { in: …, sep: … }."},
		{"sh.exec", []string{"cmd", "argv", "shell", "cwd", "env", "timeoutMs", "graceMs"}, []string{"command", "timeout"}, "Rename 'command' to 'cmd', 'timeout' to 'timeoutMs': sh.exec { cmd: …, timeoutMs: … }."},
		{"sort", []string{"in", "by"}, []string{"in", "desc"}, "sort has no 'desc' option: remove it and call sort { in: …, by: … } (see `a0 help stdlib` for what each argument does)."},
		{"math.max", []string{"in"}, []string{"a", "b"}, "math.max takes one 'in': pass the values together as a list, math.max { in: [ … ] }."},
		{"str.split", []string{"in", "sep"}, []string{"in", "sep", "regex"}, "str.split matches plain text; for a pattern use re.split { in: …, pattern: \"…\" } (RE2 syntax)."},
		// An alias whose target is already given is no rename.
		{"join", []string{"in", "sep"}, []string{"sep", "separator"}, "Rename 'separator' to 'in': join { in: …, sep: … }."},
		{"for", []string{"in", "as"}, []string{"in", "as", "index"}, "for binds each item to its as name and nothing else: to number the items, go over range { from: 0, to: len { in: xs } } as \"i\" and read the item with get { in: xs, path: … }."},
		{"loop", []string{"in", "times", "as"}, []string{"in", "times", "as", "step"}, "loop has no 'step' argument: remove it and call loop { in: …, times: …, as: … } (see `a0 help flow` for what each argument does)."},
		{"get", []string{"in", "path"}, []string{"in", "path", "default"}, "get takes no default: give one around the call, coalesce { in: get { in: …, path: … }, default: … } (a missing value reads as null)."},
		// A rename never goes to a parameter the call gives already.
		{"str.padStart", []string{"in", "len", "with"}, []string{"in", "width", "with"}, "Rename 'width' to 'len': str.padStart { in: …, len: …, with: … }."},
		{"str.split", []string{"in", "sep"}, []string{"in", "on"}, "Rename 'on' to 'sep': str.split { in: …, sep: … }."},
		{"unique", []string{"in"}, []string{"in", "by"}, "unique has no 'by' argument: remove it and call unique { in: … } (see `a0 help stdlib` for what each argument does)."},
		{"unique", []string{"in"}, []string{"in", "reverse"}, "unique has no 'reverse' option: remove it and call unique { in: … } (see `a0 help stdlib` for what each argument does)."},
		{"join", []string{"in", "sep"}, []string{"in", "sep", "sepp"}, "'sepp' means 'sep', which the call gives already: keep one of the two."},
		{"sh.exec", []string{"cmd", "argv", "shell", "cwd", "env", "timeoutMs", "graceMs"}, []string{"cmd", "command"}, "'command' means 'cmd', which the call gives already: keep one of the two."},
		{"sh.exec", []string{"cmd", "argv", "shell", "cwd", "env", "timeoutMs", "graceMs"}, []string{"cmd", "argv", "shell", "cwd", "env", "timeoutMs", "graceMs", "verbose"}, "sh.exec has no 'verbose' argument: remove it; it takes the ones listed above."},
	}
	for _, tc := range tests {
		_, hint := check.ArgNamesMessage(tc.fn, tc.params, tc.given)
		if hint != tc.hint {
			t.Errorf("%s %v:\n got %s\nwant %s", tc.fn, tc.given, hint, tc.hint)
		}
	}
}

// A tool's unknown-argument hint points to the tools' help, not the
// stdlib's.
func TestToolHelpTopic(t *testing.T) {
	for name, want := range map[string]string{"fs.read": "tools", "http.get": "tools", "sh.status": "tools", "notes.add": "tools/notes"} {
		if got := check.ToolHelpTopic(name); got != want {
			t.Errorf("ToolHelpTopic(%s) = %s, want %s", name, got, want)
		}
	}
}
