package format

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
)

var (
	update     = flag.Bool("update", false, "rewrite the testdata/*.golden files")
	randomN    = flag.Int("random", 0, "number of programs TestRandomRoundTrip generates (default 400, 100 with -short)")
	randomSeed = flag.Uint64("seed", 1, "seed of TestRandomRoundTrip")
)

// format parses src and formats it, failing the test on a parse error.
func format(t testing.TB, src string) string {
	t.Helper()
	p, ds := parser.Parse("test.a0", src, parser.Options{})
	if len(ds) > 0 {
		t.Fatalf("parse %q: %v", src, ds)
	}
	return Program(p)
}

type fmtCase struct {
	name, src, want string
}

func runCases(t *testing.T, cases []fmtCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := format(t, c.src)
			if got != c.want {
				t.Errorf("format(%q)\n got: %q\nwant: %q\n--- got ---\n%s--- want ---\n%s", c.src, got, c.want, got, c.want)
			}
			if again := format(t, got); again != got {
				t.Errorf("not idempotent:\nfirst:  %q\nsecond: %q", got, again)
			}
		})
	}
}

func TestProgramLayout(t *testing.T) {
	runCases(t, []fmtCase{
		{"empty", "", "\n"},
		{"only whitespace and comments", "  \n# note\n\n", "# note\n"},
		{"only whitespace", "  \n\n\t\n", "\n"},
		{"headers and statements", "cap {fs.read: true,  http.get:true}\nbudget {timeMs: 5000,maxToolCalls:10}\n\n\nlet x=(2+3)*4\nreturn {x:x}",
			"cap { fs.read: true, http.get: true }\nbudget { timeMs: 5000, maxToolCalls: 10 }\n\nlet x = (2 + 3) * 4\nreturn { x: x }\n"},
		{"headers only", "cap {fs.read:true}", "cap { fs.read: true }\n"},
		{"statements only", "let a = 1 let b = 2 return a + b", "let a = 1\nlet b = 2\nreturn a + b\n"},
		{"import header", `import "lib/x.a0"  as   lib return lib.f {}`, "import \"lib/x.a0\" as lib\n\nreturn lib.f {}\n"},
		{"empty header record", "budget {}", "budget {}\n"},
		{"input header", "input {repo:\"str\",\n limit : \"int?\"}  # in\ncap {fs.read:true}\nreturn input.repo", "input { repo: \"str\", limit: \"int?\" } # in\ncap { fs.read: true }\n\nreturn input.repo\n"},
		{"empty input header", "input {} return input", "input {}\n\nreturn input\n"},
		{"input call after a statement stays a statement", "let a = 1\ninput {x: 1}\nreturn a", "let a = 1\ninput { x: 1 }\nreturn a\n"},
		{"blank lines collapse in a program with comments", "# c\nlet a = 1\n\n\n\nlet b = 2\n", "# c\nlet a = 1\n\nlet b = 2\n"},
		{"a comment-free program has the reference layout: no blank lines", "let a = 1\n\n\n\nlet b = 2\n", "let a = 1\nlet b = 2\n"},
		{"headers then one blank line", "cap { fs.read: true }\n\n\nlet a = 1\n\nreturn a", "cap { fs.read: true }\n\nlet a = 1\nreturn a\n"},
		{"comments stay", "let a = 1 # one\n# two\nreturn a # three", "let a = 1 # one\n# two\nreturn a # three\n"},
		{"crlf input", "let a = 1\r\nreturn a\r\n", "let a = 1\nreturn a\n"},
		{"arrow target", "do fs.write {path: \"a\", data: 1}->out.file.info", "do fs.write { path: \"a\", data: 1 } -> out.file.info\n"},
	})
}

