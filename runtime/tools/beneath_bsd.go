//go:build unix && !linux

package tools

import "golang.org/x/sys/unix"

// oPath: directories are opened for reading where O_PATH is missing.
const oPath = unix.O_RDONLY

// haveOpenat2 is false: only Linux has openat2(2).
func haveOpenat2() bool { return false }

// openat2 is never called where haveOpenat2 is false.
func openat2(dirfd int, path string, flags int) (int, error) { return -1, unix.ENOSYS }

// isMagicLink is false: magic links are a Linux procfs feature.
func isMagicLink(dirfd int, target string) bool { return false }
