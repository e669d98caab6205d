package parser

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/value"
)

// fastCases are programs at the edges of the grammar: trailing commas, the
// lookaheads after commas, optional parts, operator chains, and mistakes.
var fastCases = []string{
	"",
	"return 1",
	"cap { fs.read: true }\nbudget { timeMs: 10 }\nimport \"x\" as y\nreturn 1",
	"let x = 1\ncap { a: true }",
	"input { repo: \"str\", limit: \"int?\" }\ncap { fs.read: true }\nreturn input.repo",
	"input {}\ninput { a: 1, ...b, c.d: \"x\", }\nreturn input",
	"cap { a: true }\ninput { a: \"str\" }\nreturn 1",
	"input { a: \"str\"\nreturn 1",
	"input.a\nreturn 1",
	"input\nreturn 1",
	"input { a: \"str\" } -> x\nreturn x",
	"let input = 1\ninput { a: \"str\" }\nreturn input",
	"return 1\ninput { a: \"str\" }",
	"fn f { a, b, } { return a }\nfn g {} { return 1 }\nfn h { a } { return a }",
	"fn f { a, } { return a }",
	"fn f { , } { return 1 }",
	"let r = { a: 1, b.c.d: 2, ...x, if: 3, }\nreturn r",
	"let r = { a: 1, , }",
	"let r = { a: 1, \"b\": 2 }",
	"let r = { }\nlet l = []\nlet m = [1, ]\nlet n = [,]",
	"let l = [1, -2, (3), {a: 1}, [4], x, f { a: 1 }, do t.x { }, if { cond: true }, for { in: [] } { return 1 }]",
	"let l = [1, let]",
	"let l = [1, fn]",
	"return - - -x",
	"return a - -b * c / d % e + f",
	"return a < b < c",
	"return a == b\n-> c",
	"f { a: 1 } -> r.s.t",
	"f { a: 1 } -> r.if.else",
	"x.y.z\n{ a: 1 }",
	"return a.",
	"return a.true",
	"return a.if",
	"let x = filter { in: xs, as: \"v\" }\nlet y = filter { in: xs, as: \"v\" } { return v }\nreturn y",
	"let x = filter { in: xs } { a: 1 }",
	"let m = match (r) { ok { v } { return v } err { e } { return e } }",
	"let m = match r.s { ok { v } { return v } err { e } { return e } }",
	"let m = match r { ok { v } { return v } }",
	"let t = try { return 1 } catch { e } { return e }",
	"let t = try { return 1 } catch e { return e }",
	"let c = if (a) { return 1 } else { return 2 }",
	"let c = if (a) { return 1 }",
	"let c = if a",
	"call? fs.read { path: \"x\" } -> r\ndo sh.exec { argv: [\"true\"] }",
	"assert { that: true }\ncheck { that: true, msg: \"m\" }",
	"loop { in: 0, times: 3 } { return 1 }",
	"return (1",
	"return [1, 2",
	"return { a: 1",
	"let = 1",
	"let x 1",
	"return",
	"}",
	"else",
	"return 1 2",
	"return -",
	"return a +",
	"return f {",
	"return \"a\" + 1.5e3 + null + true + false",
	"let x = { a: { b: { c: [ { d: -(1) } ] } } }\nreturn x",
	"fn f { a } { fn g { b } { return b } return g { b: a } }\nreturn f { a: 1 }",
	// Shape errors and the errors around them: the first in source
	// order (depth first) is the one reported, by either parser.
	"let x = for { in: [1] } { return \"a\tb\" }",
	"let x = for { in: [\"a\tb\"] } { return 1 }",
	"let x = loop { in: 0, as: \"s\" } { return \"a\tb\" }",
	"let x = filter { as: \"v\" } { return \"a\tb\" }",
	"let x = filter { in: [\"a\tb\"] } { return 1 }",
	"let m = match r { ok { v } { return \"a\tb\" } oops { e } { return e } }",
	"let m = match r { bad { v } { return 1 } err { e } { return \"a\tb\" } }",
	"let m = match r { ok { v } { return 1 } ok { e } { return \"a\tb\" } }",
	"let m = match r { err { v } { return 1 } ok { e } { return 2 } }",
	"let c = if { cond: \"a\tb\" }",
	"let c = if { cond: true, then: 1 }\nlet d = for { in: [] } { return 1 }",
	"import \"a\tb\" as x\nreturn 1",
	"return [- -\"a\tb\", (1 + 2) * -3 % 4 - 5 / 6, f.g.h { a.b: 1 }, x.if.y]",
}

