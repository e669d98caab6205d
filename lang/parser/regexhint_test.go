package parser

import (
	"strings"
	"testing"
)

// TestRegexHints: a regex literal of another language, failing in the
// lexer or in the parser, gets a hint with the re.* call that does the
// same, the pattern written as an A0 string; other errors keep theirs.
func TestRegexHints(t *testing.T) {
	tests := []struct{ src, want string }{
		{`let ok = /ab+/.test(s)`, "`re.test { in: s, pattern: \"ab+\" }`"},
		{`let ok = /^ab$/i.test(s)`, "`re.test { in: s, pattern: \"(?i)^ab$\" }`"},
		{`let m = /(\d+)/.exec(line)`, "`re.find { in: line, pattern: \"(\\\\d+)\" }`"},
		{`let m = s.match(/\d+/)`, "`re.find { in: s, pattern: \"\\\\d+\" }`"},
		{`let m = s.match(/a.c/g)`, "`re.findAll { in: s, pattern: \"a.c\" }`"},
		{`let m = s.matchAll(/x/g)`, "`re.findAll { in: s, pattern: \"x\" }`"},
		{`let t = s.replace(/a/, "b")`, "`re.replace { in: s, pattern: \"a\", to: \"b\", limit: 1 }`"},
		{`let t = s.replace(/\s+/g, " ")`, "`re.replace { in: s, pattern: \"\\\\s+\", to: \" \" }`"},
		{`let t = a.b.replaceAll(/x|y/g, f(z))`, "`re.replace { in: a.b, pattern: \"x|y\", to: f(z) }`"},
		{`let p = s.split(/,\s*/)`, "`re.split { in: s, pattern: \",\\\\s*\" }`"},
		{`let i = s.search(/[a-z]/)`, "`re.find { in: s, pattern: \"[a-z]\" }`"},
		{`let r = /a[/]b/`, "`re.test { in: …, pattern: \"a[/]b\" }` (also re.find, re.findAll, re.replace and re.split)"},
		{`return { ok: /x?/.test(s) }`, "`re.test { in: s, pattern: \"x?\" }`"},
	}
	for _, tc := range tests {
		_, ds := Parse("t.a0", tc.src+"\nreturn 1\n", Options{})
		if len(ds) == 0 {
			t.Errorf("%s: no error", tc.src)
			continue
		}
		if !strings.HasPrefix(ds[0].Hint, "A0 has no regex literals: ") || !strings.Contains(ds[0].Hint, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, ds[0].Hint, tc.want)
		}
	}
	for _, src := range []string{"let x = 1 / 2 /\nreturn x", "let x = (1) / / 2\nreturn x", `let s = "a/b" ^ 2` + "\nreturn 1"} {
		_, ds := Parse("t.a0", src, Options{})
		if len(ds) == 0 {
			t.Errorf("%q: no error", src)
			continue
		}
		if strings.Contains(ds[0].Hint, "regex") {
			t.Errorf("%q: regex hint on a division: %s", src, ds[0].Hint)
		}
	}
}

// TestMethodHints: methods of other languages that the new library
// functions replace.
func TestMethodHints(t *testing.T) {
	for _, tc := range []struct{ recv, m, want string }{
		{"s", "trim", "call the function with the value as its `in` argument, `str.trim { in: s, chars: … }`."},
		{"s", "toUpperCase", "`str.upper { in: s }`."},
		{"s", "toLowerCase", "`str.lower { in: s }`."},
		{"s", "padStart", "`str.padStart { in: s, len: …, with: … }`."},
		{"re1", "test", "pass the text and the pattern (a string, RE2 syntax) to the function, `re.test { in: …, pattern: re1 }`."},
		{"s", "nosuch", ""},
	} {
		sigs := func(name string) ([]string, bool) {
			return map[string][]string{"str.trim": {"in", "chars"}, "str.upper": {"in"}, "str.lower": {"in"},
				"str.padStart": {"in", "len", "with"}, "re.test": {"in", "pattern"}}[name], true
		}
		got := MethodHint(tc.recv, tc.m, sigs)
		if tc.want == "" && got != "" || !strings.HasSuffix(got, tc.want) {
			t.Errorf("%s.%s: %q, want …%q", tc.recv, tc.m, got, tc.want)
		}
	}
}

// TestRegexHintAtAnyColumn: regexHintAt never panics, whatever the line
// and column.
func TestRegexHintAtAnyColumn(t *testing.T) {
	for _, line := range []string{"", "/", "//", "/a/", "= /a/g", "x = /\\/", `"/" /a/.test(`, "s.match(/a/", "/a/.test", "/[/]/", "return /x/gims", "f(/\\", "s.replace(/a/g,"} {
		for col := 0; col <= len(line)+1; col++ {
			_ = regexHintAt(line, col)
		}
	}
}

// TestPythonRegexHints: Python's re module, pattern first, becomes the
// record form with the arguments in their places.
func TestPythonRegexHints(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`let t = re.sub("a+", "b", s)`, "`re.replace { in: s, pattern: \"a+\", to: \"b\" }`"},
		{`let m = re.search("x", line)`, "`re.find { in: line, pattern: \"x\" }`"},
		{`let m = re.findall("x", line)`, "`re.findAll { in: line, pattern: \"x\" }`"},
		{`let m = re.split(",", line)`, "`re.split { in: line, pattern: \",\" }`"},
	} {
		_, ds := Parse("t.a0", tc.src+"\nreturn 1\n", Options{})
		if len(ds) == 0 || !strings.Contains(ds[0].Hint, tc.want) {
			t.Errorf("%s: %v, want %s", tc.src, ds, tc.want)
		}
	}
}
