package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/a0lang/a0/runtime/proc/internal/nofile"
	"golang.org/x/sys/unix"
)

// Every command is started by a0's own fork and exec (forkExec), not by
// os/exec: between fork and execve the child starts its session, marks
// every descriptor above 2 close-on-exec and gives RLIMIT_NOFILE its
// original soft limit back. A confined child is forked by a fork thread
// (forkthread_linux.go), from which it inherits an empty capability
// bounding set, no_new_privs and the seccomp filter, and confines itself
// further — it moves into its pids cgroup, enforces its Landlock
// ruleset, sets its rlimits and gives up every capability — so the
// command's first instruction runs confined and limited. No thread of a0
// is in a Landlock domain, and none but the fork threads holds a seccomp
// filter.
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
	// confine: no_new_privs, and no capability at execve (capset to
	// nothing when caps holds any). bset: the bounding-set capabilities
	// the child drops (bit n: capability n; needs CAP_SETPCAP).
	confine bool
	caps    bool
	bset    uint64
	// fdMax: where close_range is refused, the child marks descriptors
	// 3 to fdMax-1 close-on-exec one by one (0: close_range works).
	fdMax int
	// ctty: the child makes its standard input (a pty's slave) the
	// controlling terminal of its new session (TIOCSCTTY).
	ctty bool
	// after, when set, is run by the fork thread once the child has
	// passed execve (or failed), whatever the outcome (the parent's
	// side only; the child never reads it).
	after func()
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
	stepCloexec
	stepNoNewPrivs
	stepBounding
	stepLandlock
	stepSeccomp
	stepRlimit
	stepCaps
	stepExec
	stepCtty
)

var stepNames = [...]string{
	stepSetsid:     "setsid",
	stepCgroup:     "moving into its pids cgroup",
	stepChdir:      "chdir",
	stepFds:        "setting up its standard streams",
	stepCloexec:    "marking descriptors close-on-exec",
	stepNoNewPrivs: "no_new_privs",
	stepBounding:   "dropping the capability bounding set",
	stepLandlock:   "landlock_restrict_self",
	stepSeccomp:    "seccomp",
	stepRlimit:     "setrlimit",
	stepCaps:       "capset",
	stepExec:       "fork/exec",
	stepCtty:       "setting its controlling terminal",
}

// cloneArgs is the kernel's struct clone_args (clone3).
type cloneArgs struct {
	flags, pidFD, childTID, parentTID, exitSignal, stack, stackSize, tls, setTID, setTIDSize, cgroup uint64
}

// specFor makes the child's spec for cmd: its Path, Args, Env, Dir and
// standard streams (*os.File, or nil for /dev/null), read as os/exec
// reads them (cmdArgv, cmdEnviron). It confines nothing; the original
// soft RLIMIT_NOFILE is given back (restoreNofile). SysProcAttr and
// ExtraFiles are not read: the child always starts its own session and
// gets its standard streams only.
func specFor(cmd *exec.Cmd) (*childSpec, error) {
	if cmd.Err != nil {
		return nil, cmd.Err // exec.Command's failed lookup, as cmd.Start
	}
	spec := &childSpec{tasks: -1, cgroup: -1, ruleset: -1}
	var err error
	if spec.argv0, err = unix.BytePtrFromString(cmd.Path); err != nil {
		return nil, err
	}
	if spec.argv, err = cStrings(cmdArgv(cmd)); err != nil {
		return nil, err
	}
	env, err := cmdEnviron(cmd)
	if err != nil {
		return nil, err
	}
	if spec.envv, err = cStrings(env); err != nil {
		return nil, err
	}
	if cmd.Dir != "" {
		if spec.dir, err = unix.BytePtrFromString(cmd.Dir); err != nil {
			return nil, err
		}
	}
	for i, s := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		f, _ := s.(*os.File)
		if f == nil {
			if s != nil {
				return nil, fmt.Errorf("a command's standard stream %d must be a file", i)
			}
			null := devNull
			if i > 0 {
				null = devNullOut
			}
			if f, err = null(); err != nil {
				return nil, err
			}
		}
		spec.fds[i] = int(f.Fd())
	}
	spec.ctty = cmd.SysProcAttr != nil && cmd.SysProcAttr.Setctty
	return spec, nil
}

// cmdArgv is the argument list os/exec passes: Args, or Path alone when
// there are none.
func cmdArgv(cmd *exec.Cmd) []string {
	if len(cmd.Args) > 0 {
		return cmd.Args
	}
	return []string{cmd.Path}
}

// cmdEnviron is the environment os/exec passes (cmd.Environ): a nil Env
// is a0's own, with PWD set to an absolute Dir; a name given twice keeps
// its last value; empty entries are dropped. Like cmd.Start, it refuses
// a NUL in a variable (cmd.Environ would drop it silently).
func cmdEnviron(cmd *exec.Cmd) ([]string, error) {
	for _, kv := range cmd.Env {
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, errors.New("exec: environment variable contains NUL")
		}
	}
	return cmd.Environ(), nil
}