func TestBlocks(t *testing.T) {
	runCases(t, []fmtCase{
		{"fn with params", "fn add {a,b,} {return a+b}", "fn add { a, b } {\n  return a + b\n}\n"},
		{"fn zero params", "fn f {} {return 1}", "fn f {  } {\n  return 1\n}\n"},
		{"fn empty body is an empty line", "fn f {x} {}", "fn f { x } {\n\n}\n"},
		{"nested fn body", "fn f {} { fn g {} { return 1 } return g {} }",
			"fn f {  } {\n  fn g {  } {\n    return 1\n  }\n  return g {}\n}\n"},
		{"if block", "let v = if (a > 1) { return 1 } else { let b = 2 return b }",
			"let v = if (a > 1) {\n  return 1\n} else {\n  let b = 2\n  return b\n}\n"},
		{"if block condition loses outer parens", "let v = if (((a))) { return 1 } else { return 2 }",
			"let v = if (a) {\n  return 1\n} else {\n  return 2\n}\n"},
		{"try", "let r = try { return 1 / 0 } catch {e} { return e }",
			"let r = try {\n  return 1 / 0\n} catch { e } {\n  return e\n}\n"},
		{"for", "let r = for {in: xs, as: \"x\"} { return x }",
			"let r = for { in: xs, as: \"x\" } {\n  return x\n}\n"},
		{"filter block", "let r = filter {in: xs, as: \"x\"} { return x > 1 }",
			"let r = filter { in: xs, as: \"x\" } {\n  return x > 1\n}\n"},
		{"loop", "let r = loop {in: 0, times: 3, as: \"n\"} { return n + 1 }",
			"let r = loop { in: 0, times: 3, as: \"n\" } {\n  return n + 1\n}\n"},
		{"head keeps only the entries that count", "let r = for {as: \"x\", ...opts, in: xs, in: ys, extra: 1} { return x }",
			"let r = for { in: ys, as: \"x\" } {\n  return x\n}\n"},
		{"loop head in order in, times, as", "let r = loop {times: n + 1, as: \"acc\", in: [], as: 7} { return acc }",
			"let r = loop { in: [], times: n + 1, as: \"acc\" } {\n  return acc\n}\n"},
		{"filter head", "let r = filter {as: \"p\", in: ps, by: \"k\"} { return p.ok }",
			"let r = filter { in: ps, as: \"p\" } {\n  return p.ok\n}\n"},
		{"head holding a comment is printed as written", "let r = for {as: \"x\", # why\n in: xs} { return x }",
			"let r = for {\n  as: \"x\", # why\n  in: xs\n} {\n  return x\n}\n"},
		{"match ok first", "let r = match x { ok {v} { return v } err {e} { return 0 } }",
			"let r = match x {\n  ok { v } {\n    return v\n  }\n  err { e } {\n    return 0\n  }\n}\n"},
		{"match err first: ok arm printed first", "return match a.b { err {e} { return 0 } ok {v} { return v } }",
			"return match a.b {\n  ok { v } {\n    return v\n  }\n  err { e } {\n    return 0\n  }\n}\n"},
		{"match parenthesised subject", "return match (f {}) { ok {v} { return v } err {e} { return e } }",
			"return match (f {}) {\n  ok { v } {\n    return v\n  }\n  err { e } {\n    return e\n  }\n}\n"},
		{"match parenthesised path subject", "return match ((x)) { ok {v} { return v } err {e} { return e } }",
			"return match x {\n  ok { v } {\n    return v\n  }\n  err { e } {\n    return e\n  }\n}\n"},
		{"nested depth", "fn f {} { let r = match x { ok {v} { return for {in: v, as: \"i\"} { return i } } err {e} { return e } } return r }",
			"fn f {  } {\n  let r = match x {\n    ok { v } {\n      return for { in: v, as: \"i\" } {\n        return i\n      }\n    }\n    err { e } {\n      return e\n    }\n  }\n  return r\n}\n"},
		{"empty blocks", "let r = if (a) {} else {}", "let r = if (a) {\n\n} else {\n\n}\n"},
		{"empty block with a comment", "let r = try { # later\n} catch {e} {}", "let r = try { # later\n} catch { e } {\n\n}\n"},
	})
}

func TestInlineForms(t *testing.T) {
	runCases(t, []fmtCase{
		{"if record", "let r = if {cond: a, then: 1, else: 2}", "let r = if { cond: a, then: 1, else: 2 }\n"},
		{"if record in the order cond, then, else", "let r = if {else: 2, extra: z, then: 1, cond: a, ...more}", "let r = if { cond: a, then: 1, else: 2 }\n"},
		{"if record never broken", "let r = if {cond: some_long_condition_name, then: \"a long then value\", else: \"a long else value\"}",
			"let r = if { cond: some_long_condition_name, then: \"a long then value\", else: \"a long else value\" }\n"},
		{"call?", "let r = call? http.get {url: u}", "let r = call? http.get { url: u }\n"},
		{"do", "do fs.write {path: p, data: d}", "do fs.write { path: p, data: d }\n"},
		{"assert", "assert {that: true, msg: \"m\"}", "assert { that: true, msg: \"m\" }\n"},
		{"check", "check {that: true}", "check { that: true }\n"},
		{"call", "let r = str.concat {parts: [a, b]}", "let r = str.concat { parts: [a, b] }\n"},
		{"call empty args", "let r = now {  }", "let r = now {}\n"},
		{"block-less filter", "let r = filter {in: xs, by: \"ok\"}", "let r = filter { in: xs, by: \"ok\" }\n"},
		{"tool args break", "let r = call? http.get {url: \"https://example.com/some/much/longer/path/here\", headers: {a: \"b\"}}",
			"let r = call? http.get {\n  url: \"https://example.com/some/much/longer/path/here\",\n  headers: { a: \"b\" }\n}\n"},
	})
}

