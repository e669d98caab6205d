package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// How a command is confined (spec/exec.md §12): a0 starts it with its
// own fork and exec (forkexec_linux.go), and the child confines itself
// between the two, so no thread of a0 is in a Landlock domain and every
// command gets a Landlock domain of its own. The child is forked by the
// fork thread of its seccomp program (forkthread_linux.go), so it starts
// with the filter, no_new_privs and an empty capability bounding set,
// inherited from that thread, which gave them up once; it then marks its
// descriptors above 2 close-on-exec, enforces the command's Landlock
// ruleset (the roots and its private folder, built per command by the
// parent), sets its rlimits and gives up every capability, in that
// order, then calls execve: the command's first instruction runs
// confined and limited, with no privilege.
//
// a0 is in no domain, so Landlock's scoping (ABI 6) keeps a command from
// signalling it or reaching its abstract sockets; a0 is non-dumpable, so
// a command (no capabilities) can neither ptrace it nor read its /proc
// files. The filter refuses prlimit on another process, which the kernel
// allows a process of the same user (a lowered RLIMIT_CPU would kill
// a0), set-ID modes, the kernel keyrings, openat2 and io_uring
// (commandFilter).

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

// openRules opens the read and write roots (O_PATH) with the rights
// each gets: read and execute below read roots, everything but making
// device nodes below write roots (file rights only for a file). Roots
// that do not exist grant nothing. The system roots are opened by path;
// the sandbox's own roots (sb.Read, sb.Write) through sb.OpenRoot when
// it is set (the run's pinned descriptors).
func openRules(abi int, sb *Sandbox) []pathRule {
	handled := fsRights(abi)
	var out []pathRule
	add := func(path string, rights uint64, open func(string) (int, error)) {
		fd, err := open(path)
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
	byPath := func(path string) (int, error) { return unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0) }
	own := byPath
	if sb.OpenRoot != nil {
		own = sb.OpenRoot
	}
	for _, p := range SystemRead {
		add(p, readRights, byPath)
	}
	for _, p := range sb.Read {
		add(p, readRights, own)
	}
	for _, p := range SystemWrite {
		add(p, handled&^deviceNodes, byPath)
	}
	for _, p := range sb.Write {
		add(p, handled&^deviceNodes, own)
	}
	return out
}

func (r *sandboxRun) closeRules() {
	for _, rl := range r.rules {
		unix.Close(rl.fd)
	}
	r.rules = nil
}

// buildRuleset makes the Landlock ruleset of one command: the engine's
// root rules plus its private folder tmp (written freely); TCP (and, from
// ABI 10, UDP) refused under network deny; signals and abstract Unix
// sockets scoped to the domain (ABI 6). The child enforces it.
func buildRuleset(abi int, rules []pathRule, tmp string, networkAllow bool) (int, error) {
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
		return -1, fmt.Errorf("landlock_create_ruleset: %w", err)
	}
	tfd, err := unix.Open(tmp, unix.O_PATH|unix.O_CLOEXEC|unix.O_DIRECTORY, 0)
	if err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("private temporary folder: %w", err)
	}
	defer unix.Close(tfd)
	all := append(rules[:len(rules):len(rules)], pathRule{fd: tfd, rights: handled &^ deviceNodes})
	for _, rl := range all {
		if err := llsyscall.LandlockAddPathBeneathRule(fd, &llsyscall.PathBeneathAttr{AllowedAccess: rl.rights, ParentFd: rl.fd}, 0); err != nil {
			unix.Close(fd)
			return -1, fmt.Errorf("landlock_add_rule: %w", err)
		}
	}
	return fd, nil
}

// BPF building blocks of the seccomp filter.
const (
	bpfLdAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfJset  = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	bpfRet   = unix.BPF_RET | unix.BPF_K

	retAllow  = unix.SECCOMP_RET_ALLOW
	retDeny   = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	retEperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retEnosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)

	offNr   = 0  // seccomp_data.nr
	offArch = 4  // seccomp_data.arch
	offArg0 = 16 // seccomp_data.args[0], low 32 bits (little endian)

	afUnix = unix.AF_UNIX

	// setIDBits are the mode bits no confined command may give a file
	// (S_ISUID, S_ISGID); createBits the open flags that make a file
	// (O_CREAT, and __O_TMPFILE, the bit every O_TMPFILE has) — the
	// same on amd64, arm64 and i386.
	setIDBits  = 0o6000
	createBits = 0o100 | 0o20000000
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

