package stdlib

import (
	"math"
	"strings"
	"testing"
)

const slEmoji = "\U0001F600" // U+1F600, the units D83D DE00

func TestStringFunctions(t *testing.T) {
	slRun(t, []slCase{
		// str.concat
		{fn: "str.concat", args: slRec("parts", slList(1, nil, true, slList(1, nil), slRec("a", 1), 1.0, 0.1)), want: `"1nulltrue1,[object Object]10.1"`},
		{fn: "str.concat", args: slRec("parts", slList()), want: `""`},
		{fn: "str.concat", args: slRec("parts", slList("a", "", "b")), want: `"ab"`},
		{fn: "str.concat", args: slRec("parts", slList(slList(), slList(slList()), slList(1, slList(2, 3)), false)), want: `"1,2,3false"`},
		{fn: "str.concat", args: slRec("parts", slList(math.Inf(1), math.NaN(), math.Copysign(0, -1), 1e-7, 123456789012345680000.0)), want: `"InfinityNaN01e-7123456789012345680000"`},
		{fn: "str.concat", args: slRec("parts", slList(slUnits('a', 0xD83D), slUnits(0xDE00, 'b'))), want: `"a` + slEmoji + `b"`},
		{fn: "str.concat", args: slRec("parts", "ab"), want: `str.concat: 'parts' must be a list`, err: true},
		{fn: "str.concat", args: slRec(), want: `str.concat: 'parts' must be a list`, err: true},
		// str.split
		{fn: "str.split", args: slRec("in", "a,b,", "sep", ","), want: `["a","b",""]`},
		{fn: "str.split", args: slRec("in", "", "sep", ","), want: `[""]`},
		{fn: "str.split", args: slRec("in", ",", "sep", ","), want: `["",""]`},
		{fn: "str.split", args: slRec("in", "a::b:::c", "sep", "::"), want: `["a","b",":c"]`},
		{fn: "str.split", args: slRec("in", "abc", "sep", "abc"), want: `["",""]`},
		{fn: "str.split", args: slRec("in", "abc", "sep", "x"), want: `["abc"]`},
		{fn: "str.split", args: slRec("in", "abc", "sep", ""), want: `["a","b","c"]`},
		{fn: "str.split", args: slRec("in", "", "sep", ""), want: `[]`},
		{fn: "str.split", args: slRec("in", "a"+slEmoji, "sep", ""), want: `["a","\ud83d","\ude00"]`},
		{fn: "str.split", args: slRec("in", "é€", "sep", ""), want: `["é","€"]`},
		{fn: "str.split", args: slRec("in", "x"+slEmoji+"y", "sep", slUnits(0xD83D)), want: `["x","\ude00y"]`},
		{fn: "str.split", args: slRec("in", "x"+slEmoji+"y", "sep", slUnits(0xDE00)), want: `["x\ud83d","y"]`},
		{fn: "str.split", args: slRec("in", "x"+slEmoji+"y", "sep", slEmoji), want: `["x","y"]`},
		{fn: "str.split", args: slRec("in", 1, "sep", 2), want: `str.split: 'in' must be a string`, err: true},
		{fn: "str.split", args: slRec("in", "a"), want: `str.split: 'sep' must be a string`, err: true},
		{fn: "str.split", args: slRec("in", "a", "sep", slList(",")), want: `str.split: 'sep' must be a string`, err: true},
		// str.starts / str.ends
		{fn: "str.starts", args: slRec("in", "hello", "value", "he"), want: `true`},
		{fn: "str.starts", args: slRec("in", "hello", "value", ""), want: `true`},
		{fn: "str.starts", args: slRec("in", "hello", "value", "lo"), want: `false`},
		{fn: "str.starts", args: slRec("in", "he", "value", "hello"), want: `false`},
		{fn: "str.starts", args: slRec("in", slEmoji+"x", "value", slUnits(0xD83D)), want: `true`},
		{fn: "str.starts", args: slRec("in", slEmoji, "value", slUnits(0xDE00)), want: `false`},
		{fn: "str.starts", args: slRec("in", 1, "value", 2), want: `str.starts: 'in' must be a string`, err: true},
		{fn: "str.starts", args: slRec("in", "a"), want: `str.starts: 'value' must be a string`, err: true},
		{fn: "str.ends", args: slRec("in", "hello", "value", "llo"), want: `true`},
		{fn: "str.ends", args: slRec("in", "hello", "value", ""), want: `true`},
		{fn: "str.ends", args: slRec("in", "hello", "value", "he"), want: `false`},
		{fn: "str.ends", args: slRec("in", "x"+slEmoji, "value", slUnits(0xDE00)), want: `true`},
		{fn: "str.ends", args: slRec("in", slEmoji, "value", slUnits(0xD83D)), want: `false`},
		{fn: "str.ends", args: slRec("value", "a"), want: `str.ends: 'in' must be a string`, err: true},
		{fn: "str.ends", args: slRec("in", "a", "value", nil), want: `str.ends: 'value' must be a string`, err: true},
		// str.replace
		{fn: "str.replace", args: slRec("in", "a-b-c", "from", "-", "to", "+"), want: `"a+b+c"`},
		{fn: "str.replace", args: slRec("in", "aaa", "from", "aa", "to", "b"), want: `"ba"`},
		{fn: "str.replace", args: slRec("in", "abc", "from", "x", "to", "y"), want: `"abc"`},
		{fn: "str.replace", args: slRec("in", "abc", "from", "b", "to", ""), want: `"ac"`},
		{fn: "str.replace", args: slRec("in", "abc", "from", "", "to", "-"), want: `"-a-b-c-"`},
		{fn: "str.replace", args: slRec("in", "", "from", "", "to", "-"), want: `"-"`},
		{fn: "str.replace", args: slRec("in", "é", "from", "", "to", "-"), want: `"-é-"`},
		{fn: "str.replace", args: slRec("in", slEmoji, "from", "", "to", "-"), want: `"-\ud83d-\ude00-"`},
		{fn: "str.replace", args: slRec("in", slEmoji, "from", "", "to", ""), want: `"` + slEmoji + `"`},
		{fn: "str.replace", args: slRec("in", "ab", "from", "", "to", "[$`|$']"), want: `"[|ab]a[a|b]b[ab|]"`},
		{fn: "str.replace", args: slRec("in", "xay", "from", "a", "to", "[$$|$`|$'|$1]"), want: `"x[$|x|y|$1]y"`},
		{fn: "str.replace", args: slRec("in", "xay", "from", "a", "to", "<$&$&>"), want: `"x<aa>y"`},
		{fn: "str.replace", args: slRec("in", "xay", "from", "a", "to", "$0$<n>$"), want: `"x$0$<n>$y"`},
		{fn: "str.replace", args: slRec("in", "xay", "from", "a", "to", "$$$"), want: `"x$$y"`},
		{fn: "str.replace", args: slRec("in", "xay", "from", "a", "to", "$$$$"), want: `"x$$y"`},
		{fn: "str.replace", args: slRec("in", "a.a", "from", "a", "to", "($`)"), want: `"().(a.)"`},
		{fn: "str.replace", args: slRec("in", "x"+slEmoji+"y", "from", slUnits(0xDE00), "to", "Z"), want: `"x\ud83dZy"`},
		{fn: "str.replace", args: slRec("in", "x"+slEmoji+"y", "from", slUnits(0xD83D), "to", "[$&]"), want: `"x[\ud83d]\ude00y"`},
		{fn: "str.replace", args: slRec("in", slUnits('a', 0xD83D, 'b'), "from", "b", "to", slUnits(0xDE00)), want: `"a` + slEmoji + `"`},
		{fn: "str.replace", args: slRec("in", "a", "from", "a", "to", 1), want: `str.replace: 'to' must be a string`, err: true},
		{fn: "str.replace", args: slRec("in", "a", "to", 1), want: `str.replace: 'from' must be a string`, err: true},
		{fn: "str.replace", args: slRec("from", 1, "to", 1), want: `str.replace: 'in' must be a string`, err: true},
		// str.template
		{fn: "str.template", args: slRec("in", "Hi {name}, {n}!", "vars", slRec("name", "Ann", "n", 3)), want: `"Hi Ann, 3!"`},
		{fn: "str.template", args: slRec("in", "{a}{missing}{nul}", "vars", slRec("a", false, "nul", nil)), want: `"false{missing}{nul}"`},
		{fn: "str.template", args: slRec("in", "{x}|{y}|{z}|{w}", "vars", slRec("x", 0, "y", slRec("a", 1), "z", slList(1, nil, 2), "w", "")), want: `"0|[object Object]|1,,2|"`},
		{fn: "str.template", args: slRec("in", "{{a}}", "vars", slRec("a", 1)), want: `"{{a}}"`},
		{fn: "str.template", args: slRec("in", "{{a}}", "vars", slRec("{a", 1)), want: `"1}"`},
		{fn: "str.template", args: slRec("in", "{a}}", "vars", slRec("a", 1)), want: `"1}"`},
		{fn: "str.template", args: slRec("in", "{a", "vars", slRec("a", 1)), want: `"{a"`},
		{fn: "str.template", args: slRec("in", "{}{a}", "vars", slRec("a", 1, "", 2)), want: `"{}1"`},
		{fn: "str.template", args: slRec("in", "{ a.b }", "vars", slRec(" a.b ", "ok")), want: `"ok"`},
		{fn: "str.template", args: slRec("in", "{toString}", "vars", slRec()), want: `"{toString}"`},
		{fn: "str.template", args: slRec("in", "", "vars", slRec()), want: `""`},
		{fn: "str.template", args: slRec("in", "{a}{a}", "vars", slRec("a", "{a}")), want: `"{a}{a}"`},
		{fn: "str.template", args: slRec("in", "{x}", "vars", slRec("x", math.Inf(-1))), want: `"-Infinity"`},
		{fn: "str.template", args: slRec("in", "{h}{l}", "vars", slRec("h", slUnits(0xD83D), "l", slUnits(0xDE00))), want: `"` + slEmoji + `"`},
		{fn: "str.template", args: slRec("in", "x", "vars", slList()), want: `str.template: 'vars' must be a record`, err: true},
		{fn: "str.template", args: slRec("in", "x"), want: `str.template: 'vars' must be a record`, err: true},
		{fn: "str.template", args: slRec("vars", 1), want: `str.template: 'in' must be a string`, err: true},
	})
}

