package stdlib

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

func TestListFunctions(t *testing.T) {
	nan := math.NaN()
	slRun(t, []slCase{
		// len
		{fn: "len", args: slRec("in", slList(1, 2, slList(3))), want: `3`},
		{fn: "len", args: slRec("in", slList()), want: `0`},
		{fn: "len", args: slRec("in", "abc"), want: `3`},
		{fn: "len", args: slRec("in", ""), want: `0`},
		{fn: "len", args: slRec("in", "é"), want: `1`},
		{fn: "len", args: slRec("in", "\U0001F600"), want: `2`},
		{fn: "len", args: slRec("in", slUnits(0xD800, 'a')), want: `2`},
		{fn: "len", args: slRec("in", slRec("a", 1, "b", nil)), want: `2`},
		{fn: "len", args: slRec("in", 5), want: `len: 'in' must be a list, string, or record`, err: true},
		{fn: "len", args: slRec(), want: `len: 'in' must be a list, string, or record`, err: true},
		{fn: "len", args: slRec("in", true), want: `len: 'in' must be a list, string, or record`, err: true},
		// append
		{fn: "append", args: slRec("in", slList(1, 2), "value", 3), want: `[1,2,3]`},
		{fn: "append", args: slRec("in", slList(1), "value", slList(2, 3)), want: `[1,[2,3]]`},
		{fn: "append", args: slRec("in", slList()), want: `[null]`},
		{fn: "append", args: slRec("in", "x", "value", 1), want: `append: 'in' must be a list`, err: true},
		{fn: "append", args: slRec(), want: `append: 'in' must be a list`, err: true},
		// concat
		{fn: "concat", args: slRec("a", slList(1, slList(2)), "b", slList(slList(3), 4)), want: `[1,[2],[3],4]`},
		{fn: "concat", args: slRec("a", slList(), "b", slList()), want: `[]`},
		{fn: "concat", args: slRec("a", slList(1)), want: `concat: 'a' and 'b' must be lists`, err: true},
		{fn: "concat", args: slRec("a", "x", "b", slList()), want: `concat: 'a' and 'b' must be lists`, err: true},
		// filter (by form)
		{fn: "filter", args: slRec("in", slList(slRec("ok", true, "n", 1), slRec("ok", 0, "n", 2), slRec("n", 3),
			5, "ok", slList(1), nil, slRec("ok", "x", "n", 4), slRec("ok", slList()), slRec("ok", nan)), "by", "ok"),
			want: `[{"ok":true,"n":1},{"ok":"x","n":4},{"ok":[]},{"ok":null}]`},
		{fn: "filter", args: slRec("in", slList(), "by", "ok"), want: `[]`},
		{fn: "filter", args: slRec("in", slList(slRec("length", 1)), "by", "length"), want: `[{"length":1}]`},
		{fn: "filter", args: slRec("in", slList("abc"), "by", "length"), want: `[]`},
		{fn: "filter", args: slRec("in", slList(slRec("a", 1))), want: `filter: 'by' must be a string`, err: true},
		{fn: "filter", args: slRec("in", slList(), "by", slList("a")), want: `filter: 'by' must be a string`, err: true},
		{fn: "filter", args: slRec("in", slRec(), "by", 1), want: `filter: 'in' must be a list`, err: true},
		{fn: "filter", args: slRec(), want: `filter: 'in' must be a list`, err: true},
		// find
		{fn: "find", args: slRec("in", slList(1, slRec("k", 1, "v", "a"), slRec("k", 2, "v", "b"), slRec("k", 2, "v", "c")), "key", "k", "value", 2), want: `{"k":2,"v":"b"}`},
		{fn: "find", args: slRec("in", slList(slRec("k", 1)), "key", "q"), want: `{"k":1}`},
		{fn: "find", args: slRec("in", slList(slRec("k", 1), slRec("k", nil)), "key", "k"), want: `{"k":null}`},
		{fn: "find", args: slRec("in", slList(slRec("k", slRec("a", 1, "b", 2))), "key", "k", "value", slRec("b", 2, "a", 1)), want: `{"k":{"a":1,"b":2}}`},
		{fn: "find", args: slRec("in", slList(slRec("k", "1")), "key", "k", "value", 1), want: `null`},
		{fn: "find", args: slRec("in", slList(nil, 1, "x"), "key", "k"), want: `null`},
		{fn: "find", args: slRec("in", slList(), "key", "k", "value", 1), want: `null`},
		{fn: "find", args: slRec("in", slList(slRec("k", nan)), "key", "k", "value", nan), want: `null`},
		{fn: "find", args: slRec("in", slList(), "key", 1), want: `find: 'key' must be a string`, err: true},
		{fn: "find", args: slRec("in", slList()), want: `find: 'key' must be a string`, err: true},
		{fn: "find", args: slRec("in", slRec(), "key", 1), want: `find: 'in' must be a list`, err: true},
		// range
		{fn: "range", args: slRec("from", 0, "to", 3), want: `[0,1,2]`},
		{fn: "range", args: slRec("from", -2, "to", 1), want: `[-2,-1,0]`},
		{fn: "range", args: slRec("from", 3, "to", 3), want: `[]`},
		{fn: "range", args: slRec("from", 5, "to", 1), want: `[]`},
		{fn: "range", args: slRec("from", 1.0, "to", 1e1), want: `[1,2,3,4,5,6,7,8,9]`},
		{fn: "range", args: slRec("from", 0, "to", 1.5), want: `range: 'from' and 'to' must be integers`, err: true},
		{fn: "range", args: slRec("from", 0.5, "to", 3), want: `range: 'from' and 'to' must be integers`, err: true},
		{fn: "range", args: slRec("from", 0), want: `range: 'from' and 'to' must be integers`, err: true},
		{fn: "range", args: slRec("to", 3), want: `range: 'from' and 'to' must be integers`, err: true},
		{fn: "range", args: slRec("from", "0", "to", 3), want: `range: 'from' and 'to' must be integers`, err: true},
		{fn: "range", args: slRec("from", 0, "to", math.Inf(1)), want: `range: 'from' and 'to' must be integers`, err: true},
		{fn: "range", args: slRec("from", nan, "to", 3), want: `range: 'from' and 'to' must be integers`, err: true},
		// join
		{fn: "join", args: slRec("in", slList("a", "b", "c"), "sep", ", "), want: `"a, b, c"`},
		{fn: "join", args: slRec("in", slList("a", "b")), want: `"ab"`},
		{fn: "join", args: slRec("in", slList("a", "b"), "sep", nil), want: `"ab"`},
		{fn: "join", args: slRec("in", slList(), "sep", "-"), want: `""`},
		{fn: "join", args: slRec("in", slList("only"), "sep", "-"), want: `"only"`},
		{fn: "join", args: slRec("in", slList(1, nil, true, slList(1, nil, slList(2, 3)), slRec("a", 1), 1.5, math.Inf(-1), nan, 1e21, slList()), "sep", "|"),
			want: `"1|null|true|1,,2,3|[object Object]|1.5|-Infinity|NaN|1e+21|"`},
		{fn: "join", args: slRec("in", slList(slUnits(0xD83D), slUnits(0xDE00))), want: "\"\U0001F600\""},
		{fn: "join", args: slRec("in", slList("a"), "sep", 1), want: `join: 'sep' must be a string`, err: true},
		{fn: "join", args: slRec("in", "ab", "sep", 1), want: `join: 'in' must be a list`, err: true},
		{fn: "join", args: slRec(), want: `join: 'in' must be a list`, err: true},
		// unique
		{fn: "unique", args: slRec("in", slList(1, "1", 1.0, slRec("a", 1, "b", 2), slRec("b", 2, "a", 1), nil, nil, slList(1), slList(1), 0, math.Copysign(0, -1), nan, nan, false)),
			want: `[1,"1",{"a":1,"b":2},null,[1],0,null,null,false]`},
		{fn: "unique", args: slRec("in", slList()), want: `[]`},
		{fn: "unique", args: slRec("in", slRec()), want: `unique: 'in' must be a list`, err: true},
		{fn: "unique", args: slRec(), want: `unique: 'in' must be a list`, err: true},
		// pluck
		{fn: "pluck", args: slRec("in", slList(slRec("a", 1), slRec("b", 2), 3, nil, slRec("a", slList(1))), "key", "a"), want: `[1,null,null,null,[1]]`},
		{fn: "pluck", args: slRec("in", slList("abc", slList(1)), "key", "length"), want: `[null,null]`},
		{fn: "pluck", args: slRec("in", slList(slRec("a", 1)), "key", "toString"), want: `[null]`},
		{fn: "pluck", args: slRec("in", slList(), "key", 1), want: `pluck: 'key' must be a string`, err: true},
		{fn: "pluck", args: slRec("in", nil, "key", 1), want: `pluck: 'in' must be a list`, err: true},
		// flat
		{fn: "flat", args: slRec("in", slList(slList(1, slList(2, 3)), slList(4))), want: `[1,[2,3],4]`},
		{fn: "flat", args: slRec("in", slList(1, slList(), "a", slList(nil), slRec("a", slList(1)))), want: `[1,"a",null,{"a":[1]}]`},
		{fn: "flat", args: slRec("in", slList()), want: `[]`},
		{fn: "flat", args: slRec("in", "ab"), want: `flat: 'in' must be a list`, err: true},
	})
}

