package tools_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/a0lang/a0/runtime"
)

// BenchmarkShExecArgv measures one `do sh.exec { argv: ["true"] }` call,
// spawn included (compare with os/exec's floor in ../shared/bench/limits).
func BenchmarkShExecArgv(b *testing.B) {
	benchExec(b, `do sh.exec { argv: ["true"] }`)
}

// BenchmarkShExecCmd measures `do sh.exec { cmd: "true" }` (through sh).
func BenchmarkShExecCmd(b *testing.B) {
	benchExec(b, `do sh.exec { cmd: "true" }`)
}

func benchExec(b *testing.B, stmt string) {
	env, err := runtime.NewEnv(runtime.WithTools(openTools()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	// 50 calls per run, so the once-per-run cleanup (the escaped-process
	// sweep) does not dominate the per-call figure.
	prog, ds := env.Compile("b.a0", "cap { sh.exec: true }\nlet xs = for { in: range { from: 0, to: 50 }, as: \"i\" } {\n"+stmt+"\nreturn i }\nreturn 1")
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 50 {
		if _, err := prog.Run(context.Background(), runtime.RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFSRead measures `call? fs.read` of a small file four
// directories deep (opened beneath the root).
func BenchmarkFSRead(b *testing.B) {
	benchFS(b, 1000, `call? fs.read { path: "a/b/c/d/f.txt" }`)
}

// BenchmarkFSWrite measures `do fs.write` of a small file four
// directories deep, in a directory of 1000 other files (which the stale
// temporary file check lists at most once every 10 s).
func BenchmarkFSWrite(b *testing.B) {
	benchFS(b, 1000, `do fs.write { path: "a/b/c/d/f.txt", data: "hello" }`)
}

func benchFS(b *testing.B, others int, stmt string) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b", "c", "d"), 0o755); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a", "b", "c", "d", "f.txt"), []byte("hello"), 0o644)
	for i := 0; i < others; i++ {
		os.WriteFile(filepath.Join(dir, "a", "b", "c", "d", "o"+strconv.Itoa(i)), nil, 0o644)
	}
	env, err := runtime.NewEnv(runtime.WithTools(openTools()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		b.Fatal(err)
	}
	prog, ds := env.Compile("b.a0", "cap { fs.read: true, fs.write: true }\nlet xs = for { in: range { from: 0, to: 50 }, as: \"i\" } {\n"+stmt+"\nreturn i }\nreturn 1")
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 50 {
		if _, err := prog.Run(context.Background(), runtime.RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
