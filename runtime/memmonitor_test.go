package runtime

import (
	"context"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// samplerGoroutines counts the goroutines sampling the heap for memory
// ceilings.
func samplerGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:goruntime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "(*memoryMonitor).loop") || strings.Contains(g, "startMemoryMonitor.func") {
			n++
		}
	}
	return n
}

// TestMemoryMonitorShared: many runs at once share one heap sampler (a
// sampler per run stopped the world 100 times a second per run, so a few
// hundred idle runs saturated the process), and it goes away when the
// last run ends.
func TestMemoryMonitorShared(t *testing.T) {
	env, err := NewEnv(WithMemoryLimit(1 << 30))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("m.a0", `budget { maxIterations: 100000000 }
let n = loop { in: 0, times: 100000000, as: "v" } { return v + 1 }
return n`)
	if len(ds) > 0 {
		t.Fatal(ds.JSONArray())
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	const runs = 50
	for range runs {
		wg.Go(func() { prog.Run(ctx, RunOptions{}) })
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		memMonitor.mu.Lock()
		n := len(memMonitor.runs)
		memMonitor.mu.Unlock()
		if n == runs {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%d runs registered", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	got := samplerGoroutines()
	cancel()
	wg.Wait()
	if got > 1 {
		t.Errorf("%d heap samplers for %d runs, want 1", got, runs)
	}
	t.Logf("%d heap sampler(s) for %d runs", got, runs)
	for deadline := time.Now().Add(2 * time.Second); samplerGoroutines() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the heap sampler outlives the last run")
		}
	}
}

// TestMemoryMonitorPerRunLimit: the shared sampler flags only the runs
// whose own ceiling the heap is past.
func TestMemoryMonitorPerRunLimit(t *testing.T) {
	big, err := NewEnv(WithMemoryLimit(4 << 30))
	if err != nil {
		t.Fatal(err)
	}
	small, err := NewEnv(WithMemoryLimit(32 << 20))
	if err != nil {
		t.Fatal(err)
	}
	idle, ds := big.Compile("idle.a0", `budget { maxIterations: 100000000 }
let n = loop { in: 0, times: 100000000, as: "v" } { return v + 1 }
return n`)
	if len(ds) > 0 {
		t.Fatal(ds.JSONArray())
	}
	grow, ds := small.Compile("grow.a0", `budget { maxIterations: 100000000 }
let xs = range { from: 0, to: 5000000 }
let ys = for { in: xs, as: "x" } { return { v: x } }
return len { in: ys }`)
	if len(ds) > 0 {
		t.Fatal(ds.JSONArray())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	idleCtx, stopIdle := context.WithCancel(ctx)
	idleErr := make(chan error, 1)
	go func() { _, err := idle.Run(idleCtx, RunOptions{}); idleErr <- err }()
	_, err = grow.Run(ctx, RunOptions{})
	if e, ok := err.(*Error); !ok || e.Code != "E_BUDGET" || !strings.Contains(e.Message, "memory") {
		t.Errorf("small ceiling: %v", err)
	}
	stopIdle()
	if err := <-idleErr; err == nil || !strings.Contains(err.Error(), "ancel") {
		t.Errorf("large ceiling: want a cancellation, got %v", err)
	}
}

// TestMemoryMonitorStartsAtCollection: registering a run starts no
// sampler and no timer (a short run of a fresh process would pay for
// waking a scheduler thread); the first garbage collection after it does,
// and the sampler ends with the last run.
func TestMemoryMonitorStartsAtCollection(t *testing.T) {
	memMonitor.readGCSetting()
	if memMonitor.gcOff > 0 {
		t.Skip("GOGC=off: the sampler starts on a timer")
	}
	// A sampler left by an earlier test ends once it finds no run.
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		memMonitor.mu.Lock()
		idle := !memMonitor.running && len(memMonitor.runs) == 0
		memMonitor.mu.Unlock()
		if idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an earlier sampler is still running")
		}
	}
	r := &run{}
	memMonitor.add(r, 1<<50)
	memMonitor.mu.Lock()
	running, armed := memMonitor.running, memMonitor.armed
	memMonitor.mu.Unlock()
	if running || !armed {
		t.Fatalf("after registering: running %v, armed %v; want a sampler armed for the next collection, not started", running, armed)
	}
	goruntime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for samplerGoroutines() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no heap sampler after a collection")
		}
		goruntime.GC()
		time.Sleep(time.Millisecond)
	}
	memMonitor.remove(r)
	for deadline := time.Now().Add(2 * time.Second); samplerGoroutines() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the heap sampler outlives the last run")
		}
	}
}