// sysNrs are the numbers of the system calls the filter looks at, for
// one architecture (noSys: it has no such call).
type sysNrs struct {
	socket, socketcall, uringSetup, prlimit uint32
	keyctl, addKey, requestKey, openat2     uint32
	// The calls that make a file or set its mode, by where their
	// arguments are: the mode in args[1] (chmod, fchmod, creat, mknod)
	// or args[2] (fchmodat, fchmodat2, mknodat); open's flags in args[1]
	// and mode in args[2]; openat's in args[2] and args[3].
	chmod, fchmod, creat, mknod  uint32
	fchmodat, fchmodat2, mknodat uint32
	open, openat                 uint32
}

const noSys = 0xffffffff

// The numbers of each architecture (arch/*/entry/syscalls, and the
// generic table arm64 uses). An amd64 process can make i386 calls too.
var (
	amd64Nrs = sysNrs{socket: 41, socketcall: noSys, uringSetup: 425, prlimit: 302,
		keyctl: 250, addKey: 248, requestKey: 249, openat2: 437,
		chmod: 90, fchmod: 91, creat: 85, mknod: 133, fchmodat: 268, fchmodat2: 452, mknodat: 259, open: 2, openat: 257}
	arm64Nrs = sysNrs{socket: 198, socketcall: noSys, uringSetup: 425, prlimit: 261,
		keyctl: 219, addKey: 217, requestKey: 218, openat2: 437,
		chmod: noSys, fchmod: 52, creat: noSys, mknod: noSys, fchmodat: 53, fchmodat2: 452, mknodat: 33, open: noSys, openat: 56}
	i386Nrs = sysNrs{socket: 359, socketcall: 102, uringSetup: 425, prlimit: 340,
		keyctl: 288, addKey: 286, requestKey: 287, openat2: 437,
		chmod: 15, fchmod: 94, creat: 8, mknod: 14, fchmodat: 306, fchmodat2: 452, mknodat: 297, open: 5, openat: 295}
)

// nativeNrs returns the numbers of this GOARCH (seccompArch's).
func nativeNrs() sysNrs {
	if runtime.GOARCH == "arm64" {
		return arm64Nrs
	}
	return amd64Nrs
}

const (
	offArg1 = offArg0 + 8
	offArg2 = offArg0 + 16
	offArg3 = offArg0 + 24
)

