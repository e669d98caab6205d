package runtime

import (
	"context"
	"os"
	"strconv"
	"strings"
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

// BenchmarkCompile measures what `a0 check` does to a program: lex, parse,
// validate and compile. A0_BENCH_PARSE_FILE names another program to use
// (../shared/bench's gen.py writes a 10 000-line one).
func BenchmarkCompile(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 300; i++ {
		sb.WriteString("fn f" + strconv.Itoa(i) + ` { a, b } {
  let r = { x: a + b * 2, y: [1, "t", true], ...{ z: -a } }
  let l = for { in: [1, 2, 3], as: "i" } { return i * r.x }
  let c = if (a >= 10) { return "big" } else { return "small" }
  return { r: r, l: l, c: c }
}
`)
	}
	sb.WriteString("return 1\n")
	src := sb.String()
	if p := os.Getenv("A0_BENCH_PARSE_FILE"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		src = string(data)
	}
	env, err := NewEnv()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ds := env.Compile("b.a0", src); len(ds) > 0 {
			b.Fatal(ds)
		}
	}
}

// BenchmarkLoopSum measures reduce with a user callback over a range (the
// peers suite's loop workload, at a tenth of its size).
func BenchmarkLoopSum(b *testing.B) {
	benchProgram(b, `fn add { acc, x } {
  return acc + x
}
return reduce { in: range { from: 0, to: 300000 }, fn: "add", init: 0 }`)
}

// BenchmarkLoopRecord measures loop with a record state rebuilt and read
// on every step.
func BenchmarkLoopRecord(b *testing.B) {
	benchProgram(b, `let st = loop { in: { i: 0, s: 0 }, times: 100000, as: "st" } {
  return { i: st.i + 1, s: st.s + st.i % 7 }
}
return st.s`)
}

// BenchmarkStrings measures string building and splitting with the
// stdlib (the peers suite's strings workload, at a tenth of its size).
func BenchmarkStrings(b *testing.B) {
	benchProgram(b, "budget { maxIterations: 100000 }\n"+stringsWorkload(5000, false))
}

// stringsWorkload builds n lines, joins, splits and filters them on a
// field, and with replace also replaces in the whole text.
func stringsWorkload(n int, replace bool) string {
	src := `let lines = for { in: range { from: 0, to: ` + strconv.Itoa(n) + ` }, as: "i" } {
  return str.concat { parts: ["item-", i, ",key", i % 97, ",", (i * 31) % 1000] }
}
let text = join { in: lines, sep: "\n" }
let back = str.split { in: text, sep: "\n" }
let hits = filter { in: back, as: "l" } {
  let parts = str.split { in: l, sep: "," }
  return get { in: parts, path: "[1]" } == "key7"
}
`
	if !replace {
		return src + `return [len { in: back }, len { in: text }, len { in: hits }]`
	}
	return src + `let upper = str.replace { in: text, from: "key", to: "KEY" }
return [len { in: back }, len { in: text }, len { in: hits }, len { in: upper }]`
}

// The peers suite's workloads at full size (../shared/bench/peers,
// scripts/*.a0): compile once, run per iteration.

// BenchmarkPeersFib is recursive fib(27), about 636k user-function calls.
func BenchmarkPeersFib(b *testing.B) {
	benchProgram(b, `fn fib { n } {
  return if { cond: n < 2, then: n, else: fib { n: n - 1 } + fib { n: n - 2 } }
}
return [fib { n: 27 }]`)
}

// BenchmarkPeersLoop is the sum of 0..2999999 by reduce over a range.
func BenchmarkPeersLoop(b *testing.B) {
	benchProgram(b, `fn add { acc, x } {
  return acc + x
}
return [reduce { in: range { from: 0, to: 3000000 }, fn: "add", init: 0 }]`)
}

// BenchmarkPeersStrings builds 50k lines, joins, splits, filters on a
// field and replaces in the 1 MB text.
func BenchmarkPeersStrings(b *testing.B) {
	benchProgram(b, stringsWorkload(50000, true))
}
