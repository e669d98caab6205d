// Package policy loads and reports the capability policy of an A0 run.
//
// Resolution (spec/cli.md §5.1): `<cwd>/.a0policy.json` (source "project"), then
// `$HOME/.a0/policy.json` (source "user"), then the built-in deny-all default
// (source "default"). A missing file falls through to the next location; a
// file that exists but is not a valid policy stops resolution with an
// [*Error] (code E_POLICY, exit 3) — this project never skips an invalid
// policy silently, so a typo can never weaken a restriction.
//
// Validation is strict: the top level must be an object, every key at the
// top level and in the `exec` section must be known, every value must have
// its documented type and range, and duplicate keys are refused anywhere.
// `limits` holds budget ceilings (the four budget fields, non-negative
// integers) that the CLI applies to every run.
//
// [Text] and [JSON] render `a0 policy` and `a0 policy --json`.
package policy

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/proc"
)

// Capability ids, in the order used by hints and by --unsafe-allow-all.
var KnownCaps = []string{"fs.read", "fs.write", "http.get", "sh.exec"}

// File names searched by [Load].
const (
	ProjectFile = ".a0policy.json"
	UserDir     = ".a0"
	UserFile    = "policy.json"
)

// Sources of a resolved policy.
const (
	SourceProject = "project"
	SourceUser    = "user"
	SourceDefault = "default"
)

// Policy is a validated policy file.
type Policy struct {
	// Version is the file's `version` (1 when absent). Any finite number is
	// accepted and shown as is.
	Version float64
	// Allow lists capability ids, in file order, duplicates kept. Never nil.
	Allow []string
	// Deny lists capability ids that are refused even when allowed; nil when
	// the file has no `deny`.
	Deny []string
	// Limits is the `limits` object kept verbatim, as a record in document
	// order (index-like keys first, as JavaScript orders them). It is an
	// empty record when absent. The CLI applies them as budget ceilings.
	Limits value.Value
	// Exec is the `exec` section (spec/exec.md §8); nil when the file has none.
	Exec *Exec
	// FS scopes the file tools to roots; nil when the file has no `fs`.
	FS *FS
	// HTTP scopes http.get; nil when the file has no `http`.
	HTTP *HTTP
	// MCP lists the MCP servers of the `mcp` section in file order
	// (spec/mcp.md); nil when the file has none.
	MCP []*MCPServer
	// Secrets lists the `secrets` section in file order (spec/security.md,
	// "Secrets"); nil when the file has none.
	Secrets []*Secret
}

// Default returns the built-in policy: version 1, nothing allowed.
func Default() *Policy {
	return &Policy{Version: 1, Allow: []string{}, Limits: value.RecordOf(value.NewRecord(0))}
}

// Resolved is the outcome of policy resolution.
type Resolved struct {
	// Source is "project", "user" or "default".
	Source string
	// Path is the policy file ("" for the default).
	Path string
	// Policy is the selected policy (the default one for source "default").
	Policy *Policy

	allowAll bool
}

// Load resolves the policy for a process whose physical working directory
// is cwd and whose home directory is home ("" skips the user file). It
// returns an [*Error] when the first existing file is not a valid policy.
func Load(cwd, home string) (*Resolved, error) {
	candidates := []struct{ source, path string }{
		{SourceProject, filepath.Join(cwd, ProjectFile)},
	}
	if home != "" {
		candidates = append(candidates, struct{ source, path string }{SourceUser, filepath.Join(home, UserDir, UserFile)})
	}
	for _, c := range candidates {
		p, found, err := LoadFile(c.path)
		if err != nil {
			return nil, err
		}
		if found {
			return (&Resolved{Source: c.source, Path: c.path, Policy: p}).CheckedReach()
		}
	}
	return &Resolved{Source: SourceDefault, Policy: Default()}, nil
}

// MaxFileBytes is the largest policy file read (1 MiB). A policy is a few
// hundred bytes; anything larger is refused unread, so a planted file can
// never make a0 allocate without bound.
const MaxFileBytes = 1 << 20

