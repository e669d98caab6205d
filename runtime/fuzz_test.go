package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
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
	// Issue 13: one call past the ceiling, and a value nested millions deep.
	f.Add("let a = loop { in: \"abcdefghijklmnopqrstuvwxyz\", times: 10, as: \"s\" } { return s + s }\nreturn str.replace { in: a, from: \"\", to: a }")
	f.Add("let d = loop { in: 0, times: 3000000, as: \"v\" } { return [v] }\nreturn join { in: [d] }")
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

// ampOps are the statements FuzzAmplify builds programs from: each grows
// a string (s), a list (l) or a record (r) from earlier ones — by
// doubling, by substitution between every character, by wrapping, by
// sharing one value many times — so that sizes and depths explode. %[1]s
// and %[2]s are earlier strings, %[3]s and %[4]s earlier lists, %[5]d a
// small count, %[6]d a larger one, %[7]s an earlier record.
var ampOps = []struct {
	kind byte // what the statement binds: s, l or r
	src  string
}{
	{'s', `%[1]s + %[2]s`},
	{'s', `loop { in: %[1]s, times: %[5]d, as: "v" } { return v + v }`},
	{'s', `str.replace { in: %[1]s, from: "", to: %[2]s }`},
	{'s', `str.replace { in: %[1]s, from: "", to: "$` + "`" + `$'" }`},
	{'s', `str.replace { in: %[1]s, from: "a", to: %[2]s }`},
	{'s', `join { in: %[3]s, sep: %[1]s }`},
	{'s', `str.concat { parts: %[3]s }`},
	{'s', `str.template { in: str.replace { in: %[1]s, from: "", to: "{x}" }, vars: { x: %[2]s } }`},
	{'s', `join { in: [%[3]s, %[4]s] }`},
	{'l', `str.split { in: %[1]s, sep: "" }`},
	{'l', `str.split { in: %[1]s, sep: "a" }`},
	{'l', `range { from: 0, to: %[6]d }`},
	{'l', `concat { a: %[3]s, b: %[4]s }`},
	{'l', `[%[3]s, %[4]s, %[1]s, %[3]s]`},
	{'l', `loop { in: %[3]s, times: %[5]d, as: "v" } { return [v, v] }`},
	{'l', `loop { in: %[3]s, times: %[6]d, as: "v" } { return [v] }`},
	{'r', `loop { in: %[7]s, times: %[6]d, as: "v" } { return { v: v, w: 1 } }`},
	{'r', `loop { in: %[7]s, times: %[5]d, as: "v" } { return { ...v, a: v, b: v } }`},
	{'l', `flat { in: %[3]s }`},
	{'l', `put { in: %[3]s, path: str.concat { parts: ["[", %[6]d, "]"] }, value: %[1]s }`},
	{'r', `put { in: %[7]s, path: str.replace { in: %[1]s, from: "", to: "." }, value: %[3]s }`},
	{'l', `for { in: range { from: 0, to: %[6]d }, as: "x" } { return %[1]s }`},
	{'l', `sort { in: %[3]s }`},
	{'l', `unique { in: concat { a: %[3]s, b: %[4]s } }`},
	{'l', `parse.json { in: str.concat { parts: ["[", join { in: for { in: str.split { in: %[1]s, sep: "" }, as: "c" } { return "[]" }, sep: "," }, "]"] } }`},
	{'l', `entries { in: %[7]s }`},
	{'r', `merge { a: %[7]s, b: { x: %[3]s, y: %[1]s } }`},
	{'l', `patch { in: %[3]s, ops: [{ op: "add", path: "/-", value: %[4]s }] }`},
	{'s', `if { cond: eq { a: %[3]s, b: %[4]s }, then: %[1]s, else: %[2]s }`},
	{'s', `if { cond: contains { in: %[3]s, value: %[4]s }, then: %[1]s, else: %[2]s }`},
}

