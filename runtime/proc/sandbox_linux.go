package proc

import (
	"crypto/rand"
	"encoding/binary"
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

// How a command is confined (spec/exec.md §12):
//
// Commands are started by spawners: a spawner is a goroutine locked to an
// OS thread and never unlocked, so the thread ends with the goroutine. On
// that thread alone it sets no_new_privs, enforces a Landlock ruleset
// (the roots, and its own folder, in which each of its commands gets its
// private TMPDIR) and installs a seccomp filter, then forks and executes
// commands: syscall.ForkExec clones from the calling thread, and the
// child inherits that thread's Landlock domain, seccomp filter and
// no_new_privs. a0's other threads never carry them (Go makes new
// threads from an unlocked one). An engine has one spawner per command
// running at a time (acquire, putBack), so commands running together are
// in different Landlock domains.
//
// The spawner's thread is in the commands' Landlock domain, so Landlock's
// signal scoping lets a command reach it. The seccomp filter, built once
// the thread's id is known, closes each way to it (childFilter): signals
// sent by thread id, pidfds, I/O owners. a0 is non-dumpable, so a command
// (no capabilities) can neither ptrace it nor read its /proc files, and
// process-directed signals are checked against a0's main thread, which is
// never confined.
//
// Resource limits are per process, so they are set on the child, not on
// the thread: a command with limits is started with PTRACE_TRACEME, the
// kernel stops it right after execve, before its first instruction; the
// spawner sets its rlimits (prlimit), moves it into its pids cgroup and
// detaches it. No instruction of the command runs unlimited. The filter
// refuses prlimit on another process, so that no command can lower a0's
// limits, unless the call carries the spawner's key (limitKey) in two
// arguments prlimit does not read: 128 random bits that live only in
// a0's memory and in the filter, neither readable by a command.

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

// bpfAsm assembles a classic BPF program with named labels; jumps are
// relative and only forward, at most 255 instructions.
type bpfAsm struct {
	prog   []unix.SockFilter
	labels map[string]int
	fixes  []bpfFix
}

type bpfFix struct {
	at    int
	label string
	jt    bool
}

func (a *bpfAsm) ld(off uint32)  { a.prog = append(a.prog, unix.SockFilter{Code: bpfLdAbs, K: off}) }
func (a *bpfAsm) ret(k uint32)   { a.prog = append(a.prog, unix.SockFilter{Code: bpfRet, K: k}) }
func (a *bpfAsm) label(l string) { a.labels[l] = len(a.prog) }

// alu applies op with constant k to the accumulator.
func (a *bpfAsm) alu(op uint16, k uint32) {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_ALU | op | unix.BPF_K, K: k})
}

// orX ORs the index register into the accumulator; tax and txa copy
// the accumulator to the index register and back.
func (a *bpfAsm) orX() {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_OR | unix.BPF_X})
}
func (a *bpfAsm) tax() { a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_MISC | unix.BPF_TAX}) }
func (a *bpfAsm) txa() { a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_MISC | unix.BPF_TXA}) }

// jump appends a conditional jump to label t when true and f when false
// ("": the next instruction).
func (a *bpfAsm) jump(code uint16, k uint32, t, f string) {
	at := len(a.prog)
	a.prog = append(a.prog, unix.SockFilter{Code: code, K: k})
	if t != "" {
		a.fixes = append(a.fixes, bpfFix{at, t, true})
	}
	if f != "" {
		a.fixes = append(a.fixes, bpfFix{at, f, false})
	}
}

func (a *bpfAsm) done() []unix.SockFilter {
	for _, f := range a.fixes {
		to, ok := a.labels[f.label]
		off := to - f.at - 1
		if !ok || off < 0 || off > 255 {
			panic("seccomp filter: bad jump to " + f.label)
		}
		if f.jt {
			a.prog[f.at].Jt = uint8(off)
		} else {
			a.prog[f.at].Jf = uint8(off)
		}
	}
	return a.prog
}

// limitKey is the spawner's key to prlimit (see the package comment
// above): the seccomp filter lets a prlimit64 call that sets another
// process's limits through only when its two unused arguments carry it.
type limitKey [2]uint64

