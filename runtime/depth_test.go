package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// TestCallbackDepth checks that map, filter and reduce callbacks count one
// call level each, that the limit is hit at the same depth as with plain
// calls, and that the level is given back after a caught failure.
func TestCallbackDepth(t *testing.T) {
	const down = `fn down { acc, n } {
  return if { cond: n <= 0, then: 0, else: reduce { in: [n - 1], fn: "down", init: 0 } }
}
`
	cases := []struct {
		name, src, want string
	}{
		// down recurses through reduce: each level is one callback call.
		{"reduce-limit", down + `return down { acc: 0, n: 10 }`, "E_RUNTIME"},
		{"reduce-fits", down + `return down { acc: 0, n: 7 }`, "0"},
		{"map-limit", `fn m { n } {
  return if { cond: n <= 0, then: 0, else: map { in: [n - 1], fn: "m" } }
}
return m { n: 10 }`, "E_RUNTIME"},
		{"map-fits", `fn m { n } {
  return if { cond: n <= 0, then: 0, else: map { in: [n - 1], fn: "m" } }
}
return m { n: 7 }`, "[[[[[[[0]]]]]]]"},
		{"filter-limit", `fn p { n } {
  return if { cond: n <= 0, then: true, else: filter { in: [n - 1], fn: "p" } }
}
return p { n: 10 }`, "E_RUNTIME"},
		// After caught depth failures inside reduce and map, the run's
		// depth is back where it was: a call chain that just fits still
		// fits.
		{"restored", down + `fn m { n } {
  return if { cond: n <= 0, then: 0, else: map { in: [n - 1], fn: "m" } }
}
fn chain { n } { return if { cond: n <= 1, then: 1, else: chain { n: n - 1 } } }
let a = try { return down { acc: 0, n: 10 } } catch { e } { return e.code }
let b = try { return m { n: 10 } } catch { e } { return e.code }
return [a, b, chain { n: 8 }]`, `["E_RUNTIME","E_RUNTIME",1]`},
	}
	env, err := runtime.NewEnv(runtime.WithMaxDepth(8))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog, ds := env.Compile("t.a0", c.src)
			if len(ds) > 0 {
				t.Fatal(ds)
			}
			res, err := prog.Run(context.Background(), runtime.RunOptions{})
			got := ""
			if err != nil {
				e, ok := err.(*runtime.Error)
				if !ok {
					t.Fatal(err)
				}
				got = string(e.Code)
				if !strings.Contains(e.Message, "Maximum call depth of 8") {
					t.Errorf("message %q", e.Message)
				}
			} else {
				got = value.JSON(res.Value)
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}