// cStrings returns list as NUL-terminated strings in a NULL-terminated
// array.
func cStrings(list []string) ([]*byte, error) {
	out := make([]*byte, len(list)+1)
	for i, s := range list {
		p, err := unix.BytePtrFromString(s)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// devNull is a0's descriptor of /dev/null, the standard input of a
// command that gets none (opened once, read only); devNullOut is the one
// for output (write only), as os/exec opens them.
var (
	devNull    = sync.OnceValues(func() (*os.File, error) { return os.Open(os.DevNull) })
	devNullOut = sync.OnceValues(func() (*os.File, error) { return os.OpenFile(os.DevNull, os.O_WRONLY, 0) })
)

// restoreNofile gives the command the soft RLIMIT_NOFILE a0 was started
// with, as os/exec's child does: Go raises a0's soft limit to the hard
// one at start (for itself), and a command that uses select(2) expects
// the old one. Like Go, only while a0's limit is still the one Go set.
// It is the last limit the child sets.
func (c *childSpec) restoreNofile() {
	at := nofile.At
	if !nofile.Known || at[1] == 0 || at[0] >= at[1]-1 {
		return // Go left the limit alone
	}
	var now unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &now) != nil || now.Cur != at[1]-1 || now.Max != at[1] {
		return
	}
	c.rlimits = append(c.rlimits, childRlimit{resource: unix.RLIMIT_NOFILE, lim: unix.Rlimit{Cur: at[0], Max: at[1]}})
}

// startOwn starts cmd unconfined with a0's own fork (forkExec: its own
// session, only its standard streams, the original RLIMIT_NOFILE) and
// sets cmd.Process.
func startOwn(cmd *exec.Cmd) error {
	spec, err := specFor(cmd)
	if err != nil {
		return err
	}
	spec.restoreNofile()
	return forkStart(cmd, spec)
}

// forkStart runs spec's child and sets cmd.Process.
func forkStart(cmd *exec.Cmd, spec *childSpec) error {
	pid, err := forkExec(spec, cmd.Path)
	if err != nil {
		return err
	}
	// The child is a0's and unreaped: its pid cannot be reused before
	// cmd.Wait.
	cmd.Process, err = os.FindProcess(pid)
	return err
}

// lastCap is the highest capability number the kernel knows
// (/proc/sys/kernel/cap_last_cap; 40 when it cannot be read).
var lastCap = sync.OnceValue(func() uintptr {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if n, err2 := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && err2 == nil && n >= 0 && n < 64 {
		return uintptr(n)
	}
	return 40
})

// boundingSet is a0's capability bounding set, read once (bit n:
// capability n).
var boundingSet = sync.OnceValue(func() uint64 {
	var set uint64
	for i := uintptr(0); i <= lastCap(); i++ {
		if r, _, e := syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_CAPBSET_READ, i, 0, 0, 0, 0); e == 0 && r == 1 {
			set |= 1 << i
		}
	}
	return set
})

// confineCaps sets what a confined child gives up of its capabilities:
// the whole bounding set when a0 may drop it (CAP_SETPCAP; without it,
// as for any user but root, the kernel refuses and there is nothing a
// file capability could be granted anyway: no_new_privs), and every
// permitted, effective, inheritable and ambient capability when a0 has
// any (root).
func (c *childSpec) confineCaps() {
	c.confine = true
	c.caps, c.bset = capsToGive()
}

// capsToGive is what every confined child gives up, worked out once: a
// process's capabilities can only shrink (a0 gains none without an
// execve), and giving up what a0 no longer holds is harmless.
var capsToGive = sync.OnceValues(func() (caps bool, bset uint64) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		// Cannot tell: give up everything (the child fails if it may
		// not).
		return true, boundingSet()
	}
	for _, d := range data {
		if d.Permitted|d.Effective|d.Inheritable != 0 {
			caps = true
		}
	}
	if dropBoundingSet && data[0].Effective&(1<<unix.CAP_SETPCAP) != 0 {
		bset = boundingSet()
	}
	return caps, bset
})

// dropBoundingSet: a confined child of a root a0 empties its capability
// bounding set. It adds no protection that no_new_privs and the empty
// permitted set do not already give (execve grants no more than the
// permitted set it starts from), but it holds on its own and shows in
// CapBnd. It is the costliest step of the child: one credential change
// per capability, about 40 as root, some 50-60 us per spawn on the
// development VM (spec/security.md). false leaves the set alone.
const dropBoundingSet = true

// closeRangeWorks reports whether close_range(2) with
// CLOSE_RANGE_CLOEXEC is available (Linux 5.11; a container's seccomp
// profile may refuse it): tried on descriptors no process has.
var closeRangeWorks = sync.OnceValue(func() bool {
	_, _, e := syscall.RawSyscall(unix.SYS_CLOSE_RANGE, 1<<31-2, 1<<31-1, unix.CLOSE_RANGE_CLOEXEC)
	return e == 0
})

// fdLimit returns one past the highest descriptor a0 has open (read from
// /proc/self/fd), for children that cannot use close_range.
func fdLimit() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		var lim unix.Rlimit
		if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) == nil && lim.Cur < 1<<16 {
			return int(lim.Cur)
		}
		return 1 << 16
	}
	n := 3
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= n {
			n = fd + 1
		}
	}
	return n
}
