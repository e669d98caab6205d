package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestPackageInitCheap: the initialisation of a0's own packages runs
// before every command and in every embedding host, so none may do real
// work there (a regular expression compiled at init once cost 140 KB and
// 0.5 ms of every start). GODEBUG=inittrace=1 reports each package's
// init; the bound leaves room for tables of a few hundred entries.
func TestPackageInitCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	cmd := exec.Command(builtA0(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	const maxBytes, maxAllocs = 16 << 10, 100
	seen, inits, startedAt := 0, 0, -1
	for _, line := range strings.Split(string(out), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(strings.ReplaceAll(line, ",", ""))
		if len(f) >= 2 && f[0] == "init" {
			inits++
			if f[1] == "github.com/a0lang/a0/runtime/proc/internal/started" {
				startedAt = inits
			}
		}
		if len(f) < 11 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/a0lang/a0/") {
			continue
		}
		seen++
		bytes, err1 := strconv.Atoi(f[7])
		allocs, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil || f[8] != "bytes" || f[10] != "allocs" {
			t.Fatalf("unexpected inittrace line %q", line)
		}
		if bytes > maxBytes || allocs > maxAllocs {
			t.Errorf("%s: init allocates %d bytes in %d allocations (bound %d, %d): move the work to first use (sync.OnceValue)", f[1], bytes, allocs, maxBytes, maxAllocs)
		}
	}
	if seen == 0 {
		t.Fatalf("no inittrace lines of a0's packages in:\n%s", out)
	}
	// The clock a run's timeMs counts from (proc.Started) is read by one
	// of the first package initializations, not after all of them.
	if startedAt < 0 || startedAt > inits/4 {
		t.Errorf("proc/internal/started is initialized %dth of %d packages; it should come among the first quarter (it may import only package time)", startedAt, inits)
	}
}
