package proc

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/a0lang/a0/runtime/internal/testhook"
)

// Sandbox confines every command an Engine starts (spec/exec.md
// §12): the file system through Landlock, the network through
// Landlock and a seccomp filter, resources through rlimits and a pids
// cgroup. Only the child is confined, never the interpreter. A nil
// *Sandbox in Config leaves commands unconfined.
type Sandbox struct {
	// Read lists absolute roots a command may read and execute below (on
	// top of SystemRead); Write lists roots it may also write below. The
	// host puts the policy's fs roots and exec.sandbox roots here.
	Read, Write []string
	// NetworkAllow lets the command open any socket; false ("deny") allows
	// Unix sockets only and no TCP bind or connect.
	NetworkAllow bool
	// Limits are the command's resource limits (zero fields: none).
	Limits Limits
	// Require refuses a command (E_TOOL sandbox_unavailable) when the
	// kernel cannot confine it; false runs it unconfined instead.
	Require bool
	// OpenRoot, when set, opens a root of Read or Write for its Landlock
	// rule: it returns a new descriptor (O_PATH is enough) that the
	// engine closes. The file tools set it to hand out the descriptors
	// they pinned at the run's start, so that the commands' rules and the
	// tools' resolution cover the same folders however the paths change.
	// Nil opens each root by its path when the engine first confines a
	// command.
	OpenRoot func(path string) (int, error)
}

// Limits are per-command resource limits; 0 means no limit.
type Limits struct {
	CPUSeconds  int64 // RLIMIT_CPU
	MemoryBytes int64 // RLIMIT_AS
	FileBytes   int64 // RLIMIT_FSIZE
	OpenFiles   int64 // RLIMIT_NOFILE
	Processes   int64 // pids cgroup (pids.max), else RLIMIT_NPROC
}

// Any reports whether some limit is set.
func (l Limits) Any() bool {
	return l.CPUSeconds > 0 || l.MemoryBytes > 0 || l.FileBytes > 0 || l.OpenFiles > 0 || l.Processes > 0
}

// SystemRead is the system set a confined command may read and execute:
// what dynamically linked programs, shells and toolchains need. Paths
// that do not exist are skipped.
var SystemRead = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
	"/proc", "/sys", "/run/systemd/resolve", "/nix/store",
	"/dev/random", "/dev/urandom",
}

// SystemWrite are the null-type devices a confined command may read and
// write.
var SystemWrite = []string{"/dev/null", "/dev/zero", "/dev/full"}

// SandboxSupport describes what the kernel offers for confinement.
type SandboxSupport struct {
	// Available is true when commands can be confined.
	Available bool
	// ABI is the Landlock ABI version (0: none).
	ABI int
	// Missing says what is missing when not Available.
	Missing string
	// ProcessCap names the mechanism behind limits.processes: "cgroup"
	// (a pids cgroup per command, binds root too) or "rlimit"
	// (RLIMIT_NPROC: counts every process of the user, not binding root).
	ProcessCap string
}

// SandboxStatus reports the kernel's support for confinement.
func SandboxStatus() SandboxSupport {
	if testhook.NoLandlock.Load() { // set only by tests (runtime/internal/testhook)
		return SandboxSupport{Missing: "the kernel has no Landlock (reported by a test hook)"}
	}
	return sandboxStatus()
}

// readable reports whether path lies below a root a confined command may
// read (the system set, sb.Read, sb.Write).
func (sb *Sandbox) readable(path string) bool {
	for _, set := range [][]string{SystemRead, sb.Read, sb.Write} {
		for _, r := range set {
			if within(r, path) || within(realOr(r), path) {
				return true
			}
		}
	}
	return false
}

// realOr returns the real path of p, or p when it cannot be resolved.
func realOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// checkSandbox refuses, before the start, what a confined command could
// not do: run an executable outside every readable root.
func (e *Engine) checkSandbox(asWritten, path, real string, m *Masker) error {
	sb := e.cfg.Sandbox
	if real == "" {
		real = path
	}
	if sb.readable(real) {
		// A script runs its interpreter, which must be readable too.
		interp := scriptInterpreter(real)
		if interp == "" || sb.readable(realOr(interp)) {
			return nil
		}
		shown := m.String(asWritten)
		ireal := realOr(interp)
		return &Error{Kind: KindCapDenied, Reason: ReasonSandboxNotReadable,
			Msg: "executable " + shown + " is a script run by " + interp + " (" + ireal + "), which is outside every root a confined command may read; add " +
				filepath.Dir(ireal) + " to exec.sandbox.read in the policy to run it",
			Fields: [][2]string{{"executable", shown}, {"path", ireal}, {"key", "exec.sandbox.read"}}}
	}
	shown := m.String(asWritten)
	return &Error{Kind: KindCapDenied, Reason: ReasonSandboxNotReadable,
		Msg: "executable " + shown + " (" + real + ") is outside every root a confined command may read; add " +
			filepath.Dir(real) + " to exec.sandbox.read in the policy (or to fs.read) to run it",
		Fields: [][2]string{{"executable", shown}, {"path", real}, {"key", "exec.sandbox.read"}}}
}

