package proc

import (
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

var pollOnce = sync.OnceValue(func() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false // Linux before 5.3, or a seccomp filter
	}
	unix.Close(fd)
	return true
})

// pollSupported reports whether Run can use pollSource (pidfd_open works).
func pollSupported() bool { return pollOnce() }

// rawPipes makes pipes whose read ends are non-blocking descriptors that
// Go's poller does not own (pollSource polls them itself); the child's
// ends stay blocking.
func rawPipes(merge bool) (*pipes, error) {
	pp := &pipes{rawOut: -1, rawErr: -1}
	mk := func() (int, *os.File, error) {
		var fds [2]int
		if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
			return -1, nil, err
		}
		if err := unix.SetNonblock(fds[0], true); err != nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
			return -1, nil, err
		}
		return fds[0], os.NewFile(uintptr(fds[1]), "|1"), nil
	}
	var err error
	if pp.rawOut, pp.outW, err = mk(); err != nil {
		return nil, err
	}
	pp.errW = pp.outW
	if !merge {
		if pp.rawErr, pp.errW, err = mk(); err != nil {
			pp.closeAll()
			return nil, err
		}
	}
	return pp, nil
}

func closeRaw(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// pollSource watches stdout, stderr, the leader (a pidfd) and wake-ups (an
// eventfd) with one poll(2) in the supervising goroutine.
type pollSource struct {
	p   *Process
	fds [4]unix.PollFd // stdout, stderr, pidfd, eventfd; Fd < 0: done
	ms  [2]*Masker
	buf *[]byte

	limitSeen, failSeen bool

	// wake may be called from other goroutines, also just after release
	// (a stop sequence's last wake-up): the eventfd is closed under mu.
	mu  sync.Mutex
	efd int // -1 once closed
}

const (
	pOut = iota
	pErr
	pPid
	pWake
)

// newPollSource takes over pp's raw read ends; should a pidfd or an
// eventfd not be available after all, it falls back to a chanSource over
// the same descriptors.
func newPollSource(p *Process, pp *pipes) source {
	pidfd, err := unix.PidfdOpen(p.pid, 0)
	var efd int
	if err == nil {
		efd, err = unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
		if err != nil {
			unix.Close(pidfd)
		}
	}
	if err != nil {
		cp := &pipes{outR: os.NewFile(uintptr(pp.rawOut), "|0"), rawOut: -1, rawErr: -1}
		if pp.rawErr >= 0 {
			cp.errR = os.NewFile(uintptr(pp.rawErr), "|2")
		}
		return newChanSource(p, cp)
	}
	s := &pollSource{p: p, buf: readBufs.Get().(*[]byte), efd: efd}
	s.fds[pOut] = unix.PollFd{Fd: int32(pp.rawOut), Events: unix.POLLIN}
	s.fds[pErr] = unix.PollFd{Fd: int32(pp.rawErr), Events: unix.POLLIN}
	s.fds[pPid] = unix.PollFd{Fd: int32(pidfd), Events: unix.POLLIN}
	s.fds[pWake] = unix.PollFd{Fd: int32(efd), Events: unix.POLLIN}
	s.ms[pOut] = p.s.Masker.stream()
	s.ms[pErr] = p.s.Masker.stream()
	return s
}

// poll waits on fds until one is ready or the deadline passes (false).
func poll(fds []unix.PollFd, deadline time.Time) bool {
	for {
		timeout := -1
		if !deadline.IsZero() {
			d := time.Until(deadline)
			if d <= 0 {
				return false
			}
			timeout = int((d + time.Millisecond - 1) / time.Millisecond)
		}
		n, err := unix.Poll(fds, timeout)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			// Not expected (EINVAL, ENOMEM): do not spin.
			time.Sleep(time.Millisecond)
			return false
		}
		if n > 0 {
			return true
		}
	}
}

func (s *pollSource) wait(deadline time.Time) (bool, error) {
	for {
		if !poll(s.fds[:], deadline) {
			return false, nil
		}
		woke := false
		for i := pOut; i <= pErr; i++ {
			if s.fds[i].Fd >= 0 && s.fds[i].Revents != 0 {
				s.pump(i)
			}
		}
		if !s.limitSeen && isClosed(s.p.limitHit) {
			s.limitSeen, woke = true, true
		}
		if !s.failSeen && isClosed(s.p.failCh) {
			s.failSeen, woke = true, true
		}
		if s.fds[pWake].Revents != 0 {
			var b [8]byte
			unix.Read(int(s.fds[pWake].Fd), b[:])
			woke = true
		}
		if s.fds[pPid].Fd >= 0 && s.fds[pPid].Revents != 0 {
			unix.Close(int(s.fds[pPid].Fd))
			s.fds[pPid].Fd = -1
			return true, s.p.cmd.Wait()
		}
		if woke {
			return false, nil
		}
	}
}

// pump reads what stream i has (a bounded number of reads, so the leader
// and wake-ups are looked at even while output streams in).
func (s *pollSource) pump(i int) {
	fd := int(s.fds[i].Fd)
	buf := *s.buf
	for k := 0; k < 16; k++ {
		n, err := unix.Read(fd, buf)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return
		case n > 0:
			s.p.consume(i == pErr, s.ms[i].Write(buf[:n]))
			continue
		}
		// End of stream (n == 0) or a read error.
		s.p.consume(i == pErr, s.ms[i].Flush())
		if err != nil && !(s.p.s.Pty && ptyEnded(err)) {
			s.p.readFailed()
		}
		unix.Close(fd)
		s.fds[i].Fd = -1
		return
	}
}

func (s *pollSource) wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.efd >= 0 {
		one := [8]byte{1}
		unix.Write(s.efd, one[:])
	}
}

func (s *pollSource) abandon() {
	if fd := s.fds[pPid].Fd; fd >= 0 {
		unix.Close(int(fd))
		s.fds[pPid].Fd = -1
	}
	go s.p.cmd.Wait()
}

func (s *pollSource) drain(deadline time.Time) bool {
	for s.fds[pOut].Fd >= 0 || s.fds[pErr].Fd >= 0 {
		if !poll(s.fds[:pPid], deadline) {
			return false
		}
		for i := pOut; i <= pErr; i++ {
			if s.fds[i].Fd >= 0 && s.fds[i].Revents != 0 {
				s.pump(i)
			}
		}
	}
	return true
}

func (s *pollSource) release() {
	s.mu.Lock()
	unix.Close(s.efd)
	s.efd = -1
	s.fds[pWake].Fd = -1
	s.mu.Unlock()
	for i := range s.fds {
		if fd := s.fds[i].Fd; fd >= 0 {
			unix.Close(int(fd))
			s.fds[i].Fd = -1
		}
	}
	if s.buf != nil {
		readBufs.Put(s.buf)
		s.buf = nil
	}
}
