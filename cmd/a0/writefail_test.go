package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullWriter fails every write the way a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/full", Err: syscall.ENOSPC}
}

// TestOutputWriteFailure: a command whose output cannot be written (a
// full disk) fails with E_IO on stderr instead of exiting 0 with the
// output lost; the form follows the command's diagnostics.
func TestOutputWriteFailure(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.a0")
	if err := os.WriteFile(prog, []byte("return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", prog}, `{"code":"E_IO","message":"Error writing output: ENOSPC: no space left on device, write","hint":`},
		{[]string{"run", "--pretty", prog}, "error[E_IO]: Error writing output: ENOSPC: no space left on device, write\n"},
		{[]string{"fmt", prog}, "error[E_IO]: Error writing output: ENOSPC"},
		{[]string{"help"}, "error[E_IO]: Error writing output: ENOSPC"},
	}
	for _, tc := range tests {
		var errOut bytes.Buffer
		code := realMain(tc.args, strings.NewReader(""), fullWriter{}, &errOut)
		if code != 4 || !strings.HasPrefix(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 4 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}
