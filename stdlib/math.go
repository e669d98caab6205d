package stdlib

import (
	"math"

	"github.com/a0lang/a0/lang/value"
)

// Math functions (spec/stdlib.md "Math").

func init() {
	register("math.max", func(_ Limits, args *value.Record) (value.Value, error) { return extremum(args, "math.max", math.Max) })
	register("math.min", func(_ Limits, args *value.Record) (value.Value, error) { return extremum(args, "math.min", math.Min) })
}

// extremum folds the numbers of 'in' with pick (math.Max/math.Min have
// JavaScript's NaN and signed-zero behaviour).
func extremum(args *value.Record, name string, pick func(x, y float64) float64) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail(name + ": 'in' must be a list")
	}
	items := in.AsList()
	if len(items) == 0 {
		return value.Value{}, fail(name + ": list must not be empty")
	}
	for _, it := range items {
		if it.Kind() != value.Number {
			return value.Value{}, fail(name + ": all elements must be numbers")
		}
	}
	r := items[0].AsNumber()
	for _, it := range items[1:] {
		r = pick(r, it.AsNumber())
	}
	return value.Num(r), nil
}