func TestRecordsAndLists(t *testing.T) {
	// Exactly 72 and 73 UTF-16 units of inline text; `{ k: "` and `" }`
	// take 9.
	s63, s64 := strings.Repeat("a", 63), strings.Repeat("a", 64)
	e63 := strings.Repeat("é", 63)                     // 1 unit each
	emoji63 := strings.Repeat("\U0001F600", 31) + "x"  // 63 units
	emoji64 := strings.Repeat("\U0001F600", 31) + "xy" // 64 units
	i23, i24 := strings.Repeat("i", 23), strings.Repeat("i", 24)
	list72 := `["` + strings.Repeat("b", 68) + `"]` // 72 units
	list73 := `["` + strings.Repeat("b", 69) + `"]` // 73 units
	runCases(t, []fmtCase{
		{"empty record", "let r = {}", "let r = {}\n"},
		{"empty list", "let r = [ ]", "let r = []\n"},
		{"inline record", "let r = {a:1,b:[1,2],...c}", "let r = { a: 1, b: [1, 2], ...c }\n"},
		{"trailing commas", "let r = {a:1,} let l = [1,2,]", "let r = { a: 1 }\nlet l = [1, 2]\n"},
		{"dotted and keyword keys", "let r = {a . b: 1, if: 2, for.as: 3}", "let r = { a.b: 1, if: 2, for.as: 3 }\n"},
		{"72 units inline", `let r = {k: "` + s63 + `"}`, `let r = { k: "` + s63 + "\" }\n"},
		{"73 units break", `let r = {k: "` + s64 + `"}`, "let r = {\n  k: \"" + s64 + "\"\n}\n"},
		{"accents count one", `let r = {k: "` + e63 + `"}`, `let r = { k: "` + e63 + "\" }\n"},
		{"emoji count two", `let r = {k: "` + emoji63 + `"}`, `let r = { k: "` + emoji63 + "\" }\n"},
		{"emoji break", `let r = {k: "` + emoji64 + `"}`, "let r = {\n  k: \"" + emoji64 + "\"\n}\n"},
		{"escapes measured as printed: 72", `let r = {k: "` + strings.Repeat(`\n`, 31) + `x"}`, `let r = { k: "` + strings.Repeat(`\n`, 31) + "x\" }\n"},
		{"escapes measured as printed: 73", `let r = {k: "` + strings.Repeat(`\n`, 32) + `"}`, "let r = {\n  k: \"" + strings.Repeat(`\n`, 32) + "\"\n}\n"},
		{"list 72 inline", "let l = " + list72, "let l = " + list72 + "\n"},
		{"list 73 break", "let l = " + list73, "let l = [\n  " + list73[1:len(list73)-1] + "\n]\n"},
		{"prefix on the line does not count",
			`let a_rather_long_variable_name_for_this = {k: "` + s63 + `"}`,
			`let a_rather_long_variable_name_for_this = { k: "` + s63 + "\" }\n"},
		{"indentation does not count",
			`fn f {} { fn g {} { return {k: "` + s63 + `"} } return 1 }`,
			"fn f {  } {\n  fn g {  } {\n    return { k: \"" + s63 + "\" }\n  }\n  return 1\n}\n"},
		{"broken members at depth+1", "fn f {} { return {first_key: \"first value here\", second_key: \"second value here\", third: 3} }",
			"fn f {  } {\n  return {\n    first_key: \"first value here\",\n    second_key: \"second value here\",\n    third: 3\n  }\n}\n"},
		{"nested break only where needed", "let r = {outer: {inner_one: \"some text to make it long\", inner_two: \"more text to make it longer\"}, flag: true}",
			"let r = {\n  outer: {\n    inner_one: \"some text to make it long\",\n    inner_two: \"more text to make it longer\"\n  },\n  flag: true\n}\n"},
		{"spread broken", "let r = {...aaaaaaaaaaaaaaaaaaaa, ...bbbbbbbbbbbbbbbbbbbbbbbbbb, ...cccccccccccccccccccccccccc}",
			"let r = {\n  ...aaaaaaaaaaaaaaaaaaaa,\n  ...bbbbbbbbbbbbbbbbbbbbbbbbbb,\n  ...cccccccccccccccccccccccccc\n}\n"},
		{"block member stays inline", `let r = { a: for { in: [1], as: "i" } { return i } }`,
			"let r = { a: for { in: [1], as: \"i\" } {\n    return i\n  } }\n"},
		// The inline text below is 72 units with its two newlines and the
		// body's four-space indentation; one more character breaks it.
		{"newlines count: 72", `let r = { a: for { in: [1], as: "i" } { return ` + i23 + ` } }`,
			"let r = { a: for { in: [1], as: \"i\" } {\n    return " + i23 + "\n  } }\n"},
		{"newlines count: 73", `let r = { a: for { in: [1], as: "i" } { return ` + i24 + ` } }`,
			"let r = {\n  a: for { in: [1], as: \"i\" } {\n    return " + i24 + "\n  }\n}\n"},
		{"broken record in if head", "fn g {a} { let i = if {cond: a, then: {very_long_key_one: \"very long value one\", very_long_key_two: \"very long value two\"}, else: 1} return i }",
			"fn g { a } {\n  let i = if { cond: a, then: {\n      very_long_key_one: \"very long value one\",\n      very_long_key_two: \"very long value two\"\n    }, else: 1 }\n  return i\n}\n"},
		{"broken list in for head", "let xs = for {in: [{very_long_key_one: \"very long value one\", very_long_key_two: \"very long value two\"}], as: \"x\"} { return x }",
			"let xs = for { in: [\n    {\n      very_long_key_one: \"very long value one\",\n      very_long_key_two: \"very long value two\"\n    }\n  ], as: \"x\" } {\n  return x\n}\n"},
	})
}

