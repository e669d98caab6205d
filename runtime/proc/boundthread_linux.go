//go:build linux && (amd64 || arm64)

package proc

import (
	"math/bits"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Emptying the capability bounding set costs one prctl per capability
// (about 40 as root, some 50 us on the development VM). A child inherits
// the bounding set of the thread that forks it, so instead of emptying it
// in every confined child, the goroutine that starts confined commands
// empties the set of its own OS thread once, at its first confined spawn,
// and stays locked to that thread for good (runtime.LockOSThread, never
// undone: when the goroutine ends, the runtime ends the thread). Every
// later confined child of that goroutine starts with an empty set.
//
// Such a thread runs no other goroutine, and the Go runtime starts new
// threads from a template thread, never by cloning a locked one, so no
// other goroutine inherits the empty set. A command that must keep the
// bounding set (an unconfined one) and is started from such a thread is
// forked from another goroutine instead (spawnThread's hop). What stays:
// a process the same goroutine starts by other means (os/exec in an
// embedding host) also has an empty bounding set (spec/embedding.md).

// emptiedThreads holds the thread ids whose bounding set a0 emptied.
// An entry may outlive its thread (ids are reused); every use checks the
// thread itself before trusting it.
var emptiedThreads sync.Map

// spawnThread readies the calling OS thread for forking c's child. For a
// child that gives up the bounding set (c.bset != 0) it empties the
// set of the calling thread, once per thread, keeps the goroutine on it
// and clears c.bset (the child inherits the empty set). It reports hop
// when c's child must keep the bounding set but the calling goroutine
// sits on an emptied thread: the fork must then run on another
// goroutine.
func spawnThread(c *childSpec) (hop bool) {
	if c.bset == 0 {
		full := boundingSet()
		if full == 0 {
			return false
		}
		tid := unix.Gettid()
		if _, ok := emptiedThreads.Load(tid); !ok {
			return false
		}
		if capInThreadBound(uintptr(bits.Len64(full) - 1)) {
			emptiedThreads.Delete(tid) // a new thread with a reused id
			return false
		}
		return true
	}
	high := uintptr(bits.Len64(c.bset) - 1)
	runtime.LockOSThread()
	if !capInThreadBound(high) {
		// Emptied by an earlier spawn of this goroutine, whose lock
		// holds the thread: this one is not needed.
		runtime.UnlockOSThread()
		c.bset = 0
		return false
	}
	// Highest first: a thread whose highest capability is gone has had
	// its set emptied (or as much of it as the kernel allowed), which is
	// what the checks above and in the unconfined branch read.
	emptiedThreads.Store(unix.Gettid(), struct{}{})
	for i := high + 1; i > 0; i-- {
		if c.bset&(1<<(i-1)) == 0 {
			continue
		}
		if _, _, e := syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, i-1, 0, 0, 0, 0); e != 0 {
			// Refused: the thread keeps what is left (it stays locked
			// to this goroutine); the child tries again and gives up
			// on EPERM, as it did before.
			return false
		}
	}
	c.bset = 0
	return false
}

// capInThreadBound reports whether capability n is in the calling
// thread's bounding set.
func capInThreadBound(n uintptr) bool {
	r, _, e := syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_CAPBSET_READ, n, 0, 0, 0, 0)
	return e != 0 || r == 1
}
