package parser_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/parser"
)

// allocated runs f and returns the bytes it allocated and how long it took.
func allocated(f func()) (uint64, time.Duration) {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	start := time.Now()
	f()
	d := time.Since(start)
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, d
}

// Issue 18.3: parsing has a memory bound. A 2 MB list literal (a million
// elements), with or without a syntax error at its end, is refused with
// E_PARSE after little work; so is a source of more than MaxTokens tokens;
// a syntax error late in a large (but allowed) list is reported from the
// fast parser's position without participle's costly error path.
func TestCompileBounds(t *testing.T) {
	// The lexer stops at the first token past MaxTokens: at most
	// MaxTokens+1 tokens (about 5.6 MB) are stored, however large the
	// source.
	const tokenBound = 8 << 20
	big := "let x = [" + strings.Repeat("1,", 1_000_000) + "1]\nreturn x"
	bigErr := "let x = [" + strings.Repeat("1,", 1_000_000) + "1 2]\nreturn x"
	dense := "let x = [" + strings.Repeat("1,", 400_000) + "1]\nreturn x" // 800k tokens
	long := `return "` + strings.Repeat("a", 5<<20) + `"`
	afterErr := "@ " + strings.Repeat("1,", 400_000)   // a lexical error first
	afterQuote := "\"" + strings.Repeat("1,", 400_000) // an unterminated string first
	lateErr := "let x = [" + strings.Repeat("1,", 45_000) + "1 2]\nreturn x"
	tests := []struct {
		name, src, msg string
		line, col      int
		maxAlloc       uint64
	}{
		{"2 MB list", big, "Program too large: more than the limit of 100000 tokens.", 1, 100_006, tokenBound},
		{"2 MB list with an error", bigErr, "Program too large: more than the limit of 100000 tokens.", 1, 100_006, tokenBound},
		{"too many tokens", dense, "Program too large: more than the limit of 100000 tokens.", 1, 100_006, tokenBound},
		{"tokens after a lexical error", afterErr, "Program too large: more than the limit of 100000 tokens.", 1, 100_003, tokenBound},
		{"tokens after an open quote", afterQuote, "Program too large: more than the limit of 100000 tokens.", 1, 100_002, tokenBound},
		{"5 MiB source", long, "Program too large: 5242889 bytes, more than the limit of 4194304 bytes.", 1, 1, 1 << 20},
		{"late error in a large list", lateErr, "Unexpected token '2'.", 1, 90_012, 64 << 20},
	}
	for _, tc := range tests {
		var ds diag.List
		n, d := allocated(func() { _, ds = parser.Parse("big.a0", tc.src, parser.Options{}) })
		if len(ds) != 1 || ds[0].Code != diag.EParse || ds[0].Message != tc.msg ||
			ds[0].Span.Start.Line != tc.line || ds[0].Span.Start.Col != tc.col {
			t.Errorf("%s: got %s", tc.name, firstJSON(ds))
		}
		if n > tc.maxAlloc || d > 5*time.Second {
			t.Errorf("%s: allocated %d MB in %v (limit %d MB)", tc.name, n>>20, d, tc.maxAlloc>>20)
		}
		if ds != nil && ds[0].Hint == "" {
			t.Errorf("%s: no hint", tc.name)
		}
	}
	// Exactly at the limits is accepted.
	ok := "let x = [" + strings.Repeat("1,", (parser.MaxTokens-8)/2) + "1]\nreturn x"
	if _, ds := parser.Parse("ok.a0", ok, parser.Options{}); len(ds) > 0 {
		t.Errorf("a program of %d tokens: %s", parser.MaxTokens, firstJSON(ds))
	}
	str := `return "` + strings.Repeat("a", parser.MaxSourceBytes-9) + `"`
	if _, ds := parser.Parse("ok.a0", str, parser.Options{}); len(ds) > 0 || len(str) != parser.MaxSourceBytes {
		t.Errorf("a source of %d bytes: %s", len(str), firstJSON(ds))
	}
}

