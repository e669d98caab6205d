//go:build linux && (amd64 || arm64)

package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// forkExec starts the command c describes and returns its pid once it
// has passed execve, or the error of the step that failed (the child is
// then reaped). A confined command is forked by the fork thread of its
// seccomp program (forkThreadFor), an unconfined one by the calling
// goroutine.
func forkExec(c *childSpec, path string) (int, error) {
	if c.confine {
		return forkThreadFor(c.filter, c.bset).fork(c, path)
	}
	pid, err := forkHere(c, path)
	if c.after != nil {
		c.after()
	}
	return pid, err
}

// forkHere is forkExec on the calling goroutine's thread.
func forkHere(c *childSpec, path string) (int, error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return 0, fmt.Errorf("pipe: %w", err)
	}
	c.pipe = p[1]
	var ca *cloneArgs
	if c.cgroup >= 0 {
		ca = &cloneArgs{flags: unix.CLONE_VM | unix.CLONE_VFORK | unix.CLONE_INTO_CGROUP, exitSignal: uint64(unix.SIGCHLD), cgroup: uint64(c.cgroup)}
	}
	// Descriptors made without close-on-exec are made under the read
	// lock; the write lock keeps them out of the child.
	syscall.ForkLock.Lock()
	if !closeRangeWorks() {
		c.fdMax = fdLimit()
	}
	pid, errno := forkChild(c, ca) // calls runtimeBeforeFork
	runtimeAfterFork()
	syscall.ForkLock.Unlock()
	unix.Close(p[1])
	if errno != 0 {
		unix.Close(p[0])
		if ca != nil {
			return 0, fmt.Errorf("clone3 into the pids cgroup: %w", errno)
		}
		return 0, &os.PathError{Op: "fork/exec", Path: path, Err: errno}
	}
	var ce childError
	n := readFull(p[0], (*[unsafe.Sizeof(ce)]byte)(unsafe.Pointer(&ce))[:])
	unix.Close(p[0])
	if n == 0 {
		return int(pid), nil
	}
	// The child failed before or at execve: reap it.
	var ws unix.WaitStatus
	for {
		if _, err := unix.Wait4(int(pid), &ws, 0, nil); err != unix.EINTR {
			break
		}
	}
	if n != int(unsafe.Sizeof(ce)) {
		return 0, errors.New("fork/exec: short read from the child")
	}
	e := unix.Errno(ce.errno)
	switch ce.step {
	case stepExec:
		return 0, &os.PathError{Op: "fork/exec", Path: path, Err: e}
	case stepChdir:
		return 0, &os.PathError{Op: "chdir", Path: unix.BytePtrToString(c.dir), Err: e}
	}
	name := "step " + fmt.Sprint(ce.step)
	if ce.step < uintptr(len(stepNames)) && stepNames[ce.step] != "" {
		name = stepNames[ce.step]
	}
	return 0, fmt.Errorf("confining the command: %s: %w", name, e)
}

