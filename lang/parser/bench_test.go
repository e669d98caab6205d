package parser

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// benchSource builds a program of n copies of a block that uses every
// statement and expression form.
func benchSource(n int) string {
	const block = `fn f%d { a, b } {
  let s = a + b * 2 - (a % 3)
  let r = { x: s, y: [1, 2.5, "t", true, null], ...{ z: -a } }
  let l = for { in: [1, 2, 3], as: "i" } { return i * s }
  let k = filter { in: l, as: "v" } { return v > 2 }
  let m = match (r) { ok { v } { return v } err { e } { return e } }
  let t = try { return get { in: r, path: "x" } } catch { e } { return e.message }
  let c = if (s >= 10) { return "big" } else { return "small" }
  let d = if { cond: s == 3, then: 1, else: 2 }
  let n = loop { in: 0, times: 3, as: "acc" } { return acc + 1 }
  check { that: n == 3, msg: "loop" }
  return { s: s, r: r.x, l: l, k: k, m: m, t: t, c: c, d: d, n: n }
}
`
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.ReplaceAll(block, "%d", strconv.Itoa(i)))
	}
	b.WriteString("return 1\n")
	return b.String()
}

func BenchmarkParse(b *testing.B) {
	src := benchSource(200)
	if p := os.Getenv("A0_BENCH_PARSE_FILE"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		src = string(data)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ds := Parse("bench.a0", src, Options{}); len(ds) > 0 {
			b.Fatal(ds.JSONArray())
		}
	}
}
