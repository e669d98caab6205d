//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package proc

import "golang.org/x/sys/unix"

// termiosGet is the ioctl that reads a terminal's attributes.
const termiosGet = unix.TIOCGETA
