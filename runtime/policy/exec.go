package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/a0lang/a0/runtime/proc"
)

// Environment modes of `exec.envMode`, from least to most strict (the
// engine's own).
const (
	EnvInherit = proc.EnvInherit
	EnvClean   = proc.EnvClean
	EnvReplace = proc.EnvReplace
)

// Exec is the `exec` section as written in the file: a nil pointer or slice
// means the key is absent (a present empty list is a non-nil empty slice).
// Values are already validated for type and range.
type Exec struct {
	Allow            []string // executables (absolute paths or bare names)
	Deny             []string
	AllowShell       *bool
	Shells           []string
	Root             *string // relative to the policy file's directory
	EnvMode          string  // "" when absent
	EnvAllow         []string
	EnvDeny          []string
	Mask             []string
	DefaultTimeoutMs *int64
	MaxTimeoutMs     *int64
	MaxJobMs         *int64
	MaxWaitMs        *int64
	GraceMs          *int64
	DrainMs          *int64
	MaxOutputBytes   *int64
	MaxStdinBytes    *int64
	MaxJobs          *int64
	MaxJobsPerRun    *int64
	SweepEscaped     *bool
	JobStore         *JobStore
	AllowCrossRun    *bool
	AllowDetach      *bool
	// EnvAllowCode lists code-loading env names (proc.CodeEnv) an
	// allowlist lets calls set or keep.
	EnvAllowCode []string
	// Sandbox is the `exec.sandbox` object; nil when absent.
	Sandbox *Sandbox
}

// Sandbox is the `exec.sandbox` object as written (spec/tools.md,
// "Sandbox"); nil pointers and slices mean the key is absent.
type Sandbox struct {
	Read, Write []string    // relative to the policy file's directory
	Network     NetworkMode // NetworkDeny, NetworkAllow or "" (absent: deny)
	Limits      *SandboxLimits
	Require     *bool
}

// NetworkMode is `exec.sandbox.network` as the policy spells it.
type NetworkMode string

// The values of `exec.sandbox.network`.
const (
	// NetworkDeny allows a confined command Unix sockets only (the default).
	NetworkDeny NetworkMode = "deny"
	// NetworkAllow lets a confined command open any socket.
	NetworkAllow NetworkMode = "allow"
)

// SandboxLimits is `exec.sandbox.limits` as written.
type SandboxLimits struct {
	CPUSeconds, MemoryBytes, FileBytes, OpenFiles, Processes *int64
}

// JobStore is the `exec.jobStore` object as written.
type JobStore struct {
	Dir         *string // relative to the policy file's directory
	RetainDays  *int64
	MaxBytes    *int64
	MaxLogBytes *int64
}

// Config returns the exec engine's configuration of e (spec/exec.md
// §8.1): the keys e sets laid over proc.DefaultConfig, the engine's
// defaults, which are the only copy of them (nil e: the defaults).
// Relative paths are resolved against baseDir, the directory of the
// policy file; the sandbox's roots do not include the fs roots
// ([Resolved.Exec] adds them).
func (e *Exec) Config(baseDir string) proc.Config {
	c := proc.DefaultConfig()
	def := c.DefaultTimeout
	if e != nil {
		if e.Allow != nil {
			c.Allow = slices.Clone(e.Allow)
			c.AllowShell = false
		}
		setList(&c.Deny, e.Deny)
		setBool(&c.AllowShell, e.AllowShell)
		setList(&c.Shells, e.Shells)
		if e.Root != nil {
			c.Root = absUnder(baseDir, *e.Root)
		}
		if e.EnvMode != "" {
			c.EnvMode = e.EnvMode
		}
		setList(&c.EnvAllow, e.EnvAllow)
		setList(&c.EnvDeny, e.EnvDeny)
		setList(&c.Mask, e.Mask)
		setMs(&def, e.DefaultTimeoutMs)
		setMs(&c.MaxTimeout, e.MaxTimeoutMs)
		setMs(&c.MaxJob, e.MaxJobMs)
		setMs(&c.MaxWait, e.MaxWaitMs)
		setMs(&c.Grace, e.GraceMs)
		setMs(&c.Drain, e.DrainMs)
		setInt(&c.MaxOutputBytes, e.MaxOutputBytes)
		setInt(&c.MaxStdinBytes, e.MaxStdinBytes)
		setCount(&c.MaxJobs, e.MaxJobs)
		setCount(&c.MaxJobsPerRun, e.MaxJobsPerRun)
		setBool(&c.SweepEscaped, e.SweepEscaped)
		setBool(&c.AllowCrossRun, e.AllowCrossRun)
		setBool(&c.AllowDetach, e.AllowDetach)
		setList(&c.EnvAllowCode, e.EnvAllowCode)
		if sb := e.Sandbox; sb != nil {
			c.Sandbox = sb.config(baseDir, nil, nil)
		}
		if js := e.JobStore; js != nil {
			c.StoreDir = absUnder(baseDir, proc.DefaultStoreDir)
			if js.Dir != nil {
				c.StoreDir = absUnder(baseDir, *js.Dir)
			}
			setInt(&c.RetainDays, js.RetainDays)
			setInt(&c.StoreMaxBytes, js.MaxBytes)
			setInt(&c.MaxLogBytes, js.MaxLogBytes)
		}
	}
	// defaultTimeoutMs 0 means maxTimeoutMs, and never above it.
	if def == 0 || def > c.MaxTimeout {
		def = c.MaxTimeout
	}
	c.DefaultTimeout = def
	return c
}

