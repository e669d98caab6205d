package stdlib

import (
	"errors"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

func TestTextFunctions(t *testing.T) {
	dtRun(t, []dtCase{
		{"str.trim", `{"in":"  a b \n\t"}`, `"a b"`, false},
		{"str.trim", `{"in":"\u00a0\ufeffx\u3000"}`, `"x"`, false},
		{"str.trim", `{"in":"\u0085x"}`, "\"\u0085x\"", false},
		{"str.trim", `{"in":"xxaxbxx","chars":"x"}`, `"axb"`, false},
		{"str.trim", `{"in":"-_a_-","chars":"_-"}`, `"a"`, false},
		{"str.trim", `{"in":"😀a😀","chars":"😀"}`, `"a"`, false},
		{"str.trim", `{"in":"\ud800a\ud800","chars":"\ud800"}`, `"a"`, false},
		{"str.trim", `{"in":"aaa","chars":"a"}`, `""`, false},
		{"str.trim", `{"in":" a ","chars":""}`, `" a "`, false},
		{"str.trim", `{"in":" a ","chars":null}`, `"a"`, false},
		{"str.trim", `{"in":5}`, `str.trim: 'in' must be a string`, true},
		{"str.trim", `{"in":"a","chars":5}`, `str.trim: 'chars' must be a string`, true},
		{"str.trimStart", `{"in":"  a  "}`, `"a  "`, false},
		{"str.trimStart", `{"in":"xxaxx","chars":"x"}`, `"axx"`, false},
		{"str.trimEnd", `{"in":"  a  "}`, `"  a"`, false},
		{"str.trimEnd", `{"in":"a\r\n"}`, `"a"`, false},
		{"str.trimEnd", `{}`, `str.trimEnd: 'in' must be a string`, true},

		{"str.lower", `{"in":"HeLLo ÀÉ"}`, `"hello àé"`, false},
		{"str.lower", `{"in":"ΟΔΟΣ"}`, `"οδος"`, false},
		{"str.lower", `{"in":"A\ud800B"}`, `"a\ud800b"`, false},
		{"str.lower", `{"in":null}`, `str.lower: 'in' must be a string`, true},
		{"str.upper", `{"in":"straße"}`, `"STRASSE"`, false},
		{"str.upper", `{"in":"abc 1"}`, `"ABC 1"`, false},
		{"str.upper", `{"in":""}`, `""`, false},
		{"str.upper", `{"in":["a"]}`, `str.upper: 'in' must be a string`, true},

		{"str.lines", `{"in":"a\nb\r\nc"}`, `["a","b","c"]`, false},
		{"str.lines", `{"in":"a\nb\n"}`, `["a","b"]`, false},
		{"str.lines", `{"in":"a\n\nb"}`, `["a","","b"]`, false},
		{"str.lines", `{"in":"\n"}`, `[""]`, false},
		{"str.lines", `{"in":"a\r"}`, `["a"]`, false},
		{"str.lines", `{"in":"a\rb"}`, `["a\rb"]`, false},
		{"str.lines", `{"in":""}`, `[]`, false},
		{"str.lines", `{"in":1}`, `str.lines: 'in' must be a string`, true},

		{"str.padStart", `{"in":"7","len":3,"with":"0"}`, `"007"`, false},
		{"str.padStart", `{"in":"abc","len":10,"with":"12"}`, `"1212121abc"`, false},
		{"str.padStart", `{"in":"abc","len":6}`, `"   abc"`, false},
		{"str.padStart", `{"in":"abc","len":2}`, `"abc"`, false},
		{"str.padStart", `{"in":"abc","len":6,"with":""}`, `"abc"`, false},
		{"str.padStart", `{"in":"😀","len":3,"with":"-"}`, `"-😀"`, false},
		{"str.padStart", `{"in":"a","len":2,"with":"😀"}`, `"\ud83da"`, false},
		{"str.padStart", `{"in":"a","len":-1}`, `str.padStart: 'len' must be a non-negative integer`, true},
		{"str.padStart", `{"in":"a","len":1.5}`, `str.padStart: 'len' must be a non-negative integer`, true},
		{"str.padStart", `{"in":"a"}`, `str.padStart: 'len' must be a non-negative integer`, true},
		{"str.padStart", `{"in":"a","len":3,"with":1}`, `str.padStart: 'with' must be a string`, true},
		{"str.padEnd", `{"in":"ab","len":5,"with":"xy"}`, `"abxyx"`, false},
		{"str.padEnd", `{"in":"ab","len":4}`, `"ab  "`, false},
		{"str.padEnd", `{"in":1,"len":4}`, `str.padEnd: 'in' must be a string`, true},

		{"str.repeat", `{"in":"ab","times":3}`, `"ababab"`, false},
		{"str.repeat", `{"in":"ab","times":0}`, `""`, false},
		{"str.repeat", `{"in":"","times":1e300}`, `""`, false},
		{"str.repeat", `{"in":"\udc00\ud800","times":2}`, `"\udc00𐀀\ud800"`, false},
		{"str.repeat", `{"in":"a","times":-1}`, `str.repeat: 'times' must be a non-negative integer`, true},
		{"str.repeat", `{"in":"a","times":"3"}`, `str.repeat: 'times' must be a non-negative integer`, true},
		{"str.repeat", `{"in":"a","times":1e400}`, `str.repeat: 'times' must be a non-negative integer`, true},
		{"str.repeat", `{"times":2}`, `str.repeat: 'in' must be a string`, true},
	})
}

func TestEncodingFunctions(t *testing.T) {
	dtRun(t, []dtCase{
		{"json.stringify", `{"in":{"b":[1,"x",null,true],"a":{"c":1.5}}}`, `"{\"b\":[1,\"x\",null,true],\"a\":{\"c\":1.5}}"`, false},
		{"json.stringify", `{"in":{"a":[1,2],"b":{}},"indent":2}`, `"{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}"`, false},
		{"json.stringify", `{"in":[1,[]],"indent":"\t"}`, `"[\n\t1,\n\t[]\n]"`, false},
		{"json.stringify", `{"in":[1],"indent":0}`, `"[1]"`, false},
		{"json.stringify", `{"in":"a\"\\\n\u0001\ud800é"}`, `"\"a\\\"\\\\\\n\\u0001\\ud800é\""`, false},
		{"json.stringify", `{}`, `"null"`, false},
		{"json.stringify", `{"in":1e21}`, `"1e+21"`, false},
		{"json.stringify", `{"in":1,"indent":11}`, `json.stringify: 'indent' must be a number of spaces from 0 to 10, or a string of at most 10 characters`, true},
		{"json.stringify", `{"in":1,"indent":1.5}`, `json.stringify: 'indent' must be a number of spaces from 0 to 10, or a string of at most 10 characters`, true},
		{"json.stringify", `{"in":1,"indent":"           "}`, `json.stringify: 'indent' must be a number of spaces from 0 to 10, or a string of at most 10 characters`, true},
		{"json.stringify", `{"in":1,"indent":true}`, `json.stringify: 'indent' must be a number of spaces from 0 to 10, or a string of at most 10 characters`, true},

		{"base64.encode", `{"in":"hello"}`, `"aGVsbG8="`, false},
		{"base64.encode", `{"in":"é😀"}`, `"w6nwn5iA"`, false},
		{"base64.encode", `{"in":"\ud800"}`, `"77+9"`, false},
		{"base64.encode", `{"in":""}`, `""`, false},
		{"base64.encode", `{"in":1}`, `base64.encode: 'in' must be a string`, true},
		{"base64.decode", `{"in":"aGVsbG8="}`, `"hello"`, false},
		{"base64.decode", `{"in":"aGVsbG8"}`, `"hello"`, false},
		{"base64.decode", `{"in":"aGVs\nbG8=\n"}`, `"hello"`, false},
		{"base64.decode", `{"in":"w6nwn5iA"}`, `"é😀"`, false},
		{"base64.decode", `{"in":"_w=="}`, `base64.decode: the decoded bytes are not UTF-8 text (invalid byte at offset 0); pass as: "base64" or as: "hex" to get them back encoded`, true},
		{"base64.decode", `{"in":"_w==","as":"base64"}`, `"/w=="`, false},
		{"base64.decode", `{"in":"_w","as":"hex"}`, `"ff"`, false},
		{"base64.decode", `{"in":"aGVsbG8=","as":"text"}`, `"hello"`, false},
		{"base64.decode", `{"in":"aGV*bG8="}`, `base64.decode: 'in' is not valid base64 (at position 3)`, true},
		{"base64.decode", `{"in":"aG V*bG8="}`, `base64.decode: 'in' is not valid base64 (at position 4)`, true},
		{"base64.decode", `{"in":"aGVsbG8=","as":"bytes"}`, `base64.decode: 'as' must be "text", "base64" or "hex"`, true},
		{"base64.decode", `{"in":"aGVsbG8=","as":1}`, `base64.decode: 'as' must be "text", "base64" or "hex"`, true},
		{"base64.decode", `{"in":null}`, `base64.decode: 'in' must be a string`, true},

		{"hex.encode", `{"in":"hi é"}`, `"686920c3a9"`, false},
		{"hex.encode", `{"in":{}}`, `hex.encode: 'in' must be a string`, true},
		{"hex.decode", `{"in":"686920C3A9"}`, `"hi é"`, false},
		{"hex.decode", `{"in":""}`, `""`, false},
		{"hex.decode", `{"in":"ff00","as":"base64"}`, `"/wA="`, false},
		{"hex.decode", `{"in":"ff"}`, `hex.decode: the decoded bytes are not UTF-8 text (invalid byte at offset 0); pass as: "base64" or as: "hex" to get them back encoded`, true},
		{"hex.decode", `{"in":"abc"}`, `hex.decode: 'in' has an odd number of digits (3); each byte takes two`, true},
		{"hex.decode", `{"in":"0x1f"}`, `hex.decode: 'in' is not hex: unexpected "x" at position 1 (only 0-9, a-f and A-F, two per byte)`, true},
		{"hex.decode", `{"in":"1é"}`, `hex.decode: 'in' is not hex: unexpected "é" at position 1 (only 0-9, a-f and A-F, two per byte)`, true},

		{"parse.number", `{"in":"42"}`, `42`, false},
		{"parse.number", `{"in":" -12.5e3 "}`, `-12500`, false},
		{"parse.number", `{"in":".5"}`, `0.5`, false},
		{"parse.number", `{"in":"5."}`, `5`, false},
		{"parse.number", `{"in":"+7"}`, `7`, false},
		{"parse.number", `{"in":"1e400"}`, `null`, false},
		{"parse.number", `{"in":"0.1"}`, `0.1`, false},
		{"parse.number", `{"in":3}`, `3`, false},
		{"parse.number", `{"in":""}`, `parse.number: "" is not a number (the text is empty)`, true},
		{"parse.number", `{"in":"12abc"}`, `parse.number: "12abc" is not a number (write digits with an optional sign, fraction and exponent, like -12.5e3)`, true},
		{"parse.number", `{"in":"0x1F"}`, `parse.number: "0x1F" is not a number (only decimal numbers are read)`, true},
		{"parse.number", `{"in":"1,000"}`, `parse.number: "1,000" is not a number (write digits with an optional sign, fraction and exponent, like -12.5e3)`, true},
		{"parse.number", `{"in":"NaN"}`, `parse.number: "NaN" is not a number (write digits with an optional sign, fraction and exponent, like -12.5e3)`, true},
		{"parse.number", `{"in":"."}`, `parse.number: "." is not a number (write digits with an optional sign, fraction and exponent, like -12.5e3)`, true},
		{"parse.number", `{"in":"1e"}`, `parse.number: "1e" is not a number (write digits with an optional sign, fraction and exponent, like -12.5e3)`, true},
		{"parse.number", `{"in":null}`, `parse.number: 'in' must be a string`, true},
		{"parse.number", `{"in":true}`, `parse.number: 'in' must be a string`, true},
	})
}

// TestStringifyInverse: json.stringify writes what a0 run prints, and
// parse.json reads it back.
func TestStringifyInverse(t *testing.T) {
	for _, doc := range []string{`{"b":1,"a":[1,2.5,"x\n",null,{"c":{}}],"2":true,"1":[]}`, `"\ud800x"`, `[]`, `-0`} {
		v, err := value.ParseJSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, indent := range []any{nil, 2, "  "} {
			f, _ := Lookup("json.stringify")
			s, err := f(NoLimits, slRec("in", v, "indent", indent).AsRecord())
			if err != nil {
				t.Fatal(err)
			}
			want := value.JSON(v)
			if indent != nil {
				want = value.JSONIndent(v)
			}
			if s.AsString() != want {
				t.Errorf("%s indent %v: %q, want %q", doc, indent, s.AsString(), want)
			}
			back, err := value.ParseJSON(s.AsString())
			if err != nil || !value.Equal(back, v) {
				t.Errorf("%s: parse.json of json.stringify = %s, %v", doc, value.JSON(back), err)
			}
		}
	}
}

// TestNewFunctionsBounded: the new functions that can build more than
// their input refuse past the ceiling, before building, and agree with an
// unbounded call under a large one.
func TestNewFunctionsBounded(t *testing.T) {
	s := strings.Repeat("ß\n", 2048) // 6 KiB
	nested := value.ListOf(nil)
	for i := 0; i < 900; i++ {
		nested = value.ListOf([]value.Value{nested, value.Str("x")})
	}
	cases := []struct {
		fn   string
		args value.Value
		max  int64
	}{
		{"str.repeat", slRec("in", s, "times", 10), 40 << 10},
		{"str.repeat", slRec("in", "ab", "times", 1e15), 40 << 10},
		{"str.padStart", slRec("in", "a", "len", 100000), 40 << 10},
		{"str.padEnd", slRec("in", "a", "len", 1e15, "with", "xy"), 40 << 10},
		{"str.upper", slRec("in", strings.Repeat("ŉ", 10000)), 25 << 10},
		{"str.lines", slRec("in", strings.Repeat("\n", 4000)), 40 << 10},
		{"json.stringify", slRec("in", nested, "indent", 10), 40 << 10},
		{"json.stringify", slRec("in", slList(s, s, s, s, s, s, s)), 40 << 10},
		{"base64.encode", slRec("in", strings.Repeat("x", 35<<10)), 40 << 10},
		{"hex.encode", slRec("in", strings.Repeat("x", 25<<10)), 40 << 10},
		{"hex.decode", slRec("in", strings.Repeat("ff", 32<<10), "as", "base64"), 40 << 10},
	}
	for _, c := range cases {
		f, _ := Lookup(c.fn)
		_, err := f(testLimits{max: c.max}, c.args.AsRecord())
		var se *value.SizeError
		if !errors.As(err, &se) || se.Bytes <= c.max {
			t.Errorf("%s: got %v, want a SizeError past %d", c.fn, err, c.max)
			continue
		}
		if se.Bytes > 1<<30 {
			continue
		}
		big, err := f(testLimits{max: 1 << 30}, c.args.AsRecord())
		want, _ := f(NoLimits, c.args.AsRecord())
		if err != nil || !value.Equal(big, want) {
			t.Errorf("%s under 1 GiB: %v", c.fn, err)
		}
	}
	// str.upper counts exactly when the rough bound passes the ceiling.
	f, _ := Lookup("str.upper")
	v, err := f(testLimits{max: 25 << 10}, slRec("in", strings.Repeat("a", 10000)).AsRecord())
	if err != nil || len(v.AsString()) != 10000 {
		t.Errorf("str.upper near the ceiling: %v", err)
	}
	// json.stringify's measure is exact.
	js, _ := Lookup("json.stringify")
	for _, indent := range []any{nil, 3} {
		args := slRec("in", nested, "indent", indent).AsRecord()
		out, _ := js(NoLimits, args)
		t2 := ticker{l: NoLimits}
		n, _ := jsonLen(Arg(args, "in"), 3*boolInt(indent != nil), 0, &t2)
		if n != int64(len(out.AsString())) {
			t.Errorf("indent %v: measured %d, wrote %d", indent, n, len(out.AsString()))
		}
	}
	if _, err := js(testLimits{stopped: true}, slRec("in", nested).AsRecord()); !errors.Is(err, ErrStopped) {
		t.Errorf("json.stringify on a stopped run: %v", err)
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestRegistry: every registered name has its argument names, and the
// names lists agree with the registry.
func TestRegistry(t *testing.T) {
	if len(Names()) != 54 || len(CheckerNames()) != 56 {
		t.Errorf("%d names, %d checker names", len(Names()), len(CheckerNames()))
	}
	for _, n := range Names() {
		if _, ok := Lookup(n); !ok {
			t.Errorf("%s not registered", n)
		}
		if _, ok := Params(n); !ok {
			t.Errorf("%s has no params", n)
		}
	}
	if len(registry) != len(Names()) {
		t.Errorf("registry has %d functions, Names %d", len(registry), len(Names()))
	}
}