func TestOperators(t *testing.T) {
	runCases(t, []fmtCase{
		{"spaces", "let r=1+2*3-4/5%6", "let r = 1 + 2 * 3 - 4 / 5 % 6\n"},
		{"higher child loses parens", "let r = (2 * 3) + 4", "let r = 2 * 3 + 4\n"},
		{"lower child keeps parens", "let r = (2 + 3) * 4", "let r = (2 + 3) * 4\n"},
		{"equal left loses parens", "let r = (1 - 2) - 3", "let r = 1 - 2 - 3\n"},
		{"equal right keeps parens", "let r = 1 - (2 - 3)", "let r = 1 - (2 - 3)\n"},
		{"equal right keeps parens even if associative", "let r = 1 + (2 + 3)", "let r = 1 + (2 + 3)\n"},
		{"mixed same level right", "let r = a * (b % c)", "let r = a * (b % c)\n"},
		{"comparison of sums", "let r = (a + 1) < (b * 2)", "let r = a + 1 < b * 2\n"},
		{"sum of comparison", "let r = (a < b) + 1", "let r = (a < b) + 1\n"},
		{"redundant parens vanish", "let r = ((a)) + (((1)))", "let r = a + 1\n"},
		{"paren statement value", "let r = (1 + 2)", "let r = 1 + 2\n"},
		{"unary", "let r = - x", "let r = -x\n"},
		{"unary of binary", "let r = -(1 + 2)", "let r = -(1 + 2)\n"},
		{"unary of unary", "let r = - -3", "let r = -(-3)\n"},
		{"unary of paren unary", "let r = -(-(3))", "let r = -(-3)\n"},
		{"unary of atom loses parens", "let r = -(x) * -(2)", "let r = -x * -2\n"},
		{"binary with unary right", "let r = 2--3", "let r = 2 - -3\n"},
		{"unary of record", "let r = -{a: 1}", "let r = -{ a: 1 }\n"},
		{"all comparison ops", "let r = [a==b, a!=b, a<b, a>b, a<=b, a>=b]", "let r = [a == b, a != b, a < b, a > b, a <= b, a >= b]\n"},
	})
}

func TestLiterals(t *testing.T) {
	runCases(t, []fmtCase{
		{"keywords", "let r = [null, true, false]", "let r = [null, true, false]\n"},
		{"int", "let r = 42", "let r = 42\n"},
		{"int js printing", "let r = 12345678901234567890", "let r = 12345678901234567000\n"},
		{"int rounding", "let r = 9007199254740993", "let r = 9007199254740992\n"},
		{"float trailing zero", "let r = 1.50", "let r = 1.5\n"},
		{"float integral", "let r = 100.0", "let r = 100.0\n"},
		{"float zero", "let r = 0.0", "let r = 0.0\n"},
		{"float small", "let r = 0.0000001", "let r = 0.0000001\n"},
		{"float smaller", "let r = 0.000000012", "let r = 0.000000012\n"},
		{"float large", "let r = 1234567890123456789012.5", "let r = 1234567890123456800000.0\n"},
		{"float exponent", "let r = 1.5e3", "let r = 1500.0\n"},
		{"float negative exponent", "let r = 2.0E-2", "let r = 0.02\n"},
		{"float huge exponent", "let r = 1.5e25", "let r = 15000000000000000000000000.0\n"},
		{"float underflow", "let r = 1.0e-400", "let r = 0.0\n"},
		{"string unicode escape", `let r = "\u00e9"`, "let r = \"é\"\n"},
		{"string line separator raw", `let r = "\u2028\u2029"`, "let r = \"\u2028\u2029\"\n"},
		{"string escapes", `let r = "\t\n\r\b\f\"\\\/"`, `let r = "\t\n\r\b\f\"\\/"` + "\n"},
		{"string control escapes", `let r = "\u0001\u001F\u007f"`, "let r = \"\\u0001\\u001f\u007f\"\n"},
		{"string surrogate pair", `let r = "\uD83D\uDE00"`, "let r = \"\U0001F600\"\n"},
		{"string lone surrogate", `let r = "\uD800x"`, `let r = "\ud800x"` + "\n"},
		{"string raw non-ascii", `let r = "Grüße 😀"`, "let r = \"Grüße 😀\"\n"},
		{"html not escaped", `let r = "<a&b>"`, "let r = \"<a&b>\"\n"},
		{"import path re-escaped", `import "\u0061.a0" as a`, "import \"a.a0\" as a\n"},
	})
}

