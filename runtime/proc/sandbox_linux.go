package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// How a command is confined (spec/tools.md, "Sandbox"):
//
// A goroutine locks itself to its OS thread and never unlocks it, so the
// thread ends with the goroutine. On that thread alone it sets
// no_new_privs, enforces a Landlock ruleset and (network "deny")
// installs a seccomp filter, then forks and executes the command:
// syscall.ForkExec clones from the calling thread, and the child inherits
// that thread's Landlock domain, seccomp filter and no_new_privs. The
// interpreter's other threads never carry them.
//
// Resource limits are per process, so they cannot be set on the thread
// (that would limit a0) and must not be set after the command started
// (it would run unlimited for a while). With limits, the child is started
// with PTRACE_TRACEME: the kernel stops it right after execve, before its
// first instruction; a0 then sets its rlimits with prlimit(2), moves it
// into its pids cgroup, and detaches.

var sandboxOnce = sync.OnceValue(func() SandboxSupport {
	s := SandboxSupport{ProcessCap: "rlimit"}
	if pidsCgroupParent() != "" {
		s.ProcessCap = "cgroup"
	}
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		s.Missing = "the kernel has no Landlock (landlock_create_ruleset: " + errText(err) + ")"
		return s
	}
	s.ABI = abi
	if seccompArch() == 0 {
		s.Missing = "a0 has no seccomp filter for " + runtime.GOARCH
		return s
	}
	s.Available = true
	return s
})

func sandboxStatus() SandboxSupport { return sandboxOnce() }

func errText(err error) string {
	if err == nil {
		return "no version"
	}
	return err.Error()
}

// fsRights returns the Landlock file-system rights of ABI abi.
func fsRights(abi int) uint64 {
	switch {
	case abi >= 9:
		return 1<<17 - 1
	case abi >= 5:
		return 1<<16 - 1
	case abi >= 3:
		return 1<<15 - 1
	case abi == 2:
		return 1<<14 - 1
	}
	return 1<<13 - 1
}

const (
	readRights = llsyscall.AccessFSExecute | llsyscall.AccessFSReadFile | llsyscall.AccessFSReadDir
	// fileRights are the rights that apply to a file (not a folder).
	fileRights = llsyscall.AccessFSExecute | llsyscall.AccessFSReadFile | llsyscall.AccessFSWriteFile |
		llsyscall.AccessFSTruncate | llsyscall.AccessFSIoctlDev
	// deviceNodes: a write root does not grant making device nodes.
	deviceNodes = llsyscall.AccessFSMakeChar | llsyscall.AccessFSMakeBlock
)

// restrict enforces the Landlock ruleset on the calling thread.
func (c *confinement) restrict(abi int) error {
	handled := fsRights(abi)
	attr := llsyscall.RulesetAttr{HandledAccessFS: handled}
	if !c.networkAllow && abi >= 4 {
		attr.HandledAccessNet = llsyscall.AccessNetBindTCP | llsyscall.AccessNetConnectTCP
		if abi >= 10 {
			attr.HandledAccessNet |= llsyscall.AccessNetBindUDP | llsyscall.AccessNetConnectSendUDP
		}
	}
	if abi >= 6 {
		attr.Scoped = llsyscall.ScopeAbstractUnixSocket | llsyscall.ScopeSignal
	}
	fd, err := llsyscall.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return fmt.Errorf("landlock_create_ruleset: %w", err)
	}
	defer unix.Close(fd)
	add := func(path string, rights uint64) error {
		pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil // a root that does not exist grants nothing
		}
		defer unix.Close(pfd)
		var st unix.Stat_t
		if unix.Fstat(pfd, &st) != nil {
			return nil
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileRights
		}
		rights &= handled
		if rights == 0 {
			return nil
		}
		if err := llsyscall.LandlockAddPathBeneathRule(fd, &llsyscall.PathBeneathAttr{AllowedAccess: rights, ParentFd: pfd}, 0); err != nil {
			return fmt.Errorf("landlock_add_rule %s: %w", path, err)
		}
		return nil
	}
	for _, p := range c.read {
		if err := add(p, readRights); err != nil {
			return err
		}
	}
	for _, p := range c.write {
		if err := add(p, handled&^deviceNodes); err != nil {
			return err
		}
	}
	if err := llsyscall.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return nil
}

