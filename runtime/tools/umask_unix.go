//go:build unix

package tools

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var (
	umaskOnce sync.Once
	umaskVal  os.FileMode
)

// umask returns the process umask, read once: from /proc/self/status
// where Linux shows it (Umask:, since 4.7), else by setting it and back.
// The set-and-restore leaves umask 0 for a moment, so it holds
// syscall.ForkLock for writing: no process can be forked (by os/exec or
// a0's own fork, which both take the lock) with that umask.
func umask() os.FileMode {
	umaskOnce.Do(func() {
		if b, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "Umask:"); ok {
					if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
						umaskVal = os.FileMode(m)
						return
					}
				}
			}
		}
		syscall.ForkLock.Lock()
		m := syscall.Umask(0)
		syscall.Umask(m)
		syscall.ForkLock.Unlock()
		umaskVal = os.FileMode(m)
	})
	return umaskVal
}
