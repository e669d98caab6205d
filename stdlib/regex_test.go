package stdlib

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/value"
)

func TestRegexFunctions(t *testing.T) {
	dtRun(t, []dtCase{
		// re.test
		{"re.test", `{"in":"hello world","pattern":"wor"}`, `true`, false},
		{"re.test", `{"in":"hello","pattern":"^h.*o$"}`, `true`, false},
		{"re.test", `{"in":"Hello","pattern":"hello"}`, `false`, false},
		{"re.test", `{"in":"Hello","pattern":"(?i)hello"}`, `true`, false},
		{"re.test", `{"in":"a\nb","pattern":"^b$"}`, `false`, false},
		{"re.test", `{"in":"a\nb","pattern":"(?m)^b$"}`, `true`, false},
		{"re.test", `{"in":"a\nb","pattern":"a.b"}`, `false`, false},
		{"re.test", `{"in":"a\nb","pattern":"(?s)a.b"}`, `true`, false},
		{"re.test", `{"in":"","pattern":""}`, `true`, false},
		{"re.test", `{"in":"x","pattern":"\\d"}`, `false`, false},
		{"re.test", `{"in":"x\ud800y","pattern":"x.y"}`, `true`, false},
		{"re.test", `{"in":1,"pattern":"x"}`, `re.test: 'in' must be a string`, true},
		{"re.test", `{"in":"x"}`, `re.test: 'pattern' must be a string`, true},
		{"re.test", `{"pattern":"("}`, `re.test: 'in' must be a string`, true},
		{"re.test", `{"in":"x","pattern":"(ab"}`, `re.test: invalid pattern "(ab": missing closing ) at position 0`, true},
		{"re.test", `{"in":"x","pattern":"a(b(c)"}`, `re.test: invalid pattern "a(b(c)": missing closing ) at position 1`, true},
		{"re.test", `{"in":"x","pattern":"ab)"}`, `re.test: invalid pattern "ab)": unexpected ) at position 2`, true},
		{"re.test", `{"in":"x","pattern":"[(]ab)"}`, `re.test: invalid pattern "[(]ab)": unexpected ) at position 5`, true},
		{"re.test", `{"in":"x","pattern":"xa**"}`, `re.test: invalid pattern "xa**": invalid nested repetition operator "**" at position 2`, true},
		{"re.test", `{"in":"x","pattern":"é[z-a]"}`, `re.test: invalid pattern "é[z-a]": invalid character class range "z-a" at position 2`, true},
		{"re.test", `{"in":"x","pattern":"ab[cd"}`, `re.test: invalid pattern "ab[cd": missing closing ] "[cd" at position 2`, true},
		{"re.test", `{"in":"x","pattern":"ab\\"}`, `re.test: invalid pattern "ab\\": trailing backslash at end of expression at position 2`, true},
		{"re.test", `{"in":"x","pattern":"(?<=a)b"}`, `re.test: invalid pattern "(?<=a)b": lookahead and lookbehind are not supported (RE2) at position 0`, true},
		{"re.test", `{"in":"x","pattern":"(a)\\1"}`, `re.test: invalid pattern "(a)\\1": backreferences such as "\\1" are not supported (RE2) at position 3`, true},
		{"re.test", `{"in":"x","pattern":"((a{100}){100}){100}"}`, `re.test: invalid pattern "((a{100}){100}){100}": invalid repeat count "{100}" at position 3`, true},
		{"re.test", `{"in":"x","pattern":"(a{1000}){20}"}`, `re.test: invalid pattern "(a{1000}){20}": invalid repeat count "{20}" at position 9`, true},
		{"re.test", `{"in":"x","pattern":"` + strings.Repeat(`\\w{1000}`, 11) + `"}`, `re.test: invalid pattern "\\w{1000}\\w{1000}\\w{1000}\\w{1000}\\w{1000}\\w{1000}\\w{1000}\\"…: pattern too large (about 11012 instructions once repetitions are expanded, limit 10000) at position 0`, true},
		{"re.test", `{"in":"x","pattern":"(?!a)"}`, `re.test: invalid pattern "(?!a)": lookahead and lookbehind are not supported (RE2) at position 0`, true},

		// re.find
		{"re.find", `{"in":"order 66 and 77","pattern":"\\d+"}`, `{"match":"66","index":6,"groups":[],"named":{}}`, false},
		{"re.find", `{"in":"😀 ab","pattern":"a(b)(c)?"}`, `{"match":"ab","index":3,"groups":["b",null],"named":{}}`, false},
		{"re.find", `{"in":"key=val","pattern":"(?P<k>\\w+)=(?<v>\\w+)"}`, `{"match":"key=val","index":0,"groups":["key","val"],"named":{"k":"key","v":"val"}}`, false},
		{"re.find", `{"in":"x","pattern":"(?P<a>y)|x"}`, `{"match":"x","index":0,"groups":[null],"named":{"a":null}}`, false},
		{"re.find", `{"in":"abc","pattern":"z"}`, `null`, false},
		{"re.find", `{"in":"abc","pattern":""}`, `{"match":"","index":0,"groups":[],"named":{}}`, false},
		{"re.find", `{"in":"aXb","pattern":"(?i)x"}`, `{"match":"X","index":1,"groups":[],"named":{}}`, false},
		{"re.find", `{"in":"\ud800x","pattern":"."}`, `{"match":"\ud800","index":0,"groups":[],"named":{}}`, false},
		{"re.find", `{"in":[],"pattern":"."}`, `re.find: 'in' must be a string`, true},
		{"re.find", `{"in":"x","pattern":null}`, `re.find: 'pattern' must be a string`, true},

		// re.findAll
		{"re.findAll", `{"in":"a1b22c333","pattern":"\\d+"}`,
			`[{"match":"1","index":1,"groups":[],"named":{}},{"match":"22","index":3,"groups":[],"named":{}},{"match":"333","index":6,"groups":[],"named":{}}]`, false},
		{"re.findAll", `{"in":"a1b22c333","pattern":"\\d+","limit":2}`,
			`[{"match":"1","index":1,"groups":[],"named":{}},{"match":"22","index":3,"groups":[],"named":{}}]`, false},
		{"re.findAll", `{"in":"a1","pattern":"\\d","limit":0}`, `[]`, false},
		{"re.findAll", `{"in":"😀x😀x","pattern":"x"}`,
			`[{"match":"x","index":2,"groups":[],"named":{}},{"match":"x","index":5,"groups":[],"named":{}}]`, false},
		{"re.findAll", `{"in":"abc","pattern":"z"}`, `[]`, false},
		{"re.findAll", `{"in":"ab","pattern":"x*"}`,
			`[{"match":"","index":0,"groups":[],"named":{}},{"match":"","index":1,"groups":[],"named":{}},{"match":"","index":2,"groups":[],"named":{}}]`, false},
		{"re.findAll", `{"in":"a","pattern":"a","limit":-1}`, `re.findAll: 'limit' must be a non-negative integer`, true},
		{"re.findAll", `{"in":"a","pattern":"a","limit":1.5}`, `re.findAll: 'limit' must be a non-negative integer`, true},
		{"re.findAll", `{"in":"a","pattern":"a","limit":"2"}`, `re.findAll: 'limit' must be a non-negative integer`, true},

		// re.replace
		{"re.replace", `{"in":"2024-01-31","pattern":"(\\d+)-(\\d+)-(\\d+)","to":"$3/$2/$1"}`, `"31/01/2024"`, false},
		{"re.replace", `{"in":"a-b-c","pattern":"-","to":"+"}`, `"a+b+c"`, false},
		{"re.replace", `{"in":"a-b-c","pattern":"-","to":"+","limit":1}`, `"a+b-c"`, false},
		{"re.replace", `{"in":"a-b-c","pattern":"-","to":"+","limit":0}`, `"a-b-c"`, false},
		{"re.replace", `{"in":"john smith","pattern":"(?P<first>\\w+) (?P<last>\\w+)","to":"${last}, ${first}"}`, `"smith, john"`, false},
		{"re.replace", `{"in":"ab","pattern":"(a)(b)","to":"$2x$1y${2}z"}`, `"bxaybz"`, false},
		{"re.replace", `{"in":"cost 5","pattern":"\\d","to":"$$$0"}`, `"cost $5"`, false},
		{"re.replace", `{"in":"ab","pattern":"(a)|b","to":"[$1]"}`, `"[a][]"`, false},
		{"re.replace", `{"in":"a.b","pattern":"\\.","to":"$ and $x and ${"}`, `"a$ and $x and ${b"`, false},
		{"re.replace", `{"in":"abc","pattern":"","to":"-"}`, `"-a-b-c-"`, false},
		{"re.replace", `{"in":"abc","pattern":"z","to":"-"}`, `"abc"`, false},
		{"re.replace", `{"in":"ab","pattern":"(a)","to":"$2"}`, `re.replace: 'to' refers to group $2, but the pattern has 1 group (write $$ for a literal $)`, true},
		{"re.replace", `{"in":"ab","pattern":"(a)","to":"${nm}"}`, `re.replace: 'to' refers to group ${nm}, which it does not name, but the pattern has 1 group (write $$ for a literal $)`, true},
		{"re.replace", `{"in":"ab","pattern":"(a)","to":"$10"}`, `re.replace: 'to' refers to group $10, but the pattern has 1 group (write ${1}0 for group 1 followed by "0", $$ for a literal $)`, true},
		{"re.replace", `{"in":"ab","pattern":"(a)","to":"${1}0"}`, `"a0b"`, false},
		{"re.replace", `{"in":"ab","pattern":"a"}`, `re.replace: 'to' must be a string`, true},
		{"re.replace", `{"in":"ab","pattern":"a","to":"","limit":true}`, `re.replace: 'limit' must be a non-negative integer`, true},

		// re.split
		{"re.split", `{"in":"a, b,c ,d","pattern":"\\s*,\\s*"}`, `["a","b","c","d"]`, false},
		{"re.split", `{"in":"a1b2c3","pattern":"\\d"}`, `["a","b","c",""]`, false},
		{"re.split", `{"in":"a1b2c3","pattern":"\\d","limit":2}`, `["a","b2c3"]`, false},
		{"re.split", `{"in":"a1b2c3","pattern":"\\d","limit":0}`, `[]`, false},
		{"re.split", `{"in":"abc","pattern":""}`, `["a","b","c"]`, false},
		{"re.split", `{"in":"","pattern":","}`, `[""]`, false},
		{"re.split", `{"in":"","pattern":""}`, `[]`, false},
		{"re.split", `{"in":"abc","pattern":"x"}`, `["abc"]`, false},
		{"re.split", `{"in":"x😀y","pattern":""}`, `["x","😀","y"]`, false},
		{"re.split", `{"in":"abc","pattern":"x","limit":"a"}`, `re.split: 'limit' must be a non-negative integer`, true},
	})
}