// key returns a0's key, drawn on first use (only runs that confine a
// command need one).
var key = sync.OnceValue(func() limitKey {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("sandbox: no random key: " + err.Error())
	}
	return limitKey{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])}
})

// words returns the key as the four 32-bit words the filter compares,
// in the order of seccomp_data.args[4] and args[5] (little endian).
func (k limitKey) words() [4]uint32 {
	return [4]uint32{uint32(k[0]), uint32(k[0] >> 32), uint32(k[1]), uint32(k[1] >> 32)}
}

// sysNrs are the numbers of the system calls the filter looks at, for
// one architecture (noSys: it has no such call).
type sysNrs struct {
	socket, socketcall, uringSetup              uint32
	kill, sigqueue, tkill, tgkill, tgsigqueue   uint32
	pidfdOpen, pidfdSend, fcntl, fcntl64, ioctl uint32
	prlimit                                     uint32
}

const noSys = 0xffffffff

var nativeNrs = sysNrs{
	socket: unix.SYS_SOCKET, socketcall: noSys, uringSetup: unix.SYS_IO_URING_SETUP,
	kill: unix.SYS_KILL, sigqueue: unix.SYS_RT_SIGQUEUEINFO, tkill: unix.SYS_TKILL,
	tgkill: unix.SYS_TGKILL, tgsigqueue: unix.SYS_RT_TGSIGQUEUEINFO,
	pidfdOpen: unix.SYS_PIDFD_OPEN, pidfdSend: unix.SYS_PIDFD_SEND_SIGNAL,
	fcntl: unix.SYS_FCNTL, fcntl64: noSys, ioctl: unix.SYS_IOCTL, prlimit: unix.SYS_PRLIMIT64,
}

// i386Nrs are the i386 numbers (arch/x86/entry/syscalls/syscall_32.tbl),
// which an amd64 process can call too.
var i386Nrs = sysNrs{
	socket: 359, socketcall: 102, uringSetup: 425,
	kill: 37, sigqueue: 178, tkill: 238, tgkill: 270, tgsigqueue: 335,
	pidfdOpen: 434, pidfdSend: 424, fcntl: 55, fcntl64: 221, ioctl: 54, prlimit: 340,
}

const (
	fioSetOwn = 0x8901 // FIOSETOWN
	offArg1   = offArg0 + 8
	offArg2   = offArg0 + 16
	offArg4   = offArg0 + 32
)

