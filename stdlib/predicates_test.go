package stdlib

import (
	"math"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// Test helpers shared by predicates_test.go, lists_test.go, strings_test.go
// and records_test.go. The sl prefix keeps them apart from other files'
// helpers in this package.

// slVal converts a Go value: nil → null, bool, int, float64, string,
// []any → list, value.Value as is.
func slVal(x any) value.Value {
	switch x := x.(type) {
	case nil:
		return value.NullValue
	case value.Value:
		return x
	case bool:
		return value.BoolOf(x)
	case int:
		return value.Int(x)
	case float64:
		return value.Num(x)
	case string:
		return value.Str(x)
	case []any:
		return slList(x...)
	}
	panic("slVal: unsupported type")
}

func slList(xs ...any) value.Value {
	items := make([]value.Value, len(xs))
	for i, x := range xs {
		items[i] = slVal(x)
	}
	return value.ListOf(items)
}

// slRec builds a record from key, value pairs.
func slRec(kv ...any) value.Value {
	r := value.NewRecord(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		r.Set(kv[i].(string), slVal(kv[i+1]))
	}
	return value.RecordOf(r)
}

// slUnits builds a string from UTF-16 code units (for lone surrogates).
func slUnits(u ...uint16) value.Value { return value.Str(value.FromUnits(u)) }

type slCase struct {
	fn   string
	args value.Value // a record
	want string      // compact JSON of the result, or the error text
	err  bool
}

func slRun(t *testing.T, cases []slCase) {
	t.Helper()
	for i, c := range cases {
		f, ok := Lookup(c.fn)
		if !ok {
			t.Errorf("#%d: %s not registered", i, c.fn)
			continue
		}
		before := value.JSON(c.args)
		got, err := f(NoLimits, c.args.AsRecord())
		if after := value.JSON(c.args); after != before {
			t.Errorf("#%d %s %s: arguments mutated to %s", i, c.fn, before, after)
		}
		switch {
		case c.err && err == nil:
			t.Errorf("#%d %s %s: got %s, want error %q", i, c.fn, before, value.JSON(got), c.want)
		case c.err && err.Error() != c.want:
			t.Errorf("#%d %s %s: error %q, want %q", i, c.fn, before, err.Error(), c.want)
		case !c.err && err != nil:
			t.Errorf("#%d %s %s: error %q, want %s", i, c.fn, before, err.Error(), c.want)
		case !c.err && value.JSON(got) != c.want:
			t.Errorf("#%d %s %s: got %s, want %s", i, c.fn, before, value.JSON(got), c.want)
		}
	}
}

func TestPredicates(t *testing.T) {
	nan := math.NaN()
	emoji := "\U0001F600"
	slRun(t, []slCase{
		// eq
		{fn: "eq", args: slRec(), want: `true`},
		{fn: "eq", args: slRec("a", 1), want: `false`},
		{fn: "eq", args: slRec("a", nil), want: `true`},
		{fn: "eq", args: slRec("a", 1, "b", 1.0), want: `true`},
		{fn: "eq", args: slRec("a", 1, "b", "1"), want: `false`},
		{fn: "eq", args: slRec("a", 0, "b", false), want: `false`},
		{fn: "eq", args: slRec("a", 0, "b", math.Copysign(0, -1)), want: `true`},
		{fn: "eq", args: slRec("a", nan, "b", nan), want: `false`},
		{fn: "eq", args: slRec("a", slRec("x", 1, "y", 2), "b", slRec("y", 2, "x", 1)), want: `true`},
		{fn: "eq", args: slRec("a", slRec("x", nil), "b", slRec()), want: `false`},
		{fn: "eq", args: slRec("a", slList(1, slList(2)), "b", slList(1, slList(2))), want: `true`},
		{fn: "eq", args: slRec("a", slList(1, 2), "b", slList(2, 1)), want: `false`},
		// contains
		{fn: "contains", args: slRec("in", "hello", "value", "ell"), want: `true`},
		{fn: "contains", args: slRec("in", "hello", "value", ""), want: `true`},
		{fn: "contains", args: slRec("in", "", "value", ""), want: `true`},
		{fn: "contains", args: slRec("in", "hello", "value", "L"), want: `false`},
		{fn: "contains", args: slRec("in", "a1", "value", 1), want: `false`},
		{fn: "contains", args: slRec("in", "hello"), want: `false`},
		{fn: "contains", args: slRec("in", emoji, "value", slUnits(0xD83D)), want: `true`},
		{fn: "contains", args: slRec("in", "a"+emoji, "value", slUnits(0xDE00)), want: `true`},
		{fn: "contains", args: slRec("in", "a"+emoji, "value", slUnits('a', 0xD83D)), want: `true`},
		{fn: "contains", args: slRec("in", "a"+emoji, "value", slUnits(0xDE01)), want: `false`},
		{fn: "contains", args: slRec("in", slUnits('x', 0xD83D, 'y'), "value", slUnits(0xD83D)), want: `true`},
		{fn: "contains", args: slRec("in", slList(1, "a", slRec("k", 1)), "value", slRec("k", 1.0)), want: `true`},
		{fn: "contains", args: slRec("in", slList(1, "a"), "value", "1"), want: `false`},
		{fn: "contains", args: slRec("in", slList(nil)), want: `true`},
		{fn: "contains", args: slRec("in", slList()), want: `false`},
		{fn: "contains", args: slRec("in", slList(nan), "value", nan), want: `false`},
		{fn: "contains", args: slRec("in", slRec("k", nil), "value", "k"), want: `true`},
		{fn: "contains", args: slRec("in", slRec("k", 1), "value", "v"), want: `false`},
		{fn: "contains", args: slRec("in", slRec("1", 1), "value", 1), want: `false`},
		{fn: "contains", args: slRec("in", slRec("k", 1), "value", slList("k")), want: `false`},
		{fn: "contains", args: slRec("in", slRec("a", 1), "value", "constructor"), want: `false`},
		{fn: "contains", args: slRec("in", 12, "value", 1), want: `false`},
		{fn: "contains", args: slRec("value", nil), want: `false`},
		{fn: "contains", args: slRec(), want: `false`},
		// not / and / or
		{fn: "not", args: slRec(), want: `true`},
		{fn: "not", args: slRec("in", slList()), want: `false`},
		{fn: "not", args: slRec("in", slRec()), want: `false`},
		{fn: "not", args: slRec("in", 0), want: `true`},
		{fn: "not", args: slRec("in", math.Copysign(0, -1)), want: `true`},
		{fn: "not", args: slRec("in", nan), want: `false`},
		{fn: "not", args: slRec("in", ""), want: `true`},
		{fn: "not", args: slRec("in", "0"), want: `false`},
		{fn: "not", args: slRec("in", "false"), want: `false`},
		{fn: "not", args: slRec("in", false), want: `true`},
		{fn: "and", args: slRec("a", 1, "b", "x"), want: `true`},
		{fn: "and", args: slRec("a", 1, "b", ""), want: `false`},
		{fn: "and", args: slRec("a", 1), want: `false`},
		{fn: "and", args: slRec(), want: `false`},
		{fn: "and", args: slRec("a", slList(), "b", slRec()), want: `true`},
		{fn: "or", args: slRec("a", 0, "b", nil), want: `false`},
		{fn: "or", args: slRec("a", 0, "b", "0"), want: `true`},
		{fn: "or", args: slRec("b", true), want: `true`},
		{fn: "or", args: slRec(), want: `false`},
		// coalesce
		{fn: "coalesce", args: slRec("in", 0, "default", 5), want: `0`},
		{fn: "coalesce", args: slRec("in", false, "default", 5), want: `false`},
		{fn: "coalesce", args: slRec("in", "", "default", 5), want: `""`},
		{fn: "coalesce", args: slRec("in", nil, "default", 5), want: `5`},
		{fn: "coalesce", args: slRec("default", slList(1)), want: `[1]`},
		{fn: "coalesce", args: slRec("in", slRec("a", nil)), want: `{"a":null}`},
		{fn: "coalesce", args: slRec("in", nil), want: `null`},
		{fn: "coalesce", args: slRec(), want: `null`},
		// typeof
		{fn: "typeof", args: slRec(), want: `"null"`},
		{fn: "typeof", args: slRec("in", nil), want: `"null"`},
		{fn: "typeof", args: slRec("in", true), want: `"boolean"`},
		{fn: "typeof", args: slRec("in", 42), want: `"number"`},
		{fn: "typeof", args: slRec("in", 3.14), want: `"number"`},
		{fn: "typeof", args: slRec("in", nan), want: `"number"`},
		{fn: "typeof", args: slRec("in", ""), want: `"string"`},
		{fn: "typeof", args: slRec("in", slList()), want: `"list"`},
		{fn: "typeof", args: slRec("in", slRec()), want: `"record"`},
	})
}