func TestUniqueLarge(t *testing.T) {
	// More than the small-list threshold, so the hashing path is used.
	var items []any
	for i := 0; i < 50; i++ {
		items = append(items, i%20, slRec("k", i%7, "j", "x"), slRec("j", "x", "k", i%7), slList(i%3, "a"), math.NaN())
	}
	got, err := fnUnique(NoLimits, slRec("in", slList(items...)).AsRecord())
	if err != nil {
		t.Fatal(err)
	}
	// Build the expectation with the quadratic definition.
	var exp []value.Value
outer:
	for _, it := range slList(items...).AsList() {
		for _, e := range exp {
			if value.Equal(e, it) {
				continue outer
			}
		}
		exp = append(exp, it)
	}
	if value.JSON(got) != value.JSON(value.ListOf(exp)) {
		t.Errorf("unique: got %s\nwant %s", value.JSON(got), value.JSON(value.ListOf(exp)))
	}
	if n := len(got.AsList()); n != 20+7+3+50 {
		t.Errorf("unique kept %d elements", n)
	}
}

// TestSortInconsistentLong covers lists long enough for several runs and merges
// (with galloping) under a comparison NaN makes inconsistent; the orders were
// taken from Node 20's Array.prototype.sort with the reference's comparison.
func TestSortInconsistentLong(t *testing.T) {
	nan := math.NaN()
	mk := func(n int, f func(i int) float64) value.Value {
		items := make([]any, n)
		for i := range items {
			items[i] = f(i)
		}
		return slList(items...)
	}
	slRun(t, []slCase{
		{fn: "sort", args: slRec("in", mk(150, func(i int) float64 {
			if i%7 == 0 {
				return nan
			}
			return float64(i * 37 % 101)
		})), want: `[null,3,6,9,10,16,19,20,23,30,33,36,37,40,43,46,47,50,53,56,73,74,84,null,60,63,67,77,87,90,94,null,97,null,80,null,100,null,` +
			`1,2,5,11,12,15,18,22,25,28,29,32,35,38,42,45,48,49,55,59,62,66,69,72,75,93,null,76,79,86,null,null,82,89,99,null,92,null,85,null,` +
			`0,4,7,10,14,17,20,24,27,30,31,37,40,41,44,51,54,57,58,61,64,67,68,95,null,71,74,81,88,98,null,null,null,84,94,null,` +
			`2,6,9,12,13,19,22,23,26,33,36,39,43,46,49,50,53,56,59,63,66,70,76,77,80,87,null,83,97,null,90,100,null,93,null,null]`},
		{fn: "sort", args: slRec("in", mk(200, func(i int) float64 {
			switch {
			case i%11 == 3:
				return nan
			case i < 100:
				return float64(i)
			}
			return float64(300 - i)
		})), want: `[0,1,2,null,4,5,6,7,8,9,10,11,12,13,null,15,16,17,18,19,20,21,22,23,24,null,26,27,28,29,30,31,32,33,34,35,null,` +
			`37,38,39,40,41,42,43,44,45,46,null,48,49,50,51,52,53,54,55,56,57,null,59,60,61,62,63,64,65,66,67,68,null,` +
			`70,71,72,73,74,75,76,77,78,79,null,81,82,83,84,85,86,87,88,89,90,null,92,93,94,95,96,97,98,99,199,null,` +
			`150,151,152,153,155,156,157,158,159,160,161,162,163,164,166,167,168,169,170,171,172,173,174,175,177,178,179,180,181,182,183,184,185,186,` +
			`188,189,190,191,192,193,194,195,196,197,null,null,null,null,` +
			`101,102,103,104,105,106,107,108,109,111,112,113,114,115,116,117,118,119,120,122,123,124,125,126,127,128,129,130,131,` +
			`133,134,135,136,137,138,139,140,141,142,144,145,146,147,148,149,200,null,null,null,null]`},
	})
}

