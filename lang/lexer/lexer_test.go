package lexer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

var typeNames = map[lexer.Type]string{
	lexer.EOF:     "EOF",
	lexer.Ident:   "Ident",
	lexer.Int:     "Int",
	lexer.Float:   "Float",
	lexer.String:  "String",
	lexer.Keyword: "Kw",
	lexer.Literal: "Lit",
	lexer.CallQ:   "CallQ",
	lexer.Punct:   "P",
}

// render turns tokens (without the final EOF) into "Type:text" strings.
func render(toks []lexer.Token) []string {
	var out []string
	for _, t := range toks {
		if t.Type == lexer.EOF {
			continue
		}
		out = append(out, typeNames[t.Type]+":"+t.Text)
	}
	return out
}

// lexErr is an expected E_LEX diagnostic: offset, run length and span.
type lexErr struct {
	first      string // first UTF-16 unit of the run, raw (WTF-8 for a lone surrogate)
	off, skip  int
	line, col  int
	endL, endC int
}

func (e lexErr) message() string {
	return fmt.Sprintf("unexpected character: ->%s<- at offset: %d, skipped %d characters.", e.first, e.off, e.skip)
}

func checkErrs(t *testing.T, src string, ds diag.List, want []lexErr) {
	t.Helper()
	if len(ds) != len(want) {
		t.Fatalf("Lex(%q): got %d diagnostics %s, want %d", src, len(ds), ds.JSONArray(), len(want))
	}
	for i, w := range want {
		d := ds[i]
		if d.Code != diag.ELex {
			t.Errorf("Lex(%q)[%d]: code %s, want E_LEX", src, i, d.Code)
		}
		if d.Message != w.message() {
			t.Errorf("Lex(%q)[%d]: message %q, want %q", src, i, d.Message, w.message())
		}
		if d.Hint != lexer.HintFor(w.first) {
			t.Errorf("Lex(%q)[%d]: hint %q", src, i, d.Hint)
		}
		wantSpan := diag.Span{File: "t.a0", Start: diag.Pos{Line: w.line, Col: w.col}, End: diag.Pos{Line: w.endL, Col: w.endC}}
		if d.Span == nil || *d.Span != wantSpan {
			t.Errorf("Lex(%q)[%d]: span %v, want %v", src, i, d.Span, wantSpan)
		}
	}
}

type lexCase struct {
	name string
	src  string
	toks []string
	errs []lexErr
}

func runLexCases(t *testing.T, cases []lexCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			toks, ds := lexer.Lex("t.a0", c.src)
			checkErrs(t, c.src, ds, c.errs)
			got := render(toks)
			if strings.Join(got, " ") != strings.Join(c.toks, " ") || len(got) != len(c.toks) {
				t.Errorf("Lex(%q) tokens:\n got: %q\nwant: %q", c.src, got, c.toks)
			}
			if n := len(toks); n == 0 || toks[n-1].Type != lexer.EOF {
				t.Fatalf("Lex(%q): last token is not EOF", c.src)
			}
		})
	}
}

func TestTokenOrder(t *testing.T) {
	runLexCases(t, []lexCase{
		{"arrow", "a->b", []string{"Ident:a", "P:->", "Ident:b"}, nil},
		{"minus space gt", "a - > b", []string{"Ident:a", "P:-", "P:>", "Ident:b"}, nil},
		{"minus arrow", "-->", []string{"P:-", "P:->"}, nil},
		{"arrow beats minus before digit", "->5", []string{"P:->", "Int:5"}, nil},
		{"comparisons", ">= <= == != > < =", []string{"P:>=", "P:<=", "P:==", "P:!=", "P:>", "P:<", "P:="}, nil},
		{"comparisons glued", "a>=b<=c==d!=e", []string{"Ident:a", "P:>=", "Ident:b", "P:<=", "Ident:c", "P:==", "Ident:d", "P:!=", "Ident:e"}, nil},
		{"eq eq eq", "===", []string{"P:==", "P:="}, nil},
		{"gt gt eq", ">>=", []string{"P:>", "P:>="}, nil},
		{"fat arrow is two tokens", "=>", []string{"P:=", "P:>"}, nil},
		{"lt minus", "<-", []string{"P:<", "P:-"}, nil},
		{"dots", ". .. ... ....", []string{"P:.", "P:.", "P:.", "P:...", "P:...", "P:."}, nil},
		{"five dots", ".....", []string{"P:...", "P:.", "P:."}, nil},
		{"all punctuation", "{}[]():,...=.><+-*/%", []string{
			"P:{", "P:}", "P:[", "P:]", "P:(", "P:)", "P::", "P:,", "P:...", "P:=", "P:.", "P:>", "P:<",
			"P:+", "P:-", "P:*", "P:/", "P:%"}, nil},
		{"dotted path with spaces", "r . c . d", []string{"Ident:r", "P:.", "Ident:c", "P:.", "Ident:d"}, nil},
		{"dotted path", "str.concat", []string{"Ident:str", "P:.", "Ident:concat"}, nil},
		{"empty", "", nil, nil},
	})
}

