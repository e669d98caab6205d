package value

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseJSONErrors(t *testing.T) {
	const eos = "Unexpected end of JSON input"
	long := strings.Repeat("a", 67)
	ctxEnd := `{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaa": x}`
	tests := []struct{ in, want string }{
		// end of input
		{"", eos},
		{" ", eos},
		{"\n\t\r ", eos},
		{"[", eos},
		{"{\"a\":", eos},
		{"tru", eos},
		{"nul", eos},
		{"f", eos},
		{`{"a":1,"b"`, eos},
		{`[1,`, eos},
		{`"\`, eos},
		{`["\`, eos},
		// structure
		{"{", "Expected property name or '}' in JSON at position 1"},
		{"{a:1}", "Expected property name or '}' in JSON at position 1"},
		{"{ 1:1}", "Expected property name or '}' in JSON at position 2"},
		{`{"a":1,}`, "Expected double-quoted property name in JSON at position 7"},
		{`{"a":1, x}`, "Expected double-quoted property name in JSON at position 8"},
		{`{"a":1,`, "Expected double-quoted property name in JSON at position 7"},
		{`{"a" 1}`, "Expected ':' after property name in JSON at position 5"},
		{`{"a"`, "Expected ':' after property name in JSON at position 4"},
		{`{"a" "b"}`, "Expected ':' after property name in JSON at position 5"},
		{`{"a":1,"b" "c"}`, "Unexpected string in JSON at position 11"},
		{`{"a":1,"b" 2}`, "Unexpected number in JSON at position 11"},
		{`{"a":1,"b" -}`, "Unexpected number in JSON at position 11"},
		{`{"a":1,"b" x}`, `Unexpected token 'x', "{"a":1,"b" x}" is not valid JSON`},
		{`[1 2]`, "Expected ',' or ']' after array element in JSON at position 3"},
		{`[1`, "Expected ',' or ']' after array element in JSON at position 2"},
		{`["a":1]`, "Expected ',' or ']' after array element in JSON at position 4"},
		{`[1}`, "Expected ',' or ']' after array element in JSON at position 2"},
		{`{"a":1 "b":2}`, "Expected ',' or '}' after property value in JSON at position 7"},
		{`{"a":1`, "Expected ',' or '}' after property value in JSON at position 6"},
		{`{"a":1]`, "Expected ',' or '}' after property value in JSON at position 6"},
		{`1 2`, "Unexpected non-whitespace character after JSON at position 2"},
		{`123abc`, "Unexpected non-whitespace character after JSON at position 3"},
		{`[] []`, "Unexpected non-whitespace character after JSON at position 3"},
		{`nulll`, "Unexpected non-whitespace character after JSON at position 4"},
		{`0x`, "Unexpected non-whitespace character after JSON at position 1"},
		{`1.5.3`, "Unexpected non-whitespace character after JSON at position 3"},
		// strings
		{`"abc`, "Unterminated string in JSON at position 4"},
		{`"ab\n`, "Unterminated string in JSON at position 5"},
		{`{"a`, "Unterminated string in JSON at position 3"},
		{`"\x"`, "Bad escaped character in JSON at position 2"},
		{`"ab\'"`, "Bad escaped character in JSON at position 4"},
		{"\"\\\u00e9\"", "Bad escaped character in JSON at position 2"},
		{"\"\\\u20ac\"", "Unexpected token '\u20ac', \"\"\\\u20ac\"\" is not valid JSON"},
		{"\"a\x01\"", "Bad control character in string literal in JSON at position 2"},
		{"\"a\tb\"", "Bad control character in string literal in JSON at position 2"},
		{"\"a\\n\nb\"", "Bad control character in string literal in JSON at position 4"},
		{"\"\U0001F600\n\"", "Bad control character in string literal in JSON at position 3"},
		{`"\u12"`, "Bad Unicode escape in JSON at position 5"},
		{`"\u00zz"`, "Bad Unicode escape in JSON at position 5"},
		{`"\u`, "Bad Unicode escape in JSON at position 3"},
		{`"\u12`, "Bad Unicode escape in JSON at position 5"},
		{`"\uG000"`, "Bad Unicode escape in JSON at position 3"},
		// numbers
		{`01`, "Unexpected number in JSON at position 1"},
		{`-01`, "Unexpected number in JSON at position 2"},
		{`[00]`, "Unexpected number in JSON at position 2"},
		{`-`, "No number after minus sign in JSON at position 1"},
		{`-a`, "No number after minus sign in JSON at position 1"},
		{`-.5`, "No number after minus sign in JSON at position 1"},
		{`[-]`, "No number after minus sign in JSON at position 2"},
		{`1.`, "Unterminated fractional number in JSON at position 2"},
		{`1.e5`, "Unterminated fractional number in JSON at position 2"},
		{`-0.x`, "Unterminated fractional number in JSON at position 3"},
		{`1e`, "Exponent part is missing a number in JSON at position 2"},
		{`1.5e+`, "Exponent part is missing a number in JSON at position 5"},
		{`1E-x`, "Exponent part is missing a number in JSON at position 3"},
		// literals
		{`t1`, "Unexpected number in JSON at position 1"},
		{`tr"`, "Unexpected string in JSON at position 2"},
		{`trux`, `Unexpected token 'x', "trux" is not valid JSON`},
		{`tru `, `Unexpected token ' ', "tru " is not valid JSON`},
		{`nan`, `Unexpected token 'a', "nan" is not valid JSON`},
		{`fals}`, `Unexpected token '}', "fals}" is not valid JSON`},
		// special whole inputs
		{`NaN`, `"NaN" is not valid JSON`},
		{`Infinity`, `"Infinity" is not valid JSON`},
		{`undefined`, `"undefined" is not valid JSON`},
		{`[object Object]`, `"[object Object]" is not valid JSON`},
		{` NaN`, `Unexpected token 'N', " NaN" is not valid JSON`},
		{`-Infinity`, "No number after minus sign in JSON at position 1"},
		{`[NaN]`, `Unexpected token 'N', "[NaN]" is not valid JSON`},
		// unexpected tokens, short inputs (whole input as context)
		{`+1`, `Unexpected token '+', "+1" is not valid JSON`},
		{`.5`, `Unexpected token '.', ".5" is not valid JSON`},
		{`[1,]`, `Unexpected token ']', "[1,]" is not valid JSON`},
		{`[,]`, `Unexpected token ',', "[,]" is not valid JSON`},
		{`}`, `Unexpected token '}', "}" is not valid JSON`},
		{`:`, `Unexpected token ':', ":" is not valid JSON`},
		{`'a'`, `Unexpected token ''', "'a'" is not valid JSON`},
		{`{"a":}`, `Unexpected token '}', "{"a":}" is not valid JSON`},
		{`not valid json{{{`, `Unexpected token 'o', "not valid json{{{" is not valid JSON`},
		{`12345678901234567x`, `Unexpected non-whitespace character after JSON at position 17`},
		{strings.Repeat(" ", 19) + "x", `Unexpected token 'x', "` + strings.Repeat(" ", 19) + `x" is not valid JSON`},
		// unexpected tokens with context (input longer than 20 units)
		{long, `Unexpected token 'a', "aaaaaaaaaa"... is not valid JSON`},
		{ctxEnd, `Unexpected token 'x', ..."aaaaaaa": x}" is not valid JSON`},
		{strings.Repeat(" ", 20) + "x", `Unexpected token 'x', ..."          x" is not valid JSON`},
		{"[1, 2, x, 4, 5, 6, 7, 8, 9]", `Unexpected token 'x', "[1, 2, x, 4, 5, 6"... is not valid JSON`},
		{"[1, 2, 3, 4, 5, x, 7, 8, 9, 10]", `Unexpected token 'x', ..." 3, 4, 5, x, 7, 8, 9"... is not valid JSON`},
		{"[1, 2, 3, 4, 5, 6, 7, 8, 9, x]", `Unexpected token 'x', ..." 7, 8, 9, x]" is not valid JSON`},
		{"[1, 2, 3, 4, 5, 6, 7, 8, 9, 0x]", `Expected ',' or ']' after array element in JSON at position 29`},
		// positions and slicing count UTF-16 units
		{"\"\U0001F600\" x", "Unexpected non-whitespace character after JSON at position 5"},
		{"[\"é\" 1]", "Expected ',' or ']' after array element in JSON at position 5"},
		{"\U0001F600", "Unexpected token '\xed\xa0\xbd', \"\U0001F600\" is not valid JSON"},
		{"[\"\U0001F600\", \u00e9]", "Unexpected token '\u00e9', \"[\"\U0001F600\", \u00e9]\" is not valid JSON"},
		{strings.Repeat("\U0001F600", 11), "Unexpected token '\xed\xa0\xbd', \"" + strings.Repeat("\U0001F600", 5) + "\"... is not valid JSON"},
		{"[" + strings.Repeat(" ", 15) + "\U0001F600" + strings.Repeat(" ", 15) + "]",
			"Unexpected token '\xed\xa0\xbd', ...\"" + strings.Repeat(" ", 10) + "\U0001F600" + strings.Repeat(" ", 8) + "\"... is not valid JSON"},
		{"[" + strings.Repeat(" ", 15) + "x" + strings.Repeat(" ", 8) + "\U0001F600" + "]",
			"Unexpected token 'x', ...\"" + strings.Repeat(" ", 10) + "x" + strings.Repeat(" ", 8) + "\xed\xa0\xbd\"... is not valid JSON"},
		{"{\"\U0001F600\":" + strings.Repeat(" ", 7) + "x" + strings.Repeat(" ", 15) + "}",
			"Unexpected token 'x', ...\"\xed\xb8\x80\":" + strings.Repeat(" ", 7) + "x" + strings.Repeat(" ", 9) + "\"... is not valid JSON"},
	}
	for _, tt := range tests {
		v, err := ParseJSON(tt.in)
		if err == nil {
			t.Errorf("ParseJSON(%q) = %s, want error %q", tt.in, JSON(v), tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("ParseJSON(%q)\n got: %q\nwant: %q", tt.in, err.Error(), tt.want)
		}
	}
}

func TestParseJSONValues(t *testing.T) {
	tests := []struct{ in, want string }{
		{`null`, `null`},
		{` true `, `true`},
		{"\t\n\rfalse\r\n", `false`},
		{`0`, `0`},
		{`-0`, `0`},
		{`123`, `123`},
		{`-123.5e2`, `-12350`},
		{`1E400`, `null`},
		{`1e-400`, `0`},
		{`0.1`, `0.1`},
		{`1E2`, `100`},
		{`1e+2`, `100`},
		{`2.5E-3`, `0.0025`},
		{`9007199254740993`, `9007199254740992`},
		{`123456789012345678901234567890`, `1.2345678901234568e+29`},
		{`999999999999999`, `999999999999999`},
		{`""`, `""`},
		{`"a\"b\\c\/d\b\f\n\r\t"`, `"a\"b\\c/d\b\f\n\r\t"`},
		{`"\u0041\u00e9\u4e2D"`, `"Aé中"`},
		{`"\u0000"`, `"\u0000"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"\uD83D\uDE00x"`, `"😀x"`},
		{`"\ud800"`, `"\ud800"`},
		{`"a\udc00b"`, `"a\udc00b"`},
		{`"\ude00\ud83d"`, `"\ude00\ud83d"`},
		{`"\ud83d\u0041"`, `"\ud83dA"`},
		{`"\ud83d\ud83d\ude00"`, `"\ud83d😀"`},
		{"\"\U0001F600 é \u2028 \x7f\"", "\"\U0001F600 é \u2028 \x7f\""},
		{"\"\\ud83d\xed\xb8\x80\"", `"😀"`},
		{"\"\xed\xa0\xbd\\ude00\"", `"😀"`},
		{`[]`, `[]`},
		{`[ ]`, `[]`},
		{`{}`, `{}`},
		{`{ }`, `{}`},
		{`[1,[2,[3,[]]],{"a":[{}]}]`, `[1,[2,[3,[]]],{"a":[{}]}]`},
		{` { "a" : 1 , "b" : [ true , null ] } `, `{"a":1,"b":[true,null]}`},
		{`{"b":1,"2":2,"1":3,"a":4,"-1":5,"01":6,"4294967295":7}`, `{"1":3,"2":2,"b":1,"a":4,"-1":5,"01":6,"4294967295":7}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"__proto__":1,"constructor":2}`, `{"__proto__":1,"constructor":2}`},
		{`{"a\u0062":1,"ab":2}`, `{"ab":2}`},
		{`{"":1}`, `{"":1}`},
		// more than indexThreshold keys, with index keys and duplicates
		{`{"k1":1,"k2":2,"k3":3,"10":4,"k4":5,"k5":6,"2":7,"k6":8,"k7":9,"k8":10,"k9":11,"k1":12,"k10":13,"0":14,"k11":15,"2":16}`,
			`{"0":14,"2":16,"10":4,"k1":12,"k2":2,"k3":3,"k4":5,"k5":6,"k6":8,"k7":9,"k8":10,"k9":11,"k10":13,"k11":15}`},
	}
	for _, tt := range tests {
		v, err := ParseJSON(tt.in)
		if err != nil {
			t.Errorf("ParseJSON(%q): %v", tt.in, err)
			continue
		}
		if got := JSON(v); got != tt.want {
			t.Errorf("ParseJSON(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseJSONDetails(t *testing.T) {
	v, _ := ParseJSON("1E400")
	if !math.IsInf(v.AsNumber(), 1) {
		t.Errorf("1E400 = %v", v.AsNumber())
	}
	v, _ = ParseJSON("-1e400")
	if !math.IsInf(v.AsNumber(), -1) {
		t.Errorf("-1e400 = %v", v.AsNumber())
	}
	v, _ = ParseJSON("-0")
	if v.Kind() != Number || v.AsNumber() != 0 {
		t.Errorf("-0 = %v", v.AsNumber())
	}
	v, _ = ParseJSON(`"\ud800"`)
	if s := v.AsString(); s != "\xed\xa0\x80" || Len16(s) != 1 {
		t.Errorf("lone surrogate = %q", s)
	}
	v, _ = ParseJSON(`"\ud83d\ude00"`)
	if s := v.AsString(); s != "\U0001F600" || !utf8.ValidString(s) {
		t.Errorf("pair = %q", s)
	}
	// A large record keeps lookups working after the index map is built.
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 100; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + FormatNumber(float64(i)) + `":` + FormatNumber(float64(i)))
	}
	b.WriteString(`,"5":"five","k7":"seven"}`)
	v, err := ParseJSON(b.String())
	if err != nil {
		t.Fatal(err)
	}
	r := v.AsRecord()
	if r.Len() != 101 || r.Key(0) != "5" || r.Key(1) != "k0" {
		t.Fatalf("len %d, first keys %q %q", r.Len(), r.Key(0), r.Key(1))
	}
	if x, _ := r.Get("k7"); x.AsString() != "seven" {
		t.Errorf("k7 = %s", JSON(x))
	}
	if x, _ := r.Get("k99"); x.AsNumber() != 99 {
		t.Errorf("k99 = %s", JSON(x))
	}
	r2 := r.Clone(1)
	r2.Set("new", NullValue)
	if !r2.Has("new") || !r2.Has("k50") || r.Has("new") {
		t.Errorf("clone/set after parse broken")
	}
}

func TestParseJSONDepth(t *testing.T) {
	deep := strings.Repeat("[", MaxJSONDepth) + strings.Repeat("]", MaxJSONDepth)
	v, err := ParseJSON(deep)
	if err != nil {
		t.Fatalf("depth %d: %v", MaxJSONDepth, err)
	}
	if len(v.AsList()) != 1 {
		t.Fatalf("bad value")
	}
	for _, in := range []string{
		strings.Repeat("[", 100000),
		strings.Repeat(`{"a":`, 100000),
		strings.Repeat("[", MaxJSONDepth+1) + strings.Repeat("]", MaxJSONDepth+1),
	} {
		_, err := ParseJSON(in)
		if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("deep input: err = %v", err)
		}
	}
	// Errors carry their position.
	_, err = ParseJSON("[1 2]")
	if je, ok := err.(*JSONError); !ok || je.Pos != 3 {
		t.Errorf("JSONError = %#v", err)
	}
}

func TestParseJSONShared(t *testing.T) {
	// The parser reuses scratch stacks; nested values must not alias.
	v, err := ParseJSON(`[[1,2],[3,[4,5]],{"a":{"b":1},"c":[6]},"x\ny","p\tq"]`)
	if err != nil {
		t.Fatal(err)
	}
	if got := JSON(v); got != `[[1,2],[3,[4,5]],{"a":{"b":1},"c":[6]},"x\ny","p\tq"]` {
		t.Errorf("got %s", got)
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		``, `null`, `[1,2,{"a":"b"}]`, `{"b":1,"2":2,"a":[true,false]}`, `"\ud800\udc00\ud800"`,
		`-0.5e-3`, `{"a":1,"a":2}`, `[1,]`, `"\u12"`, `1E400`, "\"\U0001F600\"", `{"x":{"y":[[]]}}`,
		`tru`, `NaN`, "\"\\\u20ac\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseJSON(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("empty error message for %q", s)
			}
			return
		}
		if !utf8.ValidString(s) {
			return // raw WTF-8 or invalid bytes need not round-trip byte for byte
		}
		out := JSON(v)
		w, err := ParseJSON(out)
		if err != nil {
			t.Fatalf("re-parse of %q (from %q): %v", out, s, err)
		}
		if !equalNaNFree(v, w) {
			t.Fatalf("round trip of %q: %s != %s", s, JSON(v), JSON(w))
		}
	})
}

