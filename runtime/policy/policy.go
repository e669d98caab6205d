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
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/a0lang/a0/lang/value"
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

// LoadFile reads and validates one policy file. found is false (with a nil
// error) when nothing exists at path, so resolution may go on; a dangling
// symbolic link counts as existing and is an error.
func LoadFile(path string) (p *Policy, found bool, err error) {
	data, rerr := os.ReadFile(path)
	if rerr != nil {
		if isNotExist(rerr) {
			if _, lerr := os.Lstat(path); lerr != nil && isNotExist(lerr) {
				return nil, false, nil
			}
		}
		return nil, true, &Error{Path: path, Problem: "cannot read the file (" + nodeMessage(rerr) + ")", Offset: -1, Cause: rerr}
	}
	p, perr := Parse(path, data)
	if perr != nil {
		return nil, true, perr
	}
	return p, true, nil
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

// Exec returns the effective `exec` settings (spec/exec.md §8.1) with defaults
// filled in and paths made absolute against the policy file's directory.
// Without a section, or under --unsafe-allow-all, they are the defaults.
func (r *Resolved) Exec() ExecSettings {
	if r.allowAll || r.Policy == nil || r.Policy.Exec == nil {
		return (*Exec)(nil).Settings("")
	}
	s := r.Policy.Exec.Settings(filepath.Dir(r.Path))
	if s.Sandbox != nil {
		// One set of roots: a confined command may use the fs roots too.
		s.Sandbox.FSRead, s.Sandbox.FSWrite = r.FSRoots()
	}
	return s
}
