package tools

import (
	"sync"

	"golang.org/x/sys/unix"
)

// oPath opens a directory for name resolution only (no read permission
// needed).
const oPath = unix.O_PATH

// haveOpenat2 reports whether the kernel has openat2(2) with the
// resolution flags the file tools use (Linux 5.6); found out once.
// Without it (ENOSYS, or a seccomp filter's EPERM) every path takes the
// walk, which is as strict and only slower.
var haveOpenat2 = sync.OnceValue(func() bool {
	root, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(root)
	fd, err := openat2(root, ".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
})

// openat2 opens path beneath dirfd without leaving it and without
// following magic links.
func openat2(dirfd int, path string, flags int) (int, error) {
	for {
		fd, err := unix.Openat2(dirfd, path, &unix.OpenHow{
			Flags:   uint64(flags),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err == unix.EINTR {
			continue
		}
		return fd, err
	}
}

// isMagicLink reports whether a symbolic link with text target, found in
// the directory dirfd, is a procfs magic link. procfs's ordinary links
// (self, thread-self, mounts, net) have relative paths as text; its magic
// links have an absolute path or a "type:[inode]" description.
func isMagicLink(dirfd int, target string) bool {
	if len(target) > 0 && target[0] != '/' && !containsColon(target) {
		return false
	}
	var fs unix.Statfs_t
	if err := unix.Fstatfs(dirfd, &fs); err != nil {
		return true // cannot tell: refuse
	}
	return fs.Type == unix.PROC_SUPER_MAGIC
}

func containsColon(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return true
		}
	}
	return false
}
