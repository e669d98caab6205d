package policy

import (
	"path/filepath"
	"strings"

	"github.com/a0lang/a0/lang/diag"
)

// The policy file is out of a confined command's reach: a policy whose
// exec.sandbox lets commands write where the policy file itself lies is
// refused when it is loaded, so a command can never rewrite the policy
// that confines it (and drop its sandbox for the next run).

// CheckReach refuses (E_POLICY) a policy whose confined commands or
// confined MCP servers could change the policy file: one of the write
// roots of exec.sandbox or of a server's own `sandbox` (the fs.write roots
// and the sandbox's `write`, what the sandbox makes writable) holds the
// policy file, by its path or by its real path. A policy without a
// sandbox, the default policy and --unsafe-allow-all pass.
func (r *Resolved) CheckReach() error {
	if r == nil || r.Path == "" || r.allowAll || r.Policy == nil {
		return nil
	}
	type confined struct {
		key    string
		writes []string // the fs.write roots and the sandbox's write list
	}
	var sandboxes []confined
	if r.Policy.Exec != nil && r.Policy.Exec.Sandbox != nil {
		if sb := r.Exec().Sandbox; sb != nil {
			sandboxes = append(sandboxes, confined{"exec.sandbox", sb.Write})
		}
	}
	for _, srv := range r.MCPServers() {
		if sb := srv.SandboxConfig; sb != nil {
			sandboxes = append(sandboxes, confined{"mcp." + srv.Name + ".sandbox", sb.Write})
		}
	}
	if len(sandboxes) == 0 {
		return nil
	}
	file := filepath.Clean(r.Path)
	if !filepath.IsAbs(file) {
		if a, err := filepath.Abs(file); err == nil {
			file = a
		}
	}
	files := []string{file}
	if real, err := filepath.EvalSymlinks(file); err == nil && real != file {
		files = append(files, real)
	} else if err != nil {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(file)); err == nil && dir != filepath.Dir(file) {
			files = append(files, filepath.Join(dir, filepath.Base(file)))
		}
	}
	for _, c := range sandboxes {
		for _, root := range c.writes {
			roots := []string{filepath.Clean(root)}
			if real, err := filepath.EvalSymlinks(root); err == nil && real != roots[0] {
				roots = append(roots, real)
			}
			for _, rt := range roots {
				for _, f := range files {
					if beneath(rt, f) {
						return &diag.Diagnostic{Code: diag.EPolicy,
							Message: "Invalid policy file '" + r.Path + "': the write root '" + root + "' of " + c.key + " holds the policy file itself ('" + f +
								"'), so a confined process could rewrite the policy that confines it. " + reachHint,
							Hint: reachHint}
					}
				}
			}
		}
	}
	return nil
}

// reachHint is the fix of a policy its confined commands could change.
const reachHint = "Keep the policy file outside the sandbox's write roots (fs.write and the sandbox's write list), for example in a folder of its own named with --policy, or narrow the write roots so that they do not contain it."

// CheckedReach returns r, or the refusal of [Resolved.CheckReach]: the
// form in which policy loaders call it.
func (r *Resolved) CheckedReach() (*Resolved, error) {
	if err := r.CheckReach(); err != nil {
		return nil, err
	}
	return r, nil
}

// beneath reports whether p is root or lies below it (both absolute and
// clean).
func beneath(root, p string) bool {
	if p == root || root == "/" {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}