// TestRescued covers the cases where the reference's output would not
// parse again, or would parse to a different tree.
func TestRescued(t *testing.T) {
	runCases(t, []fmtCase{
		{"int 1e21", "let r = 1000000000000000000000", "let r = 1000000000000000000000.0\n"},
		{"int above 1e21", "let r = 123456789012345678901234567890", "let r = 123456789012345680000000000000.0\n"},
		{"int just below 1e21", "let r = 999999999999999999999", "let r = 1000000000000000000000.0\n"},
		{"int below 1e21", "let r = 999999999999999900000", "let r = 999999999999999900000\n"},
		{"infinite float keeps text", "let r = 1.0e999", "let r = 1.0e999\n"},
		{"infinite int keeps text", "let r = 1" + strings.Repeat("0", 400), "let r = 1" + strings.Repeat("0", 400) + "\n"},
		{"if record operand", "let r = (if {cond: a, then: 1, else: 2}) + 1", "let r = (if { cond: a, then: 1, else: 2 }) + 1\n"},
		{"if block right operand", "let r = 1 * (if (a) { return 1 } else { return 2 })",
			"let r = 1 * (if (a) {\n  return 1\n} else {\n  return 2\n})\n"},
		{"tool call operand", "let r = (call? fs.read {path: p}) == null", "let r = (call? fs.read { path: p }) == null\n"},
		{"do operand", "let r = 1 + (do fs.write {path: p, data: 1})", "let r = 1 + (do fs.write { path: p, data: 1 })\n"},
		{"assert operand", "let r = -(assert {that: true})", "let r = -(assert { that: true })\n"},
		{"check operand", "let r = -(check {that: true})", "let r = -(check { that: true })\n"},
		{"match operand", "let r = -(match x { ok {v} { return v } err {e} { return 0 } })",
			"let r = -(match x {\n  ok { v } {\n    return v\n  }\n  err { e } {\n    return 0\n  }\n})\n"},
		{"try operand", "let r = (try { return 1 } catch {e} { return 2 }) % 2",
			"let r = (try {\n  return 1\n} catch { e } {\n  return 2\n}) % 2\n"},
		{"for operand", "let r = (for {in: xs, as: \"x\"} { return x }) != []",
			"let r = (for { in: xs, as: \"x\" } {\n  return x\n}) != []\n"},
		{"loop operand", "let r = (loop {in: 0, times: 2, as: \"n\"} { return n }) - 1",
			"let r = (loop { in: 0, times: 2, as: \"n\" } {\n  return n\n}) - 1\n"},
		{"filter block operand", "let r = (filter {in: xs, as: \"x\"} { return x }) == []",
			"let r = (filter { in: xs, as: \"x\" } {\n  return x\n}) == []\n"},
		{"block-less filter operand", "let r = (filter {in: xs, by: \"k\"}) == []", "let r = (filter { in: xs, by: \"k\" }) == []\n"},
		{"dotted filter is a plain call", "let r = (lib.filter {in: xs}) == []", "let r = lib.filter { in: xs } == []\n"},
		{"comparison of comparisons", "let r = (a == b) == (c < d)", "let r = (a == b) == (c < d)\n"},
		{"comparison left of comparison", "let r = (a < b) != c", "let r = (a < b) != c\n"},
		{"comparison right of comparison", "let r = a == (b > c)", "let r = a == (b > c)\n"},
		{"minus statement after value", "let a = 5\n(-3) -> b", "let a = 5\n(-3) -> b\n"},
		{"minus-led binary statement", "return x\n(-1 + 2)", "return x\n(-1 + 2)\n"},
		{"minus statement after wrapped statement", "let a = 5\n(-3)\n(-4)", "let a = 5\n(-3)\n(-4)\n"},
		{"minus statement after keyword expression", "let a = for {in: [], as: \"x\"} { return x }\n(-3)",
			"let a = for { in: [], as: \"x\" } {\n  return x\n}\n-3\n"},
		{"minus statement after target", "x -> y\n(-3)", "x -> y\n-3\n"},
		{"minus statement after fn", "fn f {} { return 1 }\n(-3)", "fn f {  } {\n  return 1\n}\n-3\n"},
		{"first statement is never wrapped", "cap {a: true}\n(-3)", "cap { a: true }\n\n-3\n"},
		{"minus in block", "fn f {} { let a = 1 (-a) return 2 }", "fn f {  } {\n  let a = 1\n  (-a)\n  return 2\n}\n"},
		{"record statement after path", "let y = (r)\n({b: 2}) -> z", "let y = r\n({ b: 2 }) -> z\n"},
		{"record-led binary after path", "let y = 1 + (r)\n({b: 2} + 1)", "let y = 1 + r\n({ b: 2 } + 1)\n"},
		{"record statement after unary path", "let y = -(r)\n({})", "let y = -r\n({})\n"},
		{"record statement after parenthesised operand", "let y = 1 - (a - r)\n({})", "let y = 1 - (a - r)\n{}\n"},
		{"record statement after literal", "let y = 1\n{}", "let y = 1\n{}\n"},
		{"record statement after call", "let y = f {}\n{}", "let y = f {}\n{}\n"},
		{"record statement after block-less filter", "let y = (filter {in: xs, by: \"k\"})\n({x: 1}) -> rec",
			"let y = filter { in: xs, by: \"k\" }\n({ x: 1 }) -> rec\n"},
		{"record statement after filter block", "let y = filter {in: xs, as: \"k\"} { return k }\n{}",
			"let y = filter { in: xs, as: \"k\" } {\n  return k\n}\n{}\n"},
	})
}

