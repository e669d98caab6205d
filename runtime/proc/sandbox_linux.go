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
	"time"
	"unsafe"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// How a command is confined (spec/tools.md, "Sandbox"):
//
// A spawner goroutine locks itself to an OS thread and never unlocks it,
// so the thread ends with the goroutine. On that thread alone it sets
// no_new_privs, enforces a Landlock ruleset and (network "deny")
// installs a seccomp filter, then forks and executes the command:
// syscall.ForkExec clones from the calling thread, and the child inherits
// that thread's Landlock domain, seccomp filter and no_new_privs. a0's
// other threads never carry them.
//
// The spawner's thread is in the child's Landlock domain, so the child
// could signal it (tgkill) or open its /proc files while it lives. The
// child is therefore started with PTRACE_TRACEME: the kernel stops it
// right after execve, before its first instruction. The spawner sets the
// rlimits (prlimit: they are per process, so setting them on the thread
// would limit a0), moves it into its pids cgroup, queues SIGSTOP and
// detaches, and ends. Only once the thread is gone does a0 send SIGCONT.
// No instruction of the command runs unlimited, nor while the confined
// thread exists.

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
	if b, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope"); err == nil && strings.TrimSpace(string(b)) == "3" {
		s.Missing = "ptrace is disabled (kernel.yama.ptrace_scope is 3), and a0 needs it to stop a command before its first instruction"
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

// openRules opens the read and write roots (O_PATH) with the rights
// each gets: read and execute below read roots, everything but making
// device nodes below write roots (file rights only for a file). Roots
// that do not exist grant nothing.
func openRules(abi int, read, write []string) []pathRule {
	handled := fsRights(abi)
	var out []pathRule
	add := func(path string, rights uint64) {
		fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return
		}
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil {
			unix.Close(fd)
			return
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileRights
		}
		if rights &= handled; rights == 0 {
			unix.Close(fd)
			return
		}
		out = append(out, pathRule{fd: fd, rights: rights})
	}
	for _, p := range read {
		add(p, readRights)
	}
	for _, p := range write {
		add(p, handled&^deviceNodes)
	}
	return out
}

func (r *sandboxRun) closeRules() {
	for _, rl := range r.rules {
		unix.Close(rl.fd)
	}
	r.rules = nil
}

// restrict enforces the Landlock ruleset on the calling thread: the
// engine's root rules plus the command's private folder tmp (written
// freely); TCP (and, from ABI 10, UDP) refused under network deny;
// signals and abstract Unix sockets scoped to the domain (ABI 6).
func restrict(abi int, rules []pathRule, tmp string, networkAllow bool) error {
	handled := fsRights(abi)
	attr := llsyscall.RulesetAttr{HandledAccessFS: handled}
	if !networkAllow && abi >= 4 {
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
	tfd, err := unix.Open(tmp, unix.O_PATH|unix.O_CLOEXEC|unix.O_DIRECTORY, 0)
	if err != nil {
		return fmt.Errorf("private temporary folder: %w", err)
	}
	defer unix.Close(tfd)
	all := append(rules[:len(rules):len(rules)], pathRule{fd: tfd, rights: handled &^ deviceNodes})
	for _, rl := range all {
		if err := llsyscall.LandlockAddPathBeneathRule(fd, &llsyscall.PathBeneathAttr{AllowedAccess: rl.rights, ParentFd: rl.fd}, 0); err != nil {
			return fmt.Errorf("landlock_add_rule: %w", err)
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
// (no SECCOMP_FILTER_FLAG_TSYNC). SECCOMP_FILTER_FLAG_SPEC_ALLOW keeps
// kernels whose speculation policy is "seccomp" from turning on their
// costly store-bypass mitigation for every confined command (it is not a
// confinement: other processes do not get it either).
func installNetFilter() error {
	f := netProg()
	prog := unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_SPEC_ALLOW, uintptr(unsafe.Pointer(&prog)))
	if errno == unix.EINVAL {
		// Before Linux 4.17: no such flag.
		_, _, errno = unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog)))
	}
	runtime.KeepAlive(f)
	if errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}

