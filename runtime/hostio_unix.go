//go:build unix

package runtime

import (
	"syscall"

	"github.com/a0lang/a0/lang/parser"
)

// readProgramFileRaw reads a regular file's program text with plain
// system calls, ok false for anything else (a FIFO, a device: the caller
// reads those through os.File). It is the start-up path of `a0 run FILE`:
// an os.File would set up the runtime's network poller, a cost paid by
// every run for a file that never needs it. Errors are the bare errno,
// which ReadErrorText renders as os.Open's would be.
func readProgramFileRaw(file string) (b []byte, ok bool, err error) {
	var fd int
	for {
		fd, err = syscall.Open(file, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, true, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		// A directory keeps os.File's path: its read fails with EISDIR
		// there; a FIFO or device must block, as os.File reads it.
		return nil, false, nil
	}
	if st.Size > parser.MaxSourceBytes {
		return nil, true, tooLarge(st.Size)
	}
	b = make([]byte, 0, st.Size+1)
	for {
		if len(b) == cap(b) {
			// The file grew since fstat: keep reading, within the bound.
			b = append(b, 0)[:len(b)]
		}
		n, err := syscall.Read(fd, b[len(b):cap(b)])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return nil, true, err
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
		if len(b) > parser.MaxSourceBytes {
			return nil, true, tooLarge(int64(len(b)))
		}
	}
	return b, true, nil
}
