//go:build unix

package mcpserver

import (
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// pollInput reads a file only once poll(2) says it is readable, polling
// a pipe of its own beside it: closing that pipe's write end (stop) wakes
// the poll, and the read returns errInputStopped without having taken a
// byte. This works for os.Stdin as a process gets it (a pipe, a terminal
// or a socket in blocking mode, which takes no deadline), without
// changing the file's mode, which other processes may share.
type pollInput struct {
	f            *os.File
	rc           syscall.RawConn
	wakeR, wakeW *os.File
	wrc          syscall.RawConn
}

// newPollInput returns the pollInput of r, a file; nil for anything else.
func newPollInput(r io.Reader) *mcpInput {
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	wakeR, wakeW, err := os.Pipe()
	if err != nil {
		return nil
	}
	wrc, err := wakeR.SyscallConn()
	if err != nil {
		wakeR.Close()
		wakeW.Close()
		return nil
	}
	p := &pollInput{f: f, rc: rc, wakeR: wakeR, wakeW: wakeW, wrc: wrc}
	var stopOnce, doneOnce sync.Once
	stop := func() { stopOnce.Do(func() { wakeW.Close() }) }
	return &mcpInput{
		Reader: p,
		stop:   stop,
		prompt: true,
		done:   func() { doneOnce.Do(func() { stop(); wakeR.Close() }) },
	}
}

// Read implements io.Reader.
func (p *pollInput) Read(b []byte) (int, error) {
	for {
		var ready, woken bool
		var perr error
		err := p.rc.Control(func(fd uintptr) {
			werr := p.wrc.Control(func(wfd uintptr) {
				fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}, {Fd: int32(wfd), Events: unix.POLLIN}}
				for {
					_, perr = unix.Poll(fds, -1)
					if perr != unix.EINTR {
						break
					}
				}
				ready, woken = fds[0].Revents != 0, fds[1].Revents != 0
			})
			if werr != nil {
				woken = true
			}
		})
		switch {
		case err != nil:
			return 0, err
		case woken:
			return 0, errInputStopped
		case ready || perr != nil:
			// perr: a file poll(2) does not take is read as it is.
			return p.f.Read(b)
		}
	}
}