// TestComments pins where comments go in the places the golden file
// comments.a0 does not reach.
func TestComments(t *testing.T) {
	runCases(t, []fmtCase{
		{"last element trailing", "let l = [1, 2 # two\n]",
			"let l = [\n  1,\n  2 # two\n]\n"},
		{"comment after comma on later line", "let r = {a: 1\n, # after comma\nb: 2}",
			"let r = {\n  a: 1, # after comma\n  b: 2\n}\n"},
		{"open comment in empty record", "let r = { # nothing\n}",
			"let r = { # nothing\n}\n"},
		{"end comment in empty list", "let l = [\n# nothing\n]",
			"let l = [\n  # nothing\n]\n"},
		{"blank lines at block edges", "fn f {} {\n\n# c\n\nreturn 1\n\n# d\n\n}",
			"fn f {  } {\n  # c\n\n  return 1\n\n  # d\n}\n"},
		{"comment in fn params", "fn f { a, # the a\n b } { return a }",
			"# the a\nfn f { a, b } {\n  return a\n}\n"},
		{"comment in if condition", "let v = if (a # why\n) { return 1 } else { return 2 }",
			"# why\nlet v = if (a) {\n  return 1\n} else {\n  return 2\n}\n"},
		{"comment before else", "let v = if (a) { return 1 } # then\nelse { return 2 }",
			"# then\nlet v = if (a) {\n  return 1\n} else {\n  return 2\n}\n"},
		{"comment before catch", "let t = try { return 1 }\n# on failure\ncatch { e } { return e }",
			"# on failure\nlet t = try {\n  return 1\n} catch { e } {\n  return e\n}\n"},
		{"comment before arrow target", "f {} # call\n-> out",
			"# call\nf {} -> out\n"},
		{"merge guard with comment", "let a = b\n# minus\n-1",
			"# minus\nlet a = b - 1\n"},
		{"crlf with comments", "let a = 1 # one\r\n# two\r\nreturn a\r\n",
			"let a = 1 # one\n# two\nreturn a\n"},
		{"comment in call args", "return str.concat { # args\n parts: [\"a\", \"b\"] }",
			"return str.concat { # args\n  parts: [\"a\", \"b\"]\n}\n"},
		{"comment in unary", "return - # neg\n 1",
			"# neg\nreturn -1\n"},
		{"hash in string", "return \"# not a comment\" # a comment",
			"return \"# not a comment\" # a comment\n"},
	})
}

func TestExpandExponent(t *testing.T) {
	cases := map[string]string{
		"1e+21":     "1000000000000000000000",
		"1.5e+21":   "1500000000000000000000",
		"1.2345e+2": "123.45",
		"1e-7":      "0.0000001",
		"1.25e-7":   "0.000000125",
		"-3e-1":     "-0.3",
		"42":        "42",
	}
	for in, want := range cases {
		if got := expandExponent(in); got != want {
			t.Errorf("expandExponent(%q) = %q, want %q", in, got, want)
		}
	}
}

func goldenInputs(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "*.a0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.a0 files")
	}
	return files
}

func readSource(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return value.DecodeBytes(b)
}

// TestGolden formats testdata/x.a0 and compares with testdata/x.golden.
// Run with -update to rewrite the golden files.
func TestGolden(t *testing.T) {
	for _, in := range goldenInputs(t) {
		name := strings.TrimSuffix(filepath.Base(in), ".a0")
		t.Run(name, func(t *testing.T) {
			got := format(t, readSource(t, in))
			golden := strings.TrimSuffix(in, ".a0") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s mismatch\n--- got ---\n%s--- want ---\n%s", golden, got, want)
			}
		})
	}
}

// TestIdempotent checks format(parse(format(x))) == format(x) and that the
// second parse gives the same tree, for every golden input and output.
func TestIdempotent(t *testing.T) {
	for _, in := range goldenInputs(t) {
		t.Run(filepath.Base(in), func(t *testing.T) {
			checkRoundTrip(t, readSource(t, in))
			golden := strings.TrimSuffix(in, ".a0") + ".golden"
			if b, err := os.ReadFile(golden); err == nil {
				src := string(b)
				if got := format(t, src); got != src {
					t.Errorf("%s is not a fixed point:\n%s", golden, got)
				}
			}
		})
	}
}

// checkRoundTrip formats src (which must parse) and checks that the output
// parses to the same tree and formats to itself.
func checkRoundTrip(t testing.TB, src string) {
	t.Helper()
	p1, ds := parser.Parse("in.a0", src, parser.Options{})
	if len(ds) > 0 {
		return
	}
	out := Program(p1)
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end in a newline: %q", out)
	}
	p2, ds := parser.Parse("out.a0", out, parser.Options{})
	if len(ds) > 0 {
		t.Fatalf("formatted output does not parse: %v\ninput:  %q\noutput: %q", ds, src, out)
	}
	if again := Program(p2); again != out {
		t.Fatalf("not idempotent\ninput:  %q\nfirst:  %q\nsecond: %q", src, out, again)
	}
	if d1, d2 := dump(p1), dump(p2); d1 != d2 {
		t.Fatalf("formatting changed the tree\ninput:  %q\noutput: %q\nbefore: %s\nafter:  %s", src, out, d1, d2)
	}
	if c1, c2 := commentTexts(p1), commentTexts(p2); !reflect.DeepEqual(c1, c2) {
		t.Fatalf("formatting changed the comments\ninput:  %q\noutput: %q\nbefore: %q\nafter:  %q", src, out, c1, c2)
	}
}

// commentTexts returns the texts of p's comments, sorted.
func commentTexts(p *ast.Program) []string {
	var out []string
	for _, c := range p.Comments {
		out = append(out, c.Text)
	}
	sort.Strings(out)
	return out
}

// commentTextsToTry are comment texts with characters that must not
// confuse the formatter.
var commentTextsToTry = []string{"# c", "#", "##", "#x", "# \"a string { [ (", "#   spaced   ", "# é 😀", "# let x = 1", "#\t"}

