//go:build unix

package tools

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// checkProtected refuses (a *policyFileError) a write that would put a
// file at name in the folder dirfd when that name is a policy file: any
// file named .a0policy.json, or one of the protected files (compared by
// the folder's device and inode and the name, and by the file's own
// device and inode when it exists, so another link to it is refused
// too).
func checkProtected(protected []string, dirfd int, name string) error {
	if isPolicyName(name) {
		return &policyFileError{}
	}
	if len(protected) == 0 {
		return nil
	}
	var dir, target unix.Stat_t
	if err := unix.Fstat(dirfd, &dir); err != nil {
		return err
	}
	hasTarget := unix.Fstatat(dirfd, name, &target, unix.AT_SYMLINK_NOFOLLOW) == nil
	for _, p := range protected {
		if p == "" {
			continue
		}
		real := p
		if r, err := filepath.EvalSymlinks(p); err == nil {
			real = r
		} else if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			real = filepath.Join(r, filepath.Base(p))
		}
		var pd unix.Stat_t
		if filepath.Base(real) == name && unix.Stat(filepath.Dir(real), &pd) == nil && pd.Dev == dir.Dev && pd.Ino == dir.Ino {
			return &policyFileError{Protected: p}
		}
		var pf unix.Stat_t
		if hasTarget && unix.Stat(real, &pf) == nil && pf.Dev == target.Dev && pf.Ino == target.Ino {
			return &policyFileError{Protected: p}
		}
	}
	return nil
}
