//go:build unix

package tools

import (
	"os"
	"syscall"
	"testing"
)

// TestUmaskRead: the umask is read without being changed where /proc
// shows it, and the value matches the process's.
func TestUmaskRead(t *testing.T) {
	got := umask()
	m := syscall.Umask(0o027)
	syscall.Umask(m)
	if got != os.FileMode(m) {
		t.Errorf("umask() = %o, process umask %o", got, m)
	}
}
