//go:build !unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Where there are no directory descriptors to open beneath, a path is
// checked first (symbolic links resolved by name) and then used: this is
// not free of the check-then-use race that the unix implementation closes.

const (
	readFlags = os.O_RDONLY
	listFlags = os.O_RDONLY
)

// checkBeneath returns an *escapeError when p, its symbolic links
// resolved, is outside every root.
func checkBeneath(roots rootList, p string) error {
	if _, _, ok := findRoot(roots, p); !ok {
		return &escapeError{Path: p}
	}
	real := p
	if r, err := filepath.EvalSymlinks(p); err == nil {
		real = r
	}
	if _, _, ok := findRoot(roots, real); !ok {
		return &escapeError{Path: real}
	}
	return nil
}

func openBeneath(roots rootList, p string, flags int) (*os.File, error) {
	if err := checkBeneath(roots, p); err != nil {
		return nil, err
	}
	return os.OpenFile(p, flags, 0)
}

func statBeneath(roots rootList, p string) error {
	if err := checkBeneath(roots, p); err != nil {
		return err
	}
	_, err := os.Stat(p)
	return err
}

func lookupDir(roots rootList, p string) (bool, error) {
	if err := checkBeneath(roots, p); err != nil {
		return false, err
	}
	st, err := os.Stat(p)
	return err == nil && st.IsDir(), nil
}

func writeBeneath(_ context.Context, roots rootList, protected []string, p string, b []byte) error {
	if err := checkBeneath(roots, p); err != nil {
		return err
	}
	if err := checkProtectedPath(protected, p); err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return writeErr(syscall.ENOTDIR, p, true)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return writeErr(err, p, false)
	}
	target := p
	if real, err := filepath.EvalSymlinks(p); err == nil {
		target = real
	}
	mode := os.FileMode(0o666)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), tempPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return toolErr(err, "open", p)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(b); err != nil {
		return toolErr(err, "write", "")
	}
	tmp.Chmod(mode &^ umask())
	if err := tmp.Close(); err != nil {
		return toolErr(err, "write", "")
	}
	if err := os.Rename(name, target); err != nil {
		return toolErr(err, "open", p)
	}
	ok = true
	return nil
}

// checkProtectedPath refuses a write to a policy file, by name and by
// path (symbolic links resolved).
func checkProtectedPath(protected []string, p string) error {
	target := p
	if r, err := filepath.EvalSymlinks(p); err == nil {
		target = r
	}
	if isPolicyName(filepath.Base(p)) || isPolicyName(filepath.Base(target)) {
		return &policyFileError{}
	}
	for _, f := range protected {
		real := f
		if r, err := filepath.EvalSymlinks(f); err == nil {
			real = r
		}
		if target == real || target == f {
			return &policyFileError{Protected: f}
		}
	}
	return nil
}
