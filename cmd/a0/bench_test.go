package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRunSmall is `a0 run` of an agent-sized program, in process: what
// the CLI does after the Go runtime has started (compare with the start-up
// of a minimal Go binary, ~1.2 ms here).
func BenchmarkRunSmall(b *testing.B) {
	dir := b.TempDir()
	var sb strings.Builder
	sb.WriteString("budget { maxIterations: 1000 }\n")
	for i := 0; i < 40; i++ {
		sb.WriteString("fn f" + itoa(i) + ` { a } {
  let r = { x: a + 1, y: [a, "t"] }
  return r.x
}
`)
	}
	sb.WriteString("let xs = for { in: [1, 2, 3], as: \"i\" } { return faa { a: i } }\nreturn { xs: xs }\n")
	file := filepath.Join(dir, "p.a0")
	if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Chdir(dir)
	var errw strings.Builder
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if code := realMain([]string{"run", file}, strings.NewReader(""), io.Discard, &errw); code != 0 {
			b.Fatal(code, errw.String())
		}
	}
}

func itoa(i int) string { return string(rune('a'+i/10)) + string(rune('a'+i%10)) }
