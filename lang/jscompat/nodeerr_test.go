package jscompat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// TestNodeErrorText: file-system errors read as Node.js prints them, from
// a bare errno, a wrapped one, the io/fs sentinels, or a real failed call.
func TestNodeErrorText(t *testing.T) {
	_, statErr := os.Open("/definitely/not/here")
	tests := []struct {
		err      error
		op, path string
		want     string
	}{
		{syscall.ENOENT, "open", "x.a0", "ENOENT: no such file or directory, open 'x.a0'"},
		{&fs.PathError{Op: "open", Path: "/p", Err: syscall.EISDIR}, "read", "d", "EISDIR: illegal operation on a directory, read 'd'"},
		{fmt.Errorf("wrapped: %w", syscall.ENOSPC), "write", "", "ENOSPC: no space left on device, write"},
		{fs.ErrNotExist, "scandir", "gone", "ENOENT: no such file or directory, scandir 'gone'"},
		{fs.ErrPermission, "mkdir", "ro", "EACCES: permission denied, mkdir 'ro'"},
		{statErr, "open", "/definitely/not/here", "ENOENT: no such file or directory, open '/definitely/not/here'"},
		{syscall.Errno(0x85), "open", "f", "UNKNOWN: " + syscall.Errno(0x85).Error() + ", open 'f'"},
		{errors.New("plain failure"), "open", "f", "plain failure"},
		{&fs.PathError{Op: "open", Path: "s", Err: syscall.ENXIO}, "open", "s", "ENXIO: no such device or address, open 's'"},
		{fmt.Errorf("wrapped: %w", syscall.EISDIR), "read", "", "EISDIR: illegal operation on a directory, read"},
		{syscall.Errno(0x7fff), "write", "", "UNKNOWN: " + syscall.Errno(0x7fff).Error() + ", write"},
	}
	for _, tt := range tests {
		if got := NodeErrorText(tt.err, tt.op, tt.path); got != tt.want {
			t.Errorf("NodeErrorText(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestIsErrno(t *testing.T) {
	wrapped := &fs.PathError{Op: "open", Path: "p", Err: syscall.EACCES}
	if !IsErrno(wrapped, syscall.EACCES) {
		t.Error("wrapped EACCES not found")
	}
	if IsErrno(wrapped, syscall.ENOENT) || IsErrno(errors.New("x"), syscall.EACCES) || IsErrno(nil, syscall.EACCES) {
		t.Error("IsErrno matched the wrong error")
	}
}