// commandFilter is the seccomp program every confined command starts
// with. It refuses:
//   - with EPERM, giving a file the set-user-ID or set-group-ID bit:
//     chmod, fchmod, fchmodat, fchmodat2 with either in the mode, and
//     open, openat, creat, mknod, mknodat making a file with either;
//     keyctl, add_key and request_key (the user's kernel keyrings);
//   - with ENOSYS, openat2, whose mode the filter cannot read (it is in
//     a struct): programs fall back to openat;
//   - with EACCES, io_uring_setup (its operations bypass this filter),
//     and prlimit64 setting the limits of another process (the kernel
//     lets any process of the same user do it, and a lowered RLIMIT_CPU
//     kills a0; reading limits, and setting one's own with pid 0, stay
//     allowed); under network "deny", socket(2) for any family but
//     AF_UNIX, and socketcall(2).
//
// On amd64, x32 calls are refused and i386 calls get the same rules;
// other architectures' calls are refused.
//
// The kernel runs a new filter once for every system call number of
// amd64 and i386 when it is installed (once per fork thread; a child
// whose fork thread could not hold it installs it itself), to
// find the calls it always allows; those runs are most of the install's
// cost. So the native numbers are tested in a balanced tree (a handful
// of tests per number), and the i386 part starts with a load that ends
// the run at once. The calls whose arguments are read (open and openat
// among them) are left out of that cache and run the filter each time,
// a few instructions.
func commandFilter(networkAllow bool) []unix.SockFilter {
	a := &bpfAsm{labels: map[string]int{}}
	a.ld(offArch)
	arch := seccompArch()
	if runtime.GOARCH == "amd64" {
		a.jump(bpfJeq, arch, "", "i386")
	} else {
		a.jump(bpfJeq, arch, "", "deny")
	}
	section := func(n sysNrs, native bool, name string) {
		a.ld(offNr)
		if native && runtime.GOARCH == "amd64" {
			a.jump(bpfJge, 0x40000000, "deny", "") // x32 ABI
		}
		to := map[uint32]string{
			n.prlimit: "prlimit", n.uringSetup: "deny", n.openat2: "enosys",
			n.keyctl: "eperm", n.addKey: "eperm", n.requestKey: "eperm",
			n.chmod: "mode1", n.fchmod: "mode1", n.creat: "mode1", n.mknod: "mode1",
			n.fchmodat: "mode2", n.fchmodat2: "mode2", n.mknodat: "mode2",
			n.open: "open1", n.openat: "open2",
		}
		if !networkAllow {
			to[n.socket], to[n.socketcall] = "socket", "deny"
		}
		delete(to, noSys)
		nrs := make([]uint32, 0, len(to))
		for nr := range to {
			nrs = append(nrs, nr)
		}
		slices.Sort(nrs)
		// Native numbers (every one is looked at when the filter is
		// installed): a balanced tree of JGE, with up to three JEQ at
		// each leaf. i386 numbers (never looked at then): a list.
		leaf := 0
		var tree func(nrs []uint32)
		tree = func(nrs []uint32) {
			if !native || len(nrs) <= 3 {
				for i, nr := range nrs {
					if i == len(nrs)-1 {
						a.jump(bpfJeq, nr, to[nr], "allow")
					} else {
						a.jump(bpfJeq, nr, to[nr], "")
					}
				}
				return
			}
			mid := len(nrs) / 2
			hi := fmt.Sprintf("%s%d", name, leaf)
			leaf++
			a.jump(bpfJge, nrs[mid], hi, "")
			tree(nrs[:mid])
			a.label(hi)
			tree(nrs[mid:])
		}
		tree(nrs)
	}
	section(nativeNrs(), true, "native")
	a.label("i386")
	if runtime.GOARCH == "amd64" {
		a.jump(bpfJeq, unix.AUDIT_ARCH_I386, "", "deny")
		// A load the kernel cannot know ahead ends its run for i386
		// numbers here: i386 calls (rare) go through the filter each
		// time instead of costing every command's start.
		a.ld(offArg0)
		section(i386Nrs, false, "i386")
	}
	// The shared blocks (BPF jumps only forward). Arguments are compared
	// on their low 32 bits, where the kernel truncates them (int, pid_t,
	// umode_t).
	a.label("socket")
	a.ld(offArg0)
	a.jump(bpfJeq, afUnix, "allow", "deny")
	// prlimit64(pid, resource, new, old): pid 0, or no new limits. A
	// pointer is 0 when both its words are (i386: the high word is 0).
	a.label("prlimit")
	a.ld(offArg0)
	a.jump(bpfJeq, 0, "allow", "")
	a.ld(offArg2)
	a.jump(bpfJeq, 0, "", "deny")
	a.ld(offArg2 + 4)
	a.jump(bpfJeq, 0, "allow", "deny")
	// open(path, flags, mode), openat(dirfd, path, flags, mode): the mode
	// counts only when the call may make a file.
	a.label("open1")
	a.ld(offArg1)
	a.jump(bpfJset, createBits, "mode2", "allow")
	a.label("open2")
	a.ld(offArg2)
	a.jump(bpfJset, createBits, "mode3", "allow")
	a.label("mode1")
	a.ld(offArg1)
	a.jump(bpfJset, setIDBits, "eperm", "allow")
	a.label("mode2")
	a.ld(offArg2)
	a.jump(bpfJset, setIDBits, "eperm", "allow")
	a.label("mode3")
	a.ld(offArg3)
	a.jump(bpfJset, setIDBits, "eperm", "allow")
	a.label("deny")
	a.ret(retDeny)
	a.label("eperm")
	a.ret(retEperm)
	a.label("enosys")
	a.ret(retEnosys)
	a.label("allow")
	a.ret(retAllow)
	return a.done()
}

// sockFprog is a seccomp program as seccomp(2) takes it.
type sockFprog = unix.SockFprog

// commandProg returns the commands' seccomp program for the network
// rule, assembled once per process: the fork thread that holds it
// (forkThreadFor) is found by this pointer.
func commandProg(networkAllow bool) *unix.SockFprog {
	if networkAllow {
		return allowProg()
	}
	return denyProg()
}