func TestKeywordsAndIdentifiers(t *testing.T) {
	kws := []string{"cap", "budget", "import", "assert", "as", "let", "return", "do", "check", "match",
		"catch", "filter", "loop", "if", "else", "for", "fn", "try"}
	for _, k := range kws {
		toks, ds := lexer.Lex("t.a0", k)
		if len(ds) != 0 || len(toks) != 2 || toks[0].Type != lexer.Keyword || toks[0].Text != k {
			t.Errorf("Lex(%q) = %q %s, want one keyword", k, render(toks), ds.JSONArray())
		}
		// A longer identifier at the same position wins.
		for _, suffix := range []string{"x", "_", "1", "X"} {
			src := k + suffix
			toks, _ := lexer.Lex("t.a0", src)
			if len(toks) != 2 || toks[0].Type != lexer.Ident || toks[0].Text != src {
				t.Errorf("Lex(%q) = %q, want one identifier", src, render(toks))
			}
		}
	}
	runLexCases(t, []lexCase{
		{"literals", "true false null", []string{"Lit:true", "Lit:false", "Lit:null"}, nil},
		{"literal prefixes are identifiers", "true1 nullable falsey", []string{"Ident:true1", "Ident:nullable", "Ident:falsey"}, nil},
		{"keyword prefixes", "letter iffy doc format asx", []string{"Ident:letter", "Ident:iffy", "Ident:doc", "Ident:format", "Ident:asx"}, nil},
		{"keywords are case sensitive", "Let IF Return", []string{"Ident:Let", "Ident:IF", "Ident:Return"}, nil},
		{"not reserved", "ok err in then cond times by map reduce", []string{
			"Ident:ok", "Ident:err", "Ident:in", "Ident:then", "Ident:cond", "Ident:times", "Ident:by", "Ident:map", "Ident:reduce"}, nil},
		{"underscore identifiers", "_ _a a_1 __x9", []string{"Ident:_", "Ident:_a", "Ident:a_1", "Ident:__x9"}, nil},
		{"keyword then punctuation", "if(x)", []string{"Kw:if", "P:(", "Ident:x", "P:)"}, nil},
		{"keyword dot keyword", "x.if.else", []string{"Ident:x", "P:.", "Kw:if", "P:.", "Kw:else"}, nil},
		{"call?", "call? fs.read", []string{"CallQ:call?", "Ident:fs", "P:.", "Ident:read"}, nil},
		{"call? glued", "call?x", []string{"CallQ:call?", "Ident:x"}, nil},
		{"call? glued keyword", "call?do", []string{"CallQ:call?", "Kw:do"}, nil},
		{"call alone is an identifier", "let call = 7", []string{"Kw:let", "Ident:call", "P:=", "Int:7"}, nil},
		{"callx", "callx", []string{"Ident:callx"}, nil},
		{"call space question", "call ?", []string{"Ident:call"}, []lexErr{{"?", 5, 1, 1, 6, 1, 7}}},
		{"calls question", "calls?", []string{"Ident:calls"}, []lexErr{{"?", 5, 1, 1, 6, 1, 7}}},
		{"recall question", "recall?", []string{"Ident:recall"}, []lexErr{{"?", 6, 1, 1, 7, 1, 8}}},
		{"Call? is not call?", "Call?", []string{"Ident:Call"}, []lexErr{{"?", 4, 1, 1, 5, 1, 6}}},
		{"call? call?", "call?call?", []string{"CallQ:call?", "CallQ:call?"}, nil},
	})
}

