package runtime

import (
	"fmt"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
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
// the sum. The sampler starts at the first garbage collection after a run
// starts (10 ms after, with GOGC=off in the environment): a host that
// turns the collector off from code without a GOMEMLIMIT has only the
// first check.
func WithMemoryLimit(bytes int64) Option {
	return func(e *Env) error {
		if bytes < 0 {
			return fmt.Errorf("a0: WithMemoryLimit(%d): the limit cannot be negative (0 turns it off)", bytes)
		}
		e.memLimit = bytes
		return nil
	}
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

// memoryMonitor is the one heap sampler of the process. Every run with a
// memory ceiling registers with it while it runs; each tick it reads the
// heap once and flags every registered run whose ceiling the heap is past
// (the same rule as a sampler per run, at the cost of one). Its goroutine
// and ticker exist only while some run is registered, and start at the
// first garbage collection after a registration: a heap that grows past a
// ceiling is collected many times on the way, while a short run that
// allocates little starts nothing (arming a timer at once woke another
// thread of the Go scheduler, a tenth of a small program's first run).
// With the collector off (GOGC=off) the sampler starts one period after
// the first registration instead.
type memoryMonitor struct {
	mu      sync.Mutex
	runs    []monitored // the registered runs and their ceilings
	running bool        // the sampling goroutine is alive (or its timer armed)
	armed   bool        // a collection will start it (see gcSentinel)
	gcOff   int8        // 1: GOGC=off (see readGCSetting); 0 or -1: the collector runs
}

// memMonitor serves every run of the process.
var memMonitor memoryMonitor

// memSampleEvery is the sampling period.
const memSampleEvery = 10 * time.Millisecond

// gcOffInEnv reports whether the environment turns the collector off
// (GOGC=off). It is read once per process, by NewEnv when the Env has a
// memory ceiling: the first os.Getenv of a process copies the whole
// environment, set-up work that a run should not pay for.
var gcOffInEnv = sync.OnceValue(func() bool {
	return strings.EqualFold(os.Getenv("GOGC"), "off")
})

// readGCSetting records in m whether the collector is off (see gcOffInEnv).
func (m *memoryMonitor) readGCSetting() {
	off := gcOffInEnv()
	m.mu.Lock()
	defer m.mu.Unlock()
	if off {
		m.gcOff = 1
	} else {
		m.gcOff = -1
	}
}

// gcSentinel is an object nothing references: the collection that frees
// it runs its finalizer, which starts the sampler. It holds a pointer so
// that it is not batched with other objects in a tiny block.
type gcSentinel struct {
	_ *int
	_ int
}

// startMemoryMonitor registers the run with the process's heap monitor
// until stopMemoryMonitor is called, and reports whether it did (the run
// has a memory ceiling); past the limit the monitor flags the run, so the
// evaluator stops at its next poll.
func (r *run) startMemoryMonitor() bool {
	limit := r.env.memLimit
	if limit <= 0 {
		return false
	}
	memMonitor.add(r, limit)
	return true
}

// stopMemoryMonitor unregisters a run startMemoryMonitor registered.
func (r *run) stopMemoryMonitor() { memMonitor.remove(r) }

// monitored is a registered run; the run's monIdx is its index in runs
// (a slice rather than a map: a fresh process's first run makes no map).
type monitored struct {
	r     *run
	limit int64
}

func (m *memoryMonitor) add(r *run, limit int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r.monIdx = len(m.runs)
	m.runs = append(m.runs, monitored{r, limit})
	if m.running || m.armed {
		return
	}
	if m.gcOff > 0 {
		// No collection to wait for: the first sample is due in one
		// period, a timer until then.
		m.running = true
		time.AfterFunc(memSampleEvery, m.loop)
		return
	}
	m.armed = true
	// A finalizer rather than runtime.AddCleanup: the process already has
	// the finalizer goroutine (package os sets finalizers), while the first
	// AddCleanup of a process starts a goroutine.
	goruntime.SetFinalizer(new(gcSentinel), func(*gcSentinel) { memMonitor.collected() })
}

// collected runs after the collection that found the sentinel unreachable: it starts
// the sampler if a run is still registered.
func (m *memoryMonitor) collected() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.armed = false
	if m.running || len(m.runs) == 0 {
		return
	}
	m.running = true
	go m.loop()
}

func (m *memoryMonitor) remove(r *run) {
	m.mu.Lock()
	m.drop(r)
	m.mu.Unlock()
}

// drop unregisters r if it is registered (m.mu held): the last entry takes
// its place.
func (m *memoryMonitor) drop(r *run) {
	i := r.monIdx
	if i < 0 || i >= len(m.runs) || m.runs[i].r != r {
		return
	}
	last := len(m.runs) - 1
	m.runs[i] = m.runs[last]
	m.runs[i].r.monIdx = i
	m.runs[last] = monitored{}
	m.runs = m.runs[:last]
	r.monIdx = -1
}

// lowest is the smallest registered ceiling; ok is false when no run is
// registered, and the loop then ends (under the lock, so that a run
// registering meanwhile starts a new one).
func (m *memoryMonitor) lowest() (limit int64, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.runs) == 0 {
		m.running = false
		return 0, false
	}
	first := true
	for _, e := range m.runs {
		if first || e.limit < limit {
			limit, first = e.limit, false
		}
	}
	return limit, true
}

func (m *memoryMonitor) loop() {
	t := time.NewTicker(memSampleEvery)
	defer t.Stop()
	for {
		lowest, ok := m.lowest()
		if !ok {
			return
		}
		if heapBytes() > lowest {
			m.flagOver()
		}
		<-t.C
	}
}

// flagOver flags the runs whose ceiling the heap is past. The sample
// counts garbage not yet swept: collect and look again before deciding.
func (m *memoryMonitor) flagOver() {
	goruntime.GC()
	h := heapBytes()
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := 0; i < len(m.runs); {
		if e := m.runs[i]; h > e.limit {
			e.r.memSeen.Store(h)
			e.r.flag.Store(1)
			m.drop(e.r) // the last entry moves to i
			continue
		}
		i++
	}
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