// LoadFile reads and validates one policy file. found is false (with a nil
// error) when nothing exists at path, so resolution may go on; a dangling
// symbolic link counts as existing and is an error.
//
// The file is read once, through one descriptor: it is opened without
// blocking (O_NONBLOCK, so a FIFO without a writer cannot hang a0) and
// without becoming a controlling terminal, checked with fstat to be a
// regular file (a symbolic link to one is fine) of at most [MaxFileBytes],
// and read up to one byte past that bound. A device (a link to /dev/zero),
// a FIFO, a directory, a socket or a larger file is an [*Error] naming the
// reason, never read.
func LoadFile(path string) (p *Policy, found bool, err error) {
	data, found, err := readPolicyFile(path)
	if err != nil || !found {
		return nil, found, err
	}
	p, perr := Parse(path, data)
	if perr != nil {
		return nil, true, perr
	}
	return p, true, nil
}

// readPolicyFile is the bounded, non-blocking read of LoadFile.
func readPolicyFile(path string) ([]byte, bool, error) {
	fd, oerr := openPolicy(path)
	if oerr != nil {
		if isNotExist(oerr) {
			if _, lerr := os.Lstat(path); lerr != nil && isNotExist(lerr) {
				return nil, false, nil
			}
		}
		if errors.Is(oerr, syscall.ENXIO) {
			// open(2) of a socket (or a device without its driver).
			if st, serr := os.Stat(path); serr == nil {
				return nil, true, notRegular(path, "", st.Mode())
			}
		}
		return nil, true, &Error{Path: path, Problem: "cannot read the file (" + nodeMessage(&fs.PathError{Op: "open", Path: path, Err: oerr}) + ")", Offset: -1, Cause: oerr,
			Hint: "Make '" + path + "' readable, or name another policy file with --policy FILE."}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, serr := f.Stat()
	if serr != nil {
		return nil, true, &Error{Path: path, Problem: "cannot read the file (" + nodeMessage(serr) + ")", Offset: -1, Cause: serr}
	}
	if !st.Mode().IsRegular() {
		target, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		if target == "" {
			target, _ = filepath.EvalSymlinks(path)
		}
		return nil, true, notRegular(path, target, st.Mode())
	}
	if st.Size() > MaxFileBytes {
		return nil, true, tooLarge(path, st.Size())
	}
	data, rerr := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if rerr != nil {
		return nil, true, &Error{Path: path, Problem: "cannot read the file (" + nodeMessage(rerr) + ")", Offset: -1, Cause: rerr,
			Hint: "Make '" + path + "' readable, or name another policy file with --policy FILE."}
	}
	if len(data) > MaxFileBytes {
		// It grew after fstat.
		return nil, true, tooLarge(path, int64(len(data)))
	}
	return data, true, nil
}

// openPolicy opens path for reading with O_NONBLOCK, O_NOCTTY and
// O_CLOEXEC (symbolic links are followed; the target is checked by fstat).
func openPolicy(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		return int(fd), err // a syscall.Handle on Windows
	}
}

// fileHint is the hint of a policy file that is not a regular file or is
// too large.
func fileHint(path string) string {
	return "A policy file must be a regular JSON file of at most 1 MiB: replace '" + path + "' with one, or name another policy file with --policy FILE."
}

// notRegular is the E_POLICY error of a policy file that is not a regular
// file; target is where a symbolic link leads ("" when unknown).
func notRegular(path, target string, mode fs.FileMode) *Error {
	var what string
	switch {
	case mode&fs.ModeNamedPipe != 0:
		what = "is a FIFO"
	case mode&fs.ModeCharDevice != 0:
		what = "is a character device"
	case mode&fs.ModeDevice != 0:
		what = "is a block device"
	case mode.IsDir():
		what = "is a directory"
	case mode&fs.ModeSocket != 0:
		what = "is a socket"
	default:
		what = "is not a regular file"
	}
	if target != "" && target != path && !strings.HasPrefix(target, "pipe:") && !strings.HasPrefix(target, "socket:") {
		what += " (" + target + ")"
	}
	return &Error{Path: path, Problem: what + ", not a regular file", Offset: -1, Hint: fileHint(path)}
}

