package tools

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
)

// FSScope confines the file tools to directory roots (the policy's `fs`
// section). A path is reachable when it lies beneath one of the roots of
// its capability after every symbolic link on the way is resolved; links
// are resolved by the tools, component by component, never by the kernel
// on their behalf (see spec/security.md). An empty list reaches nothing;
// [AllFiles] reaches the whole file system.
type FSScope struct {
	// Read roots scope fs.read, fs.list and fs.exists; Write roots scope
	// fs.write. Relative roots resolve against the run's working directory.
	Read, Write []string
	// MaxReadBytes bounds the file fs.read reads (0: DefaultMaxReadBytes);
	// the bound in effect is never above the run's memory ceiling.
	MaxReadBytes int64
	// ReadSpecial lets fs.read read what is not a regular file (a FIFO, a
	// device, a socket); false refuses them (reason not_regular).
	ReadSpecial bool
}

// DefaultMaxReadBytes is fs.read's size limit when none is configured.
const DefaultMaxReadBytes = policy.DefaultMaxReadBytes

// escapeError is a path that resolves outside every root of its
// capability: Path is the absolute path reached (a symbolic link's target
// joined with the rest of the path, or the path itself).
type escapeError struct{ Path string }

func (e *escapeError) Error() string { return "outside the roots: " + e.Path }

// tempPrefix starts the name of fs.write's temporary files:
// ".a0-tmp-<pid>-<random>", so a file left by a killed process is known
// by its name and its pid.
const tempPrefix = ".a0-tmp-"

// errMagicLink refuses a /proc magic link (/proc/PID/fd/N, cwd, root,
// exe, ...): its target is an open file of some process, not a path.
var errMagicLink = errors.New("magic link")

// rootList is the roots of one capability for a call: their cleaned
// absolute paths as configured, and the run's pinned descriptors of them.
type rootList struct {
	paths []string
	set   *rootSet
	// protected are the policy files fs.write must not replace (nor
	// make a folder in place of); set for fs.write only.
	protected []string
}

// roots returns the cleaned absolute roots for capability ("fs.read" or
// "fs.write").
func (s FSScope) roots(capability, workDir string) []string {
	list := s.Read
	if capability == "fs.write" {
		list = s.Write
	}
	out := make([]string, 0, len(list))
	for _, r := range list {
		if r == "" {
			continue
		}
		if !filepath.IsAbs(r) {
			r = filepath.Join(absWorkDir(workDir), r)
		}
		out = append(out, filepath.Clean(r))
	}
	return out
}

// absWorkDir is the run's working directory made absolute.
func absWorkDir(wd string) string {
	if a, err := filepath.Abs(wd); err == nil {
		return a
	}
	return wd
}

// within reports whether p is root or lies beneath it, lexically; rel is
// p relative to root ("." for root itself).
func within(root, p string) (rel string, ok bool) {
	if p == root {
		return ".", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if strings.HasPrefix(p, prefix) {
		return p[len(prefix):], true
	}
	return "", false
}

// findRoot returns the outermost root that holds the absolute, cleaned
// path p lexically, either as the root is written or as its real location
// (where the root was when the run pinned it): the root (as configured,
// the key of its pinned descriptor) and p relative to it.
func findRoot(roots rootList, p string) (base, rel string, ok bool) {
	for _, r := range roots.paths {
		if x, in := within(r, p); in && (!ok || len(r) < len(base)) {
			base, rel, ok = r, x, true
		}
	}
	if ok {
		return base, rel, true
	}
	best := 0
	for _, r := range roots.paths {
		real := roots.set.real(r)
		if real == r {
			continue
		}
		if x, in := within(real, p); in && (!ok || len(real) < best) {
			base, rel, ok, best = r, x, true, len(real)
		}
	}
	return base, rel, ok
}

// fsRefusal is the E_CAP_DENIED error of a path outside the roots of
// capability (reason outside_root) or through a /proc magic link (reason
// magic_link); reached is where the path led (a symbolic link's target),
// when it differs from path.
func fsRefusal(c *runtime.Call, capability, path, reason, reached string, roots []string) error {
	field := capability
	d := value.NewRecord(4)
	d.Set("capability", value.Str(capability))
	d.Set("tool", value.Str(c.Tool))
	d.Set("reason", value.Str(reason))
	d.Set("path", value.Str(path))
	msg := "Capability '" + capability + "' does not allow '" + path + "'"
	if reason == "magic_link" {
		msg += ": it passes through a /proc magic link (a link to another open file, such as /proc/self/fd/0), which the file tools never follow. Name the file by its own path."
		return &runtime.Error{Diagnostic: *diag.New(diag.ECapDenied, c.Span, msg, ""), Details: value.RecordOf(d)}
	}
	if reached != "" && reached != path {
		msg += " (resolves to '" + reached + "')"
	}
	if len(roots) == 0 {
		msg += ": no " + field + " roots are configured, so no file is reachable. Add a root to \"" + field + "\" in the policy's fs section (or to the host's tools.Config) to allow it."
	} else {
		msg += ": it is outside the policy's " + field + " roots (" + strings.Join(roots, ", ") + "). Add a root to \"" + field + "\" in the policy's fs section to allow it."
	}
	return &runtime.Error{Diagnostic: *diag.New(diag.ECapDenied, c.Span, msg, ""), Details: value.RecordOf(d)}
}

// asRefusal turns an escapeError or a magic link into the E_CAP_DENIED
// refusal; other errors are returned as they are.
func asRefusal(c *runtime.Call, capability, path string, roots rootList, err error) error {
	var esc *escapeError
	var pf *policyFileError
	switch {
	case errors.As(err, &esc):
		return fsRefusal(c, capability, path, "outside_root", esc.Path, roots.paths)
	case errors.Is(err, errMagicLink):
		return fsRefusal(c, capability, path, "magic_link", "", roots.paths)
	case errors.As(err, &pf):
		return policyFileRefusal(c, path, pf.Protected)
	}
	return err
}

// isRefusal reports whether err is a refusal made by asRefusal.
func isRefusal(err error) bool {
	var re *runtime.Error
	return errors.As(err, &re) && re.Code == "E_CAP_DENIED"
}