// TestRegexPrepared: a call prepared for a literal pattern gives the
// results of the plain call, and compiles the pattern anew when the call's
// pattern is another one (a spread may bring it).
func TestRegexPrepared(t *testing.T) {
	if _, ok := Prepare("re.test", "pattern", "("); ok {
		t.Error("an invalid literal was prepared")
	}
	if _, ok := Prepare("str.trim", "pattern", "a"); ok {
		t.Error("str.trim was prepared")
	}
	f, ok := Prepare("re.replace", "pattern", "(a)")
	if !ok {
		t.Fatal("re.replace not prepared")
	}
	v, err := f(NoLimits, slRec("in", "abca", "pattern", "(a)", "to", "<$1>").AsRecord())
	if err != nil || v.AsString() != "<a>bc<a>" {
		t.Errorf("prepared: %v %v", value.JSON(v), err)
	}
	v, err = f(NoLimits, slRec("in", "abca", "pattern", "b", "to", "-").AsRecord())
	if err != nil || v.AsString() != "a-ca" {
		t.Errorf("other pattern: %v %v", value.JSON(v), err)
	}
	if _, err = f(NoLimits, slRec("in", "abca", "pattern", "(", "to", "-").AsRecord()); err == nil {
		t.Error("invalid other pattern accepted")
	}
}

