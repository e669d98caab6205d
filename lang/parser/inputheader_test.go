package parser_test

import (
	"testing"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/parser"
)

// TestInputHeaderParse: `input {` before the first statement is a header;
// `input` anywhere else, or not followed by `{`, is an identifier.
func TestInputHeaderParse(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		headers []ast.HeaderKind
		stmts   int
		err     string // E_PARSE message, "" when the program parses
	}{
		{"header", `input { a: "str" }` + "\nreturn input.a", []ast.HeaderKind{ast.InputHeader}, 1, ""},
		{"empty header", "input {}\nreturn input", []ast.HeaderKind{ast.InputHeader}, 1, ""},
		{"among other headers", "cap { fs.read: true }\ninput { a: \"str\" }\nbudget { timeMs: 1 }\nreturn 1",
			[]ast.HeaderKind{ast.CapHeader, ast.InputHeader, ast.BudgetHeader}, 1, ""},
		{"header only", "input { a: \"str\" }", []ast.HeaderKind{ast.InputHeader}, 0, ""},
		{"two headers parse (the checker refuses)", "input {}\ninput {}\nreturn 1", []ast.HeaderKind{ast.InputHeader, ast.InputHeader}, 1, ""},
		{"a variable named input", "let input = 1\nreturn input", nil, 2, ""},
		{"a path at the start is a statement", "input.a\nreturn 1", nil, 2, ""},
		{"a call after a statement stays a call", "let a = 1\ninput { a: 1 }\nreturn a", nil, 3, ""},
		{"unclosed header", "input { a: \"str\"\nreturn 1", nil, 0, "Expected RBrace but found 'return'."},
		{"statement after the header continues", "input { a: \"str\" } -> x\nreturn 1", nil, 0, "Syntax error near '->'."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ds := parser.Parse("t.a0", c.src, parser.Options{})
			if c.err != "" {
				if len(ds) != 1 || ds[0].Message != c.err {
					t.Fatalf("got %s, want %q", ds.JSONArray(), c.err)
				}
				return
			}
			if len(ds) > 0 {
				t.Fatalf("parse: %s", ds.JSONArray())
			}
			var kinds []ast.HeaderKind
			for _, h := range p.Headers {
				kinds = append(kinds, h.Kind)
			}
			if len(kinds) != len(c.headers) {
				t.Fatalf("headers %v, want %v", kinds, c.headers)
			}
			for i := range kinds {
				if kinds[i] != c.headers[i] {
					t.Fatalf("headers %v, want %v", kinds, c.headers)
				}
			}
			if len(p.Stmts) != c.stmts {
				t.Errorf("%d statements, want %d", len(p.Stmts), c.stmts)
			}
		})
	}
}
