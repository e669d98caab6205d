package lexer_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/lexer"
)

var scannerCases = []string{
	"let x = [\n1,\n2,\n3]\nx",
	"let s = \"one\ntwo\nthree\"\ns",
	"let s = \"a\\\"b\n\\\\\" # comment \"\n{ a: 1,\n b: [ (1 + 2) ] }",
	"\"\\u00\n41\"",
	"\"\\u0041\"\n\"\\q\"\n1",
	"x.do\ncall? fs.read { path: \"a\" } -> y\n",
	"1 @ 2\n[",
	"fn f { a } {\n  return a * 2\n}\nf { a: 1.5e3 }",
	"let a = 10.\n5",
	"\"abc\\",
	"\n\n\"\n\n\n",
	"é\"ü\n😀\" \"\\u00e9",
	"a\r\nb",
}

// The Scanner, fed line by line, agrees with Lex on the joined text after
// every line: same tokens (count, last two, depth) when Lex finds no
// error; InString only when Lex's first error is an unterminated string
// (Failed on any other error); and TokenPast counts Lex's tokens.
func TestScannerAgreesWithLex(t *testing.T) {
	for _, src := range scannerCases {
		checkScanner(t, src)
	}
}

func FuzzScanner(f *testing.F) {
	for _, src := range scannerCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) || len(src) > 4096 {
			return
		}
		checkScanner(t, src)
	})
}

func checkScanner(t *testing.T, src string) {
	t.Helper()
	lines := strings.Split(src, "\n")
	var s lexer.Scanner
	for i, line := range lines {
		s.AddLine(line)
		text := strings.Join(lines[:i+1], "\n")
		if s.Text() != text {
			t.Fatalf("%q: text %q", src, s.Text())
		}
		toks, errs := lexer.Lex("f", text)
		if _, over := lexer.TokenPast(text, len(toks)-2); len(toks) > 1 && !over {
			t.Errorf("%q: TokenPast does not see the %d tokens Lex stores", text, len(toks)-1)
		}
		if len(errs) > 0 {
			if s.InString() && !strings.Contains(errs[0].Message, "->\"<-") {
				t.Errorf("%q after line %d: in a string, but Lex's first error is %s", src, i+1, errs[0].Message)
			}
			if !s.InString() && !s.Failed() {
				t.Errorf("%q after line %d: Lex fails (%s), the scanner does not", src, i+1, errs[0].Message)
			}
			continue
		}
		if s.Failed() || s.InString() {
			t.Errorf("%q after line %d: scanner failed %v / in string %v, Lex does not", src, i+1, s.Failed(), s.InString())
			continue
		}
		if s.Tokens() != len(toks)-1 {
			t.Errorf("%q after line %d: %d tokens, Lex %d", src, i+1, s.Tokens(), len(toks)-1)
			continue
		}
		depth := 0
		for _, tk := range toks {
			if tk.Type == lexer.Punct {
				switch tk.Text {
				case "{", "[", "(":
					depth++
				case "}", "]", ")":
					depth--
				}
			}
		}
		if s.Depth() != depth {
			t.Errorf("%q after line %d: depth %d, want %d", src, i+1, s.Depth(), depth)
		}
		prev, last := s.Last()
		n := len(toks) - 1
		if n >= 1 && last != toks[n-1] || n >= 2 && prev != toks[n-2] {
			t.Errorf("%q after line %d: last tokens %v %v, want %v", src, i+1, prev, last, toks[max(0, n-2):n])
		}
	}
}

// An unterminated string followed by many lines costs time linear in the
// text (each line is scanned once).
func TestScannerOpenStringLinear(t *testing.T) {
	var s lexer.Scanner
	s.AddLine(`let s = "`)
	for i := 0; i < 200_000; i++ {
		s.AddLine("")
	}
	if !s.InString() || s.Tokens() != 3 {
		t.Fatalf("in string %v, tokens %d", s.InString(), s.Tokens())
	}
	s.AddLine(`"`)
	if s.InString() || s.Tokens() != 4 || s.Failed() {
		t.Fatalf("closed: in string %v, tokens %d, failed %v", s.InString(), s.Tokens(), s.Failed())
	}
}