// childFilter is the seccomp program of a spawner's thread, inherited by
// every command it starts. It refuses (EACCES) every way a process in the
// spawner's Landlock domain could reach the spawner thread tid, whose
// domain Landlock's signal scoping treats as the command's own
// (spec/exec.md §12): kill, rt_sigqueueinfo, tkill and
// pidfd_open of tid (kill of a thread's id signals its whole process,
// checked against that thread), tgkill and rt_tgsigqueueinfo to tid,
// pidfd_send_signal whole (a descriptor of /proc/<tid> is a pidfd that
// seccomp cannot tell apart), F_SETOWN to tid and F_SETOWN_EX, FIOSETOWN
// and SIOCSPGRP whole (their owner is behind a pointer), and prlimit64
// setting the limits of another process without the spawner's key (any
// process of the same user may, and a lowered RLIMIT_CPU kills a0;
// reading them, and setting one's own with pid 0, stay allowed). Under network
// "deny" it also refuses socket(2) for any family but AF_UNIX,
// socketcall(2) and io_uring_setup(2). On amd64, x32 calls are refused
// and i386 calls get the same rules; other architectures' calls are
// refused.
func childFilter(tid int, networkAllow bool) []unix.SockFilter {
	a := &bpfAsm{labels: map[string]int{}}
	a.ld(offArch)
	arch := seccompArch()
	if runtime.GOARCH == "amd64" {
		a.jump(bpfJeq, arch, "", "i386")
	} else {
		a.jump(bpfJeq, arch, "", "deny")
	}
	section := func(n sysNrs, native bool) {
		a.ld(offNr)
		if native && runtime.GOARCH == "amd64" {
			a.jump(bpfJge, 0x40000000, "deny", "") // x32 ABI
		}
		on := func(nr uint32, to string) {
			if nr != noSys {
				a.jump(bpfJeq, nr, to, "")
			}
		}
		if !networkAllow {
			on(n.socket, "socket")
			on(n.socketcall, "deny")
			on(n.uringSetup, "deny")
		}
		on(n.kill, "arg0")
		on(n.sigqueue, "arg0")
		on(n.tkill, "arg0")
		on(n.pidfdOpen, "arg0")
		on(n.tgkill, "arg1")
		on(n.tgsigqueue, "arg1")
		on(n.pidfdSend, "deny")
		on(n.fcntl, "fcntl")
		on(n.fcntl64, "fcntl")
		on(n.ioctl, "ioctl")
		if native {
			on(n.prlimit, "prlimit")
		} else {
			on(n.prlimit, "prlimit32")
		}
		a.ret(retAllow)
	}
	section(nativeNrs, true)
	a.label("i386")
	if runtime.GOARCH == "amd64" {
		a.jump(bpfJeq, unix.AUDIT_ARCH_I386, "", "deny")
		section(i386Nrs, false)
	}
	// The shared blocks (BPF jumps only forward). Arguments are compared
	// on their low 32 bits: the kernel truncates pid_t and int arguments.
	t := uint32(tid)
	a.label("socket")
	a.ld(offArg0)
	a.jump(bpfJeq, afUnix, "allow", "deny")
	a.label("arg0")
	a.ld(offArg0)
	a.jump(bpfJeq, t, "deny", "allow")
	a.label("arg1")
	a.ld(offArg1)
	a.jump(bpfJeq, t, "deny", "allow")
	a.label("fcntl")
	a.ld(offArg1)
	a.jump(bpfJeq, unix.F_SETOWN_EX, "deny", "")
	a.jump(bpfJeq, unix.F_SETOWN, "", "allow")
	a.ld(offArg2)
	a.jump(bpfJeq, t, "deny", "allow")
	a.label("ioctl")
	a.ld(offArg1)
	a.jump(bpfJeq, fioSetOwn, "deny", "")
	a.jump(bpfJeq, unix.SIOCSPGRP, "deny", "allow")
	// prlimit64(pid, resource, new, old): allowed for pid 0 or no new
	// limits; otherwise only with the key in arguments 4 and 5, compared
	// whole (the XORs of its four words ORed together must be 0), so that
	// the time the filter takes tells nothing about a partly right key.
	a.label("prlimit")
	a.ld(offArg0)
	a.jump(bpfJeq, 0, "allow", "")
	a.ld(offArg2)
	a.jump(bpfJeq, 0, "", "key")
	a.ld(offArg2 + 4)
	a.jump(bpfJeq, 0, "allow", "key")
	a.label("key")
	for i, w := range key().words() {
		a.ld(offArg4 + uint32(4*i))
		a.alu(unix.BPF_XOR, w)
		if i > 0 {
			a.orX()
		}
		a.tax()
	}
	a.txa()
	a.jump(bpfJeq, 0, "allow", "deny")
	// i386: no key (the spawner makes only native calls).
	a.label("prlimit32")
	a.ld(offArg0)
	a.jump(bpfJeq, 0, "allow", "")
	a.ld(offArg2)
	a.jump(bpfJeq, 0, "allow", "deny")
	a.label("deny")
	a.ret(retDeny)
	a.label("allow")
	a.ret(retAllow)
	return a.done()
}

