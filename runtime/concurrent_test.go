package runtime_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
)

// concurrentProgram reads its input from a host tool, loops, calls a user
// function through reduce, records evidence and writes through an effect
// tool, so runs share the Program, the Env and the tools but nothing else.
const concurrentProgram = `cap { host: true }
budget { maxIterations: 1000, maxToolCalls: 3 }
fn add { acc, x } { return acc + x }
call? host.input {} -> n
let xs = for { in: range { from: 0, to: n }, as: "i" } { return i * 2 }
let total = reduce { in: xs, fn: "add", init: 0 }
check { that: len { in: xs } == n, msg: "length" }
check { that: total == n * (n - 1), msg: "sum" }
do host.output { id: n, total: total }
return { n: n, total: total, label: str.concat { parts: ["run-", n] } }
`

// TestConcurrentRuns runs one compiled Program from 100 goroutines with
// different inputs (RunOptions.Values) under `go test -race`: every result
// and every evidence list must be that run's own.
func TestConcurrentRuns(t *testing.T) {
	var calls atomic.Int64
	var mu sync.Mutex
	outputs := map[int]float64{}
	input, err := hosttool.New(hosttool.Def{
		Name: "host.input", Capability: "host", Mode: runtime.ModeRead,
		Func: func(c *runtime.Call) (value.Value, error) {
			calls.Add(1)
			return value.Int(c.Value("n").(int)), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	output, err := hosttool.New(hosttool.Def{
		Name: "host.output", Capability: "host", Mode: runtime.ModeEffect,
		Func: func(c *runtime.Call) (value.Value, error) {
			calls.Add(1)
			mu.Lock()
			defer mu.Unlock()
			outputs[int(c.Args.GetOrNull("id").AsNumber())] = c.Args.GetOrNull("total").AsNumber()
			return value.True, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	env, err := runtime.NewEnv(runtime.WithTools(input, output), runtime.WithGrants(runtime.AllowAll),
		runtime.WithBudgetCeiling(runtime.Budget{TimeMs: runtime.Limit(60000)}))
	if err != nil {
		t.Fatal(err)
	}
	prog, diags := env.Compile("concurrent.a0", concurrentProgram)
	if len(diags) > 0 {
		t.Fatal(diags)
	}

	const runs = 100
	results := make([]*runtime.Result, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range runs {
		wg.Go(func() {
			<-start
			results[i], errs[i] = prog.Run(context.Background(), runtime.RunOptions{Values: map[string]any{"n": i}})
		})
	}
	close(start)
	wg.Wait()

	for i := range runs {
		if errs[i] != nil {
			t.Errorf("run %d: %v", i, errs[i])
			continue
		}
		res := results[i]
		want := fmt.Sprintf(`{"n":%d,"total":%d,"label":"run-%d"}`, i, i*(i-1), i)
		if got := value.JSON(res.Value); got != want {
			t.Errorf("run %d: got %s, want %s", i, got, want)
		}
		if len(res.Evidence) != 2 || res.Failed {
			t.Errorf("run %d: evidence %s", i, value.JSON(value.ListOf(res.Evidence)))
		}
		if outputs[i] != float64(i*(i-1)) {
			t.Errorf("run %d: host saw total %v", i, outputs[i])
		}
	}
	if calls.Load() != 2*runs {
		t.Errorf("tool calls %d, want %d", calls.Load(), 2*runs)
	}

	// Budgets are per run: each run may make 3 tool calls, whatever the
	// others do.
	over, diags := env.Compile("over.a0", "cap { host: true }\nbudget { maxToolCalls: 1 }\ncall? host.input {} -> a\ncall? host.input {} -> b\nreturn a")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var budgetErrs atomic.Int64
	for i := range runs {
		wg.Go(func() {
			_, err := over.Run(context.Background(), runtime.RunOptions{Values: map[string]any{"n": i}})
			if e, ok := err.(*runtime.Error); ok && e.Code == "E_BUDGET" {
				budgetErrs.Add(1)
			}
		})
	}
	wg.Wait()
	if budgetErrs.Load() != runs {
		t.Errorf("E_BUDGET in %d of %d runs", budgetErrs.Load(), runs)
	}
}

// TestConcurrentCancel: cancelling one run does not disturb the others.
func TestConcurrentCancel(t *testing.T) {
	env, _ := runtime.NewEnv()
	prog, diags := env.Compile("spin.a0", `let xs = for { in: range { from: 0, to: 100000 }, as: "i" } { return i }
return len { in: xs }`)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var wg sync.WaitGroup
	errs := make([]error, 10)
	vals := make([]string, 10)
	for i := range 10 {
		ctx, cancel := context.WithCancel(context.Background())
		if i%2 == 0 {
			cancel()
		}
		wg.Go(func() {
			defer cancel()
			res, err := prog.Run(ctx, runtime.RunOptions{})
			errs[i] = err
			if err == nil {
				vals[i] = value.JSON(res.Value)
			}
		})
	}
	wg.Wait()
	for i := range 10 {
		if i%2 == 0 {
			if e, ok := errs[i].(*runtime.Error); !ok || e.Code != "E_CANCELLED" {
				t.Errorf("run %d: %v, want E_CANCELLED", i, errs[i])
			}
		} else if errs[i] != nil || vals[i] != "100000" {
			t.Errorf("run %d: %v %s", i, errs[i], vals[i])
		}
	}
}
