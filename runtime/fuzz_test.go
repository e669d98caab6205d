package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzEval runs arbitrary programs under tight limits: whatever the input,
// evaluation must end (no hang), must not panic (an internal error is a
// bug even though Run recovers it), and must report only known exit codes.
func FuzzEval(f *testing.F) {
	files, _ := filepath.Glob("testdata/eval/*.txtar")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		if i := strings.Index(s, "-- prog.a0 --\n"); i >= 0 {
			s = s[i+len("-- prog.a0 --\n"):]
			if j := strings.Index(s, "\n-- "); j >= 0 {
				s = s[:j]
			}
			f.Add(s)
		}
	}
	f.Add("fn f { n } { return f { n: n + 1 } }\nreturn f { n: 0 }")
	f.Add("let s = loop { in: \"ab\", times: 60, as: \"s\" } { return s + s }\nreturn s")
	env, err := NewEnv(WithMaxDepth(200), WithMemoryLimit(64<<20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, ds := env.Compile("fuzz.a0", "budget { timeMs: 200, maxIterations: 2000 }\n"+src)
		if len(ds) > 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := prog.Run(ctx, RunOptions{})
		if e, ok := err.(*Error); ok {
			if e.Code == "E_RUNTIME" && strings.HasPrefix(e.Message, "internal error") {
				t.Fatalf("internal error: %s\nprogram:\n%s", e.Message, src)
			}
			if e.Code == "E_CANCELLED" {
				t.Fatalf("run did not stop within its time budget\nprogram:\n%s", src)
			}
		}
		if code := ExitCode(res, err); code < 0 || code > 5 {
			t.Fatalf("exit code %d", code)
		}
	})
}