// sandboxRun is an Engine's confinement state: its roots, the seccomp
// filter of its commands and the folder under which each command gets
// its own private TMPDIR.
type sandboxRun struct {
	sb *Sandbox

	mu      sync.Mutex
	tmpRoot string     // "" until first use
	rules   []pathRule // the roots, opened once (Linux); nil until first use
	filter  *sockFprog // the commands' seccomp program (Linux); nil until first use
	gen     int        // bumped by close: older cgroups are not kept
	pending sync.WaitGroup
	// spareCgroups are pids cgroups of ended commands, kept for the
	// next ones (Linux).
	spareCgroups []*pidsCgroup
	busyCgroups  []*pidsCgroup // kept ones that still had processes
	// spare is the next command's slot, made in the background while
	// the previous command runs (Linux: spareMaker); preparing: it is
	// being made; closing: close is running, nothing new is prepared.
	spare              *slot
	preparing, closing bool
}

// pathRule is a Landlock rule: a root open as O_PATH and its rights.
type pathRule struct {
	fd     int
	rights uint64
}

// tmpRootLocked returns the engine's temporary folder, making it on
// first use (r.mu held).
func (r *sandboxRun) tmpRootLocked() (string, error) {
	if r.tmpRoot == "" {
		d, err := os.MkdirTemp(tempBase(), "a0-sandbox-")
		if err != nil {
			return "", err
		}
		r.tmpRoot = d
	}
	return r.tmpRoot, nil
}

// close waits for the background work and removes the engine's
// temporary folder. The engine may confine again afterwards: everything
// is made anew on first use.
func (r *sandboxRun) close() {
	r.mu.Lock()
	r.gen++
	r.closing = true
	r.mu.Unlock()
	r.pending.Wait()
	r.removeSpareCgroups()
	r.mu.Lock()
	spare := r.spare
	r.spare = nil
	root := r.tmpRoot
	r.tmpRoot = ""
	r.closeRules()
	r.closing = false
	r.mu.Unlock()
	if spare != nil {
		spare.drop()
	}
	if root != "" {
		os.RemoveAll(root)
	}
}

// CloseSandbox removes the engine's temporary folders (waiting for the
// background removal of those of ended commands). Jobs.CloseAll calls it
// at run end; an embedder that runs commands without Jobs calls it when
// done. It is a no-op without a sandbox.
func (e *Engine) CloseSandbox() {
	if e.sbx != nil {
		e.sbx.close()
	}
}

// confinement is what one command is confined by.
type confinement struct {
	run     *sandboxRun
	slot    *slot
	limits  Limits
	tempDir string // private TMPDIR, removed (in the background) after the end
	once    sync.Once

	// tty is a pty command's terminal (the only device its rules add).
	tty *os.File
}

// newConfinement makes a slot for a command: its private folder and
// pids cgroup.
func (r *sandboxRun) newConfinement() (*confinement, error) {
	s, err := r.take()
	if err != nil {
		return nil, err
	}
	return &confinement{run: r, slot: s, limits: r.sb.Limits, tempDir: s.tmp}, nil
}

// tempBase is the folder under which private temporary folders are made:
// see tempBaseFor (a memory file system where there is one).
var tempBase = sync.OnceValue(func() string {
	d := os.TempDir()
	if r, err := filepath.EvalSymlinks(d); err == nil {
		d = r
	}
	return tempBaseFor(d)
})

// sandboxUnavailable is the refusal when confinement is required but
// the kernel cannot provide it.
func sandboxUnavailable(missing string) *Error {
	return &Error{Kind: KindTool, Reason: ReasonSandboxUnavailable,
		Msg: "the policy's exec.sandbox requires confined commands, but " + missing +
			"; run on Linux 5.13 or later with Landlock enabled, or set exec.sandbox.require to false to run commands unconfined"}
}

// cleanup removes the private temporary folder (in the background) and
// the pids cgroup. It is safe to call more than once.
func (c *confinement) cleanup() {
	c.once.Do(func() { c.slot.release(c.run) })
}

// tempVars point to a confined command's private temporary folder.
var tempVars = []string{"TMPDIR", "TMP", "TEMP"}

// scriptInterpreter returns the interpreter path of a `#!` script ("":
// not a script, or a relative interpreter).
func scriptInterpreter(path string) string {
	fields := strings.Fields(ShebangLine(path))
	if len(fields) == 0 || !filepath.IsAbs(fields[0]) {
		return ""
	}
	return fields[0]
}

// ShebangLine returns the `#!` line of the file at path without the `#!`
// and surrounding space (the interpreter and its arguments), or "" when
// the file is not a script (or cannot be read).
func ShebangLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var head [256]byte
	n, _ := f.Read(head[:])
	line, ok := strings.CutPrefix(string(head[:n]), "#!")
	if !ok {
		return ""
	}
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}
