package runtime

import (
	"context"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// embedHello is the tiny program an embedding host compiles and runs from
// source per request: a binding, a list, an addition.
const embedHello = `let greeting = "hello"
return [greeting, 1 + 2]`

// BenchmarkEmbedCompileRun measures what a host pays per request when it
// compiles a small program from source and runs it in fresh state: one
// Env for the process, then Compile and Run every time.
func BenchmarkEmbedCompileRun(b *testing.B) {
	env, err := NewEnv(WithGrants(AllowAll))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		prog, ds := env.Compile("work.a0", embedHello)
		if len(ds) > 0 {
			b.Fatal(ds)
		}
		res, err := prog.Run(ctx, RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if xs, _ := value.ToGo(res.Value).([]any); len(xs) != 2 {
			b.Fatal(res.Value)
		}
	}
}

// BenchmarkEmbedRun measures the run alone of an already compiled small
// program: a run's set-up and tear-down.
func BenchmarkEmbedRun(b *testing.B) {
	env, err := NewEnv(WithGrants(AllowAll))
	if err != nil {
		b.Fatal(err)
	}
	prog, ds := env.Compile("work.a0", embedHello)
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := prog.Run(ctx, RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbedCompile measures the compile alone of a small program.
func BenchmarkEmbedCompile(b *testing.B) {
	env, err := NewEnv(WithGrants(AllowAll))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ds := env.Compile("work.a0", embedHello); len(ds) > 0 {
			b.Fatal(ds)
		}
	}
}