func TestNumbers(t *testing.T) {
	runLexCases(t, []lexCase{
		{"zero", "0", []string{"Int:0"}, nil},
		{"int", "1234567890", []string{"Int:1234567890"}, nil},
		{"float", "0.5 1.25 10.0", []string{"Float:0.5", "Float:1.25", "Float:10.0"}, nil},
		{"float exponent", "1.5e3 1.5E3 2.0e+10 2.0e-10 0.0e0", []string{"Float:1.5e3", "Float:1.5E3", "Float:2.0e+10", "Float:2.0e-10", "Float:0.0e0"}, nil},
		{"float missing exponent digits", "1.5e", []string{"Float:1.5", "Ident:e"}, nil},
		{"float exponent sign only", "1.5e+", []string{"Float:1.5", "Ident:e", "P:+"}, nil},
		{"float then identifier", "1.0e5x", []string{"Float:1.0e5", "Ident:x"}, nil},
		{"float then dot", "1.5.3", []string{"Float:1.5", "P:.", "Int:3"}, nil},
		{"hex is int then ident", "0x10", []string{"Int:0", "Ident:x10"}, nil},
		{"int then ident", "123abc", []string{"Int:123", "Ident:abc"}, nil},
		{"leading dot", ".5", []string{"P:.", "Int:5"}, nil},
		{"negative is minus", "-5", []string{"P:-", "Int:5"}, nil},
		{"int then punct", "1+2", []string{"Int:1", "P:+", "Int:2"}, nil},
		{"int before arrow", "1->x", []string{"Int:1", "P:->", "Ident:x"}, nil},
		// Rejected forms: the first character of the bad run is reported.
		{"exponent without fraction", "1e5", []string{"Ident:e5"}, []lexErr{{"1", 0, 1, 1, 1, 1, 2}}},
		{"exponent without fraction upper", "1E5", []string{"Ident:E5"}, []lexErr{{"1", 0, 1, 1, 1, 1, 2}}},
		{"multi-digit exponent without fraction", "12e5", []string{"Ident:e5"}, []lexErr{{"1", 0, 2, 1, 1, 1, 3}}},
		{"digit then e", "5e", []string{"Ident:e"}, []lexErr{{"5", 0, 1, 1, 1, 1, 2}}},
		{"leading zero", "01", []string{"Int:1"}, []lexErr{{"0", 0, 1, 1, 1, 1, 2}}},
		{"leading zeros", "007", []string{"Int:7"}, []lexErr{{"0", 0, 2, 1, 1, 1, 3}}},
		{"leading zero float", "00.5", []string{"Float:0.5"}, []lexErr{{"0", 0, 1, 1, 1, 1, 2}}},
		{"trailing dot", "1.", []string{"P:."}, []lexErr{{"1", 0, 1, 1, 1, 1, 2}}},
		{"trailing dot zero", "x = 0.", []string{"Ident:x", "P:=", "P:."}, []lexErr{{"0", 4, 1, 1, 5, 1, 6}}},
		{"double dot", "1..2", []string{"P:.", "P:.", "Int:2"}, []lexErr{{"1", 0, 1, 1, 1, 1, 2}}},
		{"trailing dot before space", "let x = 12. ", []string{"Kw:let", "Ident:x", "P:=", "P:."}, []lexErr{{"1", 8, 2, 1, 9, 1, 11}}},
		{"two bad numbers", "1e5 01", []string{"Ident:e5", "Int:1"}, []lexErr{{"1", 0, 1, 1, 1, 1, 2}, {"0", 4, 1, 1, 5, 1, 6}}},
	})
}

