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
		{fn: "math.max", args: slRec("in", slList(1, nan, 2)), want: `null`},
		{fn: "math.min", args: slRec("in", slList(3, -1, 7.5, 2)), want: `-1`},
		{fn: "math.min", args: slRec("in", slList(0.1, 0.2)), want: `0.1`},
		{fn: "math.min", args: slRec("in", slList(1, math.Inf(-1))), want: `null`},
		{fn: "math.max", args: slRec("in", "1"), want: `math.max: 'in' must be a list`, err: true},
		{fn: "math.max", args: slRec(), want: `math.max: 'in' must be a list`, err: true},
		{fn: "math.max", args: slRec("in", slList()), want: `math.max: list must not be empty`, err: true},
		{fn: "math.max", args: slRec("in", slList(1, "2")), want: `math.max: all elements must be numbers`, err: true},
		{fn: "math.max", args: slRec("in", slList(nil)), want: `math.max: all elements must be numbers`, err: true},
		{fn: "math.min", args: slRec("in", slRec()), want: `math.min: 'in' must be a list`, err: true},
		{fn: "math.min", args: slRec("in", slList()), want: `math.min: list must not be empty`, err: true},
		{fn: "math.min", args: slRec("in", slList(slList(1))), want: `math.min: all elements must be numbers`, err: true},
	})
	// Signed zeros follow JavaScript: max(-0, 0) is +0, min(0, -0) is -0.
	negZero := math.Copysign(0, -1)
	v, _ := extremum(slRec("in", slList(negZero, 0)).AsRecord(), "math.max", math.Max)
	if math.Signbit(v.AsNumber()) {
		t.Error("math.max(-0, 0) should be +0")
	}
	v, _ = extremum(slRec("in", slList(0, negZero)).AsRecord(), "math.min", math.Min)
	if !math.Signbit(v.AsNumber()) {
		t.Error("math.min(0, -0) should be -0")
	}
}