var (
	allowProg = sync.OnceValue(func() *unix.SockFprog { return progOf(commandFilter(true)) })
	denyProg  = sync.OnceValue(func() *unix.SockFprog { return progOf(commandFilter(false)) })
)

func progOf(f []unix.SockFilter) *unix.SockFprog {
	return &unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
}

// startConfined starts cmd (its Path, Args, Env, Dir, standard streams
// as *os.File or nil) confined by c, and sets cmd.Process: the child
// confines itself before execve (forkExec).
func (c *confinement) startConfined(cmd *exec.Cmd) error {
	r := c.run
	// The ruleset made with the slot (spareMaker), else one made now.
	ruleset := c.slot.ruleset
	c.slot.ruleset = -1
	if ruleset < 0 {
		var err error
		if ruleset, err = buildRuleset(SandboxStatus().ABI, c.slot.rules, c.tempDir, r.sb.NetworkAllow); err != nil {
			return err
		}
	}
	defer unix.Close(ruleset)
	if c.tty != nil {
		if err := addTerminalRules(ruleset, c.tty); err != nil {
			return err
		}
	}
	spec, err := specFor(cmd)
	if err != nil {
		return err
	}
	spec.ruleset, spec.filter = ruleset, c.slot.filter
	spec.after = r.spareMaker()
	spec.confineCaps()
	l := c.limits
	add := func(res int, v, hard int64) {
		if v > 0 {
			spec.rlimits = append(spec.rlimits, childRlimit{resource: uintptr(res), lim: unix.Rlimit{Cur: uint64(v), Max: uint64(hard)}})
		}
	}
	// CPU: SIGXCPU at the limit, SIGKILL a second later for a program
	// that ignores it. RLIMIT_NOFILE last (see childSpec).
	add(unix.RLIMIT_CPU, l.CPUSeconds, l.CPUSeconds+1)
	add(unix.RLIMIT_AS, l.MemoryBytes, l.MemoryBytes)
	add(unix.RLIMIT_FSIZE, l.FileBytes, l.FileBytes)
	if cg := c.slot.cg; cg != nil {
		if cg.tasks >= 0 {
			spec.tasks = cg.tasks
		} else {
			spec.cgroup = cg.dirFd
		}
	} else {
		add(unix.RLIMIT_NPROC, l.Processes, l.Processes)
	}
	if l.OpenFiles > 0 {
		add(unix.RLIMIT_NOFILE, l.OpenFiles, l.OpenFiles)
	} else {
		spec.restoreNofile()
	}
	return forkStart(cmd, spec)
}

// A slot is what one command holds: its private folder, its Landlock
// ruleset when it was made ahead (spareMaker) and its pids cgroup.
type slot struct {
	tmp     string
	gen     int
	ruleset int             // -1: made at the start (startConfined)
	rules   []pathRule      // the engine's roots (sandboxRun.rules)
	filter  *unix.SockFprog // the commands' seccomp program (commandProg)
	cg      *pidsCgroup     // the command's pids cgroup (nil: none)
}

// A pidsCgroup is a command's pids cgroup, with the files a0 uses open
// once — a cgroup is kept for the run's next commands, and opening
// kernfs files costs more than using them.
type pidsCgroup struct {
	dir string
	// tasks: cgroup v1's tasks file, for writing (the child moves itself
	// in; -1 on cgroup v2); dirFd: the folder (cgroup v2: the child is
	// cloned into it; -1 on v1); current: pids.current.
	tasks, dirFd, current int
}

