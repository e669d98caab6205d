package runtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// TestMemoryLimit: a run that grows past WithMemoryLimit ends with
// E_BUDGET (budget "memory"), which try/catch cannot swallow — both when a
// concatenation would build a string past the limit and when the heap
// monitor sees the values grow.
func TestMemoryLimit(t *testing.T) {
	cases := map[string]string{
		"concat": `let s = loop { in: "x", times: 40, as: "acc" } { return acc + acc }
return len { in: s }`,
		"heap": `budget { maxIterations: 100000000 }
let r = try {
  let xs = range { from: 0, to: 5000000 }
  let ys = for { in: xs, as: "x" } { return { v: x } }
  return len { in: ys }
} catch { e } { return "caught" }
return r`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			env, err := runtime.NewEnv(runtime.WithMemoryLimit(32 << 20))
			if err != nil {
				t.Fatal(err)
			}
			prog, ds := env.Compile("m.a0", src)
			if len(ds) > 0 {
				t.Fatal(ds.JSONArray())
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, err = prog.Run(ctx, runtime.RunOptions{})
			e, ok := err.(*runtime.Error)
			if !ok || e.Code != "E_BUDGET" || !strings.Contains(e.Message, "memory limit") {
				t.Fatalf("got %v", err)
			}
			if got := value.JSON(e.Details.AsRecord().GetOrNull("budget")); got != `"memory"` {
				t.Errorf("details %s", value.JSON(e.Details))
			}
		})
	}
}