// config returns the exec engine's sandbox of sb: its roots made absolute
// against baseDir, after the policy's fs roots fsRead and fsWrite (a
// confined command may read the fs read and write roots and the sandbox
// roots, and write the fs write roots and the sandbox write roots);
// network "deny", require true and no limits unless sb sets them.
func (sb *Sandbox) config(baseDir string, fsRead, fsWrite []string) *proc.Sandbox {
	read, write := sb.roots(baseDir)
	c := &proc.Sandbox{NetworkAllow: sb.Network == NetworkAllow, Require: true}
	c.Read = append(append(c.Read, fsRead...), read...)
	c.Write = append(append(c.Write, fsWrite...), write...)
	if l := sb.Limits; l != nil {
		setInt(&c.Limits.CPUSeconds, l.CPUSeconds)
		setInt(&c.Limits.MemoryBytes, l.MemoryBytes)
		setInt(&c.Limits.FileBytes, l.FileBytes)
		setInt(&c.Limits.OpenFiles, l.OpenFiles)
		setInt(&c.Limits.Processes, l.Processes)
	}
	setBool(&c.Require, sb.Require)
	return c
}

// roots returns the sandbox's own read and write roots, made absolute
// against baseDir.
func (sb *Sandbox) roots(baseDir string) (read, write []string) {
	read, write = []string{}, []string{}
	for _, p := range sb.Read {
		read = append(read, absUnder(baseDir, p))
	}
	for _, p := range sb.Write {
		write = append(write, absUnder(baseDir, p))
	}
	return read, write
}

var sandboxKeys = []string{"read", "write", "network", "limits", "require"}
var sandboxLimitKeys = []string{"cpuSeconds", "memoryBytes", "fileBytes", "openFiles", "processes"}

// sandbox decodes `exec.sandbox`.
func (d *decoder) sandbox(n *jnode) *Sandbox { return d.sandboxAt("exec.sandbox", n) }