// BPF building blocks of the seccomp filter.
const (
	bpfLdAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfRet   = unix.BPF_RET | unix.BPF_K

	retAllow = unix.SECCOMP_RET_ALLOW
	retDeny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)

	offNr   = 0  // seccomp_data.nr
	offArch = 4  // seccomp_data.arch
	offArg0 = 16 // seccomp_data.args[0], low 32 bits (little endian)

	afUnix = unix.AF_UNIX
)

// seccompArch returns the audit architecture the filter is written for
// (0: none for this GOARCH).
func seccompArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

// netFilter is the seccomp program of network "deny": socket(2) for any
// family but AF_UNIX and io_uring_setup(2) (whose requests could open
// sockets) fail with EACCES. On amd64, x32 calls are refused and i386
// calls get the same rules (socketcall(2) refused whole); other
// architectures' calls are refused.
func netFilter() []unix.SockFilter {
	type ins = unix.SockFilter
	// Syscall numbers (native, and i386 on amd64).
	var socketNr, uringNr uint32 = unix.SYS_SOCKET, 425
	prog := []ins{
		{Code: bpfLdAbs, K: offArch},
	}
	// Labels are resolved by index below; jumps are relative and forward.
	const (
		lDomain = iota
		lDeny
		lAllow
		lI386
	)
	type fix struct {
		at     int
		target int
		jt     bool
	}
	var fixes []fix
	jump := func(code uint16, k uint32, tTarget, fTarget int) {
		// target -1: fall through.
		at := len(prog)
		prog = append(prog, ins{Code: code, K: k})
		if tTarget >= 0 {
			fixes = append(fixes, fix{at, tTarget, true})
		}
		if fTarget >= 0 {
			fixes = append(fixes, fix{at, fTarget, false})
		}
	}
	arch := seccompArch()
	if runtime.GOARCH == "amd64" {
		jump(bpfJeq, arch, -1, lI386)
	} else {
		jump(bpfJeq, arch, -1, lDeny)
	}
	prog = append(prog, ins{Code: bpfLdAbs, K: offNr})
	if runtime.GOARCH == "amd64" {
		jump(bpfJge, 0x40000000, lDeny, -1) // x32 ABI
	}
	jump(bpfJeq, socketNr, lDomain, -1)
	jump(bpfJeq, uringNr, lDeny, -1)
	prog = append(prog, ins{Code: bpfRet, K: retAllow})
	labels := map[int]int{}
	labels[lI386] = len(prog)
	if runtime.GOARCH == "amd64" {
		jump(bpfJeq, unix.AUDIT_ARCH_I386, -1, lDeny)
		prog = append(prog, ins{Code: bpfLdAbs, K: offNr})
		jump(bpfJeq, 102, lDeny, -1) // socketcall
		jump(bpfJeq, 359, lDomain, -1)
		jump(bpfJeq, 425, lDeny, -1) // io_uring_setup
		prog = append(prog, ins{Code: bpfRet, K: retAllow})
	}
	// BPF jumps only forward: the shared blocks come last.
	labels[lDomain] = len(prog)
	prog = append(prog, ins{Code: bpfLdAbs, K: offArg0})
	jump(bpfJeq, afUnix, lAllow, lDeny)
	labels[lDeny] = len(prog)
	prog = append(prog, ins{Code: bpfRet, K: retDeny})
	labels[lAllow] = len(prog)
	prog = append(prog, ins{Code: bpfRet, K: retAllow})
	for _, f := range fixes {
		off := labels[f.target] - f.at - 1
		if f.jt {
			prog[f.at].Jt = uint8(off)
		} else {
			prog[f.at].Jf = uint8(off)
		}
	}
	return prog
}

var netProg = sync.OnceValue(netFilter)

