package tools

import (
	"os"
	"path/filepath"
	"time"

	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// Config is the typed configuration of the built-in tools: the file
// roots, the http.get scope and the exec engine's settings. The tools are
// built from it once ([New]) and keep it for every run of the Env.
//
// The zero value is the safe default: the file tools reach no file (no
// roots), http.get refuses private, loopback and link-local addresses and
// caps a response body at 64 MiB, and the exec tools use the defaults of
// spec/exec.md. A field left out never widens access.
type Config struct {
	// FS holds the directory roots of the file tools.
	FS FSScope
	// HTTP confines http.get.
	HTTP HTTPScope
	// Exec is the exec engine's configuration for sh.exec and the job
	// tools; nil means the defaults (proc.DefaultConfig). A run may
	// replace it with RunOptions.Exec.
	Exec *proc.Config
	// PolicyFiles are files fs.write never writes, replaces or deletes:
	// the policy in effect and the user policy ([FromPolicy] fills it).
	// Whatever it holds, a file named .a0policy.json is never written.
	PolicyFiles []string
	// Secrets are the policy's secrets (spec/security.md, "Secrets"):
	// placeholders "${secret:NAME}" in sh.exec / sh.start env values,
	// argv items and stdin, and in http.get header values, stand for
	// their values where their destinations allow. Their `from.env`
	// variables are never passed to commands. Nil: none.
	Secrets []*policy.Secret
}

// New returns every built-in tool, configured by cfg. The tools read
// their scopes from cfg only, never from host values: a host cannot
// loosen them by forgetting an entry.
func New(cfg Config) []runtime.Tool {
	c := &cfg
	return []runtime.Tool{FSRead{c}, FSWrite{c}, FSList{c}, FSExists{c}, HTTPGet{c}, ShExec{c},
		ShStart{c}, ShStatus{c}, ShTail{c}, ShWait{c}, ShKill{c}, ShJobs{c}, ShNotify{c}, ShWrite{c}}
}

// Standard returns every built-in tool with the zero Config: no file
// access, http.get without private addresses, exec defaults. Use it where
// only the tools' names and parameters matter (checking programs); a host
// that runs programs builds its tools with New.
func Standard() []runtime.Tool { return New(Config{}) }

// AllFiles is the root list that gives a file capability the whole file
// system (what a policy without an `fs` section means).
var AllFiles = []string{"/"}

// FromPolicy makes the tools' configuration from a resolved policy, as the
// a0 command does for `a0 run`, `a0 repl` and `a0 mcp`. workDir is the
// run's working directory (the default working directory of commands).
//
//   - fs: the section's roots (relative ones resolved against the policy
//     file's directory); a capability the section leaves out, or a policy
//     without the section, gets [AllFiles].
//   - http: the section's settings; without the section, the zero
//     HTTPScope (any host, private addresses refused, 64 MiB bodies).
//   - exec: the policy's exec configuration ([policy.Resolved.Exec]),
//     with workDir as its WorkDir.
//   - fs.maxReadBytes and fs.readSpecial: fs.read's limits (defaults
//     without them).
//   - PolicyFiles: the policy file in effect (res.Path) and the user
//     policy ($HOME/.a0/policy.json), which fs.write never replaces.
//
// Under --unsafe-allow-all (res.IsAllowAll) the scopes are dropped: every
// file, and http.get may reach private addresses. A nil res is the
// default policy.
func FromPolicy(res *policy.Resolved, workDir string) Config {
	if res == nil {
		res = &policy.Resolved{Source: policy.SourceDefault, Policy: policy.Default()}
	}
	read, write := res.FSRoots()
	if read == nil {
		read = AllFiles
	}
	if write == nil {
		write = AllFiles
	}
	cfg := Config{FS: FSScope{Read: read, Write: write}}
	if f := res.Policy; f != nil && f.FS != nil {
		cfg.FS.MaxReadBytes = f.FS.MaxReadBytes
		cfg.FS.ReadSpecial = f.FS.ReadSpecial
	}
	if res.Path != "" {
		cfg.PolicyFiles = append(cfg.PolicyFiles, res.Path)
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		cfg.PolicyFiles = append(cfg.PolicyFiles, filepath.Join(home, policy.UserDir, policy.UserFile))
	}
	if res.IsAllowAll() {
		cfg.HTTP.AllowPrivate = true
	} else if h := res.HTTPScope(); h != nil {
		cfg.HTTP = HTTPScope{Allow: h.Allow, Deny: h.Deny, AllowPrivate: h.AllowPrivate,
			MaxResponseBytes: h.MaxResponseBytes, Timeout: time.Duration(h.TimeoutMs) * time.Millisecond}
	}
	ec := res.Exec()
	if workDir != "" {
		ec.WorkDir = workDir
	}
	cfg.Exec = &ec
	cfg.Secrets = res.Secrets()
	return cfg
}

// rootsFor returns the roots of capability ("fs.read" or "fs.write") for
// a call, with the run's pinned descriptors ([pinnedRoots]).
func (c *Config) rootsFor(call *runtime.Call, capability string) rootList {
	l := rootList{paths: c.fsScope().roots(capability, call.WorkDir), set: pinnedRoots(call, c)}
	if capability == "fs.write" {
		l.protected = c.policyFiles()
	}
	return l
}

// pinnedRoots returns the run's pinned roots (a run resource, closed at
// run end), opening the fs roots and the sandbox's roots on first use:
// before the first file tool call or command of the run, so that a
// command cannot move a root before it is pinned.
func pinnedRoots(call *runtime.Call, c *Config) *rootSet {
	return call.Resource("a0.fsroots", func() runtime.Resource {
		s := newRootSet()
		fs := c.fsScope()
		s.pin(fs.roots("fs.read", call.WorkDir))
		s.pin(fs.roots("fs.write", call.WorkDir))
		if ec := c.execConfig(); ec.Sandbox != nil {
			s.pin(ec.Sandbox.Read)
			s.pin(ec.Sandbox.Write)
		}
		return s
	}).(*rootSet)
}

// policyFiles returns the files fs.write must not replace.
func (c *Config) policyFiles() []string {
	if c == nil {
		return nil
	}
	return c.PolicyFiles
}

// fsScope returns the file roots of a tool's configuration (none for a
// tool built without one).
func (c *Config) fsScope() FSScope {
	if c == nil {
		return FSScope{}
	}
	return c.FS
}

// httpScope returns the http.get scope of a tool's configuration.
func (c *Config) httpScope() HTTPScope {
	if c == nil {
		return HTTPScope{}
	}
	return c.HTTP
}

// execConfig returns the exec engine's configuration of a tool's
// configuration (the defaults when it has none).
func (c *Config) execConfig() proc.Config {
	if c == nil || c.Exec == nil {
		return proc.DefaultConfig()
	}
	return *c.Exec
}
