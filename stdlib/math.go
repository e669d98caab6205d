package stdlib

import (
	"math"

	"github.com/a0lang/a0/lang/value"
)

// Math functions (spec/stdlib.md "Math").

func init() {
	register("math.max", func(_ Limits, args *value.Record) (value.Value, error) {
		return extremum(args, "math.max", math.Inf(-1), func(x, best float64) bool { return x > best })
	})
	register("math.min", func(_ Limits, args *value.Record) (value.Value, error) {
		return extremum(args, "math.min", math.Inf(1), func(x, best float64) bool { return x < best })
	})
}

// extremum checks 'in' and then walks it from start (-Infinity for math.max,
// +Infinity for math.min), taking an element only when better says it beats the
// best so far. A NaN element never beats anything, so it is passed over and a list
// of NaN alone gives start; between equal values (0 and -0) the first one stays.
func extremum(args *value.Record, name string, start float64, better func(x, best float64) bool) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail(name + ": 'in' must be a list")
	}
	items := in.AsList()
	if len(items) == 0 {
		return value.Value{}, fail(name + ": list must not be empty")
	}
	best := start
	for _, it := range items {
		if it.Kind() != value.Number {
			return value.Value{}, fail(name + ": all elements must be numbers")
		}
		if x := it.AsNumber(); better(x, best) {
			best = x
		}
	}
	return value.Num(best), nil
}
