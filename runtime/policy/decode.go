package policy

import (
	"bytes"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// Parse validates the content of a policy file; path is used in errors.
func Parse(path string, data []byte) (*Policy, error) {
	src := string(data)
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
		return nil, newError(path, src, "", 0, "not valid JSON: the file starts with a UTF-8 byte order mark (U+FEFF); save it without one")
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, size := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			off += size
		}
		return nil, newError(path, src, "", off, "the file is not valid UTF-8")
	}
	root, serr := parseJSON(src)
	if serr != nil {
		if serr.dup {
			return nil, newError(path, src, "", serr.off, serr.msg)
		}
		e := newError(path, src, "", serr.off, "not valid JSON: "+serr.msg)
		e.Hint = jsonHint(src, serr.off, serr.msg)
		return nil, e
	}
	d := &decoder{path: path, src: src}
	p := d.policy(root)
	if d.err != nil {
		return nil, d.err
	}
	return p, nil
}

type decoder struct {
	path string
	src  string
	err  *Error
}

func (d *decoder) fail(key string, off int, problem string) {
	if d.err == nil {
		d.err = newError(d.path, d.src, key, off, problem)
	}
}

func (d *decoder) wrongType(key string, n *jnode, want string) {
	d.fail(key, n.off, "must be "+want+", found "+n.kind.String())
}

// unknownKey reports a key that is not part of a section.
func (d *decoder) unknownKey(section string, m jmember, valid []string) {
	key := m.name
	where := "top-level"
	if section != "" {
		key = section + "." + m.name
		where = section
	}
	problem := "is not a known key"
	if s := diag.Suggest(m.name, valid); s != "" {
		problem += " (did you mean " + diagQuote(s) + "?)"
	}
	problem += "; valid " + where + " keys: " + strings.Join(valid, ", ")
	d.fail(key, m.off, problem)
}

var topKeys = []string{"version", "allow", "deny", "limits", "exec", "fs", "http", "mcp", "secrets"}

