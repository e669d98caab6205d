//go:build linux && (amd64 || arm64)

package proc

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strconv"
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

// TestBoundingSetThread: confined commands are forked by a fork thread
// that emptied its own bounding set once; its children have an empty
// set, while the goroutine that asks for them is not pinned and its
// thread keeps a0's set: an unconfined command it starts afterwards
// keeps a0's full set, as does one started by any other goroutine.
func TestBoundingSetThread(t *testing.T) {
	if boundingSet() == 0 {
		t.Skip("a0 has an empty bounding set here (not root)")
	}
	full := fmt.Sprintf("%016x", boundingSet())
	confined := sandboxEngine(t, &Sandbox{Require: true})
	plain := testEngine(t, nil)

	done := make(chan struct{})
	go func() {
		defer close(done)
		// Pinned by the test, so that its thread is the one checked.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if got := capBnd(t, confined); strings.Trim(got, "0") != "" {
			t.Errorf("first confined child: CapBnd %s, want empty", got)
		}
		if got := capBnd(t, confined); strings.Trim(got, "0") != "" {
			t.Errorf("second confined child: CapBnd %s, want empty", got)
		}
		if got := threadCapBnd(t, "thread-self"); got != full {
			t.Errorf("the thread that asked for confined commands: CapBnd %s, want a0's %s", got, full)
		}
		if got := capBnd(t, plain); got != full {
			t.Errorf("unconfined child after confined ones: CapBnd %s, want a0's %s", got, full)
		}
		if got := capBnd(t, confined); strings.Trim(got, "0") != "" {
			t.Errorf("confined child after the unconfined one: CapBnd %s, want empty", got)
		}
	}()
	<-done
	if got := capBnd(t, plain); got != full {
		t.Errorf("unconfined child of another goroutine: CapBnd %s, want %s", got, full)
	}
	// The fork threads gave their set up; no other thread of a0 did.
	fork := forkThreadIDs()
	if len(fork) == 0 {
		t.Fatal("no fork thread after confined commands")
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		got := threadCapBnd(t, "self/task/"+task.Name())
		if got == "" {
			continue // the thread ended
		}
		tid, _ := strconv.Atoi(task.Name())
		if fork[tid] {
			if strings.Trim(got, "0") != "" {
				t.Errorf("fork thread %d: CapBnd %s, want empty", tid, got)
			}
		} else if got != full {
			t.Errorf("thread %d of a0: CapBnd %s, want %s", tid, got, full)
		}
	}
}

// threadCapBnd returns the bounding set of /proc/<task>/status as hex
// ("": unreadable).
func threadCapBnd(t *testing.T, task string) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + task + "/status")
	if err != nil {
		return ""
	}
	m := capBndLine.FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("no CapBnd in /proc/%s/status", task)
	}
	return m[1]
}