// openPidsCgroup makes a pids cgroup with pids.max = max and opens its
// files (nil when it cannot: RLIMIT_NPROC is used instead).
func openPidsCgroup(name string, max int64) (*pidsCgroup, error) {
	dir := makePidsCgroup(name, max)
	if dir == "" {
		return nil, nil
	}
	cg := &pidsCgroup{dir: dir, tasks: -1, dirFd: -1, current: -1}
	var err error
	if cg.current, err = unix.Open(filepath.Join(dir, "pids.current"), unix.O_RDONLY|unix.O_CLOEXEC, 0); err != nil {
		cg.remove()
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	if fd, err := unix.Open(filepath.Join(dir, "tasks"), unix.O_WRONLY|unix.O_CLOEXEC, 0); err == nil {
		cg.tasks = fd
	} else if cg.dirFd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
		cg.remove()
		return nil, fmt.Errorf("pids cgroup: %w", err)
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
	for _, fd := range []int{cg.tasks, cg.dirFd, cg.current} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	removeCgroup(cg.dir)
}

// take makes a slot for a command: its private folder, and its pids
// cgroup when limits.processes is set. The engine's roots and seccomp
// program are made on first use, under the lock, and handed to the slot.
// The folder (and the Landlock ruleset) of a slot made ahead while the
// previous command ran is used when there is one (spareMaker).
func (r *sandboxRun) take() (*slot, error) {
	r.mu.Lock()
	gen := r.gen
	root, err := r.tmpRootLocked()
	if err == nil && r.rules == nil {
		r.rules = openRules(SandboxStatus().ABI, r.sb)
	}
	if r.filter == nil {
		r.filter = commandProg(r.sb.NetworkAllow)
	}
	rules, filter := r.rules, r.filter
	s := r.spare
	r.spare = nil
	r.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("private temporary folder: %w", err)
	}
	nonDumpable()
	if s != nil && s.gen != gen {
		s.drop()
		s = nil
	}
	if s == nil {
		tmp, err := os.MkdirTemp(root, "t-")
		if err != nil {
			return nil, fmt.Errorf("private temporary folder: %w", err)
		}
		s = &slot{tmp: tmp, gen: gen, ruleset: -1, rules: rules, filter: filter}
	}
	if n := r.sb.Limits.Processes; n > 0 {
		if s.cg = r.spareCgroup(); s.cg == nil {
			s.cg, err = openPidsCgroup("a0-"+filepath.Base(root)+"-"+filepath.Base(s.tmp), n)
			if err != nil {
				s.drop()
				return nil, err
			}
		}
	}
	return s, nil
}

// spareMaker returns the work that makes the next command's slot — its
// private folder and its Landlock ruleset, about 40 us — or nil when
// there is nothing to make. The fork thread runs it right after it
// forked this command (forkReq.after), while a0 waits for the command:
// the next command's start does not wait for them, and no thread is
// woken for it. A spare left at the end is removed by close. Nothing is
// shared: the spare's folder is new and empty when its command starts,
// and no other command's rules name it.
func (r *sandboxRun) spareMaker() func() {
	r.mu.Lock()
	if r.spare != nil || r.preparing || r.closing || r.tmpRoot == "" {
		r.mu.Unlock()
		return nil
	}
	r.preparing = true
	r.pending.Add(1)
	gen, root, rules, filter := r.gen, r.tmpRoot, r.rules, r.filter
	r.mu.Unlock()
	return func() {
		defer r.pending.Done()
		var s *slot
		if tmp, err := os.MkdirTemp(root, "t-"); err == nil {
			s = &slot{tmp: tmp, gen: gen, ruleset: -1, rules: rules, filter: filter}
			if s.ruleset, err = buildRuleset(SandboxStatus().ABI, rules, tmp, r.sb.NetworkAllow); err != nil {
				s.ruleset = -1 // made at the start instead
			}
		}
		r.mu.Lock()
		r.preparing = false
		keep := s != nil && r.spare == nil && gen == r.gen && !r.closing
		if keep {
			r.spare = s
		}
		r.mu.Unlock()
		if !keep && s != nil {
			s.drop()
		}
	}
}

// drop undoes a slot no command used: its ruleset closed, its (empty)
// folder removed.
func (s *slot) drop() {
	if s.ruleset >= 0 {
		unix.Close(s.ruleset)
		s.ruleset = -1
	}
	unix.Rmdir(s.tmp)
}

// release keeps the slot's cgroup for a later command of the run (made
// and removed, a cgroup costs more than the rest of the spawn; the next
// command must find it, so this is not left to the background) and
// removes its folder (in the background unless it is empty).
func (s *slot) release(r *sandboxRun) {
	if s.ruleset >= 0 { // the command never started
		unix.Close(s.ruleset)
		s.ruleset = -1
	}
	if cg := s.cg; cg != nil {
		s.cg = nil
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
		return
	}
	r.pending.Add(1)
	go func() {
		defer r.pending.Done()
		os.RemoveAll(s.tmp)
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

// nonDumpable makes a0 itself non-dumpable once: a process of the same
// user without CAP_SYS_PTRACE (every confined command) then cannot read
// its /proc files (environ, mem, fd), which Landlock alone does not keep
// from a command that runs as the same user.
var nonDumpable = sync.OnceFunc(func() {
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
})

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