func TestCheckLiteral(t *testing.T) {
	for _, c := range []struct{ fn, arg, lit, want string }{
		{"re.test", "pattern", "a(", `re.test: invalid pattern "a(": missing closing ) at position 1.`},
		{"re.split", "pattern", "*", `re.split: invalid pattern "*": missing argument to repetition operator at position 0.`},
		{"re.test", "pattern", "a+", ""},
		{"re.test", "in", "(", ""},
		{"str.split", "pattern", "(", ""},
	} {
		msg, hint := CheckLiteral(c.fn, c.arg, c.lit)
		if msg != c.want || (msg != "") != (hint != "") {
			t.Errorf("CheckLiteral(%s, %s, %q) = %q, %q; want %q", c.fn, c.arg, c.lit, msg, hint, c.want)
		}
	}
}

// TestRegexLinearTime: a 1 MB input with patterns that take exponential
// time in a backtracking engine finishes well under a second, by every
// regex function (RE2 semantics: time linear in the input).
func TestRegexLinearTime(t *testing.T) {
	in := strings.Repeat("a", 1<<20)
	for _, pattern := range []string{`(a*)*b`, `(a|aa)*c`, `(a+)+$x`, `^(\w+\s?)*$!`} {
		for _, fn := range []string{"re.test", "re.find", "re.findAll", "re.replace", "re.split"} {
			f, _ := Lookup(fn)
			start := time.Now()
			v, err := f(testLimits{max: 256 << 20}, slRec("in", in, "pattern", pattern, "to", "").AsRecord())
			d := time.Since(start)
			if err != nil {
				t.Errorf("%s %s: %v", fn, pattern, err)
			}
			if d > time.Second && !raceEnabled {
				t.Errorf("%s %s on 1 MB took %v", fn, pattern, d)
			}
			if fn == "re.test" && v.AsBool() {
				t.Errorf("%s matched", pattern)
			}
			t.Logf("%s %-14s %v", fn, pattern, d)
		}
	}
}