// ampProgram turns fuzz bytes into a program of ampOps statements (three
// bytes each: the op, which earlier values, and a count). Every statement
// is wrapped in try so that an ordinary error does not end the run early;
// the memory and depth bounds are not catchable and do end it.
func ampProgram(code []byte) string {
	var b strings.Builder
	b.WriteString("budget { timeMs: 200, maxIterations: 1000000 }\n")
	b.WriteString("let s0 = \"abcdefghijklmnopqrstuvwxyz\"\nlet l0 = [1, \"a\", { k: [2] }]\nlet r0 = { a: 1, b: [\"x\"] }\n")
	ns, nl, nr := 1, 1, 1
	for i := 0; i+2 < len(code) && i < 60; i += 3 {
		op := ampOps[int(code[i])%len(ampOps)]
		x, y := int(code[i+1]), int(code[i+1]>>4)
		args := []any{
			fmt.Sprintf("s%d", x%ns), fmt.Sprintf("s%d", y%ns),
			fmt.Sprintf("l%d", x%nl), fmt.Sprintf("l%d", y%nl),
			int(code[i+2]) % 40, 1 << (code[i+2] % 24),
			fmt.Sprintf("r%d", x%nr),
		}
		expr := fmt.Sprintf(op.src, args...)
		var name string
		switch op.kind {
		case 's':
			name = fmt.Sprintf("s%d", ns)
			ns++
		case 'l':
			name = fmt.Sprintf("l%d", nl)
			nl++
		default:
			name = fmt.Sprintf("r%d", nr)
			nr++
		}
		fmt.Fprintf(&b, "let %s = try { return %s } catch { e } { return %s0 }\n", name, expr, name[:1])
	}
	fmt.Fprintf(&b, "return { s: s%d, l: l%d, r: r%d }\n", ns-1, nl-1, nr-1)
	return b.String()
}

// heapObjects is the heap's object bytes, live or not yet swept.
func heapObjects() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// FuzzAmplify runs programs made of size- and depth-amplifying statements
// under an 8 MiB memory ceiling and a 200 ms time budget. It fails on an
// internal error, on a heap that grows far past the ceiling while the run
// goes on (sampled every millisecond), and on a run far past its time
// budget; a fatal error (Go stack overflow, out of memory) kills the
// fuzzing process, which fails it too. The result is also printed as
// indented JSON, as the CLI does.
func FuzzAmplify(f *testing.F) {
	f.Add([]byte{2, 0, 9})               // str.replace of s0 with itself between every character
	f.Add([]byte{1, 0, 10, 2, 0x11, 0})  // the same with a 26 kB string (issue 13: 2.4 GB)
	f.Add([]byte{15, 0, 19, 8, 0x11, 0}) // a list wrapped 524 288 times, then joined (issue 13: stack overflow)
	f.Add([]byte{1, 0, 30, 2, 0x10, 0, 2, 0x21, 0})
	f.Add([]byte{15, 0, 23})                         // a list wrapped a million times
	f.Add([]byte{16, 0, 23, 16, 0, 23})              // records wrapped
	f.Add([]byte{14, 0, 39, 8, 0, 0})                // a shared list doubled 39 times, then joined
	f.Add([]byte{1, 0, 15, 9, 0x11, 0, 22, 0x11, 0}) // split a long string, sort the parts
	f.Add([]byte{1, 0, 12, 24, 0x11, 0})             // parse.json of many empty lists
	f.Add([]byte{1, 0, 11, 20, 0x11, 0})             // put along a path of thousands of pieces
	const ceiling = 8 << 20
	env, err := NewEnv(WithMemoryLimit(ceiling))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, code []byte) {
		src := ampProgram(code)
		prog, ds := env.Compile("amp.a0", src)
		if len(ds) > 0 {
			t.Fatalf("generated program does not compile: %s\n%s", ds.JSONArray(), src)
		}
		goruntime.GC()
		base := heapObjects()
		var peak atomic.Int64
		done := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			tk := time.NewTicker(time.Millisecond)
			defer tk.Stop()
			for {
				if h := heapObjects() - base; h > peak.Load() {
					peak.Store(h)
				}
				select {
				case <-done:
					return
				case <-tk.C:
				}
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		res, err := prog.Run(ctx, RunOptions{})
		took := time.Since(start)
		if err == nil {
			_ = value.JSONIndent(res.Value)
		}
		close(done)
		<-sampled
		if e, ok := err.(*Error); ok {
			if e.Code == "E_RUNTIME" && strings.HasPrefix(e.Message, "internal error") {
				t.Fatalf("internal error: %s\nprogram:\n%s", e.Message, src)
			}
			if e.Code == "E_CANCELLED" {
				t.Fatalf("run did not stop within its time budget\nprogram:\n%s", src)
			}
		}
		// The heap may hold the run's values (up to the ceiling), the
		// garbage of the last collection cycle and one refused-size
		// check's worth of slack; a result built before its check would
		// be far more.
		if p := peak.Load(); p > 8*ceiling+32<<20 {
			t.Fatalf("heap grew %d bytes under a %d-byte ceiling\nprogram:\n%s", p, ceiling, src)
		}
		if took > 2*time.Second {
			t.Fatalf("run took %v under timeMs 200\nprogram:\n%s", took, src)
		}
	})
}