func TestSort(t *testing.T) {
	nan := math.NaN()
	slRun(t, []slCase{
		{fn: "sort", args: slRec("in", slList(3, 1, 2)), want: `[1,2,3]`},
		{fn: "sort", args: slRec("in", slList(10, 9, 1, -5, 2.5, -0.5)), want: `[-5,-0.5,1,2.5,9,10]`},
		{fn: "sort", args: slRec("in", slList()), want: `[]`},
		{fn: "sort", args: slRec("in", slList(1)), want: `[1]`},
		// A mixed list (spec/stdlib.md "Lists", `sort`).
		{fn: "sort", args: slRec("in", slList(3, "b", nil, true, slList(1), slRec("a", 1), 10, -2, false, "A", slList(0, 5), slRec(), 2.5, "a")),
			want: `["a","A","b",-2,2.5,3,10,[0,5],[1],false,null,true,{"a":1},{}]`},
		// Strings collate, they are not compared by code units.
		{fn: "sort", args: slRec("in", slList("b", "B", "a", "A", "10", "9", "1", "_", " ", "$")), want: `[" ","_","$","1","10","9","a","A","b","B"]`},
		{fn: "sort", args: slRec("in", slList("é", "f", "e", "E")), want: `["e","E","é","f"]`},
		// Control characters are ignorable: ties keep input order.
		{fn: "sort", args: slRec("in", slList("a\x00", "a", "\x01a")), want: `["a\u0000","a","\u0001a"]`},
		{fn: "sort", args: slRec("in", slList("a", "a\x00")), want: `["a","a\u0000"]`},
		// Non-finite numbers are numbers among numbers.
		{fn: "sort", args: slRec("in", slList(1, math.Inf(1), -1, math.Inf(-1))), want: `[null,-1,1,null]`},
		{fn: "sort", args: slRec("in", slList(slList(), math.Inf(1), "x")), want: `["x",[],null]`},
		{fn: "sort", args: slRec("in", slList(true, nil, nan, false)), want: `[false,null,null,true]`},
		// NaN ties with every number and -Infinity sorts as a number below numbers but
		// as the text null above lists, so no order is consistent: the result is the one
		// JavaScript's merge sort makes (a run ends at the first NaN, the rest is
		// inserted by binary search).
		{fn: "sort", args: slRec("in", slList(6, nan, 4, 9, 2, nan, 7)), want: `[6,null,2,4,9,null,7]`},
		{fn: "sort", args: slRec("in", slList(slList(1), math.Inf(-1), 2, slList(), -5, "x")), want: `["x",[1],null,-5,2,[]]`},
		{fn: "sort", args: slRec("in", slList(slRec("k", 5), slRec("k", nan), slRec("k", 1), slRec("k", nan), slRec("k", 3)), "by", "k"),
			want: `[{"k":5},{"k":null},{"k":1},{"k":null},{"k":3}]`},
		// by a string key; non-records and missing keys read null; stable.
		{fn: "sort", args: slRec("in", slList(slRec("n", 2, "id", "a"), slRec("n", 1, "id", "b"), slRec("id", "c"), 7,
			slRec("n", 1, "id", "d"), slRec("n", "x", "id", "e")), "by", "n"),
			want: `[{"n":"x","id":"e"},{"n":1,"id":"b"},{"n":1,"id":"d"},{"n":2,"id":"a"},{"id":"c"},7]`},
		// by a list of keys: first difference wins.
		{fn: "sort", args: slRec("in", slList(slRec("a", 2, "b", "y"), slRec("a", 1, "b", "z"), slRec("a", 2, "b", "x"), slRec("a", 1, "b", "Z")), "by", slList("a", "b")),
			want: `[{"a":1,"b":"z"},{"a":1,"b":"Z"},{"a":2,"b":"x"},{"a":2,"b":"y"}]`},
		{fn: "sort", args: slRec("in", slList(3, 1, 2), "by", slList()), want: `[3,1,2]`},
		{fn: "sort", args: slRec("in", slList(slRec("k", 2), slRec("k", 1)), "by", slList()), want: `[{"k":2},{"k":1}]`},
		// JavaScript artefact keys are ordinary keys here.
		{fn: "sort", args: slRec("in", slList("ccc", "a", "bb"), "by", "length"), want: `["ccc","a","bb"]`},
		{fn: "sort", args: slRec("in", slList(slList(3), slList(1)), "by", "0"), want: `[[3],[1]]`},
		{fn: "sort", args: slRec("in", slList(slRec("length", 3), slRec("length", 1)), "by", "length"), want: `[{"length":1},{"length":3}]`},
		// errors, in order
		{fn: "sort", args: slRec("in", "abc", "by", 1), want: `sort: 'in' must be a list`, err: true},
		{fn: "sort", args: slRec(), want: `sort: 'in' must be a list`, err: true},
		{fn: "sort", args: slRec("in", slList(), "by", 1), want: `sort: 'by' must be a string or list of strings`, err: true},
		{fn: "sort", args: slRec("in", slList(), "by", slRec()), want: `sort: 'by' must be a string or list of strings`, err: true},
		{fn: "sort", args: slRec("in", slList(), "by", slList("a", 1)), want: `sort: 'by' array elements must be strings`, err: true},
		{fn: "sort", args: slRec("in", slList(), "by", slList(nil)), want: `sort: 'by' array elements must be strings`, err: true},
	})
}

