package parser

import (
	"testing"

	"github.com/a0lang/a0/lang/lexer"
)

// hintAt's sections decide in order: the first whose pattern matches the
// failing token gives the hint, and one that matches without a hint (an
// '=' no assignment habit explains) hands over to the bracket hints, not
// to the later sections.
func TestHintSectionsOrder(t *testing.T) {
	tests := []struct {
		src      string
		at       string // the failing token's text
		expected string
		want     string
	}{
		{"let 1", "1", "Ident", "`let` needs a name: `let name = expr`."},
		// '=' after let: the assignment section matches and has no hint,
		// so the let section is not asked.
		{"let = 1", "=", "Ident", ""},
		{"[ let = 1 ]", "=", "Ident", ""},
		{"f { a: 1 } { b: 2 }", "b", "", "A function call takes no block after its arguments: `f { … }` is the whole call. For a loop write `for { in: xs, as: \"x\" } { … }`."},
		{"x += 1", "=", "", "A0 has no +=. Bindings are immutable (A0 has no assignment): bind a new name instead, `let x2 = …`, or `expr -> x2` after a statement."},
		{"return { a: 1 b: 2 }", "b", "RBrace", "Separate record entries with ',': add one before 'b' (the record opened at line 1, column 8)."},
	}
	for _, tc := range tests {
		toks, ds := lexer.Lex("t.a0", tc.src)
		if len(ds) > 0 {
			t.Fatalf("%q: %s", tc.src, ds.JSONArray())
		}
		idx := -1
		for i, tk := range toks {
			if tk.Text == tc.at {
				idx = i
			}
		}
		if idx < 0 {
			t.Fatalf("%q: no token %q", tc.src, tc.at)
		}
		if got := hintAt(toks, idx, tc.expected, nil); got != tc.want {
			t.Errorf("%q at %q: hint %q, want %q", tc.src, tc.at, got, tc.want)
		}
	}
}
