//go:build linux && (amd64 || arm64)

package proc

import (
	"math/bits"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Confined commands are forked by a fork thread: a goroutine locked for
// good to an OS thread (runtime.LockOSThread, never undone) that runs
// nothing but those forks and, after each, the making of the next
// command's private folder and Landlock ruleset (spareMaker). A child inherits three things from the thread
// that forks it — its capability bounding set, no_new_privs and its
// seccomp filter — so the fork thread gives them up once, when it
// starts, and every child it forks starts with them instead of paying
// for them itself:
//   - an empty bounding set (one prctl per capability, about 40 as root,
//     some 50 us on the development VM);
//   - no_new_privs and the commands' seccomp filter (installing a filter
//     costs the kernel a compilation and a run per system call number,
//     some 60 us per command there, the largest part of a confined
//     spawn).
//
// There is one fork thread per seccomp program (two at most: network
// "deny" and "allow", commandProg), started at the first confined
// command that needs it. Such a thread runs no other goroutine (a locked
// thread runs only its own), and the Go runtime starts new threads from
// a template thread, never by cloning a locked one, so no other thread
// of a0 inherits what it gave up. The filter refuses nothing the thread
// itself does (pipe2, clone, read, close, wait4, mkdirat, openat with
// O_PATH, the Landlock calls); a0's other threads
// are not confined at all, and no thread of a0 is in a Landlock domain
// (the child enforces its own; spec/exec.md §12). Unconfined commands
// are forked by the goroutine that starts them.

// A forkThread serves the forks of confined commands with one seccomp
// program.
type forkThread struct {
	reqs chan *forkReq
	// filter: the thread holds the program, so its children do not
	// install it; emptied: its bounding set is empty, so its children do
	// not drop it. Either is false where the kernel refused (the child
	// then does it itself, and fails or gives up as before).
	filter, emptied bool
	tid             int
}

// forkReq is one fork asked of a fork thread.
type forkReq struct {
	c    *childSpec
	path string
	pid  int
	err  error
	done chan struct{}
}

var (
	forkThreadsMu sync.Mutex
	forkThreads   = map[*unix.SockFprog]*forkThread{}
)

// forkThreadFor returns the fork thread of filter, starting it on first
// use (bset: the bounding-set capabilities it drops).
func forkThreadFor(filter *unix.SockFprog, bset uint64) *forkThread {
	forkThreadsMu.Lock()
	defer forkThreadsMu.Unlock()
	if ft := forkThreads[filter]; ft != nil {
		return ft
	}
	ft := &forkThread{reqs: make(chan *forkReq)}
	ready := make(chan struct{})
	go ft.serve(filter, bset, ready)
	<-ready
	forkThreads[filter] = ft
	return ft
}

// forkThreadIDs returns the thread ids of the fork threads started so
// far (for tests).
func forkThreadIDs() map[int]bool {
	forkThreadsMu.Lock()
	defer forkThreadsMu.Unlock()
	ids := map[int]bool{}
	for _, ft := range forkThreads {
		ids[ft.tid] = true
	}
	return ids
}

// fork forks c's child on the fork thread and returns its pid.
func (ft *forkThread) fork(c *childSpec, path string) (int, error) {
	r := &forkReq{c: c, path: path, done: make(chan struct{})}
	ft.reqs <- r
	<-r.done
	return r.pid, r.err
}

// serve readies the calling goroutine's thread and forks what it is
// asked, for good.
func (ft *forkThread) serve(filter *unix.SockFprog, bset uint64, ready chan<- struct{}) {
	runtime.LockOSThread() // never undone: the thread stays this goroutine's
	ft.tid = unix.Gettid()
	ft.emptied = dropThreadBound(bset)
	if filter != nil {
		if _, _, e := syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); e == 0 {
			ft.filter = installFilter(filter) == 0
		}
	}
	close(ready)
	for r := range ft.reqs {
		if ft.filter {
			r.c.filter = nil
		}
		if ft.emptied {
			r.c.bset = 0
		}
		after := r.c.after
		r.pid, r.err = forkHere(r.c, r.path)
		close(r.done)
		if after != nil {
			// The asker goes on meanwhile: this thread is awake anyway.
			after()
		}
	}
}

// installFilter installs the seccomp program f on the calling thread
// (with SECCOMP_FILTER_FLAG_SPEC_ALLOW: no speculation mitigation forced;
// without it before Linux 4.17, which does not know the flag).
func installFilter(f *unix.SockFprog) unix.Errno {
	_, _, e := syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_SPEC_ALLOW, uintptr(unsafe.Pointer(f)))
	if e == unix.EINVAL {
		_, _, e = syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(f)))
	}
	return e
}

// dropThreadBound empties the calling thread's bounding set of bset's
// capabilities, highest first, and reports whether all are gone.
func dropThreadBound(bset uint64) bool {
	for i := bits.Len64(bset); i > 0; i-- {
		if bset&(1<<(i-1)) == 0 {
			continue
		}
		if _, _, e := syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, uintptr(i-1), 0, 0, 0, 0); e != 0 {
			return false
		}
	}
	return true
}
