package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
)

// TestOutputFileFailuresTmpfs: the same on a real file system that is
// full (a 64 KiB tmpfs filled up); the trace file is created but stays
// empty. It needs root and mount(2): skipped elsewhere.
func TestOutputFileFailuresTmpfs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	fill, err := os.Create(filepath.Join(mnt, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := fill.Write(chunk); err != nil {
			break
		}
	}
	fill.Close()
	c := outputFailureCases[0]
	c.trace, c.evid = "FULL/t.jsonl", "FULL/e.json"
	checkOutputFailure(t, c, mnt)
	if b, err := os.ReadFile(filepath.Join(mnt, "t.jsonl")); err != nil || len(b) != 0 {
		t.Errorf("trace file: %q %v", b, err)
	}
}

// TestTraceCloseFailureIsEIO: closing the trace file after the run can
// fail too (a network file system reports a lost write there); that is
// E_IO "Error closing trace file: …" in Node's words, collected after the
// evidence file's failures (spec/cli.md §4.1 step 9). A local file never
// fails to close, so the test closes the descriptor behind the trace
// file's back: its own close then meets EBADF.
func TestTraceCloseFailureIsEIO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	tw, d := runtime.OpenTraceFile(path, "close-test")
	if d != nil {
		t.Fatal(d.Message)
	}
	fd := -1
	links, _ := os.ReadDir("/proc/self/fd")
	for _, l := range links {
		if target, err := os.Readlink("/proc/self/fd/" + l.Name()); err == nil && target == path {
			fd, _ = strconv.Atoi(l.Name())
		}
	}
	if fd < 0 {
		t.Skip("the trace file's descriptor is not in /proc/self/fd")
	}
	inv, _, _, _, stop := parseArgs([]string{"run", "p.a0", "--trace", path})
	if stop {
		t.Fatal("parse stopped")
	}
	c := &cli{inv: inv}
	// Nothing may open a file between these two closes (the number
	// would be reused), so they follow each other at once.
	syscall.Close(fd)
	later := c.closeOutputs(&runtime.Result{}, nil, tw)
	if len(later) != 1 || later[0].Code != diag.EIO || later[0].Message != "Error closing trace file: EBADF: bad file descriptor, close" {
		t.Fatalf("later failures = %+v", later)
	}
}