// equalNaNFree is Equal, except that infinities (printed as null) match
// null.
func equalNaNFree(a, b Value) bool {
	if a.Kind() == Number && math.IsInf(a.AsNumber(), 0) {
		return b.IsNull()
	}
	switch a.Kind() {
	case ListKind:
		x, y := a.AsList(), b.AsList()
		if b.Kind() != ListKind || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalNaNFree(x[i], y[i]) {
				return false
			}
		}
		return true
	case RecordKind:
		x, y := a.AsRecord(), b.AsRecord()
		if b.Kind() != RecordKind || x.Len() != y.Len() {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			if y.Key(i) != x.Key(i) || !equalNaNFree(x.At(i), y.At(i)) {
				return false
			}
		}
		return true
	}
	return Equal(a, b)
}

func BenchmarkParseJSON(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[")
	for i := 0; sb.Len() < 1500000; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"id":` + FormatNumber(float64(i)) + `,"name":"item number ` + FormatNumber(float64(i)) +
			`","price":` + FormatNumber(float64(i)*1.25) + `,"tags":["a","b\n","ü"],"ok":true,"none":null,"nested":{"x":-1.5e3,"y":"\u00e9"}}`)
	}
	sb.WriteString("]")
	doc := sb.String()
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ParseJSON(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseJSONWithProblems checks how ParseJSONWith classifies errors and
// where it places them (bytes, not UTF-16 units), with and without the
// options that change them; Msg stays V8's.
func TestParseJSONWithProblems(t *testing.T) {
	strict := ParseOptions{RejectDuplicateKeys: true, WholeWords: true}
	tests := []struct {
		in      string
		o       ParseOptions
		problem JSONProblem
		offset  int
		key     string
		msg     string
	}{
		{"", ParseOptions{}, JSONUnexpected, 0, "", "Unexpected end of JSON input"},
		{`["é" x]`, ParseOptions{}, JSONUnexpected, 6, "", "Expected ',' or ']' after array element in JSON at position 5"},
		{`"ab`, ParseOptions{}, JSONUnterminatedString, 3, "", "Unterminated string in JSON at position 3"},
		{`"ab\`, ParseOptions{}, JSONUnterminatedString, 4, "", "Unexpected end of JSON input"},
		{"\"a\tb\"", ParseOptions{}, JSONBadControl, 2, "", "Bad control character in string literal in JSON at position 2"},
		{`"a\qb"`, ParseOptions{}, JSONBadEscape, 2, "", "Bad escaped character in JSON at position 3"},
		{`"a\ሴ"`, ParseOptions{}, JSONBadEscape, 2, "", `Unexpected token 'ሴ', ""a\ሴ"" is not valid JSON`},
		{`"a\u12x"`, ParseOptions{}, JSONBadUnicode, 2, "", "Bad Unicode escape in JSON at position 6"},
		{`[[1]]`, ParseOptions{MaxDepth: 1}, JSONTooDeep, 1, "", "JSON is nested too deeply (more than 1 levels) at position 1"},
		// DepthCountsScalars: the deepest accepted list must be empty.
		{`[[1]]`, ParseOptions{MaxDepth: 2, DepthCountsScalars: true}, JSONTooDeep, 2, "", "JSON is nested too deeply (more than 2 levels) at position 2"},
		// Duplicates: last value wins unless refused, and the refusal comes
		// before the colon is checked.
		{`{"a":1,"a" 2}`, ParseOptions{}, JSONUnexpected, 11, "", "Unexpected number in JSON at position 11"},
		{`{"a":1,"a" 2}`, strict, JSONDuplicateKey, 7, "a", `Duplicate key "a" in JSON at position 7`},
		{`{"b":{"é":1,"é":2}}`, strict, JSONDuplicateKey, 13, "é", `Duplicate key "é" in JSON at position 12`},
		// WholeWords: a bad literal is reported at its first character.
		{`[tru]`, ParseOptions{}, JSONUnexpected, 4, "", `Unexpected token ']', "[tru]" is not valid JSON`},
		{`[tru]`, strict, JSONUnexpected, 1, "", `Unexpected token 't', "[tru]" is not valid JSON`},
		{`[nul`, strict, JSONUnexpected, 1, "", `Unexpected token 'n', "[nul" is not valid JSON`},
		{`[truex]`, ParseOptions{}, JSONUnexpected, 5, "", `Expected ',' or ']' after array element in JSON at position 5`},
		{`[truex]`, strict, JSONUnexpected, 1, "", `Unexpected token 't', "[truex]" is not valid JSON`},
		{`[null-1]`, strict, JSONUnexpected, 1, "", `Unexpected token 'n', "[null-1]" is not valid JSON`},
	}
	for _, tt := range tests {
		_, err := ParseJSONWith(tt.in, tt.o)
		je, ok := err.(*JSONError)
		if !ok {
			t.Errorf("ParseJSONWith(%q, %+v) = %v, want a *JSONError", tt.in, tt.o, err)
			continue
		}
		if je.Problem != tt.problem || je.Offset != tt.offset || je.Key != tt.key || je.Msg != tt.msg {
			t.Errorf("ParseJSONWith(%q, %+v) = problem %d offset %d key %q msg %q; want %d %d %q %q",
				tt.in, tt.o, je.Problem, je.Offset, je.Key, je.Msg, tt.problem, tt.offset, tt.key, tt.msg)
		}
	}
	for _, in := range []string{`[true, false, null]`, `{"a":true,"b":{"a":null}}`, `[[]]`} {
		if _, err := ParseJSONWith(in, ParseOptions{MaxDepth: 3, DepthCountsScalars: true, RejectDuplicateKeys: true, WholeWords: true}); err != nil {
			t.Errorf("ParseJSONWith(%q) with every option: %v", in, err)
		}
	}
}

// TestParseJSONWithOffsets checks that OnValue and OnKey report every value
// and key once, in document order, at its first byte.
func TestParseJSONWithOffsets(t *testing.T) {
	in := ` {"b": [1, "é", {}], "0": null, "b2" : {"x":-2e3}} `
	var got []string
	v, err := ParseJSONWith(in, ParseOptions{
		OnValue: func(off int) { got = append(got, "v"+strconv.Itoa(off)+":"+in[off:off+1]) },
		OnKey:   func(k string, off int) { got = append(got, "k"+strconv.Itoa(off)+":"+k) },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "v1:{ k2:b v7:[ v8:1 v11:\" v17:{ k22:0 v27:n k33:b2 v40:{ k41:x v45:-"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("events\n got: %s\nwant: %s", s, want)
	}
	if JSON(v) != `{"0":null,"b":[1,"é",{}],"b2":{"x":-2000}}` {
		t.Errorf("value = %s", JSON(v))
	}
}

// TestParseJSONWithDuplicates checks RejectDuplicateKeys on objects small
// and large (where keys are looked up in a map), nested objects reusing
// their parent's keys, and a duplicate found late.
func TestParseJSONWithDuplicates(t *testing.T) {
	o := ParseOptions{RejectDuplicateKeys: true}
	obj := func(n int, inner string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			b.WriteString(`"k` + strconv.Itoa(i) + `":` + inner + ",")
		}
		return b.String()
	}
	for _, n := range []int{1, 16, 17, 40} {
		inner := strings.TrimSuffix(obj(n, "1"), ",") + "}"
		ok := strings.TrimSuffix(obj(n, inner), ",") + "}"
		if _, err := ParseJSONWith(ok, o); err != nil {
			t.Errorf("%d distinct keys, nested: %v", n, err)
		}
		for _, dup := range []int{0, n / 2, n - 1} {
			in := obj(n, inner) + `"k` + strconv.Itoa(dup) + `":2}`
			_, err := ParseJSONWith(in, o)
			je, isJSON := err.(*JSONError)
			if !isJSON || je.Problem != JSONDuplicateKey || je.Key != "k"+strconv.Itoa(dup) || je.Offset != len(obj(n, inner)) {
				t.Errorf("%d keys, k%d again: %#v", n, dup, err)
			}
		}
	}
}
