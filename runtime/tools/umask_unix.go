//go:build unix

package tools

import (
	"os"
	"sync"
	"syscall"
)

var (
	umaskOnce sync.Once
	umaskVal  os.FileMode
)

// umask returns the process umask (read once; reading it means setting it).
func umask() os.FileMode {
	umaskOnce.Do(func() {
		m := syscall.Umask(0)
		syscall.Umask(m)
		umaskVal = os.FileMode(m)
	})
	return umaskVal
}