func slBigText() string {
	var b strings.Builder
	for b.Len() < 700_000 {
		b.WriteString("lorem ipsum dolor sit amet, consectetur adipiscing elit\n")
	}
	return b.String()
}

func TestSplitJoinRoundTrip(t *testing.T) {
	text := slBigText()
	for _, sep := range []string{"\n", " ", ", ", ""} {
		parts, err := fnStrSplit(NoLimits, slRec("in", text, "sep", sep).AsRecord())
		if err != nil {
			t.Fatal(err)
		}
		got, err := fnJoin(NoLimits, slRec("in", parts, "sep", sep).AsRecord())
		if err != nil {
			t.Fatal(err)
		}
		if got.AsString() != text {
			t.Errorf("split/join with %q does not round-trip", sep)
		}
	}
}

func BenchmarkSplitLines(b *testing.B) {
	args := slRec("in", slBigText(), "sep", "\n").AsRecord()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fnStrSplit(NoLimits, args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJoinLines(b *testing.B) {
	parts, _ := fnStrSplit(NoLimits, slRec("in", slBigText(), "sep", "\n").AsRecord())
	args := slRec("in", parts, "sep", "\n").AsRecord()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fnJoin(NoLimits, args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplace(b *testing.B) {
	args := slRec("in", slBigText(), "from", "ipsum", "to", "[$&]").AsRecord()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fnStrReplace(NoLimits, args); err != nil {
			b.Fatal(err)
		}
	}
}
