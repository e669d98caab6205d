//go:build unix

package mcptool

import (
	"os"
	"syscall"
)

// openNoFollow opens path for reading without following a symbolic link
// at its name, without blocking on a FIFO and without taking a terminal.
func openNoFollow(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
