//go:build linux

package tools_test

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFSWriteSpecialFiles: fs.write writes into an existing FIFO or
// device, as opening the path would, and never replaces it with a regular
// file; a FIFO nobody reads is ENXIO at once rather than a wait.
func TestFSWriteSpecialFiles(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	isFIFO := func() bool {
		st, err := os.Lstat(fifo)
		return err == nil && st.Mode()&os.ModeNamedPipe != 0
	}

	r := run(t, dir, `do fs.write { path: "fifo", data: "nobody reads" } -> w
return w`)
	want := "E_TOOL Tool 'fs.write' failed: ENXIO: no such device or address, open '" + fifo + "'"
	if r.json() != want || !isFIFO() {
		t.Fatalf("no reader: %s (FIFO kept: %v), want %s", r.json(), isFIFO(), want)
	}

	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	// The reader must have the FIFO open before fs.write opens it
	// without blocking; retry until it has.
	for i := 0; ; i++ {
		r = run(t, dir, `do fs.write { path: "fifo", data: "through the pipe" } -> w
return w.bytes`)
		if r.err == nil || i == 400 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if r.json() != "16" || <-got != "through the pipe" || !isFIFO() {
		t.Fatalf("with a reader: %s (FIFO kept: %v)", r.json(), isFIFO())
	}

	if os.Geteuid() != 0 {
		return
	}
	// A copy of /dev/null's device node (making one needs root).
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
		t.Log("no mknod:", err)
		return
	}
	r = run(t, dir, `do fs.write { path: "null", data: "gone" } -> w
return w.bytes`)
	st, err := os.Lstat(null)
	if r.json() != "4" || err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("device: %s, mode %v (%v): the node was replaced", r.json(), st.Mode(), err)
	}
}

// TestFSWriteStalledFIFOEndsWithTheRun: a FIFO whose reader keeps it open
// but never reads fills after 64 KiB; the write then waits, and must end
// with the run's time budget instead of holding the run (and a0) for as
// long as the reader lives.
func TestFSWriteStalledFIFOEndsWithTheRun(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	// The reader: open for reading and never read (O_RDWR would not block
	// and keeps the pipe open from our side too).
	rd, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	start := time.Now()
	r := run(t, dir, `budget { timeMs: 300 }
let big = str.repeat { in: "x", times: 1000000 }
do fs.write { path: "fifo", data: big }
return 1`)
	took := time.Since(start)
	if r.err == nil || r.err.Code != "E_BUDGET" || took > 5*time.Second {
		t.Fatalf("stalled FIFO: %s after %v, want E_BUDGET at about 300 ms", r.json(), took)
	}
}