// sortStrings sorts strs with the stdlib sort and returns the result.
func sortStrings(t *testing.T, strs []string) []string {
	t.Helper()
	items := make([]any, len(strs))
	for i, s := range strs {
		items[i] = s
	}
	got, err := fnSort(NoLimits, slRec("in", slList(items...)).AsRecord())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(strs))
	for _, v := range got.AsList() {
		out = append(out, v.AsString())
	}
	return out
}

func TestSortCollationASCII(t *testing.T) {
	const want = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"
	var chars []string
	for c := 0x7E; c >= 0x20; c-- {
		chars = append(chars, string(rune(c)))
	}
	if got := strings.Join(sortStrings(t, chars), ""); got != want {
		t.Errorf("ASCII collation order\n got %q\nwant %q", got, want)
	}
}

func TestSortCollationLevels(t *testing.T) {
	want := []string{"a", "A", "á", "à", "å", "ä", "a b", "a-b", "Aa", "ab", "aB", "AB", "ab ", "b", "B"}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 20; round++ {
		in := append([]string(nil), want...)
		rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
		got := sortStrings(t, in)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("collation of %q\n got %q\nwant %q", in, got, want)
		}
	}
	if got := sortStrings(t, []string{"9", "10", "1"}); strings.Join(got, " ") != "1 10 9" {
		t.Errorf("digits: got %q", got)
	}
}