// insertComments rebuilds src from its tokens with, at each token
// boundary, a random separator: a space, a line break, a blank line, a
// comment after the token on its line, or a comment on lines of its own.
// It returns "" when src does not lex.
func insertComments(src string, seed uint64) string {
	toks, ds := lexer.Lex("c.a0", src)
	if len(ds) > 0 {
		return ""
	}
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for _, tok := range toks {
		text := commentTextsToTry[r.IntN(len(commentTextsToTry))]
		switch r.IntN(6) {
		case 0:
			b.WriteString(" ")
		case 1:
			b.WriteString("\n")
		case 2:
			b.WriteString("\n\n")
		case 3:
			b.WriteString(" " + text + "\n")
		case 4:
			b.WriteString("\n" + text + "\n")
		default:
			b.WriteString("\n\n" + text + "\n\n  " + text + "\n")
		}
		b.WriteString(tok.Text)
	}
	return b.String()
}

// TestCommentsEverywhere formats every golden input and example with
// comments inserted at random token boundaries: each comment is kept,
// the output is a fixed point and parses to the same program.
func TestCommentsEverywhere(t *testing.T) {
	files := goldenInputs(t)
	examples, _ := filepath.Glob("../../examples/*.a0")
	files = append(files, examples...)
	for _, in := range files {
		src := readSource(t, in)
		for seed := range uint64(8) {
			if c := insertComments(src, seed); c != "" {
				checkRoundTrip(t, c)
			}
		}
	}
}

func FuzzFormat(f *testing.F) {
	for _, in := range goldenInputs(f) {
		f.Add(readSource(f, in))
	}
	for _, s := range []string{
		"let a = 5\n(-3)", "let y = (r)\n({b: 2})", "let r = (a == b) == c",
		"let r = (if {cond: a, then: 1, else: 2}) + 1", "let r = 1000000000000000000000",
		"input {a:\"str\"} # c\nreturn input.a", "let x = 1\ninput {a: 1}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := value.DecodeBytes([]byte(s))
		checkRoundTrip(t, src)
		// The same tokens with comments at random token boundaries.
		if c := insertComments(src, uint64(len(s))*31+uint64(strings.Count(s, "e"))); c != "" {
			checkRoundTrip(t, c)
		}
	})
}

var (
	spanType = reflect.TypeOf(ast.Program{}.Span)
	// Comments are compared on their own (checkRoundTrip): they may move
	// to the front of the statement, entry or element that holds them.
	// The match arms' order (OkFirst) and the head record of
	// if/for/filter/loop (Rec) are layout: the formatter puts the ok arm
	// first and keeps only the head entries that count, which the
	// construct's own fields (Cond, In, As, …) hold.
	skipFields = map[string]bool{"SubjParen": true, "Empty": true, "Comments": true, "Notes": true, "Open": true, "End": true, "OkFirst": true}
	headTypes  = map[reflect.Type]bool{
		reflect.TypeOf(ast.IfRecord{}): true, reflect.TypeOf(ast.ForExpr{}): true,
		reflect.TypeOf(ast.FilterBlock{}): true, reflect.TypeOf(ast.LoopExpr{}): true,
	}
)

// dump renders a syntax tree without spans, parentheses and literal
// spellings, so that trees equal up to formatting dump alike.
func dump(n any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n))
	return b.String()
}

func dumpValue(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dumpValue(b, v.Elem())
		return
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		switch n := v.Interface().(type) {
		case *ast.ParenExpr:
			dumpValue(b, reflect.ValueOf(n.X))
			return
		case *ast.Literal:
			switch n.Kind {
			case ast.LitInt, ast.LitFloat:
				fmt.Fprintf(b, "Num(%v)", n.Num)
			case ast.LitString:
				fmt.Fprintf(b, "Str(%q)", n.Str)
			default:
				b.WriteString(n.Raw)
			}
			return
		}
		dumpValue(b, v.Elem())
		return
	case reflect.Struct:
		if v.Type() == spanType {
			return
		}
		b.WriteString(v.Type().Name() + "{")
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.Type == spanType || skipFields[f.Name] || f.Name == "Rec" && headTypes[v.Type()] {
				continue
			}
			b.WriteString(f.Name + ":")
			dumpValue(b, v.Field(i))
			b.WriteByte(' ')
		}
		b.WriteByte('}')
	case reflect.Slice:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			dumpValue(b, v.Index(i))
			b.WriteByte(',')
		}
		b.WriteByte(']')
	default:
		fmt.Fprintf(b, "%#v", v.Interface())
	}
}

// gen builds random valid A0 source (with redundant parentheses and odd
// spacing) for TestRandomRoundTrip.
type gen struct {
	r     *rand.Rand
	depth int
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) sp() string { return g.pick("", " ", "  ", "\n", " # c\n") }

func (g *gen) ident() string {
	return g.pick("a", "b", "xs", "value", "a_long_identifier_name", "call", "letter")
}

func (g *gen) path() string {
	p := g.ident()
	for g.r.IntN(4) == 0 {
		p += "." + g.pick("b", "if", "filter", "as", "c")
	}
	return p
}

func (g *gen) literal() string {
	return g.pick("0", "1", "42", "1.50", "100.0", "0.0000001", "1.5e3", "2.0E-2", "12345678901234567890",
		"1000000000000000000000", "1.0e999", "1234567890123456789012.5", "null", "true", "false",
		`"s"`, `"\u00e9\t\"#\\"`, `"\ud800"`, `"a long string value that takes some room"`, `"😀é"`)
}

