//go:build unix

package mcpserver

import (
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// filePoller waits with poll(2) for a file to be readable or writable,
// polling a pipe of its own beside it: closing that pipe's write end
// (stop) ends every wait. So a session reads and writes os.Stdin and
// os.Stdout as a process gets them (a pipe, a terminal or a socket in
// blocking mode, which take no deadline) and still ends without a
// goroutine left blocked in them, without changing the files' mode,
// which other processes may share.
type filePoller struct {
	f            *os.File
	rc           syscall.RawConn
	wakeR, wakeW *os.File
	wrc          syscall.RawConn
	stopOnce     sync.Once
	doneOnce     sync.Once
}

// newFilePoller returns the poller of x, a file; nil for anything else.
func newFilePoller(x any) *filePoller {
	f, ok := x.(*os.File)
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
	return &filePoller{f: f, rc: rc, wakeR: wakeR, wakeW: wakeW, wrc: wrc}
}

// stop ends the waits, the one in progress and every later one.
func (p *filePoller) stop() { p.stopOnce.Do(func() { p.wakeW.Close() }) }

// done releases the wake pipe, once nothing waits any more.
func (p *filePoller) done() {
	p.doneOnce.Do(func() {
		p.stop()
		p.wakeR.Close()
	})
}

// wait waits until the file is ready for events (nil) or stop is called
// (errInputStopped). A file poll(2) does not take counts as ready. When
// both come at once, readyFirst says which wins.
func (p *filePoller) wait(events int16, readyFirst bool) error {
	for {
		var ready, woken bool
		var perr error
		err := p.rc.Control(func(fd uintptr) {
			werr := p.wrc.Control(func(wfd uintptr) {
				fds := []unix.PollFd{{Fd: int32(fd), Events: events}, {Fd: int32(wfd), Events: unix.POLLIN}}
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
			return err
		case ready && readyFirst, perr != nil:
			return nil
		case woken:
			return errInputStopped
		case ready:
			return nil
		}
	}
}

// newPollInput returns r, a file, read only once poll(2) says it is
// readable: stop interrupts that wait, and the read returns
// errInputStopped without having taken a byte. nil for anything else.
func newPollInput(r io.Reader) *mcpInput {
	p := newFilePoller(r)
	if p == nil {
		return nil
	}
	return &mcpInput{pollReader{p}, interrupt{stop: p.stop, prompt: true, done: p.done}}
}

type pollReader struct{ p *filePoller }

func (r pollReader) Read(b []byte) (int, error) {
	if err := r.p.wait(unix.POLLIN, false); err != nil {
		return 0, err
	}
	return r.p.f.Read(b)
}

// newPollOutput returns w, a file, written a piece at a time, each once
// poll(2) says it is writable: stop ends a wait for a client that does
// not read (the line is then cut short: the session is over). While the
// file is writable, a line is written to its end. nil for anything else.
func newPollOutput(w io.Writer) *mcpOutput {
	p := newFilePoller(w)
	if p == nil {
		return nil
	}
	return &mcpOutput{pollWriter{p}, interrupt{stop: p.stop, prompt: true, done: p.done}}
}

type pollWriter struct{ p *filePoller }

// pollPiece is the most written after one poll: PIPE_BUF, which a pipe
// that polls writable takes without blocking.
const pollPiece = 4096

func (w pollWriter) Write(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		if err := w.p.wait(unix.POLLOUT, true); err != nil {
			return n, err
		}
		m, err := w.p.f.Write(b[n:min(len(b), n+pollPiece)])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
