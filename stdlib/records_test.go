package stdlib

import (
	"math"
	"testing"
)

func TestRecordFunctions(t *testing.T) {
	// Index-like keys come first (ascending), other keys in insertion order.
	mixed := slRec("b", 1, "2", 2, "1", 3, "a", 4, "-1", 5, "01", 6)
	slRun(t, []slCase{
		// keys
		{fn: "keys", args: slRec("in", slRec("b", 1, "a", 2)), want: `["b","a"]`},
		{fn: "keys", args: slRec("in", mixed), want: `["1","2","b","a","-1","01"]`},
		{fn: "keys", args: slRec("in", slRec()), want: `[]`},
		{fn: "keys", args: slRec("in", slList(1)), want: `keys: 'in' must be a record`, err: true},
		{fn: "keys", args: slRec(), want: `keys: 'in' must be a record`, err: true},
		// values
		{fn: "values", args: slRec("in", slRec("b", 1, "a", slList(nil))), want: `[1,[null]]`},
		{fn: "values", args: slRec("in", mixed), want: `[3,2,1,4,5,6]`},
		{fn: "values", args: slRec("in", slRec()), want: `[]`},
		{fn: "values", args: slRec("in", "x"), want: `values: 'in' must be a record`, err: true},
		// entries
		{fn: "entries", args: slRec("in", slRec("b", 1, "0", nil)), want: `[{"key":"0","value":null},{"key":"b","value":1}]`},
		{fn: "entries", args: slRec("in", slRec()), want: `[]`},
		{fn: "entries", args: slRec("in", nil), want: `entries: 'in' must be a record`, err: true},
		// merge
		{fn: "merge", args: slRec("a", slRec("a", 1, "b", 2), "b", slRec("c", 3, "a", 9)), want: `{"a":9,"b":2,"c":3}`},
		{fn: "merge", args: slRec("a", slRec("x", 1), "b", slRec("7", 2, "y", nil)), want: `{"7":2,"x":1,"y":null}`},
		{fn: "merge", args: slRec("a", slRec(), "b", slRec()), want: `{}`},
		{fn: "merge", args: slRec("a", slRec("a", 1), "b", slRec()), want: `{"a":1}`},
		{fn: "merge", args: slRec("a", slRec(), "b", slRec("a", slRec("n", 1))), want: `{"a":{"n":1}}`},
		{fn: "merge", args: slRec("a", slRec("a", 1)), want: `merge: 'a' and 'b' must be records`, err: true},
		{fn: "merge", args: slRec("a", slList(), "b", slRec()), want: `merge: 'a' and 'b' must be records`, err: true},
	})
}

func TestMathFunctions(t *testing.T) {
	nan := math.NaN()
	slRun(t, []slCase{
		{fn: "math.max", args: slRec("in", slList(3, -1, 7.5, 2)), want: `7.5`},
		{fn: "math.max", args: slRec("in", slList(-3)), want: `-3`},
		{fn: "math.max", args: slRec("in", slList(1, math.Inf(1))), want: `null`},
		{fn: "math.min", args: slRec("in", slList(3, -1, 7.5, 2)), want: `-1`},
		{fn: "math.min", args: slRec("in", slList(0.1, 0.2)), want: `0.1`},
		{fn: "math.min", args: slRec("in", slList(1, math.Inf(-1))), want: `null`},
		// NaN elements are skipped wherever they stand.
		{fn: "math.max", args: slRec("in", slList(nan, -4, nan, -6)), want: `-4`},
		{fn: "math.min", args: slRec("in", slList(8, nan, 5.5)), want: `5.5`},
		{fn: "math.max", args: slRec("in", "1"), want: `math.max: 'in' must be a list`, err: true},
		{fn: "math.max", args: slRec(), want: `math.max: 'in' must be a list`, err: true},
		{fn: "math.max", args: slRec("in", slList()), want: `math.max: list must not be empty`, err: true},
		{fn: "math.max", args: slRec("in", slList(1, "2")), want: `math.max: all elements must be numbers`, err: true},
		{fn: "math.max", args: slRec("in", slList(nil)), want: `math.max: all elements must be numbers`, err: true},
		{fn: "math.max", args: slRec("in", slList(nan, true)), want: `math.max: all elements must be numbers`, err: true},
		{fn: "math.min", args: slRec("in", slRec()), want: `math.min: 'in' must be a list`, err: true},
		{fn: "math.min", args: slRec("in", slList()), want: `math.min: list must not be empty`, err: true},
		{fn: "math.min", args: slRec("in", slList(slList(1))), want: `math.min: all elements must be numbers`, err: true},
	})
	// Values the JSON form cannot tell apart: a list of NaN alone gives the starting
	// infinity (-Infinity for max, +Infinity for min), and of two equal zeros the first
	// one stays.
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		fn   string
		in   []any
		want float64
		neg  bool
	}{
		{"math.max", []any{nan}, math.Inf(-1), true},
		{"math.max", []any{nan, nan}, math.Inf(-1), true},
		{"math.min", []any{nan}, math.Inf(1), false},
		{"math.max", []any{negZero, 0}, 0, true},
		{"math.max", []any{0, negZero}, 0, false},
		{"math.min", []any{0, negZero}, 0, false},
		{"math.min", []any{negZero, 0}, 0, true},
	} {
		f, _ := Lookup(c.fn)
		v, err := f(NoLimits, slRec("in", slList(c.in...)).AsRecord())
		if err != nil {
			t.Fatalf("%s %v: %v", c.fn, c.in, err)
		}
		if n := v.AsNumber(); n != c.want || math.Signbit(n) != c.neg {
			t.Errorf("%s %v = %v (negative %v), want %v (negative %v)", c.fn, c.in, n, math.Signbit(n), c.want, c.neg)
		}
	}
}