// tooLarge is the E_POLICY error of a policy file over MaxFileBytes.
func tooLarge(path string, size int64) *Error {
	return &Error{Path: path, Problem: "is larger than 1 MiB (" + strconv.FormatInt(size, 10) + " bytes)", Offset: -1, Hint: fileHint(path)}
}

func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// Getwd returns the physical working directory (symlinks resolved), as
// getcwd(3) reports it. os.Getwd may return $PWD instead, which names the
// logical path.
func Getwd() (string, error) {
	return syscall.Getwd()
}

// AllowAll returns a copy of r for --unsafe-allow-all: the four known
// capabilities are allowed whatever the policy says, and the `exec` section
// is ignored (sh.exec gets the defaults of spec/exec.md §8.1). r may be nil.
func (r *Resolved) AllowAll() *Resolved {
	out := &Resolved{Source: SourceDefault, Policy: Default()}
	if r != nil {
		c := *r
		out = &c
	}
	out.allowAll = true
	return out
}

// IsAllowAll reports whether r was made by [Resolved.AllowAll].
func (r *Resolved) IsAllowAll() bool { return r.allowAll }

// Allowed reports whether capability id is in the allowed set: listed in
// `allow` and not in `deny` (deny wins), or one of the known ids under
// --unsafe-allow-all. An entry "server.*" stands for every tool of the
// MCP server of that name (spec/mcp.md §4).
func (r *Resolved) Allowed(id string) bool {
	if r.allowAll {
		return slices.Contains(KnownCaps, id) || r.mcpServerOf(id) != nil
	}
	return r.listed(r.Policy.Allow, id) && !r.listed(r.Policy.Deny, id)
}

// Denied reports whether the policy's `deny` lists capability id (directly
// or through a "server.*" entry). Nothing is denied under
// --unsafe-allow-all. A terminal prompt never grants a denied capability.
func (r *Resolved) Denied(id string) bool {
	if r == nil || r.allowAll || r.Policy == nil {
		return false
	}
	return r.listed(r.Policy.Deny, id)
}

// ServerGranted reports whether the policy grants a tool of the configured
// MCP server name: `allow` has "name.tool" or "name.*" and `deny` does
// not remove it. Under --unsafe-allow-all every configured server is
// granted. A server that is not granted is never started.
func (r *Resolved) ServerGranted(name string) bool {
	if r == nil || r.Policy == nil || r.mcpServerOf(name+".x") == nil {
		return false
	}
	if r.allowAll {
		return true
	}
	for _, a := range r.Policy.Allow {
		if strings.HasPrefix(a, name+".") && r.Allowed(a) {
			return true
		}
	}
	return false
}

// EffectiveAllow returns `allow` minus `deny`, without duplicates, sorted
// in collation order (see [SortStrings]). Unknown ids are kept. Under
// --unsafe-allow-all it is the four known ids.
func (r *Resolved) EffectiveAllow() []string {
	if r.allowAll {
		return slices.Clone(KnownCaps)
	}
	var out []string
	for _, id := range r.Policy.Allow {
		if slices.Contains(r.Policy.Deny, id) || slices.Contains(out, id) {
			continue
		}
		out = append(out, id)
	}
	if out == nil {
		out = []string{}
	}
	SortStrings(out)
	return out
}

// Exec returns the exec engine's configuration of the policy
// (spec/exec.md §8.1): the engine's defaults with the `exec` section laid
// over them, paths made absolute against the policy file's directory, and
// the fs roots added to a sandbox's. Without a section, or under
// --unsafe-allow-all, it is proc.DefaultConfig. WorkDir is the current
// directory; a host sets the run's.
func (r *Resolved) Exec() proc.Config {
	if r.allowAll || r.Policy == nil || r.Policy.Exec == nil {
		return (*Exec)(nil).Config("")
	}
	base := filepath.Dir(r.Path)
	c := r.Policy.Exec.Config(base)
	if sb := r.Policy.Exec.Sandbox; sb != nil {
		// One set of roots: a confined command may use the fs roots too.
		fsRead, fsWrite := r.FSRoots()
		c.Sandbox = sb.config(base, fsRead, fsWrite)
	}
	return c
}
