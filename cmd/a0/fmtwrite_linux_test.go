package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFmtWriteImmutable: `a0 fmt --write FILE` on a file that cannot be
// written reports E_IO (exit 4) even when its text is already formatted,
// as a write would — the file is not touched; a file found while walking a
// folder is only written, and so only reported, when its text changes.
// The immutable flag (chattr +i) refuses writes even to root.
func TestFmtWriteImmutable(t *testing.T) {
	dir := t.TempDir()
	done := filepath.Join(dir, "done.a0")
	if err := os.WriteFile(done, []byte("let x = 42\nreturn { value: x }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chattr", "+i", done).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", done).Run() })
	before, _ := os.Stat(done)

	var stdout, stderr bytes.Buffer
	code := realMain([]string{"fmt", "--write", done}, strings.NewReader(""), &stdout, &stderr)
	want := "error[E_IO]: Error writing file: EPERM: operation not permitted, open '" + done + "'"
	if code != 4 || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("named file: exit %d, stdout %q, stderr %q; want 4 and %q", code, stdout.String(), stderr.String(), want)
	}

	stdout.Reset()
	stderr.Reset()
	if code := realMain([]string{"fmt", "--write", dir}, strings.NewReader(""), &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Errorf("folder: exit %d, stderr %q; want 0 and nothing (the file needs no change)", code, stderr.String())
	}
	after, _ := os.Stat(done)
	if !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the formatted file was touched: %v -> %v", before.ModTime(), after.ModTime())
	}
}