// startConfined starts cmd confined by c. Only the spawning thread and
// the child are restricted.
func (c *confinement) startConfined(cmd *exec.Cmd) error {
	nonDumpable()
	req := &spawnReq{cmd: cmd, limits: c.limits, procs: c.slot.procs, done: make(chan spawnDone, 1)}
	cmd.SysProcAttr.Ptrace = true
	c.used = true
	c.slot.reqs <- req // buffered: the slot's thread takes it
	d := <-req.done
	if d.err != nil {
		return d.err
	}
	// The child is stopped. Let it run once the confined thread is gone.
	pid := cmd.Process.Pid
	if !threadGone(d.tid) {
		unix.Kill(pid, unix.SIGKILL)
		cmd.Wait()
		return errors.New("the confining thread did not end")
	}
	if err := unix.Kill(pid, unix.SIGCONT); err != nil {
		cmd.Wait()
		return fmt.Errorf("resuming the confined child: %w", err)
	}
	return nil
}

// threadGone waits (up to 5 s) until thread tid of this process has
// ended.
func threadGone(tid int) bool {
	// A thread's pidfd (PIDFD_THREAD, Linux 6.9) becomes readable when the
	// thread ends: one poll instead of probing it.
	const pidfdThread = unix.O_EXCL
	if fd, err := unix.PidfdOpen(tid, pidfdThread); err == nil {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, 5000)
			if err == unix.EINTR {
				continue
			}
			return err == nil && n == 1
		}
	} else if err == unix.ESRCH {
		return true
	}
	pid := unix.Getpid()
	deadline := time.Now().Add(5 * time.Second)
	for spins := 0; ; spins++ {
		if err := unix.Tgkill(pid, tid, 0); err == unix.ESRCH {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		if spins < 50 {
			runtime.Gosched()
		} else {
			time.Sleep(50 * time.Microsecond)
		}
	}
}

// spawnReq asks a slot's thread to start a command.
type spawnReq struct {
	cmd    *exec.Cmd
	limits Limits
	procs  int // the pids cgroup's cgroup.procs, open for writing (-1: none)
	done   chan spawnDone
}

// spawnDone is a slot's answer: its thread, or why the command did not
// start.
type spawnDone struct {
	tid int
	err error
}

// A slot is a spawner made ahead of need, so that making and confining a
// thread (tens of microseconds, mostly the Landlock ruleset and the
// seccomp filter's compilation) is not on a command's path: a goroutine
// locked to its own OS thread — never unlocked, so the thread ends with
// it — that has confined the thread for one command (with the slot's
// private folder) and waits for it. It serves at most one command.
type slot struct {
	tmp    string
	gen    int
	reqs   chan *spawnReq // buffered; closed to end an unused slot
	cgroup string         // the command's pids cgroup ("": none)
	procs  int            // its cgroup.procs, open for writing (-1: none)
}

// slotsAhead is how many slots an engine keeps ready.
const slotsAhead = 1

// take returns a ready slot (or makes one) and has the next one made.
func (r *sandboxRun) take() (*slot, error) {
	r.mu.Lock()
	var s *slot
	if n := len(r.ready); n > 0 {
		s, r.ready = r.ready[n-1], r.ready[:n-1]
	}
	gen := r.gen
	r.mu.Unlock()
	if s == nil {
		var err error
		if s, err = r.makeSlot(gen); err != nil {
			return nil, err
		}
	}
	r.refill()
	return s, nil
}

// refill makes a slot in the background when fewer than slotsAhead are
// ready.
func (r *sandboxRun) refill() {
	r.mu.Lock()
	if r.filling || len(r.ready) >= slotsAhead {
		r.mu.Unlock()
		return
	}
	r.filling = true
	gen := r.gen
	r.pending.Add(1)
	r.mu.Unlock()
	go func() {
		defer r.pending.Done()
		s, err := r.makeSlot(gen)
		r.mu.Lock()
		r.filling = false
		if err == nil && gen == r.gen {
			r.ready = append(r.ready, s)
			s = nil
		}
		r.mu.Unlock()
		if s != nil {
			s.discard(r)
		}
	}()
}

