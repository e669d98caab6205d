package policy

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/a0lang/a0/lang/value"
)

// FS is the `fs` section: roots that scope the file tools. A nil list
// leaves that capability unscoped.
type FS struct {
	// Read roots scope fs.read, fs.list and fs.exists; Write roots scope
	// fs.write. Paths as written, relative to the policy file's directory.
	Read, Write []string
	// MaxReadBytes is `fs.maxReadBytes`, the largest file fs.read reads
	// (0: not set, the tool's default of 64 MiB). The run's memory
	// ceiling bounds it too.
	MaxReadBytes int64
	// ReadSpecial is `fs.readSpecial`: fs.read may read FIFOs, devices
	// and sockets (default false: regular files only).
	ReadSpecial bool
}

// HTTP is the `http` section that scopes http.get.
type HTTP struct {
	// Allow lists host patterns ("example.com", "*.example.com"); nil
	// allows any host not denied.
	Allow []string
	// Deny lists host patterns that are always refused.
	Deny []string
	// AllowPrivate permits loopback, link-local and private addresses
	// (default false once the section exists).
	AllowPrivate bool
	// MaxResponseBytes bounds a response body (0: the tool's default).
	MaxResponseBytes int64
	// TimeoutMs bounds a request (0: none of its own).
	TimeoutMs int64
}

// LimitFields are the keys a `limits` section may hold: the budget fields
// they cap.
var LimitFields = []string{"timeMs", "maxToolCalls", "maxBytesWritten", "maxIterations"}

// DefaultMaxReadBytes is fs.read's size limit when `fs.maxReadBytes` is
// not set (64 MiB).
const DefaultMaxReadBytes = 64 << 20

// EffectiveMaxReadBytes is `fs.maxReadBytes`, or the default when it is
// not set (before the run's memory ceiling bounds it).
func (f *FS) EffectiveMaxReadBytes() int64 {
	if f == nil || f.MaxReadBytes <= 0 {
		return DefaultMaxReadBytes
	}
	return f.MaxReadBytes
}

var fsKeys = []string{"read", "write", "maxReadBytes", "readSpecial"}
var httpKeys = []string{"allow", "deny", "allowPrivate", "maxResponseBytes", "timeoutMs"}

func (d *decoder) fs(n *jnode) *FS {
	if n.kind != jObj {
		d.wrongType("fs", n, "an object")
		return nil
	}
	f := &FS{}
	for _, m := range n.keys {
		k := "fs." + m.name
		switch m.name {
		case "read":
			f.Read = d.stringList(k, m.val, checkRoot)
		case "write":
			f.Write = d.stringList(k, m.val, checkRoot)
		case "maxReadBytes":
			f.MaxReadBytes = d.integer(k, m.val, 1, 1<<40)
		case "readSpecial":
			f.ReadSpecial = d.boolean(k, m.val)
		default:
			d.unknownKey("fs", m, fsKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	return f
}

func checkRoot(s string) string {
	if s == "" {
		return "must not be empty"
	}
	return ""
}

func checkHostPattern(s string) string {
	if s == "" || strings.ContainsAny(s, "/:@ ") || strings.Count(s, "*") > 1 || strings.Contains(s, "*") && !strings.HasPrefix(s, "*.") {
		return "must be a host name such as \"example.com\" or \"*.example.com\""
	}
	return ""
}

func (d *decoder) http(n *jnode) *HTTP {
	if n.kind != jObj {
		d.wrongType("http", n, "an object")
		return nil
	}
	h := &HTTP{}
	for _, m := range n.keys {
		k := "http." + m.name
		switch m.name {
		case "allow":
			h.Allow = d.stringList(k, m.val, checkHostPattern)
		case "deny":
			h.Deny = d.stringList(k, m.val, checkHostPattern)
		case "allowPrivate":
			h.AllowPrivate = d.boolean(k, m.val)
		case "maxResponseBytes":
			h.MaxResponseBytes = d.integer(k, m.val, 1, 1<<40)
		case "timeoutMs":
			h.TimeoutMs = d.integer(k, m.val, 1, 86_400_000)
		default:
			d.unknownKey("http", m, httpKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	return h
}

// limits validates the `limits` section: known budget fields with
// non-negative integer values.
func (d *decoder) limits(n *jnode) value.Value {
	if n.kind != jObj {
		d.wrongType("limits", n, "an object")
		return value.Value{}
	}
	for _, m := range n.keys {
		k := "limits." + m.name
		known := false
		for _, f := range LimitFields {
			known = known || f == m.name
		}
		if !known {
			d.unknownKey("limits", m, LimitFields)
			return value.Value{}
		}
		if m.val.kind != jNum || m.val.n < 0 || m.val.n != math.Trunc(m.val.n) || math.IsInf(m.val.n, 0) {
			d.wrongType(k, m.val, "a non-negative integer")
			return value.Value{}
		}
	}
	return n.toValue()
}

// FSRoots returns the absolute fs roots of the resolved policy (nil lists
// mean unscoped). Relative roots resolve against the policy file's
// directory.
func (r *Resolved) FSRoots() (read, write []string) {
	if r == nil || r.allowAll || r.Policy == nil || r.Policy.FS == nil {
		return nil, nil
	}
	base := filepath.Dir(r.Path)
	abs := func(list []string) []string {
		if list == nil {
			return nil
		}
		out := make([]string, len(list))
		for i, p := range list {
			out[i] = absUnder(base, p)
		}
		return out
	}
	return abs(r.Policy.FS.Read), abs(r.Policy.FS.Write)
}

// HTTPScope returns the `http` section of the resolved policy, or nil when
// http.get is unscoped.
func (r *Resolved) HTTPScope() *HTTP {
	if r == nil || r.allowAll || r.Policy == nil {
		return nil
	}
	return r.Policy.HTTP
}