// installNetFilter installs the network filter on the calling thread only
// (no SECCOMP_FILTER_FLAG_TSYNC).
func installNetFilter() error {
	f := netProg()
	prog := unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	runtime.KeepAlive(f)
	return nil
}

// startConfined starts cmd confined by c. Only the spawning thread and
// the child are restricted.
func (c *confinement) startConfined(cmd *exec.Cmd) error {
	req := spawnReq{c: c, cmd: cmd, abi: SandboxStatus().ABI, procs: -1, errc: make(chan error, 1)}
	if c.limits.Any() {
		cmd.SysProcAttr.Ptrace = true
		if c.limits.Processes > 0 {
			c.cgroup = makePidsCgroup(filepath.Base(c.tempDir), c.limits.Processes)
			if c.cgroup != "" {
				// Opened before the thread is confined: Landlock checks
				// the open, not the write.
				fd, err := unix.Open(filepath.Join(c.cgroup, "cgroup.procs"), unix.O_WRONLY|unix.O_CLOEXEC, 0)
				if err != nil {
					return fmt.Errorf("pids cgroup: %w", err)
				}
				defer unix.Close(fd)
				req.procs = fd
			}
		}
	}
	spawner() <- req
	return <-req.errc
}

// spawnReq asks a spawner thread to confine itself and start a command.
type spawnReq struct {
	c     *confinement
	cmd   *exec.Cmd
	abi   int
	procs int // the pids cgroup's cgroup.procs, open for writing (-1: none)
	errc  chan error
}

// Spawners are goroutines locked to their own OS thread, made ahead of
// need so a thread's creation is not on a command's path. Each serves
// one command: it confines its thread, forks, and ends (and with it the
// thread, restrictions and all).
var spawners = make(chan chan spawnReq, 2)

// spawner returns an idle spawner and has a new one made.
func spawner() chan<- spawnReq {
	var ch chan spawnReq
	select {
	case ch = <-spawners:
	default:
		ch = make(chan spawnReq)
		go serve(ch, false)
	}
	go serve(make(chan spawnReq), true)
	return ch
}

// serve locks the goroutine to its thread — never unlocked, so the
// thread ends with the goroutine — and serves one request; idle, it waits
// in the spawners pool (and ends at once when the pool is full).
func serve(ch chan spawnReq, idle bool) {
	runtime.LockOSThread()
	if idle {
		select {
		case spawners <- ch:
		default:
			runtime.UnlockOSThread()
			return
		}
	}
	r := <-ch
	r.errc <- r.spawn()
}

