package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
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
