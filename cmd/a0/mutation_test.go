package main

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMutatedPrograms feeds a0 check and a0 run hundreds of randomly
// mutated programs (seeded, so failures reproduce) and requires that every
// invocation ends, exits with a code from 0 to 5, never reports an
// internal error, and writes diagnostics as JSON. Each program gets a time
// budget so that a mutation which turns a loop into a very long one still
// ends.
func TestMutatedPrograms(t *testing.T) {
	var seeds []string
	for _, pat := range []string{"../../examples/*.a0", "../../runtime/testdata/eval/*.txtar"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			if i := strings.Index(s, "-- prog.a0 --\n"); i >= 0 {
				s = s[i+len("-- prog.a0 --\n"):]
				if j := strings.Index(s, "\n-- "); j >= 0 {
					s = s[:j]
				}
			}
			seeds = append(seeds, s)
		}
	}
	if len(seeds) < 20 {
		t.Fatalf("only %d seed programs", len(seeds))
	}
	n := 300
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewSource(1))
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	snippets := []string{"{", "}", "[", "]", "(", ")", ",", ":", "-", "+", "\"", "->", "...", ".", "let ", "return ",
		"fn ", "if ", "for ", "loop ", "match ", "try ", "catch ", "null", "0", "1.5", "\"x\"", "x", "\n", " ", "#"}
	for i := 0; i < n; i++ {
		src := []byte(seeds[rng.Intn(len(seeds))])
		for m := 0; m < 1+rng.Intn(4); m++ {
			if len(src) == 0 {
				break
			}
			p := rng.Intn(len(src))
			switch rng.Intn(3) {
			case 0: // delete a run
				q := min(len(src), p+1+rng.Intn(8))
				src = append(src[:p:p], src[q:]...)
			case 1: // insert a snippet
				s := snippets[rng.Intn(len(snippets))]
				src = append(src[:p:p], append([]byte(s), src[p:]...)...)
			case 2: // duplicate a run elsewhere
				q := min(len(src), p+1+rng.Intn(16))
				r := rng.Intn(len(src))
				frag := append([]byte(nil), src[p:q]...)
				src = append(src[:r:r], append(frag, src[r:]...)...)
			}
		}
		prog := "budget { timeMs: 2000, maxIterations: 100000 }\n" + string(src)
		if err := os.WriteFile("m.a0", []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"check", "m.a0"}, {"run", "m.a0"}} {
			var out, errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- realMain(cmd, strings.NewReader(""), &out, &errb) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("a0 %s hung on:\n%s", cmd[0], prog)
			}
			if code < 0 || code > 5 {
				t.Fatalf("a0 %s exited %d on:\n%s\nstderr: %s", cmd[0], code, prog, errb.String())
			}
			if strings.Contains(errb.String(), "internal error") {
				t.Fatalf("a0 %s reported an internal error on:\n%s\nstderr: %s", cmd[0], prog, errb.String())
			}
			for _, line := range strings.Split(strings.TrimSpace(errb.String()), "\n") {
				if line != "" && !json.Valid([]byte(line)) {
					t.Fatalf("a0 %s wrote a non-JSON diagnostic %q on:\n%s", cmd[0], line, prog)
				}
			}
		}
	}
}