func TestSortLoneSurrogates(t *testing.T) {
	// Must not panic; lone surrogates sort after letters and CJK.
	got, err := fnSort(NoLimits, slRec("in", slList(slUnits(0xDC00), "\u4e00", "z", slUnits(0xD800))).AsRecord())
	if err != nil {
		t.Fatal(err)
	}
	if want := `["z","一","\ud800","\udc00"]`; value.JSON(got) != want {
		t.Errorf("got %s, want %s", value.JSON(got), want)
	}
}

func TestSortStableLarge(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const n = 3000
	items := make([]any, n)
	for i := range items {
		items[i] = slRec("k", rng.Intn(10), "i", i)
	}
	got, err := fnSort(NoLimits, slRec("in", slList(items...), "by", "k").AsRecord())
	if err != nil {
		t.Fatal(err)
	}
	list := got.AsList()
	for i := 1; i < n; i++ {
		a, b := list[i-1].AsRecord(), list[i].AsRecord()
		ka, kb := a.GetOrNull("k").AsNumber(), b.GetOrNull("k").AsNumber()
		if ka > kb || ka == kb && a.GetOrNull("i").AsNumber() > b.GetOrNull("i").AsNumber() {
			t.Fatalf("not stably sorted at %d", i)
		}
	}
}

func BenchmarkSortStrings10k(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	items := make([]value.Value, 10000)
	for i := range items {
		var sb strings.Builder
		for j := 0; j < 8; j++ {
			sb.WriteByte(byte('a' + rng.Intn(26)))
		}
		items[i] = value.Str(sb.String())
	}
	args := slRec("in", value.ListOf(items)).AsRecord()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fnSort(NoLimits, args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSortNumbers10k(b *testing.B) {
	rng := rand.New(rand.NewSource(4))
	items := make([]value.Value, 10000)
	for i := range items {
		items[i] = value.Num(rng.Float64())
	}
	args := slRec("in", value.ListOf(items)).AsRecord()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fnSort(NoLimits, args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSortRecordsBy10k(b *testing.B) {
	rng := rand.New(rand.NewSource(5))
	items := make([]value.Value, 10000)
	for i := range items {
		items[i] = slRec("name", string(rune('a'+rng.Intn(26)))+"x", "n", rng.Intn(100))
	}
	args := slRec("in", value.ListOf(items), "by", slList("n", "name")).AsRecord()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fnSort(NoLimits, args); err != nil {
			b.Fatal(err)
		}
	}
}