// TestRegexStops: matching a long text gives up once the run is stopped,
// also inside the search of one match.
func TestRegexStops(t *testing.T) {
	in := strings.Repeat("ab", 1<<19)
	for _, c := range []struct{ fn, pattern string }{
		{"re.test", `(a|b)*c`},
		{"re.find", `(a|b)*c`},
		{"re.findAll", `a`},
		{"re.findAll", `(a|b)*c`},
		{"re.findAll", `\bb`},
		{"re.replace", `(?m)^x`},
		{"re.replace", `b`},
		{"re.split", `b`},
	} {
		f, _ := Lookup(c.fn)
		_, err := f(testLimits{stopped: true}, slRec("in", in, "pattern", c.pattern, "to", "").AsRecord())
		if !errors.Is(err, ErrStopped) {
			t.Errorf("%s %s: got %v, want ErrStopped", c.fn, c.pattern, err)
		}
	}
}

// TestRegexBounds: results past the memory ceiling are refused before
// they are built, and the estimate of a match record bounds its size.
func TestRegexBounds(t *testing.T) {
	in := strings.Repeat("ab", 4096)
	for _, c := range []struct {
		fn   string
		args value.Value
	}{
		{"re.findAll", slRec("in", in, "pattern", "(a)(?P<x>b)")},
		{"re.findAll", slRec("in", in, "pattern", "")},
		{"re.replace", slRec("in", in, "pattern", "a", "to", strings.Repeat("x", 100))},
		{"re.replace", slRec("in", in, "pattern", "", "to", "")},
		{"re.split", slRec("in", in, "pattern", "")},
	} {
		f, _ := Lookup(c.fn)
		_, err := f(testLimits{max: 40 << 10}, c.args.AsRecord())
		var se *value.SizeError
		if !errors.As(err, &se) || se.Bytes <= 40<<10 {
			t.Errorf("%s: got %v, want a SizeError past 40 KiB", c.fn, err)
		}
		big, err := f(testLimits{max: 1 << 30}, c.args.AsRecord())
		want, _ := f(NoLimits, c.args.AsRecord())
		if err != nil || !value.Equal(big, want) {
			t.Errorf("%s under 1 GiB: %v", c.fn, err)
		}
	}
	for _, pattern := range []string{"", "a", "(a)(b)?", "(?P<name>a)(?P<other>b)|(c)", "(((((a)))))"} {
		p, err := CompilePattern(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range p.re.FindAllStringSubmatchIndex("abcab", -1) {
			v := p.matchRecord("abcab", m, &unitCounter{s: "abcab"})
			if got := p.matchSize(m); got < v.Size() {
				t.Errorf("%q: estimate %d < size %d", pattern, got, v.Size())
			}
			if l := value.ListOf([]value.Value{v}); slots(1)+p.matchSize(m) < l.Size() {
				t.Errorf("%q: list estimate below size %d", pattern, l.Size())
			}
		}
	}
}

// TestRegexReaderAgrees: the polling reader path (long texts) finds what
// the regexp package finds in one call.
func TestRegexReaderAgrees(t *testing.T) {
	defer func(c int64) { directCost = c }(directCost)
	directCost = 0
	in := strings.Repeat("xx ab aab 😀 b"+slUnits(0xD800).AsString()+" ", 300)
	for _, pattern := range []string{`a*b`, `a+`, `x*`, ``, `(a)(b)?`, `\s`, `.`, `b$`, `\b`, `\B`, `^`, `(?m)^\w`, `\bab?\b`, `\Ax`, `(?m)$`, `(?P<w>\b\w+\b)`} {
		p, err := CompilePattern(pattern)
		if err != nil {
			t.Fatal(err)
		}
		if p.size*int64(len(in)) <= directCost {
			t.Fatalf("%q: text too short for the reader path", pattern)
		}
		s := surrogatesToFFFD(in)
		got, err := p.find(NoLimits, s, -1, true)
		want := p.re.FindAllStringSubmatchIndex(s, -1)
		if err != nil || len(got) != len(want) {
			t.Fatalf("%q: %d matches, want %d (%v)", pattern, len(got), len(want), err)
		}
		for i := range got {
			for j := range got[i] {
				if got[i][j] != want[i][j] {
					t.Fatalf("%q: match %d = %v, want %v", pattern, i, got[i], want[i])
				}
			}
		}
	}
}

// FuzzRegex runs the regex functions on hostile patterns and inputs: no
// panic, an error only for an invalid pattern or argument, and the
// functions agree with each other.
func FuzzRegex(f *testing.F) {
	for _, s := range [][2]string{
		{`(a*)*b`, "aaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{`(a|aa)*c`, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{`(?i)(?m)^x$`, "X\nx\n"},
		{`(?s).`, "\n"},
		{`(`, "x"},
		{`\b`, "a b"},
		{`(?P<n>\w+)`, "ab cd"},
		{`[\x{D800}-\x{DFFF}]`, "\xed\xa0\x80"},
		{``, "😀"},
		{`((a{100}){100}){100}`, ""},
		{`x{1000}`, "x"},
	} {
		f.Add(s[0], s[1], "$1${n}$$")
	}
	f.Fuzz(func(t *testing.T, pattern, in, to string) {
		if len(in) > 1<<16 || len(pattern) > 1<<10 {
			return
		}
		lim := testLimits{max: 1 << 24}
		args := slRec("in", in, "pattern", pattern, "to", to).AsRecord()
		test, _ := Lookup("re.test")
		tv, err := test(lim, args)
		if err != nil {
			if _, e := CompilePattern(pattern); e == nil {
				t.Fatalf("re.test failed on a valid pattern: %v", err)
			}
			return
		}
		find, _ := Lookup("re.find")
		fv, err := find(lim, args)
		if err != nil {
			t.Fatalf("re.find: %v", err)
		}
		if tv.AsBool() != !fv.IsNull() {
			t.Fatalf("re.test %v but re.find %s", tv.AsBool(), value.JSON(fv))
		}
		all, _ := Lookup("re.findAll")
		av, err := all(lim, args)
		if err != nil {
			var se *value.SizeError
			if !errors.As(err, &se) {
				t.Fatalf("re.findAll: %v", err)
			}
		} else if tv.AsBool() != (len(av.AsList()) > 0) {
			t.Fatalf("re.test %v but re.findAll %d matches", tv.AsBool(), len(av.AsList()))
		}
		for _, fn := range []string{"re.replace", "re.split"} {
			g, _ := Lookup(fn)
			if _, err := g(lim, args); err != nil {
				var se *value.SizeError
				if !errors.As(err, &se) && !strings.Contains(err.Error(), "'to' refers to") {
					t.Fatalf("%s: %v", fn, err)
				}
			}
		}
		if msg, _ := CheckLiteral("re.test", "pattern", pattern); msg != "" {
			t.Fatalf("CheckLiteral refuses a pattern re.test accepted: %s", msg)
		}
		// The polling reader (long texts) finds what one call of the
		// regexp package finds, for the patterns it is used with.
		p, _ := CompilePattern(pattern)
		s := in
		if hasLoneSurrogate(s) {
			s = surrogatesToFFFD(s)
		}
		if !utf8.ValidString(s) {
			return
		}
		defer func(c int64) { directCost = c }(directCost)
		directCost = -1
		n := -1
		got, err := p.find(NoLimits, s, n, true)
		want := p.re.FindAllStringSubmatchIndex(s, n)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("reader path %v, regexp %v (%v)", got, want, err)
		}
	})
}

// deadlineLimits stops once its deadline has passed.
type deadlineLimits struct{ deadline time.Time }

func (deadlineLimits) MaxBytes() int64 { return 256 << 20 }
func (d deadlineLimits) Stopped() bool { return time.Now().After(d.deadline) }

// TestRegexDeadline: a search with a pattern near the size bound over a
// long text, which would run for minutes, gives up soon after the run's
// deadline.
func TestRegexDeadline(t *testing.T) {
	pattern := strings.Repeat(`[a-c]{1,1000}`, 9) + "x"
	in := strings.Repeat("ab", 1<<19)
	for _, fn := range []string{"re.test", "re.findAll", "re.split"} {
		f, _ := Lookup(fn)
		start := time.Now()
		_, err := f(deadlineLimits{start.Add(50 * time.Millisecond)}, slRec("in", in, "pattern", pattern).AsRecord())
		d := time.Since(start)
		if !errors.Is(err, ErrStopped) {
			t.Errorf("%s: %v", fn, err)
		}
		if d > time.Second && !raceEnabled {
			t.Errorf("%s: stopped after %v (deadline 50ms)", fn, d)
		}
		t.Logf("%s: stopped after %v", fn, d)
	}
}

// TestRegexPreparedConcurrent: a prepared pattern is shared by every run
// of a program, which may run at once (go test -race checks the lazy
// look-back variant).
func TestRegexPreparedConcurrent(t *testing.T) {
	f, ok := Prepare("re.findAll", "pattern", `\bab`)
	if !ok {
		t.Fatal("not prepared")
	}
	defer func(c int64) { directCost = c }(directCost)
	directCost = 0 // the reader path, with the look-back variant
	in := strings.Repeat("ab cab ", 1<<12)
	want, err := f(NoLimits, slRec("in", "ab cab ab", "pattern", `\bab`).AsRecord())
	if err != nil || len(want.AsList()) != 2 {
		t.Fatalf("%s %v", value.JSON(want), err)
	}
	done := make(chan int)
	for i := 0; i < 4; i++ {
		go func() {
			v, err := f(NoLimits, slRec("in", in, "pattern", `\bab`).AsRecord())
			if err != nil {
				t.Error(err)
			}
			done <- len(v.AsList())
		}()
	}
	for i := 0; i < 4; i++ {
		if n := <-done; n != 1<<12 {
			t.Errorf("%d matches, want %d", n, 1<<12)
		}
	}
}