func (d *decoder) policy(root *jnode) *Policy {
	if root.kind != jObj {
		d.fail("", root.off, "the top-level value must be an object, found "+root.kind.String())
		return nil
	}
	p := Default()
	for _, m := range root.keys {
		switch m.name {
		case "version":
			if m.val.kind != jNum || math.IsInf(m.val.n, 0) {
				d.wrongType("version", m.val, "a finite number")
				return nil
			}
			p.Version = m.val.n
		case "allow":
			p.Allow = d.stringList("allow", m.val, nil)
		case "deny":
			p.Deny = d.stringList("deny", m.val, nil)
		case "limits":
			p.Limits = d.limits(m.val)
		case "exec":
			p.Exec = d.exec(m.val)
		case "fs":
			p.FS = d.fs(m.val)
		case "http":
			p.HTTP = d.http(m.val)
		case "mcp":
			p.MCP = d.mcp(m.val)
		case "secrets":
			p.Secrets = d.secrets(m.val)
		default:
			d.unknownKey("", m, topKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	d.checkSecretUses(p)
	if d.err != nil {
		return nil
	}
	return p
}

// stringList decodes an array of strings; check, when not nil, validates
// each element and returns a problem ("" when fine).
func (d *decoder) stringList(key string, n *jnode, check func(string) string) []string {
	if n.kind != jArr {
		d.wrongType(key, n, "an array of strings")
		return nil
	}
	out := make([]string, 0, len(n.items))
	for i, it := range n.items {
		ek := key + "[" + strconv.Itoa(i) + "]"
		if it.kind != jStr {
			d.wrongType(ek, it, "a string")
			return nil
		}
		if check != nil {
			if problem := check(it.s); problem != "" {
				d.fail(ek, it.off, problem)
				return nil
			}
		}
		out = append(out, it.s)
	}
	return out
}

// integer decodes an integer in [lo, hi].
func (d *decoder) integer(key string, n *jnode, lo, hi int64) int64 {
	if n.kind != jNum {
		d.wrongType(key, n, "an integer")
		return 0
	}
	if n.n != math.Trunc(n.n) || math.IsInf(n.n, 0) {
		d.fail(key, n.off, "must be an integer, found "+value.FormatNumber(n.n))
		return 0
	}
	if n.n < float64(lo) || n.n > float64(hi) {
		d.fail(key, n.off, "must be an integer from "+strconv.FormatInt(lo, 10)+" to "+strconv.FormatInt(hi, 10)+", found "+value.FormatNumber(n.n))
		return 0
	}
	return int64(n.n)
}

func (d *decoder) boolean(key string, n *jnode) bool {
	if n.kind != jBool {
		d.wrongType(key, n, "a boolean")
		return false
	}
	return n.b
}

func (d *decoder) nonEmptyString(key string, n *jnode) string {
	if n.kind != jStr {
		d.wrongType(key, n, "a string")
		return ""
	}
	if n.s == "" {
		d.fail(key, n.off, "must not be empty")
	}
	return n.s
}

// checkExecutable validates an `exec.allow` / `exec.deny` / `exec.shells`
// entry: an absolute path or a bare name.
func checkExecutable(s string) string {
	switch {
	case s == "":
		return "must not be empty"
	case strings.ContainsRune(s, 0):
		return "must not contain a NUL character"
	case filepath.IsAbs(s):
		return ""
	case strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator):
		return "must be an absolute path or a bare name without a path separator, found " + diagQuote(s)
	}
	return ""
}

func checkGlob(s string) string {
	if s == "" {
		return "must not be empty"
	}
	return ""
}

const (
	maxSafeInt = 1<<53 - 1
	dayMs      = 86_400_000
)

var execKeys = []string{
	"allow", "deny", "allowShell", "shells", "root", "envMode", "envAllow", "envDeny", "mask",
	"defaultTimeoutMs", "maxTimeoutMs", "maxJobMs", "maxWaitMs", "graceMs", "drainMs",
	"maxOutputBytes", "maxStdinBytes", "maxJobs", "maxJobsPerRun", "sweepEscaped",
	"jobStore", "allowCrossRun", "allowDetach", "envAllowCode", "sandbox",
}

var jobStoreKeys = []string{"dir", "retainDays", "maxBytes", "maxLogBytes"}

func (d *decoder) exec(n *jnode) *Exec {
	if n.kind != jObj {
		d.wrongType("exec", n, "an object")
		return nil
	}
	e := &Exec{}
	ptr := func(v int64) *int64 { return &v }
	bptr := func(v bool) *bool { return &v }
	for _, m := range n.keys {
		k := "exec." + m.name
		v := m.val
		switch m.name {
		case "allow":
			e.Allow = d.stringList(k, v, checkExecutable)
		case "deny":
			e.Deny = d.stringList(k, v, checkExecutable)
		case "allowShell":
			e.AllowShell = bptr(d.boolean(k, v))
		case "shells":
			e.Shells = d.stringList(k, v, checkExecutable)
		case "root":
			s := d.nonEmptyString(k, v)
			e.Root = &s
		case "envMode":
			if v.kind != jStr {
				d.wrongType(k, v, `"inherit", "clean" or "replace"`)
				break
			}
			switch v.s {
			case EnvInherit, EnvClean, EnvReplace:
				e.EnvMode = v.s
			default:
				d.fail(k, v.off, `must be "inherit", "clean" or "replace", found `+diagQuote(v.s))
			}
		case "envAllow":
			e.EnvAllow = d.stringList(k, v, checkGlob)
		case "envDeny":
			e.EnvDeny = d.stringList(k, v, checkGlob)
		case "mask":
			e.Mask = d.stringList(k, v, checkGlob)
		case "defaultTimeoutMs":
			e.DefaultTimeoutMs = ptr(d.integer(k, v, 0, dayMs))
		case "maxTimeoutMs":
			e.MaxTimeoutMs = ptr(d.integer(k, v, 1, dayMs))
		case "maxJobMs":
			e.MaxJobMs = ptr(d.integer(k, v, 0, maxSafeInt))
		case "maxWaitMs":
			e.MaxWaitMs = ptr(d.integer(k, v, 0, dayMs))
		case "graceMs":
			e.GraceMs = ptr(d.integer(k, v, 0, 60_000))
		case "drainMs":
			e.DrainMs = ptr(d.integer(k, v, 100, 30_000))
		case "maxOutputBytes":
			e.MaxOutputBytes = ptr(d.integer(k, v, 0, 268_435_456))
		case "maxStdinBytes":
			e.MaxStdinBytes = ptr(d.integer(k, v, 0, 67_108_864))
		case "maxJobs":
			e.MaxJobs = ptr(d.integer(k, v, 1, 64))
		case "maxJobsPerRun":
			e.MaxJobsPerRun = ptr(d.integer(k, v, 1, 1024))
		case "sweepEscaped":
			e.SweepEscaped = bptr(d.boolean(k, v))
		case "jobStore":
			e.JobStore = d.jobStore(v)
		case "allowCrossRun":
			e.AllowCrossRun = bptr(d.boolean(k, v))
		case "allowDetach":
			e.AllowDetach = bptr(d.boolean(k, v))
		case "envAllowCode":
			e.EnvAllowCode = d.stringList(k, v, checkEnvName)
		case "sandbox":
			e.Sandbox = d.sandbox(v)
		default:
			d.unknownKey("exec", m, execKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	return e
}

func (d *decoder) jobStore(n *jnode) *JobStore {
	if n.kind != jObj {
		d.wrongType("exec.jobStore", n, "an object")
		return nil
	}
	js := &JobStore{}
	ptr := func(v int64) *int64 { return &v }
	for _, m := range n.keys {
		k := "exec.jobStore." + m.name
		switch m.name {
		case "dir":
			s := d.nonEmptyString(k, m.val)
			js.Dir = &s
		case "retainDays":
			js.RetainDays = ptr(d.integer(k, m.val, 0, 3650))
		case "maxBytes":
			js.MaxBytes = ptr(d.integer(k, m.val, 0, maxSafeInt))
		case "maxLogBytes":
			js.MaxLogBytes = ptr(d.integer(k, m.val, 0, maxSafeInt))
		default:
			d.unknownKey("exec.jobStore", m, jobStoreKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	return js
}

// jsonHint names the fix for the JSON mistakes of hand-written policy
// files: a comma before a closing bracket, single quotes, a bare word
// where a string belongs, a comment. "" for the others.
func jsonHint(src string, off int, msg string) string {
	prev := strings.TrimRight(src[:min(off, len(src))], " \t\r\n")
	switch {
	case (strings.Contains(msg, "'}'") || strings.Contains(msg, "']'")) && strings.HasSuffix(prev, ","):
		return "JSON allows no comma before a closing } or ]: remove the last ','."
	case strings.Contains(msg, `'\''`):
		return `JSON strings and keys use double quotes: write "allow", not 'allow'.`
	case strings.Contains(msg, "'/'") || strings.Contains(msg, "'#'"):
		return "JSON has no comments: remove them."
	case strings.HasPrefix(msg, "unexpected token "):
		word := strings.TrimPrefix(msg, "unexpected token ")
		return "Strings in JSON are quoted: write " + word + " with double quotes."
	}
	return ""
}
