package proc

import (
	"os"
	"sync"
)

// Private temporary folders cost a mkdir and a removal each, which on a
// journalling file system can take longer than the spawn itself. They
// are made a few at a time ahead of need and removed in the background
// once their command has ended; WaitSandboxCleanup (called when a run's
// jobs are closed) waits for the removals and removes the spares.
type tempPool struct {
	mu      sync.Mutex
	ready   []string
	filling int
	pending sync.WaitGroup
}

var temps tempPool

// tempAhead is how many folders are kept ready.
const tempAhead = 4

// take returns a fresh, empty private folder (mode 0700).
func (tp *tempPool) take() (string, error) {
	tp.mu.Lock()
	var d string
	if n := len(tp.ready); n > 0 {
		d, tp.ready = tp.ready[n-1], tp.ready[:n-1]
	}
	tp.mu.Unlock()
	tp.refill()
	if d != "" {
		return d, nil
	}
	return os.MkdirTemp(tempBase(), "a0-tmp-")
}

func (tp *tempPool) refill() {
	tp.mu.Lock()
	need := tempAhead - len(tp.ready) - tp.filling
	if need <= 0 {
		tp.mu.Unlock()
		return
	}
	tp.filling += need
	tp.pending.Add(1)
	tp.mu.Unlock()
	go func() {
		defer tp.pending.Done()
		for i := 0; i < need; i++ {
			d, err := os.MkdirTemp(tempBase(), "a0-tmp-")
			tp.mu.Lock()
			tp.filling--
			if err == nil {
				tp.ready = append(tp.ready, d)
			}
			tp.mu.Unlock()
		}
	}()
}

// release removes a used folder in the background.
func (tp *tempPool) release(d string) {
	if d == "" {
		return
	}
	tp.pending.Add(1)
	go func() {
		defer tp.pending.Done()
		os.RemoveAll(d)
	}()
}

// WaitSandboxCleanup waits until the private temporary folders of ended
// commands are removed, and removes the spare ones made ahead.
func WaitSandboxCleanup() {
	temps.pending.Wait()
	temps.mu.Lock()
	spare := temps.ready
	temps.ready = nil
	temps.mu.Unlock()
	for _, d := range spare {
		os.Remove(d)
	}
}
