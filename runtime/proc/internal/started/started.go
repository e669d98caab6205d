// Package started records when the process started, as early as a package
// of a0 can: it imports nothing, so by the language's rule for
// initialization order (packages sorted by import path, each initialized
// once its imports are) it is among the first packages initialized, right
// after the Go runtime's own start. On Linux (amd64, arm64) it reads the
// clocks with raw system calls, without waiting for package time:
// CLOCK_MONOTONIC, less the CPU time the main thread has used so far
// (CLOCK_THREAD_CPUTIME_ID, which counts from the thread's creation, so the
// exec and the Go runtime's start-up are included). The CPU time is at
// most the wall time since then, so the start found is never earlier than
// the process's creation. Package proc turns it into a time.Time
// ([proc.Started]).
package started

// Mono is the start of the process on the CLOCK_MONOTONIC scale, in
// nanoseconds; Known reports whether it could be read (Linux on amd64 and
// arm64).
var (
	Mono  int64
	Known bool
)

// maxBefore bounds the CPU time counted before this package's
// initialization: more means the thread ran long before its exec (a
// process that called exec without forking), whose time is not a0's.
const maxBefore = 50e6 // 50 ms

// MonoNow reads CLOCK_MONOTONIC now, in nanoseconds, on the same scale as
// Mono; ok is false where Mono is not Known.
func MonoNow() (ns int64, ok bool) {
	if !Known {
		return 0, false
	}
	return clock(clockMonotonic)
}

// The clock ids of clock_gettime(2).
const (
	clockMonotonic     = 1
	clockThreadCPUTime = 3
)

func init() {
	now, ok := clock(clockMonotonic)
	if !ok {
		return
	}
	Mono, Known = now, true
	if cpu, ok := clock(clockThreadCPUTime); ok && cpu > 0 && cpu <= maxBefore {
		Mono -= cpu
	}
}
