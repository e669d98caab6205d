package runtime

import (
	goruntime "runtime"
	"strconv"
	"time"

	"github.com/a0lang/a0/lang/diag"
)

// DefaultMemoryLimit is the default ceiling on the memory a run's values
// may take (256 MiB).
const DefaultMemoryLimit = 256 << 20

// WithMemoryLimit sets the ceiling on the memory a run's values may take
// (0 turns the check off). A run that grows past it ends with E_BUDGET
// (budget "memory"), which try/catch cannot swallow.
//
// Two checks enforce it: every string a run builds by concatenation is
// checked against the limit before it is built, and a monitor samples the
// Go heap while the run is going. The heap is shared by everything in the
// process, so a host running many runs at once should size the limit for
// the sum.
func WithMemoryLimit(bytes int64) Option {
	return func(e *Env) error { e.memLimit = bytes; return nil }
}

// heapBytes is the memory of heap objects, live or not yet swept
// (runtime/metrics' /memory/classes/heap/objects:bytes). ReadMemStats
// stops the world for a few microseconds; it is used rather than
// runtime/metrics, whose package initialisation costs every a0 process
// ~0.1 ms.
func heapBytes() int64 {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// startMemoryMonitor samples the heap until stop is called; past the
// limit it flags the run, so the evaluator stops at its next poll.
func (r *run) startMemoryMonitor() (stop func()) {
	limit := r.env.memLimit
	if limit <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if heapBytes() <= limit {
					continue
				}
				// The sample counts garbage not yet swept: collect and
				// look again before deciding.
				goruntime.GC()
				if h := heapBytes(); h > limit {
					r.memSeen.Store(h)
					r.flag.Store(1)
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// memoryError is the E_BUDGET raised when the memory ceiling is hit.
func (r *run) memoryError(sp diag.Span, actual int64) error {
	limit := r.env.memLimit
	err := r.budgetError(sp, "memory", limit, actual,
		"Budget exceeded: memory limit of "+strconv.FormatInt(limit, 10)+" bytes exceeded ("+strconv.FormatInt(actual, 10)+" bytes).")
	if e, ok := err.(*Error); ok {
		e.uncatchable = true
		e.Hint = "Build smaller values: the run's strings, lists and records grew past the host's memory limit."
	}
	return err
}

// checkSize refuses to build a value of n bytes past the memory ceiling.
func (r *run) checkSize(sp diag.Span, n int64) error {
	if lim := r.env.memLimit; lim > 0 && n > lim {
		return r.memoryError(sp, n)
	}
	return nil
}
