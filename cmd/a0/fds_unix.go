//go:build unix

package main

import (
	"os"
	"strconv"
	"syscall"
)

// closeInheritedOnExec marks every descriptor a0 inherited above the
// standard streams close-on-exec, once at start: a descriptor a0's parent
// left open (a secret file on fd 7) then reaches no process a0 starts —
// commands, MCP servers, editors — whatever starts it. a0 itself keeps
// using them (a program read from /dev/fd/N still works). See
// spec/embedding.md for what a host inherits.
func closeInheritedOnExec() {
	if closeRangeCloexec() {
		return
	}
	// No close_range with CLOSE_RANGE_CLOEXEC (before Linux 5.11, or not
	// Linux): one by one, from the list of open descriptors.
	dir := "/dev/fd"
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		dir = "/proc/self/fd"
	}
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		if fd, err := strconv.Atoi(n); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
