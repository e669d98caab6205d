package diag_test

import (
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
)

// TestTextExcerpt: the pretty form shows the span's source line and a
// caret line drawn under the span in UTF-16 columns.
func TestTextExcerpt(t *testing.T) {
	src := "let a = 1\nlet x = \"s\" + 1\n\tlet t = bad\nlet e = \"😀\" + q\nlast"
	tests := []struct {
		name string
		sp   diag.Span
		want string // the three excerpt lines after "-->"
	}{
		{"inside one line", span(2, 9, 2, 16),
			"\n   |\n 2 | let x = \"s\" + 1\n   |         ^^^^^^^"},
		{"a tab before the span is kept so the caret lines up", span(3, 10, 3, 13),
			"\n   |\n 3 | \tlet t = bad\n   | \t        ^^^"},
		{"an emoji counts two columns", span(4, 15, 4, 16),
			"\n   |\n 4 | let e = \"😀\" + q\n   |               ^"},
		{"an emoji under the span gets two carets", span(4, 9, 4, 13),
			"\n   |\n 4 | let e = \"😀\" + q\n   |         ^^^^"},
		{"a span running past the line is cut at its end", span(2, 15, 3, 2),
			"\n   |\n 2 | let x = \"s\" + 1\n   |               ^"},
		{"an empty span still gets one caret", span(1, 5, 1, 5),
			"\n   |\n 1 | let a = 1\n   |     ^"},
		{"a span at the end of the line marks the position after it", span(5, 5, 5, 6),
			"\n   |\n 5 | last\n   |     ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := diag.New("E_X", tt.sp, "m", "")
			want := "error[E_X]: m\n  --> " + tt.sp.String() + tt.want
			if got := d.Text(src, diag.Style{}); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestTextExcerptMissingLine: a span past the end of the source shows no
// excerpt (the line cannot be found), a line number of many digits widens
// the gutter, and CR line ends are not printed.
func TestTextExcerptMissingLine(t *testing.T) {
	d := diag.New("E_X", span(9, 1, 9, 2), "m", "h")
	if got, want := d.Text("one\ntwo", diag.Style{}), "error[E_X]: m\n  --> f.a0:9:1\n  hint: h"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	src := strings.Repeat("\n", 11) + "x = 1\r\n"
	d = diag.New("E_X", span(12, 3, 12, 4), "m", "")
	want := "error[E_X]: m\n  --> f.a0:12:3\n    |\n 12 | x = 1\n    |   ^"
	if got := d.Text(src, diag.Style{}); got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

// TestTextStyle: each part of the text form goes through its style
// function, and List.Text reads each diagnostic's own file.
func TestTextStyle(t *testing.T) {
	tag := func(name string) func(string) string {
		return func(s string) string { return "<" + name + ">" + s + "</" + name + ">" }
	}
	st := diag.Style{Error: tag("e"), Bold: tag("b"), Dim: tag("d"), Caret: tag("c"), Hint: tag("h")}
	d := diag.New("E_X", span(1, 1, 1, 2), "m", "fix it")
	want := "<e>error[E_X]</e>: <b>m</b>\n  <d>--></d> f.a0:1:1\n   <d>|</d>\n <d>1 |</d> ab\n   <d>|</d> <c>^</c>\n  <h>hint:</h> fix it"
	if got := d.Text("ab", st); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	other := &diag.Diagnostic{Code: "E_Y", Message: "n", Span: &diag.Span{File: "g.a0", Start: diag.Pos{Line: 1, Col: 2}, End: diag.Pos{Line: 1, Col: 3}}}
	files := map[string]string{"f.a0": "ab", "g.a0": "cd"}
	got := diag.List{d, other}.Text(func(f string) string { return files[f] }, diag.Style{})
	want = "error[E_X]: m\n  --> f.a0:1:1\n   |\n 1 | ab\n   | ^\n  hint: fix it\n\n" +
		"error[E_Y]: n\n  --> g.a0:1:2\n   |\n 1 | cd\n   |  ^"
	if got != want {
		t.Errorf("list got %q\nwant %q", got, want)
	}
}

// TestNegativeSpanString: a span prints its numbers as they are.
func TestNegativeSpanString(t *testing.T) {
	if got := span(-12, 0, 1, 1).String(); got != "f.a0:-12:0" {
		t.Errorf("negative span position: %s", got)
	}
}

// TestSourceLine: lines are numbered as the lexer numbers them for spans —
// a line feed always ends a line, a lone carriage return only inside a
// string literal (not between tokens, not in a comment, not in a quote
// that opens no valid literal).
func TestSourceLine(t *testing.T) {
	tests := []struct {
		name string
		src  string
		n    int
		want string
	}{
		{"first line", "a\nb", 1, "a"},
		{"last line without a line end", "a\nb", 2, "b"},
		{"past the end", "a\nb", 3, ""},
		{"CR LF keeps its CR for the caller to trim", "a\r\nb", 1, "a\r"},
		{"lone CR between tokens is no line end", "a\rb\nc", 1, "a\rb"},
		{"lone CR inside a string ends a line", "x = \"p\rq\" + 1\nz", 2, "q\" + 1"},
		{"the line before it ends at the CR", "x = \"p\rq\"", 1, "x = \"p"},
		{"CR LF inside a string counts once", "\"p\r\nq\" y\nz", 3, "z"},
		{"lone CR in a comment is no line end", "# \"c\rd\"\ne", 2, "e"},
		{"a quote opening no literal", "\"\\q\r\"\ne", 2, "e"},
		{"escaped quote inside the literal", "\"a\\\"\rb\" c", 2, "b\" c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := diag.SourceLine(tt.src, tt.n); got != tt.want {
				t.Errorf("SourceLine(%q, %d) = %q, want %q", tt.src, tt.n, got, tt.want)
			}
		})
	}
}
