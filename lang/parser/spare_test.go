package parser

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// TestConcurrentParses parses different programs from many goroutines at
// once: the spare parser and token slice one parse leaves for the next must
// never be shared by two parses (run with -race), and every tree must be
// the one a parse alone gives.
func TestConcurrentParses(t *testing.T) {
	srcs := []string{
		"let greeting = \"hello\"\nreturn [greeting, 1 + 2]",
		"fn f { x } {\n  return x * 2 + 1\n}\nreturn { a: f { x: 3 }, b: [1, 2, 3] }",
		"# a comment\nlet xs = [1, 2, 3]\nreturn xs",
		"return if { cond: 1 < 2, then: \"yes\", else: \"no\" }",
		"let r = { a: 1, b: { c: [\"x\", \"y\"] } }\nreturn r.b.c",
	}
	want := make([]any, len(srcs))
	for i, src := range srcs {
		prog, ds := Parse("t.a0", src, Options{})
		if len(ds) > 0 {
			t.Fatalf("%q: %v", src, ds)
		}
		want[i] = prog
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 200 {
				i := (g + n) % len(srcs)
				prog, ds := Parse("t.a0", srcs[i], Options{})
				if len(ds) > 0 || !reflect.DeepEqual(any(prog), want[i]) {
					errs <- fmt.Errorf("goroutine %d, pass %d: %q parsed differently", g, n, srcs[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