// sandboxAt decodes a sandbox object found at key (`exec.sandbox`, or an
// MCP server's `sandbox`).
func (d *decoder) sandboxAt(key string, n *jnode) *Sandbox {
	if n.kind != jObj {
		d.wrongType(key, n, "an object")
		return nil
	}
	sb := &Sandbox{}
	for _, m := range n.keys {
		k := key + "." + m.name
		v := m.val
		switch m.name {
		case "read":
			sb.Read = d.stringList(k, v, checkRoot)
		case "write":
			sb.Write = d.stringList(k, v, checkRoot)
		case "network":
			if v.kind != jStr {
				d.wrongType(k, v, `"deny" or "allow"`)
				break
			}
			if mode := NetworkMode(v.s); mode != NetworkDeny && mode != NetworkAllow {
				d.fail(k, v.off, `must be "deny" or "allow", found `+diagQuote(v.s))
				break
			}
			sb.Network = NetworkMode(v.s)
		case "limits":
			sb.Limits = d.sandboxLimits(k, v)
		case "require":
			b := d.boolean(k, v)
			sb.Require = &b
		default:
			d.unknownKey(key, m, sandboxKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	return sb
}

func (d *decoder) sandboxLimits(key string, n *jnode) *SandboxLimits {
	if n.kind != jObj {
		d.wrongType(key, n, "an object")
		return nil
	}
	l := &SandboxLimits{}
	for _, m := range n.keys {
		var dst **int64
		switch m.name {
		case "cpuSeconds":
			dst = &l.CPUSeconds
		case "memoryBytes":
			dst = &l.MemoryBytes
		case "fileBytes":
			dst = &l.FileBytes
		case "openFiles":
			dst = &l.OpenFiles
		case "processes":
			dst = &l.Processes
		default:
			d.unknownKey(key, m, sandboxLimitKeys)
			return nil
		}
		v := d.integer(key+"."+m.name, m.val, 1, maxSafeInt)
		if d.err != nil {
			return nil
		}
		*dst = &v
	}
	return l
}

// checkEnvName validates an `exec.envAllowCode` entry: an exact name.
func checkEnvName(s string) string {
	if s == "" {
		return "must not be empty"
	}
	if strings.ContainsAny(s, "=*\x00") {
		return "must be an exact environment variable name (no '=', '*' or NUL), found " + diagQuote(s)
	}
	return ""
}

func setInt(dst *int64, v *int64) {
	if v != nil {
		*dst = *v
	}
}

// setMs sets a duration from a policy value in milliseconds.
func setMs(dst *time.Duration, v *int64) {
	if v != nil {
		*dst = time.Duration(*v) * time.Millisecond
	}
}

// setCount sets an int from a policy value (validated to fit).
func setCount(dst *int, v *int64) {
	if v != nil {
		*dst = int(*v)
	}
}

// setList sets a list the file gives (a present empty list stays a
// non-nil empty slice).
func setList(dst *[]string, v []string) {
	if v != nil {
		*dst = slices.Clone(v)
	}
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

func absUnder(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// launchers are executables that run arbitrary other programs; allowing one
// makes an allowlist meaningless. A trailing '*' matches any suffix.
var launchers = []string{
	"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox",
	"pwsh", "powershell", "cmd", "python*", "node", "nodejs", "deno", "bun", "ruby*",
	"perl*", "php*", "lua*", "tclsh*", "env", "xargs", "npx", "npm", "pnpm", "yarn",
	"make", "gmake", "sudo", "su", "doas", "nice", "nohup", "timeout", "stdbuf",
	"setsid", "chroot", "strace", "gdb", "awk", "gawk", "mawk", "nawk", "find",
	"script", "watch", "parallel",
}

func isLauncher(entry string) bool {
	name := strings.ToLower(filepath.Base(entry))
	name = strings.TrimSuffix(name, ".exe")
	for _, l := range launchers {
		if p, ok := strings.CutSuffix(l, "*"); ok {
			if strings.HasPrefix(name, p) {
				return true
			}
		} else if name == l {
			return true
		}
	}
	return false
}

// resolves reports whether an `allow`/`deny` entry names at least one
// executable file: an absolute path directly, a bare name along pathList
// (the PATH variable).
func resolves(entry, pathList string) bool {
	if filepath.IsAbs(entry) {
		return isExecutable(entry)
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			dir = "."
		}
		if isExecutable(filepath.Join(dir, entry)) {
			return true
		}
	}
	return false
}

// scriptInterpreter returns the `#!` line's interpreter of an allow
// entry that is a script ("" otherwise).
func scriptInterpreter(entry, pathList string) string {
	p := entry
	if !filepath.IsAbs(p) {
		p = ""
		for _, dir := range filepath.SplitList(pathList) {
			if dir != "" && isExecutable(filepath.Join(dir, entry)) {
				p = filepath.Join(dir, entry)
				break
			}
		}
		if p == "" {
			return ""
		}
	}
	return proc.ShebangLine(p)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// ExecWarnings returns the `a0 policy` warnings of spec/cli.md §5.5 for
// the exec configuration s; pathList is the PATH used to resolve bare
// names.
func ExecWarnings(s proc.Config, pathList string) []string {
	var out []string
	for _, a := range s.Allow {
		if !resolves(a, pathList) {
			where := ""
			if !filepath.IsAbs(a) {
				where = " on PATH"
			}
			out = append(out, "exec.allow entry "+diagQuote(a)+" does not resolve to an executable"+where+"; it matches nothing")
		}
		if interp := scriptInterpreter(a, pathList); interp != "" {
			out = append(out, "exec.allow entry "+diagQuote(a)+" is a script run by "+interp+"; the interpreter is what runs, and its environment variables can make it load other code")
		}
		if isLauncher(a) {
			out = append(out, "exec.allow entry "+diagQuote(a)+" is an interpreter or launcher that can run any program, which makes the allowlist meaningless")
		}
	}
	for _, d := range s.Deny {
		// A bare deny name also matches by file name, so only an absolute
		// path that resolves to nothing is useless.
		if filepath.IsAbs(d) && !resolves(d, pathList) {
			out = append(out, "exec.deny entry "+diagQuote(d)+" does not resolve to an executable; it matches nothing")
		}
	}
	if sb := s.Sandbox; sb != nil {
		if st := proc.SandboxStatus(); !st.Available && !sb.Require {
			out = append(out, "exec.sandbox.require is false and this kernel cannot confine ("+st.Missing+"): commands run UNCONFINED")
		}
	}
	if s.Allow != nil && s.AllowShell {
		out = append(out, "exec.allowShell is true: cmd mode lets a shell run any program, which makes the allowlist meaningless")
	}
	if s.Root != "" {
		if fi, err := os.Stat(s.Root); err != nil || !fi.IsDir() {
			out = append(out, "exec.root "+diagQuote(s.Root)+" is not an existing directory; every sh.exec call will fail")
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}
