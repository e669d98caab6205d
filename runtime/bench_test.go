package runtime

import (
	"context"
	"testing"
)

func benchProgram(b *testing.B, src string) {
	env, err := NewEnv()
	if err != nil {
		b.Fatal(err)
	}
	prog, ds := env.Compile("b.a0", src)
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := prog.Run(context.Background(), RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFib measures user-function calls: fib(20) is 21891 calls.
func BenchmarkFib(b *testing.B) {
	benchProgram(b, `fn fib { n } {
  return if { cond: n < 2, then: n, else: fib { n: n - 1 } + fib { n: n - 2 } }
}
return fib { n: 20 }`)
}

// BenchmarkLoop measures a for loop with arithmetic over 10 000 elements.
func BenchmarkLoop(b *testing.B) {
	benchProgram(b, `budget { maxIterations: 100000 }
let xs = range { from: 0, to: 10000 }
let ys = for { in: xs, as: "x" } { return x * 2 + 1 }
return len { in: ys }`)
}

// BenchmarkRecords measures record building, spread and field access.
func BenchmarkRecords(b *testing.B) {
	benchProgram(b, `budget { maxIterations: 100000 }
let xs = range { from: 0, to: 5000 }
let rs = for { in: xs, as: "x" } {
  let r = { id: x, name: "n", tags: [x, x + 1] }
  return { ...r, score: r.id * 2 }
}
return len { in: rs }`)
}