// makeSlot makes a private folder and a thread confined for it.
func (r *sandboxRun) makeSlot(gen int) (*slot, error) {
	tmp, err := r.newTemp()
	if err != nil {
		return nil, fmt.Errorf("private temporary folder: %w", err)
	}
	abi := SandboxStatus().ABI
	r.mu.Lock()
	if r.rules == nil {
		r.rules = openRules(abi, r.readRoots(), r.writeRoots())
	}
	rules := r.rules
	r.mu.Unlock()
	s := &slot{tmp: tmp, gen: gen, reqs: make(chan *spawnReq, 1), procs: -1}
	if n := r.sb.Limits.Processes; n > 0 {
		// Made here, and its cgroup.procs opened here: the confined
		// thread may not open it (Landlock checks the open, not the
		// write).
		if s.cgroup = r.spareCgroup(); s.cgroup == "" {
			s.cgroup = makePidsCgroup("a0-"+filepath.Base(filepath.Dir(tmp))+"-"+filepath.Base(tmp), n)
		}
		if s.cgroup != "" {
			fd, err := unix.Open(filepath.Join(s.cgroup, "cgroup.procs"), unix.O_WRONLY|unix.O_CLOEXEC, 0)
			if err != nil {
				s.release(r)
				return nil, fmt.Errorf("pids cgroup: %w", err)
			}
			s.procs = fd
		}
	}
	ready := make(chan error, 1)
	go serveSlot(s, abi, rules, r.sb.NetworkAllow, ready)
	if err := <-ready; err != nil {
		s.release(r)
		return nil, err
	}
	return s, nil
}

// discard ends an unused slot (its thread ends, never having forked) and
// removes what it holds.
func (s *slot) discard(r *sandboxRun) {
	close(s.reqs)
	s.release(r)
}

// release removes the slot's folder and cgroup in the background (the
// cgroup once its processes are gone).
func (s *slot) release(r *sandboxRun) {
	if s.procs >= 0 {
		unix.Close(s.procs)
		s.procs = -1
	}
	r.pending.Add(1)
	go func() {
		defer r.pending.Done()
		os.RemoveAll(s.tmp)
		if s.cgroup == "" {
			return
		}
		// Kept for a later command of the run (made and removed, a
		// cgroup costs more than the spawn's other setup).
		r.mu.Lock()
		keep := s.gen == r.gen
		if keep {
			r.spareCgroups = append(r.spareCgroups, s.cgroup)
		}
		r.mu.Unlock()
		if !keep {
			removeCgroup(s.cgroup)
		}
	}()
}

// spareCgroup returns a kept cgroup whose processes are all gone ("":
// none). A kept one that still has processes (an escaped one, not yet
// swept) is not handed out again; the run's end removes it.
func (r *sandboxRun) spareCgroup() string {
	for {
		r.mu.Lock()
		n := len(r.spareCgroups)
		if n == 0 {
			r.mu.Unlock()
			return ""
		}
		d := r.spareCgroups[n-1]
		r.spareCgroups = r.spareCgroups[:n-1]
		r.mu.Unlock()
		if b, err := os.ReadFile(filepath.Join(d, "pids.current")); err == nil && strings.TrimSpace(string(b)) == "0" {
			return d
		}
		r.mu.Lock()
		r.busyCgroups = append(r.busyCgroups, d)
		r.mu.Unlock()
	}
}

// removeSpareCgroups removes the kept cgroups (the run ends).
func (r *sandboxRun) removeSpareCgroups() {
	r.mu.Lock()
	spare := append(r.spareCgroups, r.busyCgroups...)
	r.spareCgroups, r.busyCgroups = nil, nil
	r.mu.Unlock()
	for _, d := range spare {
		removeCgroup(d)
	}
}