// readFull reads from fd until b is full or the writer is gone.
func readFull(fd int, b []byte) int {
	n := 0
	for n < len(b) {
		m, err := unix.Read(fd, b[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || m <= 0 {
			break
		}
		n += m
	}
	return n
}

// forkChild forks (vfork: the parent thread waits until the child has
// passed execve or exited) and, in the child, confines it and executes
// the command. In the parent it returns the child's pid.
//
// The child runs on the parent's stack, in this frame: the parent must
// return at once, reading nothing but rawVfork's results (written after
// the child is gone). So this function is not inlined and touches only
// its own locals, c (read only) and raw system calls in the child.
//
//go:noinline
//go:norace
//go:nocheckptr
func forkChild(c *childSpec, ca *cloneArgs) (pid uintptr, errno unix.Errno) {
	// From here on, no stack growth (this frame is already big enough:
	// the check was made on entry) and no calls but to the functions
	// below.
	runtimeBeforeFork()
	if ca != nil {
		pid, errno = rawVfork(unix.SYS_CLONE3, uintptr(unsafe.Pointer(ca)), unsafe.Sizeof(*ca), 0)
	} else {
		pid, errno = rawVfork(unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_VFORK|uintptr(unix.SIGCHLD), 0, 0)
	}
	if errno != 0 || pid != 0 {
		// The parent (or no child): return before touching the frame.
		return
	}
	// The child. Signal handlers back to their defaults, signals
	// unblocked, as os/exec's child does.
	runtimeAfterForkInChild()
	var step uintptr
	var err1 unix.Errno
	fd := c.fds
	pipe := c.pipe
	nextfd := len(fd)

	step = stepSetsid
	if _, _, err1 = syscall.RawSyscall(unix.SYS_SETSID, 0, 0, 0); err1 != 0 {
		goto fail
	}
	if c.ctty {
		step = stepCtty
		if _, _, err1 = syscall.RawSyscall(unix.SYS_IOCTL, uintptr(fd[0]), unix.TIOCSCTTY, 0); err1 != 0 {
			goto fail
		}
	}
	if c.tasks >= 0 {
		// A thread that moves itself skips the cgroup lock that moving
		// a whole process takes (and its RCU grace period); the child
		// is one thread.
		step = stepCgroup
		zero := byte('0')
		if _, _, err1 = syscall.RawSyscall(unix.SYS_WRITE, uintptr(c.tasks), uintptr(unsafe.Pointer(&zero)), 1); err1 != 0 {
			goto fail
		}
	}
	if c.dir != nil {
		step = stepChdir
		if _, _, err1 = syscall.RawSyscall(unix.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); err1 != 0 {
			goto fail
		}
	}
	// The standard streams: first move any that sits below its place
	// (or the error pipe) out of the way, then put each in place.
	step = stepFds
	if pipe < nextfd {
		if _, _, err1 = syscall.RawSyscall(unix.SYS_DUP3, uintptr(pipe), uintptr(nextfd), unix.O_CLOEXEC); err1 != 0 {
			goto fail
		}
		pipe = nextfd
		nextfd++
	}
	for i := 0; i < len(fd); i++ {
		if fd[i] < i {
			if nextfd == pipe {
				nextfd++
			}
			if _, _, err1 = syscall.RawSyscall(unix.SYS_DUP3, uintptr(fd[i]), uintptr(nextfd), unix.O_CLOEXEC); err1 != 0 {
				goto fail
			}
			fd[i] = nextfd
			nextfd++
		}
	}
	for i := 0; i < len(fd); i++ {
		if fd[i] == i {
			// dup3 onto itself would not clear close-on-exec.
			if _, _, err1 = syscall.RawSyscall(unix.SYS_FCNTL, uintptr(fd[i]), unix.F_SETFD, 0); err1 != 0 {
				goto fail
			}
			continue
		}
		if _, _, err1 = syscall.RawSyscall(unix.SYS_DUP3, uintptr(fd[i]), uintptr(i), 0); err1 != 0 {
			goto fail
		}
	}
	// Every descriptor above 2 close-on-exec: the command gets its
	// standard streams only, not what a0 inherited without the flag.
	step = stepCloexec
	if c.fdMax == 0 {
		if _, _, err1 = syscall.RawSyscall(unix.SYS_CLOSE_RANGE, 3, ^uintptr(0)>>32, unix.CLOSE_RANGE_CLOEXEC); err1 != 0 {
			goto fail
		}
	} else {
		for i := 3; i < c.fdMax; i++ {
			syscall.RawSyscall(unix.SYS_FCNTL, uintptr(i), unix.F_SETFD, unix.FD_CLOEXEC)
		}
	}
	if c.confine {
		step = stepNoNewPrivs
		if _, _, err1 = syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); err1 != 0 {
			goto fail
		}
		// An empty bounding set: no file capability can be gained at
		// any later execve (no_new_privs and the capset below already
		// see to that; this holds even without them). Where something
		// refuses it (EPERM) despite CAP_SETPCAP, those two still hold.
		step = stepBounding
		for i := uintptr(0); i < 64; i++ {
			if c.bset&(1<<i) != 0 {
				if _, _, err1 = syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, i, 0, 0, 0, 0); err1 == unix.EPERM {
					break
				} else if err1 != 0 {
					goto fail
				}
			}
		}
	}
	if c.ruleset >= 0 {
		step = stepLandlock
		if _, _, err1 = syscall.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(c.ruleset), 0, 0); err1 != 0 {
			goto fail
		}
	}
	if c.filter != nil {
		step = stepSeccomp
		// Only where the fork thread could not hold the filter itself.
		_, _, err1 = syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_SPEC_ALLOW, uintptr(unsafe.Pointer(c.filter)))
		if err1 == unix.EINVAL {
			// Before Linux 4.17: no such flag.
			_, _, err1 = syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(c.filter)))
		}
		if err1 != 0 {
			goto fail
		}
	}
	step = stepRlimit
	for i := 0; i < len(c.rlimits); i++ {
		if _, _, err1 = syscall.RawSyscall6(unix.SYS_PRLIMIT64, 0, c.rlimits[i].resource, uintptr(unsafe.Pointer(&c.rlimits[i].lim)), 0, 0, 0); err1 != 0 {
			goto fail
		}
	}
	if c.caps {
		// No permitted, effective or inheritable capability, and so no
		// ambient one: with no_new_privs, execve cannot give any back,
		// whether the command runs as root or a file carries
		// capabilities.
		step = stepCaps
		if _, _, err1 = syscall.RawSyscall(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&noCaps.hdr)), uintptr(unsafe.Pointer(&noCaps.data[0])), 0); err1 != 0 {
			goto fail
		}
	}
	step = stepExec
	_, _, err1 = syscall.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(c.argv0)), uintptr(unsafe.Pointer(&c.argv[0])), uintptr(unsafe.Pointer(&c.envv[0])))

fail:
	ce := childError{step: step, errno: uintptr(err1)}
	syscall.RawSyscall(unix.SYS_WRITE, uintptr(pipe), uintptr(unsafe.Pointer(&ce)), unsafe.Sizeof(ce))
	for {
		syscall.RawSyscall(unix.SYS_EXIT_GROUP, 253, 0, 0)
	}
}

// noCaps is what capset is given in the child: no capability at all.
var noCaps = struct {
	hdr  unix.CapUserHeader
	data [2]unix.CapUserData
}{hdr: unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}}

// rawVfork makes the clone or clone3 system call trap with CLONE_VM and
// CLONE_VFORK and returns in both the parent and the child (assembly:
// the return address is kept in a register across the call, since the
// child returns through the same stack).
func rawVfork(trap, a1, a2, a3 uintptr) (r1 uintptr, err unix.Errno)

// The runtime's fork hooks, as syscall.ForkExec uses them: before the
// fork signals are blocked and the stack may not grow; after it, the
// parent restores both and the child resets signal handlers.

//go:linkname runtimeBeforeFork syscall.runtime_BeforeFork
func runtimeBeforeFork()

//go:linkname runtimeAfterFork syscall.runtime_AfterFork
func runtimeAfterFork()

//go:linkname runtimeAfterForkInChild syscall.runtime_AfterForkInChild
func runtimeAfterForkInChild()

// startPlain starts an unconfined command: with a0's own fork too, so
// it gets the same descriptor hygiene and RLIMIT_NOFILE as a confined
// one.
func startPlain(cmd *exec.Cmd) error { return startOwn(cmd) }
