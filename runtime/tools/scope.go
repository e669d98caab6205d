package tools

import (
	"path/filepath"
	"strings"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// FSScopeKey is the RunOptions.Values key of an FSScope.
const FSScopeKey = "a0.fs"

// FSScope confines the file tools to directory roots (the policy's `fs`
// section). A nil list leaves that capability unscoped.
type FSScope struct {
	// Read roots scope fs.read, fs.list and fs.exists; Write roots scope
	// fs.write. Absolute paths.
	Read, Write []string
}

// realPath resolves p (absolute, cleaned) to its real path: symlinks of
// every existing component are resolved, and a missing tail is appended
// as written (cleaned), so neither `..` nor a planted symlink can point
// outside the real location.
func realPath(p string) string {
	p = filepath.Clean(p)
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return r
			}
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		if rest == "" {
			rest = filepath.Base(cur)
		} else {
			rest = filepath.Join(filepath.Base(cur), rest)
		}
		cur = parent
	}
}

func insideRoot(real string, roots []string) bool {
	for _, r := range roots {
		rr := realPath(r)
		if real == rr {
			return true
		}
		rel, err := filepath.Rel(rr, real)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

// checkScope refuses a path outside the policy's roots for the given
// capability ("fs.read" or "fs.write") with E_CAP_DENIED.
func checkScope(c *runtime.Call, capability, path string) error {
	sc, ok := c.Value(FSScopeKey).(FSScope)
	if !ok {
		return nil
	}
	roots, field := sc.Read, "fs.read"
	if capability == "fs.write" {
		roots, field = sc.Write, "fs.write"
	}
	if roots == nil {
		return nil
	}
	real := realPath(path)
	if insideRoot(real, roots) {
		return nil
	}
	d := value.NewRecord(4)
	d.Set("capability", value.Str(capability))
	d.Set("tool", value.Str(c.Tool))
	d.Set("reason", value.Str("outside_root"))
	d.Set("path", value.Str(path))
	msg := "Capability '" + capability + "' does not allow '" + path + "'"
	if real != path {
		msg += " (resolves to '" + real + "')"
	}
	msg += ": it is outside the policy's " + field + " roots (" + strings.Join(roots, ", ") + "). Add a root to \"" + field + "\" in the policy's fs section to allow it."
	return &runtime.Error{Code: "E_CAP_DENIED", Message: msg, Span: c.Span, HasSpan: true, Details: value.RecordOf(d)}
}