func agree(t *testing.T, name, src string) (fastOK bool) {
	t.Helper()
	if !utf8.ValidString(src) {
		src = value.DecodeBytes([]byte(src)) // as Parse does
	}
	toks, lexErrs := lexer.Lex(name, src)
	if len(lexErrs) > 0 || checkNesting(name, toks) != nil {
		return false
	}
	_, _, fast, _ := fastParse(&lowerer{file: name, toks: toks})
	gotP, gotD := Parse(name, src, Options{})
	wantP, wantD := Parse(name, src, Options{participleOnly: true})
	if !reflect.DeepEqual(gotP, wantP) || !reflect.DeepEqual(gotD, wantD) {
		t.Errorf("%s: fast and participle parsers disagree on %q\nfast: %+v %v\nparticiple: %+v %v",
			name, src, gotP, gotD.JSONArray(), wantP, wantD.JSONArray())
	}
	// participle decides whether the tokens are a program; the fast parser
	// must accept exactly those (giving up on a valid one would only be
	// slow, but would show a gap in its grammar).
	_, perr := theParser().ParseFromLexer(participleLexer(name, toks).peeking())
	if fast != (perr == nil) {
		t.Errorf("%s: fast parser accepted=%v, participle error=%v, on %q", name, fast, perr, src)
	}
	return fast
}

// withComments returns src with a comment between every two tokens (and
// before the first and after the last): own-line comments, or comments
// after the token on its line when trailing. It returns "" when src does
// not lex.
func withComments(src string, trailing bool) string {
	toks, ds := lexer.Lex("c.a0", src)
	if len(ds) > 0 {
		return ""
	}
	var b strings.Builder
	for i, tok := range toks {
		switch {
		case trailing && i > 0:
			b.WriteString(" # after " + strconv.Itoa(i) + "\n")
		default:
			b.WriteString("\n# before " + strconv.Itoa(i) + "\n")
		}
		b.WriteString(tok.Text)
	}
	return b.String()
}

// attached counts the comments placed in the tree (every *ast.Comment
// reachable from p, except through p.Comments).
func attached(p *ast.Program) int {
	seen := map[*ast.Comment]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if c, ok := v.Interface().(*ast.Comment); ok {
				seen[c] = true
				return
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).Name != "Comments" {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(p))
	return len(seen)
}

// agreeWithComments runs agree on src with comments added between all
// tokens, and checks that each comment is attached exactly once.
func agreeWithComments(t *testing.T, name, src string) {
	t.Helper()
	for _, trailing := range []bool{false, true} {
		c := withComments(src, trailing)
		if c == "" {
			return
		}
		agree(t, name+"+comments", c)
		if p, ds := Parse(name, c, Options{}); len(ds) == 0 {
			if got := attached(p); got != len(p.Comments) || len(p.Comments) != strings.Count(c, "\n#")+strings.Count(c, " # ") {
				t.Errorf("%s: %d comments lexed, %d attached (trailing=%v)", name, len(p.Comments), got, trailing)
			}
		}
	}
}

func TestFastAgrees(t *testing.T) {
	// Each case also after headers and after statements: when the fast
	// parser gives up, participle parses only from the failing top-level
	// element on, and must report what a parse of the whole would.
	prefixes := []string{"", "cap { fs.read: true }\n", "let a = [1, 2]\nf { x: a } -> b\n", "budget { timeMs: 5 }\nreturn { k: 1 }\n"}
	for i, src := range fastCases {
		for j, pre := range prefixes {
			agree(t, "case"+strconv.Itoa(i)+"."+strconv.Itoa(j), pre+src)
		}
		// And with comments between all tokens: comments are not in
		// either grammar, and both parsers attach them alike.
		agreeWithComments(t, "case"+strconv.Itoa(i), src)
	}
	if !agree(t, "bench", benchSource(3)) {
		t.Error("the fast parser gave up on the benchmark program")
	}
	n := 0
	for _, dir := range []string{"testdata", "../check/testdata", "../format/testdata", "../../examples"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".a0") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			agree(t, path, string(data))
			agreeWithComments(t, path, string(data))
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 100 {
		t.Fatalf("only %d corpus files found", n)
	}
}

// FuzzFastAgrees checks the fast parser against participle on arbitrary
// input: same AST or same diagnostic, and acceptance of the same programs.
func FuzzFastAgrees(f *testing.F) {
	for _, src := range fastCases {
		f.Add(src)
	}
	f.Add(benchSource(1))
	for _, dir := range []string{"testdata/ok", "../../examples"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.a0"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(string(data))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		agree(t, "fuzz.a0", src)
		if c := withComments(src, len(src)%2 == 0); c != "" && len(c) <= 8192 {
			agree(t, "fuzz+comments.a0", c)
		}
	})
}

// TestParseInvalidUTF8 is the fuzzer's find: a byte that is not UTF-8
// before an escape inside a string literal made the string decoder read
// past the literal. Parse reads such bytes as U+FFFD, as the CLI does.
func TestParseInvalidUTF8(t *testing.T) {
	for _, src := range []string{"\"\x9f\\\\\"", "return \"a\xff\\n\"", "let \xe2\x82 = 1"} {
		got, gotD := Parse("x.a0", src, Options{})
		want, wantD := Parse("x.a0", value.DecodeBytes([]byte(src)), Options{})
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotD, wantD) {
			t.Errorf("%q: got %v %v, want %v %v", src, got, gotD, want, wantD)
		}
	}
}