func TestStrings(t *testing.T) {
	runLexCases(t, []lexCase{
		{"simple", `"abc"`, []string{`String:"abc"`}, nil},
		{"empty", `""`, []string{`String:""`}, nil},
		{"escapes", `"\" \\ \/ \b \f \n \r \t"`, []string{`String:"\" \\ \/ \b \f \n \r \t"`}, nil},
		{"unicode escapes", `"\u00e9\u00E9\uD83D\uDE00"`, []string{`String:"\u00e9\u00E9\uD83D\uDE00"`}, nil},
		{"lone surrogate escape", `"\ud800"`, []string{`String:"\ud800"`}, nil},
		{"hash inside string", `"# not a comment"`, []string{`String:"# not a comment"`}, nil},
		{"keywords inside string", `"let if"`, []string{`String:"let if"`}, nil},
		{"non-ASCII", `"é😀"`, []string{`String:"é😀"`}, nil},
		{"raw control chars are lexed", "\"a\tb\x01\"", []string{"String:\"a\tb\x01\""}, nil},
		{"spans lines", "\"a\nb\" x", []string{"String:\"a\nb\"", "Ident:x"}, nil},
		{"adjacent strings", `"a""b"`, []string{`String:"a"`, `String:"b"`}, nil},
		{"escaped backslash before quote", `"a\\" x`, []string{`String:"a\\"`, "Ident:x"}, nil},
		{"single quotes", `'a'`, []string{"Ident:a"}, []lexErr{{"'", 0, 1, 1, 1, 1, 2}, {"'", 2, 1, 1, 3, 1, 4}}},
		{"unterminated", `"abc`, []string{"Ident:abc"}, []lexErr{{`"`, 0, 1, 1, 1, 1, 2}}},
		{"unterminated after code", `let s = "oops`, []string{"Kw:let", "Ident:s", "P:=", "Ident:oops"}, []lexErr{{`"`, 8, 1, 1, 9, 1, 10}}},
		{"unterminated extends to later quote", "\"abc\nlet y = \"z\"", []string{"String:\"abc\nlet y = \"", "Ident:z"}, []lexErr{{`"`, 15, 1, 2, 11, 2, 12}}},
		{"bad escape x", `"\x41"`, []string{"Ident:x41"}, []lexErr{{`"`, 0, 2, 1, 1, 1, 3}, {`"`, 5, 1, 1, 6, 1, 7}}},
		{"bad escape a", `"\a" 1`, []string{"Ident:a", "Int:1"}, []lexErr{{`"`, 0, 2, 1, 1, 1, 3}, {`"`, 3, 1, 1, 4, 1, 5}}},
		{"bad escape zero", `"\0"`, []string{"Int:0"}, []lexErr{{`"`, 0, 2, 1, 1, 1, 3}, {`"`, 3, 1, 1, 4, 1, 5}}},
		{"short unicode escape", `"\u12"`, []string{"Ident:u12"}, []lexErr{{`"`, 0, 2, 1, 1, 1, 3}, {`"`, 5, 1, 1, 6, 1, 7}}},
		{"non-hex unicode escape", `"\u00zz" x`, []string{"Ident:u00zz", "Ident:x"}, []lexErr{{`"`, 0, 2, 1, 1, 1, 3}, {`"`, 7, 1, 1, 8, 1, 9}}},
		{"upper U escape", `"\U0001F600"`, []string{"Ident:U0001F600"}, []lexErr{{`"`, 0, 2, 1, 1, 1, 3}, {`"`, 11, 1, 1, 12, 1, 13}}},
		{"backslash at end", `"\`, nil, []lexErr{{`"`, 0, 2, 1, 1, 1, 3}}},
	})
}

func TestDecodeString(t *testing.T) {
	tests := []struct{ lit, want string }{
		{`"abc"`, "abc"},
		{`""`, ""},
		{`"\" \\ \/ \b \f \n \r \t"`, "\" \\ / \b \f \n \r \t"},
		{`"\u00e9\u00C9"`, "éÉ"},
		{`"\uD83D\uDE00"`, "😀"},
		{`"\ud83d\ude00!"`, "😀!"},
		{`"é😀\u0041"`, "é😀A"},
		{`"\u0000"`, "\x00"},
		{"\"\x7f\"", "\x7f"},
		{`"\ud800"`, "\xed\xa0\x80"},
		{`"\ude00x"`, "\xed\xb8\x80x"},
		{`"#"`, "#"},
	}
	for _, tc := range tests {
		got, err := lexer.DecodeString(tc.lit)
		if err != nil || got != tc.want {
			t.Errorf("DecodeString(%q) = %q, %v; want %q", tc.lit, got, err, tc.want)
		}
	}
	bad := []struct {
		lit string
		pos int
	}{
		{"\"\n\"", 1},
		{"\"ab\n\"", 3},
		{"\"a\tb\"", 2},
		{"\"\\n\x01\"", 3},
		{"\"é\x1f\"", 2},
		{"\"😀\r\"", 3},
		{"\"\\u0041\x00\"", 7},
	}
	for _, tc := range bad {
		_, err := lexer.DecodeString(tc.lit)
		want := fmt.Sprintf("Bad control character in string literal in JSON at position %d", tc.pos)
		if err == nil || err.Error() != want {
			t.Errorf("DecodeString(%q) error = %v, want %q", tc.lit, err, want)
		}
	}
}

func TestLexErrors(t *testing.T) {
	runLexCases(t, []lexCase{
		{"run of three", "let x = @@@ 1", []string{"Kw:let", "Ident:x", "P:=", "Int:1"}, []lexErr{{"@", 8, 3, 1, 9, 1, 12}}},
		{"separate runs", "@ @", nil, []lexErr{{"@", 0, 1, 1, 1, 1, 2}, {"@", 2, 1, 1, 3, 1, 4}}},
		{"run ends at comment", "$#x", nil, []lexErr{{"$", 0, 1, 1, 1, 1, 2}}},
		{"run ends at newline", "~~\n~", nil, []lexErr{{"~", 0, 2, 1, 1, 1, 3}, {"~", 3, 1, 2, 1, 2, 2}}},
		{"run ends at identifier", "&&x", []string{"Ident:x"}, []lexErr{{"&", 0, 2, 1, 1, 1, 3}}},
		{"run includes unterminated quote", `@"`, nil, []lexErr{{"@", 0, 2, 1, 1, 1, 3}}},
		{"run ends at string", `@"a"`, []string{`String:"a"`}, []lexErr{{"@", 0, 1, 1, 1, 1, 2}}},
		{"bang alone", "!x", []string{"Ident:x"}, []lexErr{{"!", 0, 1, 1, 1, 1, 2}}},
		{"question", "?", nil, []lexErr{{"?", 0, 1, 1, 1, 1, 2}}},
		{"pipe", "a | b", []string{"Ident:a", "Ident:b"}, []lexErr{{"|", 2, 1, 1, 3, 1, 4}}},
		{"semicolon", "1;", []string{"Int:1"}, []lexErr{{";", 1, 1, 1, 2, 1, 3}}},
		{"backslash", `\`, nil, []lexErr{{`\`, 0, 1, 1, 1, 1, 2}}},
		{"backtick", "`", nil, []lexErr{{"`", 0, 1, 1, 1, 1, 2}}},
		{"mixed run", "@$~;", nil, []lexErr{{"@", 0, 4, 1, 1, 1, 5}}},
		{"form feed", "a\fb", []string{"Ident:a", "Ident:b"}, []lexErr{{"\f", 1, 1, 1, 2, 1, 3}}},
		{"vertical tab", "a\vb", []string{"Ident:a", "Ident:b"}, []lexErr{{"\v", 1, 1, 1, 2, 1, 3}}},
		{"nbsp", "a\u00a0b", []string{"Ident:a", "Ident:b"}, []lexErr{{"\u00a0", 1, 1, 1, 2, 1, 3}}},
		{"non-ASCII letter", "é", nil, []lexErr{{"é", 0, 1, 1, 1, 1, 2}}},
		{"non-ASCII in identifier", "caf\u00e9 = 1", []string{"Ident:caf", "P:=", "Int:1"}, []lexErr{{"é", 3, 1, 1, 4, 1, 5}}},
		{"emoji counts two", "x 😀 y", []string{"Ident:x", "Ident:y"}, []lexErr{{"\xed\xa0\xbd", 2, 2, 1, 3, 1, 5}}},
		{"two emoji count four", "😀😀", nil, []lexErr{{"\xed\xa0\xbd", 0, 4, 1, 1, 1, 5}}},
		{"offset after non-ASCII string", `"é😀" @`, []string{`String:"é😀"`}, []lexErr{{"@", 6, 1, 1, 7, 1, 8}}},
		{"offset after emoji comment", "# 😀\n@", nil, []lexErr{{"@", 5, 1, 2, 1, 2, 2}}},
		{"BOM", "\ufeffreturn 1", []string{"Kw:return", "Int:1"}, []lexErr{{"\ufeff", 0, 1, 1, 1, 1, 2}}},
		{"BOM inside", "return\ufeff1", []string{"Kw:return", "Int:1"}, []lexErr{{"\ufeff", 6, 1, 1, 7, 1, 8}}},
		{"lone CR", "let x = 1\rreturn x", []string{"Kw:let", "Ident:x", "P:=", "Int:1", "Kw:return", "Ident:x"}, []lexErr{{"\r", 9, 1, 1, 10, 1, 11}}},
		{"CR CR LF", "a\r\r\nb", []string{"Ident:a", "Ident:b"}, []lexErr{{"\r", 1, 1, 1, 2, 1, 3}}},
		{"lone CR inside a run", "@\r@ x", []string{"Ident:x"}, []lexErr{{"@", 0, 3, 1, 1, 1, 4}}},
		{"run before CRLF", "@\r\n@", nil, []lexErr{{"@", 0, 1, 1, 1, 1, 2}, {"@", 3, 1, 2, 1, 2, 2}}},
		{"run ends before valid int", "@01", []string{"Int:1"}, []lexErr{{"@", 0, 2, 1, 1, 1, 3}}},
		{"CR at end", "a\r", []string{"Ident:a"}, []lexErr{{"\r", 1, 1, 1, 2, 1, 3}}},
		{"comment ends at CR", "# c\rx", []string{"Ident:x"}, []lexErr{{"\r", 3, 1, 1, 4, 1, 5}}},
		{"errors on later lines", "a\n  @@\r\nb ?", []string{"Ident:a", "Ident:b"}, []lexErr{{"@", 4, 2, 2, 3, 2, 5}, {"?", 10, 1, 3, 3, 3, 4}}},
	})
}

func TestWhitespaceAndComments(t *testing.T) {
	runLexCases(t, []lexCase{
		{"tabs and spaces", "\t a \t b\t", []string{"Ident:a", "Ident:b"}, nil},
		{"newlines", "a\nb\r\nc", []string{"Ident:a", "Ident:b", "Ident:c"}, nil},
		{"comment", "a # let x = @@@\nb", []string{"Ident:a", "Ident:b"}, nil},
		{"comment at EOF", "a # done", []string{"Ident:a"}, nil},
		{"comment only", "# only", nil, nil},
		{"comment glued", "a#b\nc", []string{"Ident:a", "Ident:c"}, nil},
		{"comment before CRLF", "a # x\r\nb", []string{"Ident:a", "Ident:b"}, nil},
		{"no separators needed", "let a = 1 let b = 2 return a + b", []string{
			"Kw:let", "Ident:a", "P:=", "Int:1", "Kw:let", "Ident:b", "P:=", "Int:2", "Kw:return", "Ident:a", "P:+", "Ident:b"}, nil},
	})
}

type tokPos struct {
	text       string
	line, col  int
	endL, endC int
}

func TestTokenPositions(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []tokPos
	}{
		{"ascii", "let x = 12", []tokPos{{"let", 1, 1, 1, 4}, {"x", 1, 5, 1, 6}, {"=", 1, 7, 1, 8}, {"12", 1, 9, 1, 11}}},
		{"lines", "a\n  bc\n\nd", []tokPos{{"a", 1, 1, 1, 2}, {"bc", 2, 3, 2, 5}, {"d", 4, 1, 4, 2}}},
		{"crlf", "a\r\nb\r\n c", []tokPos{{"a", 1, 1, 1, 2}, {"b", 2, 1, 2, 2}, {"c", 3, 2, 3, 3}}},
		{"tab is one column", "\tx", []tokPos{{"x", 1, 2, 1, 3}}},
		{"after BMP non-ASCII", `"é" x`, []tokPos{{`"é"`, 1, 1, 1, 4}, {"x", 1, 5, 1, 6}}},
		{"after emoji", `"😀" x`, []tokPos{{`"😀"`, 1, 1, 1, 5}, {"x", 1, 6, 1, 7}}},
		{"after CJK", `"日本" x`, []tokPos{{`"日本"`, 1, 1, 1, 5}, {"x", 1, 6, 1, 7}}},
		{"after emoji comment", "# 😀😀\n  y", []tokPos{{"y", 2, 3, 2, 4}}},
		{"multi-line string", "\"a\nbc\" z", []tokPos{{"\"a\nbc\"", 1, 1, 2, 4}, {"z", 2, 5, 2, 6}}},
		{"multi-line string with emoji", "\"😀\n😀\" z", []tokPos{{"\"😀\n😀\"", 1, 1, 2, 4}, {"z", 2, 5, 2, 6}}},
		{"lone CR inside a string ends a line", "\"a\rbc\" z", []tokPos{{"\"a\rbc\"", 1, 1, 2, 4}, {"z", 2, 5, 2, 6}}},
		{"CR LF inside a string is one line end", "\"a\r\nb\" z", []tokPos{{"\"a\r\nb\"", 1, 1, 2, 3}, {"z", 2, 4, 2, 5}}},
		{"two lone CRs inside a string", "w \"\r\r\" z", []tokPos{{"w", 1, 1, 1, 2}, {"\"\r\r\"", 1, 3, 3, 2}, {"z", 3, 3, 3, 4}}},
		{"multi-char tokens", "call? a->b ...", []tokPos{{"call?", 1, 1, 1, 6}, {"a", 1, 7, 1, 8}, {"->", 1, 8, 1, 10}, {"b", 1, 10, 1, 11}, {"...", 1, 12, 1, 15}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks, ds := lexer.Lex("t.a0", tc.src)
			if len(ds) > 0 {
				t.Fatalf("unexpected errors %s", ds.JSONArray())
			}
			toks = toks[:len(toks)-1]
			if len(toks) != len(tc.want) {
				t.Fatalf("got %d tokens %q, want %d", len(toks), render(toks), len(tc.want))
			}
			for i, w := range tc.want {
				g := toks[i]
				got := tokPos{g.Text, g.Start.Line, g.Start.Col, g.End.Line, g.End.Col}
				if got != w {
					t.Errorf("token %d: got %+v, want %+v", i, got, w)
				}
			}
		})
	}
}

func TestEOFToken(t *testing.T) {
	for _, src := range []string{"", "let x = 1\nreturn x\n", "# c", "@"} {
		toks, _ := lexer.Lex("t.a0", src)
		eof := toks[len(toks)-1]
		if eof.Type != lexer.EOF || eof.Text != "" || eof.Start != (diag.Pos{Line: 1, Col: 1}) || eof.End != (diag.Pos{Line: 1, Col: 2}) {
			t.Errorf("Lex(%q) EOF token = %+v, want EOF at 1:1-1:2", src, eof)
		}
	}
}

func TestLexErrorJSON(t *testing.T) {
	// The JSON form prints the first UTF-16 unit of an astral character as a
	// lone-surrogate escape, and a raw CR as \r.
	tests := []struct{ src, want string }{
		{"😀", `[{"code":"E_LEX","message":"unexpected character: ->\ud83d<- at offset: 0, skipped 2 characters.","span":{"file":"t.a0","startLine":1,"startCol":1,"endLine":1,"endCol":3},"hint":"Check for invalid characters or unclosed strings."}]`},
		{"a\rb", `[{"code":"E_LEX","message":"unexpected character: ->\r<- at offset: 1, skipped 1 characters.","span":{"file":"t.a0","startLine":1,"startCol":2,"endLine":1,"endCol":3},"hint":"A lone carriage return is not a line break: use \\n or \\r\\n line endings."}]`},
		{"\ufeff", "[{\"code\":\"E_LEX\",\"message\":\"unexpected character: ->\ufeff<- at offset: 0, skipped 1 characters.\",\"span\":{\"file\":\"t.a0\",\"startLine\":1,\"startCol\":1,\"endLine\":1,\"endCol\":2},\"hint\":\"The file starts with a byte order mark (U+FEFF): save it as UTF-8 without one.\"}]"},
	}
	for _, tc := range tests {
		_, ds := lexer.Lex("t.a0", tc.src)
		if got := ds.JSONArray(); got != tc.want {
			t.Errorf("Lex(%q) JSON:\n got: %s\nwant: %s", tc.src, got, tc.want)
		}
	}
}

func TestTokenName(t *testing.T) {
	tests := map[string]string{
		"->": "Arrow", ">=": "GtEq", "<=": "LtEq", "==": "EqEq", "!=": "BangEq", "call?": "CallQ",
		"{": "LBrace", "}": "RBrace", "[": "LBracket", "]": "RBracket", "(": "LParen", ")": "RParen",
		":": "Colon", ",": "Comma", "...": "DotDotDot", ".": "Dot", "=": "Equals", ">": "Gt", "<": "Lt",
		"+": "Plus", "-": "Minus", "*": "Star", "/": "Slash", "%": "Percent",
		"cap": "Cap", "budget": "Budget", "import": "Import", "assert": "Assert", "as": "As", "let": "Let",
		"return": "Return", "do": "Do", "check": "Check", "match": "Match", "catch": "Catch", "filter": "Filter",
		"loop": "Loop", "if": "If", "else": "Else", "for": "For", "fn": "Fn", "try": "Try",
		"true": "True", "false": "False", "null": "Null",
	}
	for text, want := range tests {
		if got := lexer.TokenName(text); got != want {
			t.Errorf("TokenName(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestLexComments checks the comments LexComments returns beside the
// tokens: text from `#` to the line end, exact positions (UTF-16 columns)
// and the index of the token after each; Lex gives the same tokens.
func TestLexComments(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // "text@line:col-line:col>next"
	}{
		{"none", "let a = 1", nil},
		{"trailing and own line", "a # one\n# two\nb", []string{"# one@1:3-1:8>1", "# two@2:1-2:6>1"}},
		{"at end of file", "a\n#end", []string{"#end@2:1-2:5>1"}},
		{"only comments", "# x\n\n##", []string{"# x@1:1-1:4>0", "##@3:1-3:3>0"}},
		{"glued, CRLF", "a#b\r\nc", []string{"#b@1:2-1:4>1"}},
		{"trailing spaces kept", "a #  x  \nb", []string{"#  x  @1:3-1:9>1"}},
		{"hash in a string", `"#no" # yes`, []string{"# yes@1:7-1:12>1"}},
		{"astral characters", "\"😀\" # é😀\n", []string{"# é😀@1:6-1:11>1"}},
	}
	for _, c := range cases {
		toks, comments, errs := lexer.LexComments("c.a0", c.src)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		var got []string
		for _, cm := range comments {
			got = append(got, fmt.Sprintf("%s@%d:%d-%d:%d>%d", cm.Text, cm.Start.Line, cm.Start.Col, cm.End.Line, cm.End.Col, cm.Next))
		}
		if strings.Join(got, " | ") != strings.Join(c.want, " | ") {
			t.Errorf("%s: comments\n got %q\nwant %q", c.name, got, c.want)
		}
		plain, _ := lexer.Lex("c.a0", c.src)
		if fmt.Sprint(plain) != fmt.Sprint(toks) {
			t.Errorf("%s: LexComments tokens differ from Lex", c.name)
		}
	}
}

// TestHintForOtherLanguages: the characters other languages use as
// operators or in templates get a hint that names the A0 form.
func TestHintForOtherLanguages(t *testing.T) {
	tests := []struct{ src, want string }{
		{"return `n=${n}`", "A0 has no ${…} interpolation: write str.template { in: \"Hi {name}\", vars: { name: n } }."},
		{"return 2 ^ 3", "A0 has no ^ operator (xor or power): multiply for a power, `x * x`; compare booleans with != for xor."},
		{"return a ~ b", "A0 has no ~ operator: for text matching use re.test { in: s, pattern: \"…\" }."},
		{"return @x", "A0 has no decorators or @ operator: names are plain, and a function is declared with fn name { … } { … }."},
		{"return \\x", "A backslash only escapes inside a string: write \"a\\\\b\" for a literal backslash."},
	}
	for _, tc := range tests {
		_, ds := lexer.Lex("t.a0", tc.src)
		found := false
		for _, d := range ds {
			if d.Hint == tc.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no diagnostic with hint %q: %s", tc.src, tc.want, ds.JSONArray())
		}
	}
}
