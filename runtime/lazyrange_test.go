package runtime

import (
	"context"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// TestLazyRange: for, filter, map, filter with fn and reduce over a range
// give the results and errors they gave when the list was built.
func TestLazyRange(t *testing.T) {
	fns := `fn add { acc, x } { return acc + x }
fn dbl { x } { return x * 2 }
fn odd { x } { return x % 2 == 1 }
`
	cases := []struct{ src, want string }{
		{`return for { in: range { from: -2, to: 3 }, as: "i" } { return i * 10 }`, `[-20,-10,0,10,20]`},
		{`return for { in: range { from: 3, to: 3 }, as: "i" } { return i }`, `[]`},
		{`return filter { in: range { from: 0, to: 10 }, as: "i" } { return i % 3 == 0 }`, `[0,3,6,9]`},
		{`return map { in: range { from: 1, to: 4 }, fn: "dbl" }`, `[2,4,6]`},
		{`return filter { in: range { from: 1, to: 6 }, fn: "odd" }`, `[1,3,5]`},
		{`return reduce { in: range { from: 0, to: 101 }, fn: "add", init: 0 }`, `5050`},
		{`return reduce { init: 7, fn: "add", in: range { from: 5, to: 1 } }`, `7`},
		{`return reduce { in: range { from: 0, to: 3 }, fn: "add", init: 0, in: [10] }`, `10`},
		{`return filter { in: range { from: 0, to: 4 }, fn: null }`, `E_FN`},
		{`return filter { in: range { from: 0, to: 4 }, fn: null, by: "x" }`, `[]`},
		{`return reduce { in: range { from: 0, to: 1.5 }, fn: "add", init: 0 }`, `E_FN`},
		{`return for { in: range { from: "a", to: 2 }, as: "i" } { return i }`, `E_FN`},
		{`return for { in: range { from: 0, to: 1000000000000 }, as: "i" } { return i }`, `E_FN`},
		{`return map { in: range { from: 0, to: 3 }, fn: 5 }`, `E_TYPE`},
	}
	for _, c := range cases {
		src := fns + c.src
		env, err := NewEnv()
		if err != nil {
			t.Fatal(err)
		}
		prog, ds := env.Compile("t.a0", src)
		if len(ds) > 0 {
			t.Fatalf("%s: %v", src, ds)
		}
		res, err := prog.Run(context.Background(), RunOptions{})
		got := ""
		if err != nil {
			got = string(err.(*Error).Code)
		} else {
			got = value.JSON(res.Value)
		}
		if got != c.want {
			t.Errorf("%s\n got %s (%v)\nwant %s", c.src, got, err, c.want)
		}
	}
}

// TestCallbackFrames: a map, filter or reduce callback reuses one frame
// across iterations, and each iteration still starts with its locals
// unset (a name read before the callback's own let sees the outer one).
func TestCallbackFrames(t *testing.T) {
	src := `let y = 100
fn f { acc, x } {
  let z = acc + y
  let y = x
  return z + y
}
fn g { x } {
  let a = y
  let y = x * 2
  return [a, y]
}
return [reduce { in: range { from: 1, to: 4 }, fn: "f", init: 0 }, map { in: [1, 2, 3], fn: "g" }, filter { in: range { from: 0, to: 5 }, fn: "g" }]`
	if got, want := runJSON(t, src), `[306,[[100,2],[100,4],[100,6]],[0,1,2,3,4]]`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
