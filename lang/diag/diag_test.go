package diag_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/a0lang/a0/lang/diag"
)

func span(l1, c1, l2, c2 int) diag.Span {
	return diag.Span{File: "f.a0", Start: diag.Pos{Line: l1, Col: c1}, End: diag.Pos{Line: l2, Col: c2}}
}

func TestJSONArray(t *testing.T) {
	tests := []struct {
		name string
		list diag.List
		want string
	}{
		{"nil", nil, `[]`},
		{"empty", diag.List{}, `[]`},
		{
			"full",
			diag.List{diag.New("E_PARSE", span(1, 5, 1, 6), "Expected Ident but found '='.", "Check syntax near this location.")},
			`[{"code":"E_PARSE","message":"Expected Ident but found '='.","span":{"file":"f.a0","startLine":1,"startCol":5,"endLine":1,"endCol":6},"hint":"Check syntax near this location."}]`,
		},
		{
			"no span no hint",
			diag.List{{Code: "E_AST", Message: "Bad control character in string literal in JSON at position 3"}},
			`[{"code":"E_AST","message":"Bad control character in string literal in JSON at position 3"}]`,
		},
		{
			"hint without span",
			diag.List{{Code: "E_NO_RETURN", Message: "if body must end with a return statement.", Hint: "Add a 'return <expr>' statement at the end of the body."}},
			`[{"code":"E_NO_RETURN","message":"if body must end with a return statement.","hint":"Add a 'return <expr>' statement at the end of the body."}]`,
		},
		{
			"span without hint",
			diag.List{{Code: "E_X", Message: "m", Span: &diag.Span{File: "a b.a0", Start: diag.Pos{Line: 2, Col: 1}, End: diag.Pos{Line: 3, Col: 9}}}},
			`[{"code":"E_X","message":"m","span":{"file":"a b.a0","startLine":2,"startCol":1,"endLine":3,"endCol":9}}]`,
		},
		{
			"static form drops details",
			diag.List{{Code: "E_X", Message: "m", DetailsJSON: `{"a":1}`}},
			`[{"code":"E_X","message":"m"}]`,
		},
		{
			"several in order",
			diag.List{
				diag.New("E_DUP_BUDGET", span(2, 1, 2, 10), "Only one budget header is allowed.", "h1"),
				diag.New("E_IMPORT_UNSUPPORTED", span(1, 1, 1, 10), "Import declarations are not supported yet.", "h2"),
			},
			`[{"code":"E_DUP_BUDGET","message":"Only one budget header is allowed.","span":{"file":"f.a0","startLine":2,"startCol":1,"endLine":2,"endCol":10},"hint":"h1"},{"code":"E_IMPORT_UNSUPPORTED","message":"Import declarations are not supported yet.","span":{"file":"f.a0","startLine":1,"startCol":1,"endLine":1,"endCol":10},"hint":"h2"}]`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.list.JSONArray()
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("not valid JSON: %s", got)
			}
		})
	}
}

