//go:build unix

package tools

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Opening files beneath a root.
//
// Every file tool opens what it touches relative to a descriptor of the
// root directory, so that a symbolic link (or a /proc "magic link" such as
// /proc/self/fd/0) planted inside a root cannot lead the tool outside it,
// and nothing can be swapped between a check and the use (the opened
// descriptor is what is read, listed or written). On Linux openat2(2)
// with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS does it in one call; where
// that is missing, and whenever it refuses a path (an absolute symbolic
// link, a `..` above the root, a magic link), walk below resolves the
// path one component at a time with O_NOFOLLOW, reading each symbolic link
// and following its text itself. A link whose text leads outside every
// root is refused; one whose text stays inside a root (absolute or
// relative) is followed.

// maxLinks bounds the symbolic links one resolution follows (Linux's
// limit).
const maxLinks = 40

// dirFlags open a directory only to resolve names relative to it.
const dirFlags = oPath | unix.O_DIRECTORY | unix.O_CLOEXEC

// splitPath splits a relative path into its components.
func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// walk resolves the absolute, cleaned path p beneath roots and returns a
// descriptor of the directory that holds its last component, and that
// component's name ("." when p resolves to a directory reached by `..`
// or to a root itself). Symbolic links, the last component's included,
// are followed by reading them; the returned name is not a link (unless
// one was put there since). A missing last component is not an error.
// With create, missing directories on the way are created. A path that
// leads outside every root is an *escapeError. The caller closes dirfd.
func walk(roots rootList, p string, create bool) (dirfd int, name string, err error) {
	links := 0
	for {
		base, rel, ok := findRoot(roots, p)
		if !ok {
			return -1, "", &escapeError{Path: p}
		}
		rootfd, err := roots.set.openDir(base, create)
		if err == unix.ENOTDIR && rel == "." {
			return roots.set.openFileRoot(base)
		}
		if err != nil {
			return -1, "", err
		}
		fd, name, next, err := walkFrom(rootfd, roots.set.real(base), splitPath(rel), create, &links, roots.protected)
		if err != nil || next == "" {
			return fd, name, err
		}
		p = next // an absolute link, or `..` above the root: start again
	}
}

// walkFrom walks comps beneath the root directory rootfd (whose real
// location, when it was pinned, is real). It returns the directory and
// name of the last component, or, when the walk leaves the root's tree,
// the absolute path to resolve instead (next). It takes ownership of
// rootfd. A folder it is to create where a policy file belongs (any
// .a0policy.json, or one of protected) is refused: a folder there would
// stand in for the policy.
func walkFrom(rootfd int, real string, comps []string, create bool, links *int, protected []string) (dirfd int, name, next string, err error) {
	stack := []int{rootfd}
	defer func() {
		for i, fd := range stack {
			if i == len(stack)-1 && err == nil && next == "" {
				continue // the returned directory
			}
			unix.Close(fd)
		}
	}()
	retries := 0
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		top := stack[len(stack)-1]
		if c == "." || c == "" {
			continue
		}
		if c == ".." {
			if len(stack) == 1 {
				// Above the root: the rest is resolved from the root's
				// real parent, against every root.
				return -1, "", filepath.Join(append([]string{filepath.Dir(real)}, comps...)...), nil
			}
			unix.Close(top)
			stack = stack[:len(stack)-1]
			continue
		}
		var st unix.Stat_t
		err := unix.Fstatat(top, c, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.ENOENT {
			if len(comps) == 0 {
				return top, c, "", nil
			}
			if !create {
				return -1, "", "", err
			}
			if err := checkProtected(protected, top, c); err != nil {
				return -1, "", "", err
			}
			if err := unix.Mkdirat(top, c, 0o777); err != nil && err != unix.EEXIST {
				return -1, "", "", err
			}
			if retries++; retries > maxLinks {
				return -1, "", "", unix.ELOOP
			}
			comps = append([]string{c}, comps...)
			continue
		}
		if err != nil {
			return -1, "", "", err
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			if *links++; *links > maxLinks {
				return -1, "", "", unix.ELOOP
			}
			target, err := readlinkat(top, c)
			if err != nil {
				return -1, "", "", err
			}
			if isMagicLink(top, target) {
				return -1, "", "", errMagicLink
			}
			if filepath.IsAbs(target) {
				return -1, "", filepath.Join(append([]string{target}, comps...)...), nil
			}
			comps = append(strings.Split(target, "/"), comps...)
			continue
		}
		if len(comps) == 0 {
			return top, c, "", nil
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return -1, "", "", unix.ENOTDIR
		}
		fd, err := unix.Openat(top, c, dirFlags|unix.O_NOFOLLOW, 0)
		if err == unix.ELOOP || err == unix.ENOTDIR || err == unix.ENOENT {
			// Replaced since the stat: look again.
			if retries++; retries > maxLinks {
				return -1, "", "", err
			}
			comps = append([]string{c}, comps...)
			continue
		}
		if err != nil {
			return -1, "", "", err
		}
		stack = append(stack, fd)
	}
	return stack[len(stack)-1], ".", "", nil
}

// readlinkat returns the text of the symbolic link name in dirfd.
func readlinkat(dirfd int, name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(dirfd, name, buf)
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// openBeneath opens the absolute, cleaned path p beneath roots with flags
// (O_NOFOLLOW and O_CLOEXEC are added). A path outside every root, or one
// that a symbolic link leads outside, is an *escapeError.
func openBeneath(roots rootList, p string, flags int) (*os.File, error) {
	base, rel, ok := findRoot(roots, p)
	if !ok {
		return nil, &escapeError{Path: p}
	}
	if haveOpenat2() {
		fd, err := openat2Root(roots.set, base, rel, flags)
		if err == nil {
			return os.NewFile(uintptr(fd), p), nil
		}
		if !needsWalk(err) {
			return nil, err
		}
	}
	dirfd, name, err := walk(roots, p, false)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dirfd)
	fd, err := unix.Openat(dirfd, name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), p), nil
}

// openat2Root opens rel beneath the pinned root base with openat2. A
// root that is a file is left to the walk (EXDEV).
func openat2Root(set *rootSet, base, rel string, flags int) (int, error) {
	rootfd, err := set.openDir(base, false)
	if err == unix.ENOTDIR && rel == "." {
		return -1, unix.EXDEV
	}
	if err != nil {
		return -1, err
	}
	defer unix.Close(rootfd)
	return openat2(rootfd, rel, flags|unix.O_CLOEXEC)
}

// needsWalk reports whether openat2 refused a path for a reason the walk
// decides: an absolute symbolic link or a `..` leaving the root (EXDEV), a
// magic link or too many links (ELOOP), a concurrent rename (EAGAIN).
func needsWalk(err error) bool {
	return err == unix.EXDEV || err == unix.ELOOP || err == unix.EAGAIN
}
