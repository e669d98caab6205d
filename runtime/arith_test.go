package runtime

import (
	"context"
	"math"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// runJSON runs src and returns its result as compact JSON.
func runJSON(t *testing.T, src string) string {
	t.Helper()
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", src)
	if len(ds) > 0 {
		t.Fatalf("%s: %v", src, ds)
	}
	res, err := prog.Run(context.Background(), RunOptions{})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return value.JSON(res.Value)
}

// TestModNum: the integer fast path of % gives exactly math.Mod's bits
// (JavaScript's %) on every edge: signs, -0, NaN, infinities, fractions
// and the limits of exact integers.
func TestModNum(t *testing.T) {
	negZero := math.Copysign(0, -1)
	const big = 1 << 53
	xs := []float64{0, negZero, 1, -1, 2, -2, 7, -7, 10, -10, 9.5, -9.5, 0.1, 1e300, -1e300,
		big, -big, big - 1, -(big - 1), big + 2, -(big + 2), 1 << 62, -(1 << 62), 1 << 63, -(1 << 63),
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64}
	ys := append([]float64{3, -3, 0.5, -0.25}, xs...)
	for _, x := range xs {
		for _, y := range ys {
			if y == 0 {
				continue // an error before % is computed
			}
			got, want := modNum(x, y), math.Mod(x, y)
			if math.IsNaN(want) {
				if !math.IsNaN(got) {
					t.Errorf("%v %% %v = %v, want NaN", x, y, got)
				}
				continue
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%v %% %v = %v (signbit %v), want %v (signbit %v)", x, y, got, math.Signbit(got), want, math.Signbit(want))
			}
		}
	}
}

// TestArithmeticResults: operators with constant and variable operands
// print exactly as before (JavaScript number semantics).
func TestArithmeticResults(t *testing.T) {
	cases := []struct{ src, want string }{
		{`let a = -4
return [a % 2, a % -3, 4 % -3, -0 % 5, 5.5 % 2, 2 % 0.75]`, `[0,-1,1,0,1.5,0.5]`},
		{`let a = 9007199254740992
return [a + 1, a + 2, a % 7, -a % 7, a * 2 % 3]`, `[9007199254740992,9007199254740994,4,-4,1]`},
		{`let x = 0.1
return [x + 0.2, 1 / 3, 2 - x, x * 3, 10 - 1 < 9, 1 < x, x <= 0.1, 3 >= 3, 1 == 1.0, "a" < "b"]`,
			`[0.30000000000000004,0.3333333333333333,1.9,0.30000000000000004,false,false,true,true,true,true]`},
		{`let n = 7
return [n - 1, 1 - n, n % 2 == 1, n / 2, -n % 2]`, `[6,-6,true,3.5,-1]`},
	}
	for _, c := range cases {
		if got := runJSON(t, c.src); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

// TestStringPlusJoinsSurrogates: + concatenates UTF-16 units, so the halves of a
// pair written as two strings become one character, equal to the pair written
// whole; halves that do not meet as high-then-low stay lone units.
func TestStringPlusJoinsSurrogates(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"let a = \"\\ud83c\"\nlet b = \"\\udf89\"\nreturn [a + b, a + b == \"🎉\", len { in: a + b }, contains { in: [\"\\ud83c\\udf89\"], value: a + b }, unique { in: [a + b, \"🎉\"] }]",
			`["🎉",true,2,true,["🎉"]]`},
		{"let a = \"\\ud83c\"\nreturn [\"x\" + a + \"\\udf89y\", a + a, \"\\udf89\" + a]", `["x🎉y","\ud83c\ud83c","\udf89\ud83c"]`},
	} {
		if got := runJSON(t, c.src); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}