// TestQuoteJSON: JavaScript's JSON.stringify escaping (spec/README.md "Conventions").
func TestQuoteJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{`"`, `"\""`},
		{`\`, `"\\"`},
		{"/", `"/"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"\x0b\x1b", `"\u000b\u001b"`},
		{"\x7f", "\"\x7f\""},
		{"<a>&'", `"<a>&'"`},
		{"\u2028\u2029", "\"\u2028\u2029\""},
		{"é日😀", `"é日😀"`},
		{"\ufeff", "\"\ufeff\""},
		// WTF-8 lone surrogates print as lower-case escapes.
		{"\xed\xa0\x80", `"\ud800"`},
		{"\xed\xa0\xbd", `"\ud83d"`},
		{"a\xed\xb8\x80b", `"a\ude00b"`},
		{"\xed\xaf\xbf\xed\xbf\xbf", `"\udbff\udfff"`},
		// Other invalid UTF-8 becomes U+FFFD.
		{"a\xffb", "\"a\ufffdb\""},
		{"->\r<-", `"->\r<-"`},
	}
	for _, tc := range tests {
		if got := diag.QuoteJSON(tc.in); got != tc.want {
			t.Errorf("QuoteJSON(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestMessageEscapingInArray(t *testing.T) {
	d := diag.New("E_LEX", span(1, 1, 1, 3), "unexpected character: ->\xed\xa0\xbd<- at offset: 0, skipped 2 characters.", "Check for invalid characters or unclosed strings.")
	want := `[{"code":"E_LEX","message":"unexpected character: ->\ud83d<- at offset: 0, skipped 2 characters.","span":{"file":"f.a0","startLine":1,"startCol":1,"endLine":1,"endCol":3},"hint":"Check for invalid characters or unclosed strings."}]`
	if got := (diag.List{d}).JSONArray(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRuntimeAndCLIForms(t *testing.T) {
	sp := span(1, 9, 1, 16)
	typ := &diag.Diagnostic{Code: "E_TYPE", Message: "Operator '+' requires two numbers or two strings, got string and number.", Span: &sp, Hint: "Use str.concat."}
	want := `{"code":"E_TYPE","message":"Operator '+' requires two numbers or two strings, got string and number.","span":{"file":"f.a0","startLine":1,"startCol":9,"endLine":1,"endCol":16},"hint":"Use str.concat."}`
	if got := typ.JSON(diag.FormRuntime); got != want {
		t.Errorf("runtime form:\n got %s\nwant %s", got, want)
	}
	fn := &diag.Diagnostic{Code: "E_FN", Message: "Function 'len' failed: x", Span: &sp,
		DetailsJSON: `{"fn":"len","n":3}`}
	want = `{"code":"E_FN","message":"Function 'len' failed: x","span":{"file":"f.a0","startLine":1,"startCol":9,"endLine":1,"endCol":16},"details":{"fn":"len","n":3}}`
	if got := fn.JSON(diag.FormRuntime); got != want {
		t.Errorf("runtime details:\n got %s\nwant %s", got, want)
	}
	pre := &diag.Diagnostic{Code: "E_ASSERT", Message: "Assertion failed: ", Span: &sp, DetailsJSON: `{"evidence":{"kind":"assert"}}`}
	want = `{"code":"E_ASSERT","message":"Assertion failed: ","span":{"file":"f.a0","startLine":1,"startCol":9,"endLine":1,"endCol":16},"details":{"evidence":{"kind":"assert"}}}`
	if got := pre.JSON(diag.FormRuntime); got != want {
		t.Errorf("runtime DetailsJSON:\n got %s\nwant %s", got, want)
	}
	noSpan := &diag.Diagnostic{Code: "E_RUNTIME", Message: "boom"}
	if got := noSpan.JSON(diag.FormRuntime); got != `{"code":"E_RUNTIME","message":"boom"}` {
		t.Errorf("runtime without span: %s", got)
	}
	io := &diag.Diagnostic{Code: "E_IO", Message: "Error reading file: ENOENT", Span: &sp, Hint: "h", DetailsJSON: `{"a":1}`}
	if got := io.JSON(diag.FormCLI); got != `{"code":"E_IO","message":"Error reading file: ENOENT"}` {
		t.Errorf("CLI form: %s", got)
	}
}

func TestText(t *testing.T) {
	d := diag.New("E_PARSE", span(3, 7, 3, 8), "Expected Ident but found '='.", "Check syntax near this location.")
	want := "error[E_PARSE]: Expected Ident but found '='.\n  --> f.a0:3:7\n  hint: Check syntax near this location."
	if got := d.Text("", diag.Style{}); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	ast := &diag.Diagnostic{Code: "E_AST", Message: "Bad control character in string literal in JSON at position 2"}
	want = "error[E_AST]: Bad control character in string literal in JSON at position 2\n  --> <unknown>"
	if got := ast.Text("", diag.Style{}); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	list := diag.List{d, ast}
	want = "error[E_PARSE]: Expected Ident but found '='.\n  --> f.a0:3:7\n  hint: Check syntax near this location.\n\n" +
		"error[E_AST]: Bad control character in string literal in JSON at position 2\n  --> <unknown>"
	if got := list.Text(nil, diag.Style{}); got != want {
		t.Errorf("list got %q\nwant %q", got, want)
	}
}

func TestSpan(t *testing.T) {
	var zero diag.Span
	if !zero.IsZero() || span(1, 1, 1, 2).IsZero() {
		t.Error("IsZero")
	}
	a, b := span(2, 5, 2, 9), span(1, 3, 2, 6)
	if got := a.Join(b); got != span(1, 3, 2, 9) {
		t.Errorf("Join = %+v", got)
	}
	if got := b.Join(a); got != span(1, 3, 2, 9) {
		t.Errorf("Join reversed = %+v", got)
	}
	if got := zero.Join(a); got != a {
		t.Errorf("zero.Join = %+v", got)
	}
	if got := a.Join(zero); got != a {
		t.Errorf("Join(zero) = %+v", got)
	}
	if got := span(12, 34, 12, 40).String(); got != "f.a0:12:34" {
		t.Errorf("String = %q", got)
	}
}

func TestErrors(t *testing.T) {
	d := diag.New("E_TYPE", span(1, 2, 1, 3), "bad", "")
	if got := d.Error(); got != "f.a0:1:2: E_TYPE: bad" {
		t.Errorf("Error = %q", got)
	}
	if got := (&diag.Diagnostic{Code: "E_X", Message: "m"}).Error(); got != "E_X: m" {
		t.Errorf("Error without span = %q", got)
	}
	cause := errors.New("root")
	wrapped := &diag.Diagnostic{Code: "E_IO", Message: "m", Cause: cause}
	if !errors.Is(wrapped, cause) {
		t.Error("Unwrap")
	}
	var empty diag.List
	if empty.Err() != nil {
		t.Error("empty Err must be nil")
	}
	l := diag.List{d, d, d}
	if l.Err() == nil || l.Error() != "f.a0:1:2: E_TYPE: bad (and 2 more)" {
		t.Errorf("List.Error = %q", l.Error())
	}
	if got := (diag.List{d}).Error(); got != "f.a0:1:2: E_TYPE: bad" {
		t.Errorf("single List.Error = %q", got)
	}
}

func TestSortByPos(t *testing.T) {
	mk := func(code diag.Code, s *diag.Span) *diag.Diagnostic {
		return &diag.Diagnostic{Code: code, Message: string(code), Span: s}
	}
	s := func(l, c int) *diag.Span { x := span(l, c, l, c+1); return &x }
	l := diag.List{mk("a", nil), mk("b", s(2, 1)), mk("c", s(1, 5)), mk("d", s(1, 5)), mk("e", nil), mk("f", s(1, 2))}
	l.SortByPos()
	got := ""
	for _, d := range l {
		got += string(d.Code)
	}
	if got != "fcdbae" {
		t.Errorf("order %s, want fcdbae", got)
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		code   diag.Code
		static bool
		want   int
	}{
		{diag.ELex, true, 2}, {diag.EParse, true, 2}, {diag.EAST, true, 2}, {diag.ENoReturn, true, 2},
		{diag.EUnbound, true, 2}, {diag.EUnknownFn, true, 2}, {diag.ECallEffect, true, 2},
		{diag.EUnknownTool, true, 2}, {diag.EUndeclaredCap, true, 2}, {diag.EDupBudget, true, 2},
		{diag.EUnbound, false, 4}, {diag.EUnknownFn, false, 4}, {diag.EType, false, 4},
		{diag.ECapDenied, false, 3}, {diag.ECapDenied, true, 3}, {diag.EPolicy, false, 3},
		{diag.EAssert, false, 5}, {diag.EBudget, false, 4}, {diag.ETool, false, 4},
		{diag.EIO, false, 4}, {diag.ERuntime, false, 4},
		{diag.ECallEffect, false, 2}, {diag.EUnknownTool, false, 2},
	}
	for _, tc := range tests {
		if got := diag.ExitCode(tc.code, tc.static); got != tc.want {
			t.Errorf("ExitCode(%s, %v) = %d, want %d", tc.code, tc.static, got, tc.want)
		}
	}
}
