package proc

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// A source tells the supervisor what happened to its Process: the leader
// ended, output arrived (kept through consume), or something woke it.
//
// Two implement it. chanSource reads each pipe in a goroutine and waits
// for the leader in another, all through Go's runtime poller; it runs
// everywhere and serves jobs. pollSource (Linux, source_linux.go) does all
// of it with one poll(2) over the pipes, a pidfd and an eventfd in the
// supervising goroutine, which is how Run spends ~0.1 ms less per spawn:
// the kernel wakes that one thread, as it wakes os/exec's wait4.
type source interface {
	// wait blocks until the leader is reaped (true, with exec.Cmd.Wait's
	// error), a wake-up or the output limit or a read failure occurred,
	// or the deadline (zero: none) passed (false). After the leader was
	// reaped it keeps consuming output until a wake-up.
	wait(deadline time.Time) (exited bool, err error)
	// wake interrupts wait; it never blocks.
	wake()
	// abandon gives up on a leader stuck in the kernel after SIGKILL: it
	// is reaped in the background whenever it ends.
	abandon()
	// drain consumes output until both pipes ended (true) or the deadline
	// passed (false: what is left is dropped).
	drain(deadline time.Time) bool
	// release closes everything the source holds.
	release()
}

// pipes are the output pipes of one command.
type pipes struct {
	outR, errR     *os.File // chanSource: the read ends (errR nil when merged)
	rawOut, rawErr int      // pollSource: non-blocking read descriptors (-1: none)
	outW, errW     *os.File // the child's ends (errW == outW when merged)
}

func newPipes(merge, raw bool) (*pipes, error) {
	if raw {
		return rawPipes(merge)
	}
	pp := &pipes{rawOut: -1, rawErr: -1}
	var err error
	if pp.outR, pp.outW, err = os.Pipe(); err != nil {
		return nil, err
	}
	pp.errW = pp.outW
	if !merge {
		if pp.errR, pp.errW, err = os.Pipe(); err != nil {
			pp.closeAll()
			return nil, err
		}
	}
	return pp, nil
}

// closeWriters closes the parent's copies of the child's ends.
func (pp *pipes) closeWriters() {
	pp.outW.Close()
	if pp.errW != pp.outW {
		pp.errW.Close()
	}
}

func (pp *pipes) closeAll() {
	pp.closeWriters()
	for _, f := range []*os.File{pp.outR, pp.errR} {
		if f != nil {
			f.Close()
		}
	}
	closeRaw(pp.rawOut)
	closeRaw(pp.rawErr)
}

// chanSource is the portable source: goroutines over Go's runtime poller.
type chanSource struct {
	p           *Process
	outR, errR  *os.File
	waitDone    chan error
	exited      bool
	left        atomic.Int32  // readers still running
	drained     chan struct{} // closed when the last reader ended
	limit, fail <-chan struct{}
	wakeCh      chan struct{}
}

func newChanSource(p *Process, pp *pipes) *chanSource {
	c := &chanSource{
		p: p, outR: pp.outR, errR: pp.errR,
		waitDone: make(chan error, 1),
		drained:  make(chan struct{}),
		limit:    p.limitHit,
		fail:     p.failCh,
		wakeCh:   make(chan struct{}, 1),
	}
	if c.errR != nil {
		c.left.Store(2)
		go c.read(c.errR, true)
	} else {
		c.left.Store(1)
	}
	go c.read(c.outR, false)
	go func() { c.waitDone <- p.cmd.Wait() }()
	return c
}

func (c *chanSource) read(r *os.File, isErr bool) {
	defer func() {
		if c.left.Add(-1) == 0 {
			close(c.drained)
		}
	}()
	p := c.p
	m := p.s.Masker.stream()
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.consume(isErr, m.Write(buf[:n]))
		}
		if err != nil {
			p.consume(isErr, m.Flush())
			if err != io.EOF && !errors.Is(err, os.ErrClosed) && !(p.s.Pty && ptyEnded(err)) {
				p.readFailed()
			}
			return
		}
	}
}

func (c *chanSource) wait(deadline time.Time) (bool, error) {
	var timer <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timer = t.C
	}
	var waitDone chan error
	if !c.exited {
		waitDone = c.waitDone
	}
	select {
	case err := <-waitDone:
		c.exited = true
		return true, err
	case <-c.limit:
		c.limit = nil
	case <-c.fail:
		c.fail = nil
	case <-c.wakeCh:
	case <-timer:
	}
	return false, nil
}

func (c *chanSource) wake() {
	select {
	case c.wakeCh <- struct{}{}:
	default:
	}
}

// abandon: the waiter goroutine reaps the leader whenever it ends.
func (c *chanSource) abandon() {}

func (c *chanSource) drain(deadline time.Time) bool {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-c.drained:
		return true
	case <-t.C:
		c.closeReaders()
		<-c.drained
		return false
	}
}

func (c *chanSource) closeReaders() {
	c.outR.Close()
	if c.errR != nil {
		c.errR.Close()
	}
}

func (c *chanSource) release() { c.closeReaders() }