// spawn runs on a spawner's thread: it confines the thread, starts the
// command and, with limits, sets them while the child is stopped after
// execve.
func (r *spawnReq) spawn() error {
	c, cmd := r.c, r.cmd
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := c.restrict(r.abi); err != nil {
		return err
	}
	if !c.networkAllow {
		if err := installNetFilter(); err != nil {
			return err
		}
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	if !cmd.SysProcAttr.Ptrace {
		return nil
	}
	pid := cmd.Process.Pid
	var ws unix.WaitStatus
	for {
		_, err := unix.Wait4(pid, &ws, unix.WALL, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("waiting for the confined child: %w", err)
		}
		break
	}
	if !ws.Stopped() {
		// It ended before it ran (killed): its status is gone.
		return errors.New("the confined child ended before it ran")
	}
	err := c.applyLimits(pid, r.procs)
	if err != nil {
		unix.Kill(pid, unix.SIGKILL)
	}
	if derr := unix.PtraceDetach(pid); derr != nil && !errors.Is(derr, unix.ESRCH) && err == nil {
		unix.Kill(pid, unix.SIGKILL)
		err = fmt.Errorf("ptrace detach: %w", derr)
	}
	if err != nil {
		cmd.Wait()
	}
	return err
}

// applyLimits sets the rlimits of a child that has not run yet and moves
// it into its pids cgroup (procs: its cgroup.procs; -1: RLIMIT_NPROC).
func (c *confinement) applyLimits(pid, procs int) error {
	l := c.limits
	set := func(res int, v int64, hard int64, name string) error {
		if v <= 0 {
			return nil
		}
		r := unix.Rlimit{Cur: uint64(v), Max: uint64(hard)}
		if err := unix.Prlimit(pid, res, &r, nil); err != nil {
			return fmt.Errorf("prlimit %s: %w", name, err)
		}
		return nil
	}
	// CPU: SIGXCPU at the limit, SIGKILL a second later for a program
	// that ignores it.
	if err := set(unix.RLIMIT_CPU, l.CPUSeconds, l.CPUSeconds+1, "RLIMIT_CPU"); err != nil {
		return err
	}
	if err := set(unix.RLIMIT_AS, l.MemoryBytes, l.MemoryBytes, "RLIMIT_AS"); err != nil {
		return err
	}
	if err := set(unix.RLIMIT_FSIZE, l.FileBytes, l.FileBytes, "RLIMIT_FSIZE"); err != nil {
		return err
	}
	if err := set(unix.RLIMIT_NOFILE, l.OpenFiles, l.OpenFiles, "RLIMIT_NOFILE"); err != nil {
		return err
	}
	if l.Processes > 0 {
		if procs >= 0 {
			if _, err := unix.Write(procs, []byte(strconv.Itoa(pid))); err != nil {
				return fmt.Errorf("pids cgroup: %w", err)
			}
		} else if err := set(unix.RLIMIT_NPROC, l.Processes, l.Processes, "RLIMIT_NPROC"); err != nil {
			return err
		}
	}
	return nil
}

// pidsCgroupParent returns the pids cgroup folder of this process under
// which a0 may make one cgroup per command ("" when there is none it can
// write): cgroup v1's pids hierarchy, or cgroup v2 when its pids
// controller is enabled for children.
var pidsCgroupParent = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir string
		switch {
		case parts[0] != "0" && hasWord(parts[1], "pids"):
			dir = filepath.Join("/sys/fs/cgroup/pids", parts[2])
		case parts[0] == "0" && parts[1] == "":
			d := filepath.Join("/sys/fs/cgroup", parts[2])
			ctl, err := os.ReadFile(filepath.Join(d, "cgroup.subtree_control"))
			if err != nil || !hasWord(strings.ReplaceAll(string(ctl), " ", ","), "pids") {
				continue
			}
			dir = d
		default:
			continue
		}
		if unix.Access(dir, unix.W_OK) == nil {
			if _, err := os.Stat(filepath.Join(dir, "cgroup.procs")); err == nil {
				return dir
			}
		}
	}
	return ""
})

func hasWord(list, w string) bool {
	for _, x := range strings.Split(strings.TrimSpace(list), ",") {
		if x == w {
			return true
		}
	}
	return false
}

// makePidsCgroup makes the command's pids cgroup with pids.max = max
// ("" when it cannot: RLIMIT_NPROC is used instead).
func makePidsCgroup(name string, max int64) string {
	parent := pidsCgroupParent()
	if parent == "" {
		return ""
	}
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return ""
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.FormatInt(max, 10)), 0); err != nil {
		syscall.Rmdir(dir)
		return ""
	}
	return dir
}

// removeCgroup removes the command's cgroup once its processes are gone.
func removeCgroup(dir string) {
	if dir != "" {
		_ = syscall.Rmdir(dir)
	}
}

// tempBaseFor picks where private temporary folders are made: tmp (a0's
// temporary folder) when it is a memory file system, else /dev/shm when
// that is one and writable, else tmp. Making and removing a folder on a
// journalling disk file system costs more than the spawn itself.
func tempBaseFor(tmp string) string {
	isTmpfs := func(p string) bool {
		var st unix.Statfs_t
		return unix.Statfs(p, &st) == nil && st.Type == unix.TMPFS_MAGIC && unix.Access(p, unix.W_OK) == nil
	}
	if isTmpfs(tmp) || !isTmpfs("/dev/shm") {
		return tmp
	}
	return "/dev/shm"
}
