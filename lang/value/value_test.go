package value_test

import (
	"math"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// ---- helpers ----

func num(f float64) value.Value { return value.Num(f) }
func str(s string) value.Value  { return value.Str(s) }

func list(items ...value.Value) value.Value { return value.NewList(items) }

// rec builds a record from alternating key/value pairs, in Set order.
func rec(kv ...any) value.Value {
	r := value.NewRecord(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		r.Set(kv[i].(string), kv[i+1].(value.Value))
	}
	return value.RecordOf(r)
}

var negZero = math.Copysign(0, -1)

// ---- numbers (spec/language.md §4.2, spec/README.md "Conventions") ----

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{1.0, "1"},
		{10.0 / 2, "5"},
		{7.0 / 2, "3.5"},
		{5.0 / 2, "2.5"},
		{0.30000000000000004, "0.30000000000000004"}, // 0.1 + 0.2 at run time
		{1.5 + 1.5, "3"},
		{1.5e3, "1500"},
		{2 * 0.5, "1"},
		{0, "0"},
		{negZero, "0"},
		{-1, "-1"},
		{-2.5, "-2.5"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{-1e21, "-1e+21"},
		{123e18, "123000000000000000000"},
		{1.5e21, "1.5e+21"},
		{0.000001, "0.000001"},
		{0.0000015, "0.0000015"},
		{1e-7, "1e-7"},
		{1.5e-7, "1.5e-7"},
		{-1e-7, "-1e-7"},
		{123456789012345678901234567890, "1.2345678901234568e+29"},
		{12345678901234567890, "12345678901234567000"},
		{9007199254740993, "9007199254740992"},
		{9007199254740992, "9007199254740992"},
		{1 << 60, "1152921504606847000"},
		{1e23, "1e+23"},
		{1.5e300, "1.5e+300"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{5e-324, "5e-324"},
		{0.1, "0.1"},
		{123.456, "123.456"},
		{-0.5, "-0.5"},
		{100, "100"},
		{3e-6, "0.000003"},
		{4.35, "4.35"},
		{0.000123, "0.000123"},
		{1.2345e-5, "0.000012345"},
		{999999999999999900000, "999999999999999900000"},
		{math.Pow(2, 70), "1.1805916207174113e+21"},
	}
	for _, tc := range tests {
		if got := value.FormatNumber(tc.in); got != tc.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// ---- JSON rendering (spec/README.md "Conventions") ----

func TestJSONCompact(t *testing.T) {
	tests := []struct {
		name string
		v    value.Value
		want string
	}{
		{"null", value.NullValue, "null"},
		{"true", value.True, "true"},
		{"false", value.False, "false"},
		{"int", num(30), "30"},
		{"neg zero", num(negZero), "0"},
		{"inf", num(math.Inf(1)), "null"},
		{"-inf", num(math.Inf(-1)), "null"},
		{"nan", num(math.NaN()), "null"},
		{"string", str("x"), `"x"`},
		{"escapes", str("\"\\\b\f\n\r\t\x01/<>&\u2028é😀\x7f"), "\"\\\"\\\\\\b\\f\\n\\r\\t\\u0001/<>&\u2028é😀\x7f\""},
		{"lone surrogate", str(value.FromUnits([]uint16{0xD800})), `"\ud800"`},
		{"empty list", list(), "[]"},
		{"empty record", rec(), "{}"},
		{"nested", list(num(1), list(), rec("a", list(value.NullValue, num(math.NaN())))), `[1,[],{"a":[null,null]}]`},
		{"record order", rec("b", num(1), "10", num(2), "2", num(3)), `{"2":3,"10":2,"b":1}`},
	}
	for _, tc := range tests {
		if got := value.JSON(tc.v); got != tc.want {
			t.Errorf("%s: JSON = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestJSONIndent(t *testing.T) {
	v := rec("a", num(1), "b", list(num(2), str("x"), list(), rec()), "c", rec("d", value.NullValue), "e", list(list(num(1))))
	want := `{
  "a": 1,
  "b": [
    2,
    "x",
    [],
    {}
  ],
  "c": {
    "d": null
  },
  "e": [
    [
      1
    ]
  ]
}`
	if got := value.JSONIndent(v); got != want {
		t.Errorf("JSONIndent:\n%s\nwant:\n%s", got, want)
	}
	for _, tc := range []struct {
		v    value.Value
		want string
	}{
		{num(30), "30"}, {str("x"), `"x"`}, {value.NullValue, "null"}, {list(), "[]"}, {rec(), "{}"},
		{list(num(1.5)), "[\n  1.5\n]"},
	} {
		if got := value.JSONIndent(tc.v); got != tc.want {
			t.Errorf("JSONIndent(%s) = %q, want %q", value.JSON(tc.v), got, tc.want)
		}
	}
}

// ---- records (spec/language.md §4.4) ----

func keysOf(v value.Value) string { return strings.Join(v.AsRecord().Keys(), ",") }

func TestRecordIndexKeyOrder(t *testing.T) {
	// Insertion order b, 2, 1, a, -1, 01, 4294967295 gives 1, 2, b, a, -1, 01, 4294967295.
	r := rec("b", num(1), "2", num(2), "1", num(3), "a", num(4), "-1", num(5), "01", num(6), "4294967295", num(7))
	if got, want := keysOf(r), "1,2,b,a,-1,01,4294967295"; got != want {
		t.Errorf("keys %s, want %s", got, want)
	}
	if got, want := value.JSON(r), `{"1":3,"2":2,"b":1,"a":4,"-1":5,"01":6,"4294967295":7}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
	r2 := rec("z", num(0), "4294967294", num(1), "0", num(2), "10", num(3), "9", num(4), "1.5", num(5), " 1", num(6), "", num(7))
	if got, want := keysOf(r2), "0,9,10,4294967294,z,1.5, 1,"; got != want {
		t.Errorf("keys %q, want %q", got, want)
	}
}

func TestRecordDuplicateKeepsPosition(t *testing.T) {
	// { a: 1, ...{ a: 2, b: 3 }, c: 4, b: 5 } => {"a":2,"b":5,"c":4}
	r := rec("a", num(1), "a", num(2), "b", num(3), "c", num(4), "b", num(5))
	if got, want := value.JSON(r), `{"a":2,"b":5,"c":4}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
	r2 := rec("x", num(1), "3", num(1), "3", num(2))
	if got, want := value.JSON(r2), `{"3":2,"x":1}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
}

func TestRecordLarge(t *testing.T) {
	// Beyond the size where the record builds a key index, order and
	// lookup rules still hold.
	r := value.NewRecord(0)
	var want []string
	for i := 0; i < 30; i++ {
		k := "k" + strings.Repeat("x", i)
		r.Set(k, num(float64(i)))
		want = append(want, k)
	}
	r.Set("7", num(100))
	r.Set("3", num(101))
	r.Set("k", num(102)) // existing key: position kept
	want = append([]string{"3", "7"}, want...)
	if got := strings.Join(r.Keys(), ","); got != strings.Join(want, ",") {
		t.Errorf("keys %s\nwant %s", got, strings.Join(want, ","))
	}
	if v, ok := r.Get("k"); !ok || v.AsNumber() != 102 {
		t.Errorf("Get(k) = %v %v", v, ok)
	}
	if v, ok := r.Get("3"); !ok || v.AsNumber() != 101 {
		t.Errorf("Get(3) = %v %v", v, ok)
	}
	if r.Has("missing") || !r.Has("kxx") || r.Len() != 32 {
		t.Errorf("Has/Len wrong: %d", r.Len())
	}
	if !r.Delete("3") || r.Delete("3") || r.Has("3") {
		t.Error("Delete")
	}
	r.Set("1", num(1))
	if got := strings.Join(r.Keys()[:3], ","); got != "1,7,k" {
		t.Errorf("after delete+insert: %s", got)
	}
	c := r.Clone(1)
	c.Set("0", num(0))
	c.Set("new", num(0))
	if r.Has("0") || r.Has("new") {
		t.Error("Clone shares storage")
	}
	if got := strings.Join(c.Keys()[:3], ","); got != "0,1,7" || c.Keys()[len(c.Keys())-1] != "new" {
		t.Errorf("clone keys %v", c.Keys())
	}
}

func TestRecordAccessors(t *testing.T) {
	r := rec("b", num(1), "0", str("z"))
	rr := r.AsRecord()
	if rr.Key(0) != "0" || rr.At(0).AsString() != "z" || rr.Key(1) != "b" {
		t.Errorf("Key/At order wrong: %v", rr.Keys())
	}
	if got := rr.GetOrNull("nope"); !got.IsNull() {
		t.Error("GetOrNull of a missing key")
	}
	if got := rr.Values(); len(got) != 2 || got[1].AsNumber() != 1 {
		t.Error("Values")
	}
	var nilRec *value.Record
	if nilRec.Len() != 0 || nilRec.Has("a") {
		t.Error("nil record")
	}
	if _, ok := nilRec.Get("a"); ok {
		t.Error("nil record Get")
	}
}

func TestIsArrayIndex(t *testing.T) {
	yes := []string{"0", "1", "10", "4294967294", "123"}
	no := []string{"", "01", "00", "-1", "4294967295", "99999999999", "1.0", " 1", "1a", "a", "+1", "1e3"}
	for _, k := range yes {
		if !value.IsArrayIndex(k) {
			t.Errorf("IsArrayIndex(%q) = false", k)
		}
	}
	for _, k := range no {
		if value.IsArrayIndex(k) {
			t.Errorf("IsArrayIndex(%q) = true", k)
		}
	}
}

// ---- equality (spec/language.md §4.6) ----

func TestEqual(t *testing.T) {
	tests := []struct {
		name string
		a, b value.Value
		want bool
	}{
		{"1 == 1.0", num(1), num(1.0), true},
		{"0 == -0", num(0), num(negZero), true},
		{"NaN", num(math.NaN()), num(math.NaN()), false},
		{"inf", num(math.Inf(1)), num(math.Inf(1)), true},
		{"1 vs '1'", num(1), str("1"), false},
		{"0 vs false", num(0), value.False, false},
		{"'' vs false", str(""), value.False, false},
		{"null == null", value.NullValue, value.NullValue, true},
		{"null vs false", value.NullValue, value.False, false},
		{"null vs 0", value.NullValue, num(0), false},
		{"bools", value.True, value.True, true},
		{"true vs false", value.True, value.False, false},
		{"strings", str("é😀"), str("é😀"), true},
		{"strings differ", str("a"), str("A"), false},
		{"lone surrogates", str(value.FromUnits([]uint16{0xD800})), str(value.FromUnits([]uint16{0xD800})), true},
		{"lists", list(num(1), list(str("a"))), list(num(1), list(str("a"))), true},
		{"list length", list(num(1)), list(num(1), num(1)), false},
		{"list order", list(num(1), num(2)), list(num(2), num(1)), false},
		{"list with NaN", list(num(math.NaN())), list(num(math.NaN())), false},
		{"empty list vs record", list(), rec(), false},
		{"records ignore order", rec("a", num(1), "b", num(2)), rec("b", num(2), "a", num(1)), true},
		{"null key vs missing", rec("x", value.NullValue), rec(), false},
		{"missing vs null key", rec(), rec("x", value.NullValue), false},
		{"different keys", rec("a", num(1)), rec("b", num(1)), false},
		{"nested records", rec("a", rec("b", list(num(1)))), rec("a", rec("b", list(num(1)))), true},
		{"nested differ", rec("a", rec("b", list(num(1)))), rec("a", rec("b", list(num(2)))), false},
		{"list vs string", list(str("a")), str("a"), false},
	}
	for _, tc := range tests {
		if got := value.Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Equal = %v, want %v", tc.name, got, tc.want)
		}
		if got := value.Equal(tc.b, tc.a); got != tc.want {
			t.Errorf("%s (swapped): Equal = %v, want %v", tc.name, got, tc.want)
		}
	}
	r := rec("a", num(1))
	if !value.Equal(r, r) {
		t.Error("record not equal to itself")
	}
}

// ---- truthiness (spec/language.md §4.5) ----

func TestTruthy(t *testing.T) {
	falsy := []value.Value{value.False, value.NullValue, num(0), num(negZero), str("")}
	truthy := []value.Value{value.True, num(1), num(-1), num(0.5), num(math.NaN()), num(math.Inf(1)), num(math.Inf(-1)),
		str("0"), str("false"), str(" "), list(), rec(), list(value.False), rec("a", value.False)}
	for _, v := range falsy {
		if v.Truthy() {
			t.Errorf("%s should be falsy", value.JSON(v))
		}
	}
	for _, v := range truthy {
		if !v.Truthy() {
			t.Errorf("%s (%s) should be truthy", value.JSON(v), v.TypeName())
		}
	}
}

func TestTypeNames(t *testing.T) {
	tests := []struct {
		v                        value.Value
		typeName, js, raw, shape string
	}{
		{value.NullValue, "null", "null", "object", "null"},
		{value.True, "boolean", "boolean", "boolean", "boolean"},
		{num(1), "number", "number", "number", "number"},
		{str("s"), "string", "string", "string", "string"},
		{list(), "list", "object", "object", "list"},
		{rec(), "record", "object", "object", "record"},
	}
	for _, tc := range tests {
		if tc.v.TypeName() != tc.typeName || tc.v.JSType() != tc.js || tc.v.RawJSType() != tc.raw || tc.v.ShapeName() != tc.shape {
			t.Errorf("%s: %s %s %s %s", value.JSON(tc.v), tc.v.TypeName(), tc.v.JSType(), tc.v.RawJSType(), tc.v.ShapeName())
		}
	}
}

// ---- string conversion (spec/stdlib.md "Conventions") ----

func TestToText(t *testing.T) {
	tests := []struct {
		v    value.Value
		want string
	}{
		{value.NullValue, "null"},
		{value.True, "true"},
		{value.False, "false"},
		{num(1), "1"},
		{num(1.0), "1"},
		{num(0.1), "0.1"},
		{num(negZero), "0"},
		{num(1e21), "1e+21"},
		{num(math.Inf(1)), "Infinity"},
		{num(math.Inf(-1)), "-Infinity"},
		{num(math.NaN()), "NaN"},
		{str("é😀"), "é😀"},
		{str(""), ""},
		{list(num(1), value.NullValue, num(2)), "1,,2"},
		{list(list()), ""},
		{list(), ""},
		{list(num(1), list(num(2), num(3))), "1,2,3"},
		{list(value.NullValue), ""},
		{list(value.NullValue, value.NullValue), ","},
		{list(list(value.NullValue), num(1)), ",1"},
		{rec("a", num(1)), "[object Object]"},
		{rec(), "[object Object]"},
		{list(rec("a", num(1)), str("x")), "[object Object],x"},
		{list(value.True, str("s"), num(math.NaN())), "true,s,NaN"},
		// str.concat's string conversion (spec/stdlib.md "Strings"), element by element.
		{list(num(1), value.NullValue, value.True, list(num(1), value.NullValue), rec("a", num(1)), num(1.0), num(0.1)), "1,,true,1,,[object Object],1,0.1"},
	}
	for _, tc := range tests {
		if got := value.ToText(tc.v); got != tc.want {
			t.Errorf("ToText(%s) = %q, want %q", value.JSON(tc.v), got, tc.want)
		}
		var b strings.Builder
		b.WriteString(">")
		value.AppendText(&b, tc.v)
		if got := b.String(); got != ">"+tc.want {
			t.Errorf("AppendText(%s) = %q, want %q", value.JSON(tc.v), got, ">"+tc.want)
		}
	}
}

// ---- UTF-16 (spec/language.md §2.1, §4.3) ----

func TestLen16(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"é", 1},
		{"日本", 2},
		{"😀", 2},
		{"a😀b", 4},
		{"😀😀", 4},
		{value.FromUnits([]uint16{0xD800}), 1},
		{value.FromUnits([]uint16{0xD83D, 0xDE00}), 2},
		{value.FromUnits([]uint16{0xDE00, 0xD83D}), 2},
		{"\uFFFF", 1},
		{"\U00010000", 2},
	}
	for _, tc := range tests {
		if got := value.Len16(tc.s); got != tc.want {
			t.Errorf("Len16(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestUnitsRoundTrip(t *testing.T) {
	tests := []struct {
		s     string
		units []uint16
	}{
		{"a", []uint16{'a'}},
		{"é😀", []uint16{0xE9, 0xD83D, 0xDE00}},
		{"\xed\xa0\x80", []uint16{0xD800}},
		{"\xed\xb8\x80\xed\xa0\xbd", []uint16{0xDE00, 0xD83D}},
	}
	for _, tc := range tests {
		u := value.Units(tc.s)
		if len(u) != len(tc.units) {
			t.Errorf("Units(%q) = %x, want %x", tc.s, u, tc.units)
			continue
		}
		for i := range u {
			if u[i] != tc.units[i] {
				t.Errorf("Units(%q) = %x, want %x", tc.s, u, tc.units)
				break
			}
		}
		if back := value.FromUnits(tc.units); back != tc.s {
			t.Errorf("FromUnits(%x) = %q, want %q", tc.units, back, tc.s)
		}
	}
	// A high surrogate followed by a low one joins into one character.
	if got := value.FromUnits([]uint16{0xD83D, 0xDE00}); got != "😀" {
		t.Errorf("pair = %q", got)
	}
	if got := string(value.AppendCodeUnit([]byte("x"), 0xDC00)); got != "x\xed\xb0\x80" {
		t.Errorf("AppendCodeUnit = %q", got)
	}
}

func TestConcat16(t *testing.T) {
	u := func(units ...uint16) string { return value.FromUnits(units) }
	tests := []struct {
		a, b, want string
	}{
		{"", "", ""},
		{"ab", "cd", "abcd"},
		{u(0xD83C), "", u(0xD83C)},
		{"", u(0xDF89), u(0xDF89)},
		// A high surrogate at the end meets a low one at the start: one character.
		{u(0xD83C), u(0xDF89), "🎉"},
		{"x" + u(0xD83C), u(0xDF89) + "y", "x🎉y"},
		{u(0xDBFF), u(0xDFFF), "􏿿"},
		// Other meetings stay two lone units.
		{u(0xDF89), u(0xD83C), u(0xDF89, 0xD83C)},
		{u(0xD83C), u(0xD83C), u(0xD83C, 0xD83C)},
		{u(0xDF89), u(0xDF89), u(0xDF89, 0xDF89)},
		{"🎉", u(0xDF89), u(0xD83C, 0xDF89, 0xDF89)},
		{u(0xD83C), "🎉", u(0xD83C, 0xD83C, 0xDF89)},
		{u(0xD83C), "\uE000", u(0xD83C) + "\uE000"},
		{"\uD7FF", u(0xDF89), "\uD7FF" + u(0xDF89)},
	}
	for _, tc := range tests {
		got := value.Concat16(tc.a, tc.b)
		if got != tc.want {
			t.Errorf("Concat16(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
		// The result is the normal form of the concatenated units.
		if norm := value.FromUnits(append(value.Units(tc.a), value.Units(tc.b)...)); got != norm {
			t.Errorf("Concat16(%q, %q) = %q, not the normal form %q", tc.a, tc.b, got, norm)
		}
	}
}

func TestCompare16(t *testing.T) {
	lone := value.FromUnits([]uint16{0xD800})
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "a", 0},
		{"", "a", -1},
		{"a", "ab", -1},
		{"B", "a", -1},
		{"10", "9", -1},
		{"a", "b", -1},
		{"é", "z", 1},
		// U+FFFF is above the lead unit 0xD83D of an astral character.
		{"😀", "\uffff", -1},
		{"😀", "\ue000", -1},
		{"\ud7ff", "😀", -1},
		{"😀", "😁", -1},
		{"x😀", "x\uffff", -1},
		{lone, "😀", -1},
		{"😀", lone, 1},
		{lone, "\ue000", -1},
		{lone, "\ud7ff", 1},
		{"abc", "abd", -1},
		{"日本", "日本語", -1},
	}
	for _, tc := range tests {
		if got := value.Compare16(tc.a, tc.b); got != tc.want {
			t.Errorf("Compare16(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := value.Compare16(tc.b, tc.a); got != -tc.want {
			t.Errorf("Compare16(%q, %q) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}

// ---- WHATWG UTF-8 decoding (spec/language.md §2.1) ----

func TestDecodeBytes(t *testing.T) {
	const r = "\uFFFD"
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"valid", []byte("héllo 😀"), "héllo 😀"},
		{"empty", nil, ""},
		{"FF FE", []byte{0xFF, 0xFE}, r + r},
		{"truncated 3-byte", []byte{0xE2, 0x82}, r},
		{"truncated 4-byte", []byte{0xF0, 0x9F, 0x98}, r},
		{"overlong C0 AF", []byte{0xC0, 0xAF}, r + r},
		{"lone continuation", []byte{0x80}, r},
		{"two continuations", []byte{0x80, 0xBF}, r + r},
		{"truncated in text", []byte("a\xe2\x82b"), "a" + r + "b"},
		{"truncated 4 in text", []byte("\"\xf0\x9f\x98\""), "\"" + r + "\""},
		{"encoded surrogate", []byte{0xED, 0xA0, 0x80}, r + r + r},
		{"E0 80 overlong", []byte{0xE0, 0x80, 0x80}, r + r + r},
		{"F4 90 too big", []byte{0xF4, 0x90, 0x80, 0x80}, r + r + r + r},
		{"F5", []byte{0xF5, 0x80}, r + r},
		{"truncated then valid", []byte{0xE2, 0x82, 0xE2, 0x82, 0xAC}, r + "€"},
		{"lead then ascii", []byte{0xC3, 'a'}, r + "a"},
		{"at end", []byte("ok\xf0"), "ok" + r},
		{"F0 9F then 4-byte", []byte{0xF0, 0x9F, 0xF0, 0x9F, 0x98, 0x80}, r + "😀"},
	}
	for _, tc := range tests {
		if got := value.DecodeBytes(tc.in); got != tc.want {
			t.Errorf("%s: DecodeBytes(% x) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// ---- constructors and accessors ----

func TestConstructors(t *testing.T) {
	if !value.Int(3).Truthy() || value.Int(3).AsNumber() != 3 {
		t.Error("Int")
	}
	if value.BoolOf(true) != value.True || value.BoolOf(false) != value.False {
		t.Error("BoolOf")
	}
	if value.Str("").Kind() != value.String || value.Str("").AsString() != "" {
		t.Error("empty Str")
	}
	if value.ListOf(nil).Kind() != value.ListKind || len(value.EmptyList.AsList()) != 0 {
		t.Error("lists")
	}
	var undef value.Value
	if !undef.IsUndefined() || !undef.IsNull() || value.NullValue.IsUndefined() || !value.NullValue.IsNull() {
		t.Error("undefined/null")
	}
	if num(1).AsString() != "" || str("x").AsNumber() != 0 || str("x").AsList() != nil || str("x").AsRecord() != nil || num(1).AsBool() {
		t.Error("accessors on wrong kinds")
	}
}
