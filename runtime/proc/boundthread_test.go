//go:build linux && (amd64 || arm64)

package proc

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

var capBndLine = regexp.MustCompile(`(?m)^CapBnd:\t([0-9a-f]+)$`)

// capBnd runs `grep CapBnd /proc/self/status` through e and returns the
// child's bounding set as hex.
func capBnd(t *testing.T, e *Engine) string {
	t.Helper()
	_, res := runIn(t, e, &Request{Argv: []string{"grep", "^CapBnd", "/proc/self/status"}})
	m := capBndLine.FindStringSubmatch(string(res.Stdout.Head))
	if m == nil {
		t.Fatalf("no CapBnd in %q (stderr %q)", res.Stdout.Head, res.Stderr.Head)
	}
	return m[1]
}

// TestBoundingSetThread: the goroutine that starts confined commands
// empties its own thread's bounding set once and stays on that thread;
// its confined children have an empty set, and an unconfined command it
// starts afterwards (forked from another goroutine) keeps a0's full set,
// as does one started by any other goroutine.
func TestBoundingSetThread(t *testing.T) {
	if boundingSet() == 0 {
		t.Skip("a0 has an empty bounding set here (not root)")
	}
	full := fmt.Sprintf("%016x", boundingSet())
	confined := sandboxEngine(t, &Sandbox{Require: true})
	plain := testEngine(t, nil)

	done := make(chan struct{})
	go func() { // a goroutine of its own: it ends locked to its thread
		defer close(done)
		if got := capBnd(t, confined); strings.Trim(got, "0") != "" {
			t.Errorf("first confined child: CapBnd %s, want empty", got)
		}
		if got := capBnd(t, confined); strings.Trim(got, "0") != "" {
			t.Errorf("second confined child: CapBnd %s, want empty", got)
		}
		if got := capBnd(t, plain); got != full {
			t.Errorf("unconfined child after confined ones: CapBnd %s, want a0's %s", got, full)
		}
		if got := capBnd(t, confined); strings.Trim(got, "0") != "" {
			t.Errorf("confined child after the unconfined one: CapBnd %s, want empty", got)
		}
	}()
	<-done
	runtime.Gosched()
	if got := capBnd(t, plain); got != full {
		t.Errorf("unconfined child of another goroutine: CapBnd %s, want %s", got, full)
	}
	// A new goroutine's thread (a thread of a0 that started no
	// confined command) keeps the full set.
	ch := make(chan string)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		b, _ := os.ReadFile("/proc/thread-self/status")
		ch <- capBndLine.FindStringSubmatch(string(b))[1]
	}()
	if got := <-ch; got != full {
		t.Errorf("another thread of a0: CapBnd %s, want %s", got, full)
	}
}
