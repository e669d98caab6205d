package parser_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
)

// fuzzCheckConfig mirrors the names runtime gives the checker.
var fuzzCheckConfig = &check.Config{
	Stdlib: []string{"parse.json", "get", "put", "patch", "eq", "contains", "not", "and", "or", "len",
		"map", "append", "concat", "sort", "filter", "find", "range", "join", "str.concat", "str.split",
		"str.starts", "str.replace", "keys", "values", "merge", "math.max", "math.min", "str.ends",
		"unique", "reduce", "coalesce", "typeof", "pluck", "flat", "entries", "str.template"},
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

func posLess(a, b diag.Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// checkDiags verifies the invariants every diagnostic list must satisfy.
func checkDiags(t *testing.T, src string, ds diag.List) {
	t.Helper()
	for _, d := range ds {
		if d == nil {
			t.Fatalf("nil diagnostic for %q", src)
		}
		if !strings.HasPrefix(string(d.Code), "E_") || len(d.Code) < 3 {
			t.Errorf("bad code %q for %q", d.Code, src)
		}
		if d.Message == "" {
			t.Errorf("empty message (%s) for %q", d.Code, src)
		}
		if d.Span == nil {
			continue
		}
		s := *d.Span
		if s.Start.Line < 1 || s.Start.Col < 1 || s.End.Line < 1 || s.End.Col < 1 {
			t.Errorf("%s: span %+v is not 1-based for %q", d.Code, s, src)
		}
		if posLess(s.End, s.Start) {
			t.Errorf("%s: span end before start %+v for %q", d.Code, s, src)
		}
	}
	if js := ds.JSONArray(); !json.Valid([]byte(js)) {
		t.Errorf("JSONArray is not valid JSON: %s", js)
	}
}

var (
	reExpected   = regexp.MustCompile(`(?s)^Expected ([A-Za-z]+) but found '(.*)'\.$`)
	reUnexpected = regexp.MustCompile(`(?s)^Unexpected token '(.*)'\.$`)
	reSyntax     = regexp.MustCompile(`(?s)^Syntax error near '(.*)'\.$`)
	reControl    = regexp.MustCompile(`^Bad control character in string literal in JSON at position [0-9]+$`)
	shapeMsgs    = map[string]bool{
		"if expression requires cond, then, and else fields": true,
		"for expression requires 'in' and 'as' fields":       true,
		"filter block requires 'in' and 'as' fields":         true,
		"loop requires 'in', 'times', and 'as' fields":       true,
		"match expression requires both ok and err arms":     true,
	}
	reArmTag = regexp.MustCompile(`^match arm must be 'ok' or 'err', got '[A-Za-z_][A-Za-z0-9_]*'$`)
	// Token names that can follow "Expected" (spec/language.md §2.3, §3.5).
	expectable = map[string]bool{
		"Ident": true, "StringLit": true, "LBrace": true, "RBrace": true, "RBracket": true,
		"RParen": true, "Colon": true, "Equals": true, "As": true, "Else": true, "Catch": true,
	}
)

// spanText returns the source text covered by a one-line span (UTF-16
// columns), or false when the span does not fit the source. Lines are
// numbered as spans number them (diag.SourceLine: a lone CR inside a
// string literal ends a line too).
func spanText(src string, sp diag.Span) (string, bool) {
	if sp.Start.Line != sp.End.Line || sp.Start.Line < 1 {
		return "", false
	}
	line := diag.SourceLine(src, sp.Start.Line)
	if line == "" && sp.Start.Line > strings.Count(src, "\n")+strings.Count(src, "\r")+1 {
		return "", false
	}
	u := utf16.Encode([]rune(line))
	if sp.End.Col-1 > len(u) || sp.Start.Col > sp.End.Col {
		return "", false
	}
	return string(utf16.Decode(u[sp.Start.Col-1 : sp.End.Col-1])), true
}

// checkParseMessage checks an E_PARSE/E_AST diagnostic against the message
// shapes of spec/language.md §3.4, §3.5 and §2.6.
func checkParseMessage(t *testing.T, src string, d *diag.Diagnostic) {
	t.Helper()
	if d.Code == diag.EAST {
		if !reControl.MatchString(d.Message) || d.Span == nil || d.Hint == "" {
			t.Errorf("bad E_AST %s for %q", diag.List{d}.JSONArray(), src)
		}
		return
	}
	if shapeMsgs[d.Message] || reArmTag.MatchString(d.Message) || strings.HasPrefix(d.Message, "Nesting too deep") {
		return
	}
	var found string
	if m := reExpected.FindStringSubmatch(d.Message); m != nil {
		if !expectable[m[1]] {
			t.Errorf("unexpected token name %q in %q for %q", m[1], d.Message, src)
		}
		found = m[2]
	} else if m := reUnexpected.FindStringSubmatch(d.Message); m != nil {
		found = m[1]
	} else if m := reSyntax.FindStringSubmatch(d.Message); m != nil {
		found = m[1]
	} else {
		t.Errorf("E_PARSE message %q has no known shape (src %q)", d.Message, src)
		return
	}
	if d.Hint == "" || d.Span == nil {
		t.Errorf("E_PARSE hint/span wrong: %s", diag.List{d}.JSONArray())
		return
	}
	if found == "<EOF>" {
		if d.Span.Start != (diag.Pos{Line: 1, Col: 1}) || d.Span.End != (diag.Pos{Line: 1, Col: 2}) {
			t.Errorf("EOF error not at 1:1-1:2: %s", diag.List{d}.JSONArray())
		}
		return
	}
	// A string token may span lines (a lone CR ends one too); otherwise
	// the span covers the token text.
	if strings.ContainsAny(found, "\n\r") {
		return
	}
	if txt, ok := spanText(strings.ReplaceAll(src, "\r\n", "\n"), *d.Span); !ok || txt != found {
		t.Errorf("span text %q does not match found token %q (%s) for %q", txt, found, diag.List{d}.JSONArray(), src)
	}
}

func addSeeds(f *testing.F) {
	for _, dir := range []string{"ok", "err"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.a0"))
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"", "return 1", "return", "{", "}", "[", "(", "\"", "#", "\r", "\ufeff", "😀",
		"return " + strings.Repeat("[", 500),
		"return " + strings.Repeat("-", 500) + "1",
		"match x { ok {v} { return v } err {e} { return e } }",
		"input { a: \"str\", b: \"int?\" }\nreturn input.a", "input {}\ninput.a", "input",
	} {
		f.Add(s)
	}
}

// FuzzParse: Parse never panics; it returns either a program or
// diagnostics (never both, never neither); diagnostics are well formed; the
// checker and the AST dumper accept every program Parse returns.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, raw string) {
		// Parse expects decoded text: source bytes go through the WHATWG
		// UTF-8 decoder first, as the CLI does.
		src := value.DecodeBytes([]byte(raw))
		p, ds := parser.Parse("fuzz.a0", src, parser.Options{})
		if (p == nil) == (len(ds) == 0) {
			t.Fatalf("Parse(%q): program=%v diagnostics=%d", src, p != nil, len(ds))
		}
		checkDiags(t, src, ds)
		if len(ds) > 0 {
			if ds[0].Code == diag.ELex {
				for _, d := range ds {
					if d.Code != diag.ELex {
						t.Errorf("E_LEX mixed with %s for %q", d.Code, src)
					}
				}
			} else if len(ds) != 1 || (ds[0].Code != diag.EParse && ds[0].Code != diag.EAST) {
				t.Errorf("want one E_PARSE/E_AST, got %s for %q", ds.JSONArray(), src)
			} else {
				checkParseMessage(t, src, ds[0])
			}
			// Debug mode differs at most in the message.
			_, dd := parser.Parse("fuzz.a0", src, parser.Options{DebugParse: true})
			if len(dd) != len(ds) || dd[0].Code != ds[0].Code {
				t.Errorf("debug-parse changed the diagnostics for %q: %s vs %s", src, ds.JSONArray(), dd.JSONArray())
			}
			return
		}
		_ = Dump(p)
		checkDiags(t, src, check.Program(p, fuzzCheckConfig))
	})
}