func (g *gen) record() string {
	n := g.r.IntN(4)
	if g.depth > 4 {
		n = g.r.IntN(2)
	}
	parts := make([]string, n)
	for i := range parts {
		if g.r.IntN(6) == 0 {
			parts[i] = "..." + g.expr()
		} else {
			parts[i] = g.pick("k", "if", "a.b", "long_key_name", "as") + ":" + g.sp() + g.expr()
		}
	}
	s := "{" + strings.Join(parts, ","+g.sp())
	if n > 0 && g.r.IntN(4) == 0 {
		s += ","
	}
	return s + "}"
}

func (g *gen) head(keys ...string) string {
	parts := []string{}
	for _, k := range keys {
		v := g.expr()
		if k == "as" {
			v = `"x"`
		}
		parts = append(parts, k+": "+v)
	}
	if g.r.IntN(3) == 0 {
		parts = append(parts, "extra: "+g.expr())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (g *gen) block() string {
	n := g.r.IntN(3)
	if g.depth > 4 {
		n = g.r.IntN(2)
	}
	stmts := make([]string, n)
	for i := range stmts {
		stmts[i] = g.stmt()
	}
	return "{" + g.sp() + strings.Join(stmts, g.pick(" ", "\n")) + g.sp() + "}"
}

// operand returns text that parses as a unary-level operand.
func (g *gen) operand() string {
	switch g.r.IntN(8) {
	case 0:
		return "-" + g.sp() + g.operand()
	case 1, 2:
		return "(" + g.expr() + ")"
	case 3:
		return g.record()
	case 4:
		return g.path()
	case 5:
		return g.path() + " " + g.record()
	}
	return g.literal()
}

func (g *gen) expr() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 4 {
		return g.pick(g.literal(), g.path())
	}
	switch g.r.IntN(22) {
	case 0:
		return "if (" + g.expr() + ") " + g.block() + " else " + g.block()
	case 1:
		return "if {cond: " + g.expr() + ", then: " + g.expr() + ", else: " + g.expr() + "}"
	case 2:
		return "for " + g.head("in", "as") + " " + g.block()
	case 3:
		return "filter " + g.head("in", "as") + " " + g.block()
	case 4:
		return "filter " + g.head("in", "by")
	case 5:
		return "loop " + g.head("in", "times", "as") + " " + g.block()
	case 6:
		subj := g.path()
		if g.r.IntN(2) == 0 {
			subj = "(" + g.expr() + ")"
		}
		arms := []string{"ok {v} " + g.block(), "err {e} " + g.block()}
		if g.r.IntN(2) == 0 {
			arms[0], arms[1] = arms[1], arms[0]
		}
		return "match " + subj + " {" + arms[0] + " " + arms[1] + "}"
	case 7:
		return "try " + g.block() + " catch {e} " + g.block()
	case 8:
		return g.pick("call? ", "do ") + g.path() + " " + g.record()
	case 9:
		return g.pick("assert ", "check ") + g.record()
	case 10:
		elems := make([]string, g.r.IntN(4))
		for i := range elems {
			elems[i] = g.expr()
		}
		return "[" + strings.Join(elems, ", ") + "]"
	case 11, 12, 13, 14:
		// Arithmetic chain, operands parenthesised as generated.
		s := g.operand()
		for n := g.r.IntN(3) + 1; n > 0; n-- {
			s += g.sp() + g.pick("+", "-", "*", "/", "%") + g.sp() + g.operand()
		}
		if g.r.IntN(3) == 0 {
			s += " " + g.pick("==", "!=", "<", ">", "<=", ">=") + " " + g.operand()
		}
		return s
	}
	return g.operand()
}

func (g *gen) stmt() string {
	switch g.r.IntN(8) {
	case 0:
		if g.depth < 3 {
			g.depth++
			defer func() { g.depth-- }()
			return "fn f {" + g.pick("", "a", "a, b", "a,") + "} " + g.block()
		}
	case 1, 2:
		return "let " + g.ident() + g.sp() + "=" + g.sp() + g.expr()
	case 3:
		return "return " + g.expr()
	case 4:
		return g.expr() + " -> " + g.path()
	}
	return g.expr()
}

func (g *gen) program() string {
	var b strings.Builder
	for n := g.r.IntN(3); n > 0; n-- {
		b.WriteString(g.pick("cap ", "budget ") + g.record() + g.sp())
	}
	for n := g.r.IntN(6); n > 0; n-- {
		b.WriteString(g.stmt() + g.pick(" ", "\n", "\n\n"))
	}
	return b.String()
}

// TestRandomRoundTrip formats random valid programs and checks that each
// output parses to the same tree and is a fixed point.
func TestRandomRoundTrip(t *testing.T) {
	g := &gen{r: rand.New(rand.NewPCG(*randomSeed, 2))}
	n := 400
	if testing.Short() {
		n = 100
	}
	if *randomN > 0 {
		n = *randomN
	}
	parsed := 0
	for range n {
		src := g.program()
		if _, ds := parser.Parse("r.a0", src, parser.Options{}); len(ds) > 0 {
			continue // e.g. a generated statement merged into the previous one
		}
		parsed++
		checkRoundTrip(t, src)
	}
	if parsed < n/2 {
		t.Fatalf("only %d of %d generated programs parsed", parsed, n)
	}
}
