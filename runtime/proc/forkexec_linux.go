package proc

import "golang.org/x/sys/unix"

// A confined command is started by a0's own fork and exec (forkExec), not
// by os/exec: between fork and execve the child confines itself — it
// moves into its pids cgroup, gives up root's capabilities, sets
// no_new_privs, enforces its Landlock ruleset, installs the seccomp
// filter and sets its rlimits — so the command's first instruction runs
// confined and limited, and no thread of a0 is ever confined.
//
// The child shares a0's memory until execve (vfork), like the child of
// syscall.ForkExec: it runs only the code of forkChild and the
// functions it calls, all of which make raw system calls and never
// allocate, grow the stack or take a lock.

// childSpec is everything the child of forkExec needs, made ready by
// the parent (pointers to NUL-terminated strings and NULL-terminated
// arrays, open descriptors).
type childSpec struct {
	argv0   *byte
	argv    []*byte
	envv    []*byte
	dir     *byte  // nil: a0's working directory
	fds     [3]int // the command's stdin, stdout and stderr
	pipe    int    // write end of the error pipe (close-on-exec)
	tasks   int    // a cgroup v1 tasks file the child moves itself into (-1: none)
	cgroup  int    // a cgroup v2 folder the child starts in (clone3 CLONE_INTO_CGROUP; -1: none)
	ruleset int    // the Landlock ruleset the child enforces (-1: none)
	filter  *unix.SockFprog
	rlimits []childRlimit // set last: RLIMIT_NOFILE could refuse the descriptor moves
}

// childRlimit is one resource limit the child sets on itself.
type childRlimit struct {
	resource uintptr
	lim      unix.Rlimit
}

// childError is what a failed child writes on the error pipe: the step
// it failed at and the errno.
type childError struct {
	step  uintptr
	errno uintptr
}

// The steps of the child, named in a failure.
const (
	stepSetsid = iota + 1
	stepCgroup
	stepChdir
	stepFds
	stepNoNewPrivs
	stepSecurebits
	stepLandlock
	stepSeccomp
	stepRlimit
	stepExec
)

var stepNames = [...]string{
	stepSetsid:     "setsid",
	stepCgroup:     "moving into its pids cgroup",
	stepChdir:      "chdir",
	stepFds:        "setting up its standard streams",
	stepNoNewPrivs: "no_new_privs",
	stepSecurebits: "securebits",
	stepLandlock:   "landlock_restrict_self",
	stepSeccomp:    "seccomp",
	stepRlimit:     "setrlimit",
	stepExec:       "fork/exec",
}

// cloneArgs is the kernel's struct clone_args (clone3).
type cloneArgs struct {
	flags, pidFD, childTID, parentTID, exitSignal, stack, stackSize, tls, setTID, setTIDSize, cgroup uint64
}
