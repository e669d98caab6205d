package tools_test

import (
	"context"
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