// A source of garbage reports at most lexer.MaxErrors diagnostics.
func TestLexErrorsBounded(t *testing.T) {
	src := strings.Repeat("@ ", 400_000)
	_, ds := parser.Parse("g.a0", src, parser.Options{})
	if len(ds) != lexer.MaxErrors || ds[0].Code != diag.ELex || !strings.Contains(ds[len(ds)-1].Hint, "More lexical errors follow") {
		t.Errorf("%d diagnostics, last %s", len(ds), firstJSON(ds[len(ds)-1:]))
	}
}

func firstJSON(ds diag.List) string {
	if len(ds) == 0 {
		return "no diagnostics"
	}
	return ds[0].JSON(diag.FormStatic)
}

// ParseInput's typed "incomplete" agrees with what Parse's first
// diagnostic says (it found the end of the input: endsEarly) on every
// line-boundary and token-boundary prefix of the test programs.
func TestParseInputIncomplete(t *testing.T) {
	files, _ := filepath.Glob("testdata/ok/*.a0")
	errs, _ := filepath.Glob("testdata/err/*.a0")
	n := 0
	for _, f := range append(files, errs...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		toks, lexErrs := lexer.Lex(f, src)
		cuts := []int{len(src)}
		for i, c := range src {
			if c == '\n' {
				cuts = append(cuts, i)
			}
		}
		if len(lexErrs) == 0 {
			// Cut after every token, by line and column.
			lines := strings.SplitAfter(src, "\n")
			for _, tk := range toks[:len(toks)-1] {
				off := 0
				for _, l := range lines[:tk.End.Line-1] {
					off += len(l)
				}
				cuts = append(cuts, off+utf16Bytes(lines[tk.End.Line-1], tk.End.Col-1))
			}
		}
		for _, c := range cuts {
			p := src[:c]
			_, ds := parser.Parse(f, p, parser.Options{})
			want := endsEarly(ds)
			prog, ids, got := parser.ParseInput(f, p, parser.Options{})
			n++
			switch {
			case strings.HasSuffix(p, "if") && got && strings.Contains(firstJSON(ds), "Unexpected token 'if'"):
				// An `if` at the end is reported at the `if` (as the
				// reference does), but the text is only unfinished.
				continue
			case strings.Contains(firstJSON(ds), "invalid escape") && !got:
				// A bad escape is an error, not an unfinished string.
				continue
			}
			if got != want {
				t.Errorf("%s cut at %d (%q…): incomplete %v, want %v (%s)", f, c, tail(p), got, want, firstJSON(ds))
			}
			if (prog == nil) != (len(ids) > 0) || firstJSON(ids) != firstJSON(ds) {
				t.Errorf("%s cut at %d: program %v, diagnostics %v, incomplete %v", f, c, prog != nil, ids, got)
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d prefixes", n)
	}
}

// endsEarly reports whether Parse's diagnostics say the input ended too
// early: the first is an E_PARSE that found the end of the input.
func endsEarly(ds diag.List) bool {
	return len(ds) > 0 && ds[0].Code == diag.EParse && strings.Contains(ds[0].Message, "'<EOF>'")
}

// utf16Bytes returns the byte length of the first n UTF-16 units of s.
func utf16Bytes(s string, n int) int {
	for i, r := range s {
		if n <= 0 {
			return i
		}
		n--
		if r >= 0x10000 {
			n--
		}
	}
	return len(s)
}

func tail(s string) string {
	if len(s) > 30 {
		return s[len(s)-30:]
	}
	return s
}

func TestMayEnd(t *testing.T) {
	tests := map[string]bool{
		"x": true, "1": true, "1.5": true, `"s"`: true, "null": true, "f { a: 1 }": true,
		"[1]": true, "(1)": true, "x.do": true, "": true,
		"1 +": false, "let x =": false, "x ->": false, "return": false, "call?": false,
		"do": false, "a,": false, "x.": false, "{ a:": false, "[": false,
	}
	for src, want := range tests {
		toks, _ := lexer.Lex("t", src)
		var prev, last lexer.Token
		if n := len(toks) - 1; n >= 1 {
			last = toks[n-1]
			if n >= 2 {
				prev = toks[n-2]
			}
		}
		if got := parser.MayEnd(prev, last); got != want {
			t.Errorf("MayEnd(%q) = %v, want %v", src, got, want)
		}
	}
}