// serveSlot locks the goroutine to its thread, confines the thread and
// serves the slot's one request (or ends when the slot is discarded).
func serveSlot(s *slot, abi int, rules []pathRule, networkAllow bool, ready chan<- error) {
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		// The main thread: Go keeps a locked main thread forever rather
		// than ending it. Hold it until another goroutine has locked its
		// own thread, then give it back unconfined.
		locked := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			close(locked)
			serveLocked(s, abi, rules, networkAllow, ready)
		}()
		<-locked
		runtime.UnlockOSThread()
		return
	}
	serveLocked(s, abi, rules, networkAllow, ready)
}

// serveLocked runs on the slot's locked thread; returning ends it.
func serveLocked(s *slot, abi int, rules []pathRule, networkAllow bool, ready chan<- error) {
	err := confineThread(abi, rules, s.tmp, networkAllow)
	ready <- err
	if err != nil {
		return
	}
	req, ok := <-s.reqs
	if !ok {
		return
	}
	req.done <- spawnDone{tid: unix.Gettid(), err: req.spawn()}
}

// noRootCaps sets SECBIT_NOROOT (locked) on the calling thread: a
// command it starts as root gets no capabilities from execve (and
// no_new_privs keeps file capabilities and set-user-ID bits from granting
// any). CAP_SYS_MODULE or CAP_SYS_ADMIN would undo any confinement,
// CAP_SYS_RESOURCE would lift the limits, CAP_SYS_PTRACE would reach a0.
// Without CAP_SETPCAP (a0 not run as root) it is refused, and there are
// no capabilities to give anyway.
func noRootCaps() error {
	const secbitNoroot, secbitNorootLocked = 1 << 0, 1 << 1
	err := unix.Prctl(unix.PR_SET_SECUREBITS, secbitNoroot|secbitNorootLocked, 0, 0, 0)
	if err != nil && err != unix.EPERM {
		return fmt.Errorf("securebits: %w", err)
	}
	return nil
}

// nonDumpable makes a0 itself non-dumpable once: a process of the same
// user without CAP_SYS_PTRACE (every confined command) then cannot read
// its /proc files (environ, mem, fd), which Landlock alone does not keep
// from a command that runs as the same user.
var nonDumpable = sync.OnceFunc(func() {
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
})

// confineThread sets no_new_privs, gives up root's capabilities, and enforces the
// Landlock ruleset and (network deny) the seccomp filter on the calling
// thread.
func confineThread(abi int, rules []pathRule, tmp string, networkAllow bool) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := noRootCaps(); err != nil {
		return err
	}
	if err := restrict(abi, rules, tmp, networkAllow); err != nil {
		return err
	}
	if !networkAllow {
		return installNetFilter()
	}
	return nil
}

// spawn runs on a slot's confined thread: it starts the command, sets its
// limits while it is stopped after execve, and leaves it stopped
// (SIGSTOP) and detached.
func (r *spawnReq) spawn() error {
	cmd := r.cmd
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	var ws unix.WaitStatus
	for {
		_, err := unix.Wait4(pid, &ws, unix.WALL, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			unix.Kill(pid, unix.SIGKILL)
			return fmt.Errorf("waiting for the confined child: %w", err)
		}
		break
	}
	if !ws.Stopped() {
		// It ended before it ran (killed): its status is gone.
		return errors.New("the confined child ended before it ran")
	}
	err := applyLimits(pid, r.limits, r.procs)
	if err == nil {
		// Pending when the detach resumes it: it stops again before
		// its first instruction.
		err = unix.Kill(pid, unix.SIGSTOP)
	}
	if err == nil {
		if derr := unix.PtraceDetach(pid); derr != nil {
			err = fmt.Errorf("ptrace detach: %w", derr)
		}
	}
	if err != nil {
		unix.Kill(pid, unix.SIGKILL)
		cmd.Wait()
	}
	return err
}

// applyLimits sets the rlimits of a child that has not run yet and moves
// it into its pids cgroup (procs: its cgroup.procs; -1: RLIMIT_NPROC).
func applyLimits(pid int, l Limits, procs int) error {
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
