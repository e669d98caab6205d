package runtime

import (
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

func TestNodeErrorText(t *testing.T) {
	for _, tc := range []struct {
		err      error
		op, path string
		want     string
	}{
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, "open", "x", "ENOENT: no such file or directory, open 'x'"},
		{&fs.PathError{Op: "open", Path: "s", Err: syscall.ENXIO}, "open", "s", "ENXIO: no such device or address, open 's'"},
		{fmt.Errorf("wrapped: %w", syscall.EISDIR), "read", "", "EISDIR: illegal operation on a directory, read"},
		{syscall.Errno(0x7fff), "write", "", "UNKNOWN: " + syscall.Errno(0x7fff).Error() + ", write"},
		{fs.ErrPermission, "open", "p", "EACCES: permission denied, open 'p'"},
		{fmt.Errorf("plain"), "open", "p", "plain"},
	} {
		if got := NodeErrorText(tc.err, tc.op, tc.path); got != tc.want {
			t.Errorf("NodeErrorText(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