// installFilter installs prog on the calling thread only (no
// SECCOMP_FILTER_FLAG_TSYNC). SECCOMP_FILTER_FLAG_SPEC_ALLOW keeps
// kernels whose speculation policy is "seccomp" from turning on their
// costly store-bypass mitigation for every confined command (it is not a
// confinement: other processes do not get it either).
func installFilter(f []unix.SockFilter) error {
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

// startConfined starts cmd confined by c, on the spawner c took
// thread, and returns once it runs (with limits: once they are set).
func (c *confinement) startConfined(cmd *exec.Cmd) error {
	sp := c.spawner
	req := &spawnReq{cmd: cmd, tasks: c.slot.tasks, procs: c.slot.procs, home: sp.home, done: make(chan error, 1)}
	// The exec stop is where limits are set before the first instruction;
	// a command without rlimits that starts in its pids cgroup (cgroup
	// v1) has nothing to do there.
	l := c.limits
	if l.CPUSeconds > 0 || l.MemoryBytes > 0 || l.FileBytes > 0 || l.OpenFiles > 0 || (l.Processes > 0 && !req.inCgroup()) {
		cmd.SysProcAttr.Ptrace = true
		req.limits = l
	}
	select {
	case sp.reqs <- req:
	case <-sp.quit:
		return errors.New("the engine's sandbox was closed")
	}
	err := <-req.done
	if errors.Is(err, unix.EPERM) && cmd.SysProcAttr.Ptrace {
		if t := tracerPid(); t != 0 {
			return fmt.Errorf("a command with exec.sandbox.limits is stopped after execve with ptrace to set them, and the kernel refused it because a0 itself is being traced (by process %d: strace, gdb?); run a0 untraced, or without limits", t)
		}
	}
	return err
}

// tracerPid returns the pid of the process tracing a0 (0: none).
func tracerPid() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "TracerPid:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// spawnReq asks a spawner to start a command.
type spawnReq struct {
	cmd    *exec.Cmd
	limits Limits     // set at the exec stop (cmd is started traced when any is)
	tasks  int        // the pids cgroup's v1 tasks file, open for writing (-1: none, or not used)
	procs  int        // its cgroup.procs, open for writing (-1: none)
	home   int        // the tasks file of a0's own pids cgroup (-1: none)
	done   chan error // the start's outcome
}

// inCgroup reports whether the command starts in its pids cgroup: the
// spawner moves itself in for the fork (cgroup v1 tasks files).
func (r *spawnReq) inCgroup() bool { return r.tasks >= 0 && r.home >= 0 }

// A spawner is one of an engine's confining threads: a goroutine locked
// to its own OS thread (never unlocked, so the thread ends with it) that
// has confined the thread (Landlock ruleset, seccomp filter naming the
// thread's id) and starts the engine's confined commands, one running at
// a time, until the engine's sandbox is closed.
type spawner struct {
	reqs chan *spawnReq // unbuffered: a request is taken or quit is seen
	quit chan struct{}  // closed to end the thread
	gone chan struct{}  // closed when its goroutine returns (the thread ends with it)
	tid  int
	home int    // the tasks file of a0's pids cgroup (cgroup v1), open for writing (-1: none)
	root string // the folder its commands' private folders are made in
}

// stop ends the spawner's thread and waits for its goroutine to return.
func (sp *spawner) stop() {
	close(sp.quit)
	<-sp.gone
	if sp.home >= 0 {
		unix.Close(sp.home)
	}
}

// acquire returns an idle spawner of the engine, or makes one: commands
// that run at the same time each have a spawner, so a Landlock domain,
// of their own. gen is the engine's generation it belongs to.
func (r *sandboxRun) acquire() (*spawner, int, error) {
	r.mu.Lock()
	gen := r.gen
	if n := len(r.idle); n > 0 {
		sp := r.idle[n-1]
		r.idle = r.idle[:n-1]
		r.mu.Unlock()
		return sp, gen, nil
	}
	root, err := r.tmpRootLocked()
	if err != nil {
		r.mu.Unlock()
		return nil, 0, fmt.Errorf("private temporary folder: %w", err)
	}
	abi := SandboxStatus().ABI
	if r.rules == nil {
		r.rules = openRules(abi, r.readRoots(), r.writeRoots())
	}
	rules := r.rules
	r.mu.Unlock()
	nonDumpable()
	// os decides once whether pidfds work, by trying them; decided on a
	// spawner's thread (whose filter refuses pidfd_send_signal), a0 would
	// go without them.
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Release()
	}
	// The folder under which this spawner's commands get their private
	// folders: the only one of the run's its Landlock domain may write.
	dir, err := os.MkdirTemp(root, "s-")
	if err != nil {
		return nil, 0, fmt.Errorf("private temporary folder: %w", err)
	}
	sp := &spawner{reqs: make(chan *spawnReq), quit: make(chan struct{}), gone: make(chan struct{}), home: -1, root: dir}
	if parent := pidsCgroupParent(); parent != "" && r.sb.Limits.Processes >= 2 {
		// Opened here: the confined thread may not open it.
		if fd, err := unix.Open(filepath.Join(parent, "tasks"), unix.O_WRONLY|unix.O_CLOEXEC, 0); err == nil {
			sp.home = fd
		}
	}
	ready := make(chan error, 1)
	go serveSpawner(sp, abi, rules, dir, r.sb.NetworkAllow, ready)
	if err := <-ready; err != nil {
		if sp.home >= 0 {
			unix.Close(sp.home)
		}
		return nil, 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gen != gen {
		// Closed meanwhile.
		go sp.stop()
		return nil, 0, errors.New("the engine's sandbox was closed")
	}
	r.spawners = append(r.spawners, sp)
	return sp, gen, nil
}

// putBack makes a spawner idle again once its command has ended and its
// private folder is gone (unless the engine was closed since: close
// stopped it).
func (r *sandboxRun) putBack(sp *spawner, gen int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gen == gen {
		r.idle = append(r.idle, sp)
	}
}

// A slot is what one command holds besides the spawner: its private
// folder and its pids cgroup.
type slot struct {
	sp    *spawner // the spawner, made idle again by release
	tmp   string
	gen   int
	cg    *pidsCgroup // the command's pids cgroup (nil: none)
	procs int         // cg's cgroup.procs (-1: none)
	tasks int         // cg's tasks file, when the spawner may move itself in (-1: not)
}

// A pidsCgroup is a command's pids cgroup, with the files a0 uses open:
// a0 opens them (the confined spawner may not: Landlock checks the open,
// not the write), once — a cgroup is kept for the run's next commands,
// and opening kernfs files costs more than the writes.
type pidsCgroup struct {
	dir                   string
	procs, tasks, current int // cgroup.procs and tasks (cgroup v1; -1: none) for writing, pids.current
}

// openPidsCgroup makes a pids cgroup with pids.max = max and opens its
// files (nil when it cannot: RLIMIT_NPROC is used instead).
func openPidsCgroup(name string, max int64) (*pidsCgroup, error) {
	dir := makePidsCgroup(name, max)
	if dir == "" {
		return nil, nil
	}
	cg := &pidsCgroup{dir: dir, procs: -1, tasks: -1, current: -1}
	var err error
	if cg.procs, err = unix.Open(filepath.Join(dir, "cgroup.procs"), unix.O_WRONLY|unix.O_CLOEXEC, 0); err != nil {
		cg.remove()
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	if cg.current, err = unix.Open(filepath.Join(dir, "pids.current"), unix.O_RDONLY|unix.O_CLOEXEC, 0); err != nil {
		cg.remove()
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	if fd, err := unix.Open(filepath.Join(dir, "tasks"), unix.O_WRONLY|unix.O_CLOEXEC, 0); err == nil {
		cg.tasks = fd
	}
	return cg, nil
}

// empty reports whether no process is left in the cgroup.
func (cg *pidsCgroup) empty() bool {
	var b [24]byte
	n, err := unix.Pread(cg.current, b[:], 0)
	return err == nil && strings.TrimSpace(string(b[:max(n, 0)])) == "0"
}

// remove closes its files and removes it (once its processes are gone).
func (cg *pidsCgroup) remove() {
	for _, fd := range []int{cg.procs, cg.tasks, cg.current} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	removeCgroup(cg.dir)
}

// take makes a slot for a command started by sp (of generation gen).
func (r *sandboxRun) take(sp *spawner, gen int) (*slot, error) {
	tmp, err := os.MkdirTemp(sp.root, "t-")
	if err != nil {
		return nil, fmt.Errorf("private temporary folder: %w", err)
	}
	s := &slot{sp: sp, tmp: tmp, gen: gen, procs: -1, tasks: -1}
	if n := r.sb.Limits.Processes; n > 0 {
		if s.cg = r.spareCgroup(); s.cg == nil {
			s.cg, err = openPidsCgroup("a0-"+filepath.Base(filepath.Dir(sp.root))+"-"+filepath.Base(sp.root)+"-"+filepath.Base(tmp), n)
			if err != nil {
				// Not s.release: the caller gives the spawner back.
				unix.Rmdir(tmp)
				return nil, err
			}
		}
		if s.cg != nil {
			s.procs = s.cg.procs
			// cgroup v1 (a tasks file): the spawner can move itself in
			// before the fork (see spawn). Not for a cap of 1: the
			// spawner counts while it is there.
			if n >= 2 {
				s.tasks = s.cg.tasks
			}
		}
	}
	return s, nil
}

// release keeps the slot's cgroup for a later command of the run (made
// and removed, a cgroup costs more than the rest of the spawn; the next
// command must find it, so this is not left to the background), removes
// its folder (in the background unless it is empty) and then makes its
// spawner idle: the next command in the spawner's domain finds nothing
// of this one's there.
func (s *slot) release(r *sandboxRun) {
	if cg := s.cg; cg != nil {
		s.cg, s.procs, s.tasks = nil, -1, -1
		r.mu.Lock()
		keep := s.gen == r.gen
		if keep {
			r.spareCgroups = append(r.spareCgroups, cg)
		}
		r.mu.Unlock()
		if !keep {
			cg.remove()
		}
	}
	// Most commands leave their folder empty: one rmdir. Anything more
	// is removed in the background.
	if unix.Rmdir(s.tmp) == nil {
		r.putBack(s.sp, s.gen)
		return
	}
	r.pending.Add(1)
	go func() {
		defer r.pending.Done()
		if os.RemoveAll(s.tmp) == nil {
			r.putBack(s.sp, s.gen)
		}
	}()
}

// spareCgroup returns a kept cgroup whose processes are all gone (nil:
// none). A kept one that still has processes (an escaped one, not yet
// swept) is not handed out again; the run's end removes it.
func (r *sandboxRun) spareCgroup() *pidsCgroup {
	for {
		r.mu.Lock()
		n := len(r.spareCgroups)
		if n == 0 {
			r.mu.Unlock()
			return nil
		}
		cg := r.spareCgroups[n-1]
		r.spareCgroups = r.spareCgroups[:n-1]
		r.mu.Unlock()
		if cg.empty() {
			return cg
		}
		r.mu.Lock()
		r.busyCgroups = append(r.busyCgroups, cg)
		r.mu.Unlock()
	}
}

// removeSpareCgroups removes the kept cgroups (the run ends).
func (r *sandboxRun) removeSpareCgroups() {
	r.mu.Lock()
	spare := append(r.spareCgroups, r.busyCgroups...)
	r.spareCgroups, r.busyCgroups = nil, nil
	r.mu.Unlock()
	for _, cg := range spare {
		cg.remove()
	}
}

// serveSpawner locks the goroutine to its thread, confines the thread and
// serves requests until the spawner is stopped.
func serveSpawner(sp *spawner, abi int, rules []pathRule, tmp string, networkAllow bool, ready chan<- error) {
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		// The main thread: Go keeps a locked main thread forever rather
		// than ending it, and process-directed signals are checked
		// against it. Hold it until another goroutine has locked its
		// own thread, then give it back unconfined.
		locked := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			close(locked)
			serveLocked(sp, abi, rules, tmp, networkAllow, ready)
		}()
		<-locked
		runtime.UnlockOSThread()
		return
	}
	serveLocked(sp, abi, rules, tmp, networkAllow, ready)
}

// serveLocked runs on the spawner's locked thread; returning ends it.
func serveLocked(sp *spawner, abi int, rules []pathRule, tmp string, networkAllow bool, ready chan<- error) {
	defer close(sp.gone)
	sp.tid = unix.Gettid()
	err := confineThread(abi, rules, tmp, networkAllow, sp.tid)
	ready <- err
	if err != nil {
		return
	}
	for {
		select {
		case req := <-sp.reqs:
			req.serve()
		case <-sp.quit:
			return
		}
	}
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

// confineThread sets no_new_privs, gives up root's capabilities, and
// enforces the Landlock ruleset (tmp: the root of the private folders)
// and the seccomp filter on the calling thread.
func confineThread(abi int, rules []pathRule, tmp string, networkAllow bool, tid int) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := noRootCaps(); err != nil {
		return err
	}
	if err := restrict(abi, rules, tmp, networkAllow); err != nil {
		return err
	}
	return installFilter(childFilter(tid, networkAllow))
}

// serve runs on the spawner's thread: it starts the command and answers.
// With limits the command is stopped after execve (PTRACE_TRACEME): the
// spawner sets them and detaches it (only the tracer may), so the
// command's first instruction runs limited.
func (r *spawnReq) serve() {
	err := r.start()
	if err == nil && r.cmd.SysProcAttr.Ptrace {
		// Detaching with no signal drops the exec SIGTRAP and resumes it.
		if err = unix.PtraceDetach(r.cmd.Process.Pid); err != nil {
			// Not left stopped.
			unix.Kill(r.cmd.Process.Pid, unix.SIGKILL)
			r.cmd.Wait()
		}
	}
	r.done <- err
}

// start starts the command; with limits it sets them and returns once
// the command is stopped after execve.
func (r *spawnReq) start() error {
	cmd := r.cmd
	// With cgroup v1, the spawner thread moves itself into the command's
	// pids cgroup for the fork, so the child starts there, and back out
	// before the child runs. A thread moving itself skips the lock that
	// moving another process takes (and its RCU grace period, most of a
	// millisecond).
	moved := false
	if r.inCgroup() {
		if _, err := unix.Write(r.tasks, []byte("0")); err != nil {
			return fmt.Errorf("pids cgroup: %w", err)
		}
		moved = true
	}
	err := cmd.Start()
	if moved {
		if _, merr := unix.Write(r.home, []byte("0")); merr != nil {
			if err == nil {
				unix.Kill(cmd.Process.Pid, unix.SIGKILL)
				cmd.Wait()
			}
			return fmt.Errorf("pids cgroup: leaving it: %w", merr)
		}
	}
	if err != nil || !cmd.SysProcAttr.Ptrace {
		return err
	}
	pid := cmd.Process.Pid
	// The limits are set before the stop is waited for: the command is
	// still in execve, or stopped at its end (the SIGTRAP of
	// PTRACE_TRACEME is taken before the first instruction), and by the
	// time they are set it has mostly stopped, so the wait below rarely
	// sleeps.
	procs := r.procs
	if moved {
		procs = -2 // started in its cgroup
	}
	if err := applyLimits(pid, r.limits, procs); err != nil {
		// Never left running unlimited.
		unix.Kill(pid, unix.SIGKILL)
		cmd.Wait()
		return err
	}
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
	return nil
}

// applyLimits sets the rlimits of a child that has not run yet and moves
// it into its pids cgroup (procs: its cgroup.procs; -1: RLIMIT_NPROC;
// -2: it was started in its cgroup). It runs on the spawner's thread:
// each prlimit carries the key its filter asks for.
func applyLimits(pid int, l Limits, procs int) error {
	k := key()
	set := func(res int, v int64, hard int64, name string) error {
		if v <= 0 {
			return nil
		}
		r := unix.Rlimit{Cur: uint64(v), Max: uint64(hard)}
		_, _, e := unix.RawSyscall6(unix.SYS_PRLIMIT64, uintptr(pid), uintptr(res), uintptr(unsafe.Pointer(&r)), 0, uintptr(k[0]), uintptr(k[1]))
		if e != 0 {
			return fmt.Errorf("prlimit %s: %w", name, e)
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
	if l.Processes > 0 && procs != -2 {
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
