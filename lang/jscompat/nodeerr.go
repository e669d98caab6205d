package jscompat

import (
	"errors"
	"io/fs"
	"syscall"
)

var errnoText = map[syscall.Errno][2]string{
	syscall.ENOENT:       {"ENOENT", "no such file or directory"},
	syscall.EISDIR:       {"EISDIR", "illegal operation on a directory"},
	syscall.ENOTDIR:      {"ENOTDIR", "not a directory"},
	syscall.EACCES:       {"EACCES", "permission denied"},
	syscall.EPERM:        {"EPERM", "operation not permitted"},
	syscall.ENOSPC:       {"ENOSPC", "no space left on device"},
	syscall.EEXIST:       {"EEXIST", "file already exists"},
	syscall.EROFS:        {"EROFS", "read-only file system"},
	syscall.EMFILE:       {"EMFILE", "too many open files"},
	syscall.ELOOP:        {"ELOOP", "too many symbolic links encountered"},
	syscall.ENAMETOOLONG: {"ENAMETOOLONG", "name too long"},
	syscall.EBUSY:        {"EBUSY", "resource busy or locked"},
	syscall.EINVAL:       {"EINVAL", "invalid argument"},
	syscall.EIO:          {"EIO", "i/o error"},
	syscall.ENOTEMPTY:    {"ENOTEMPTY", "directory not empty"},
	syscall.EXDEV:        {"EXDEV", "cross-device link not permitted"},
	syscall.ENXIO:        {"ENXIO", "no such device or address"},
	syscall.ENODEV:       {"ENODEV", "no such device"},
	syscall.EFBIG:        {"EFBIG", "file too large"},
	syscall.ETXTBSY:      {"ETXTBSY", "text file is busy"},
	syscall.EAGAIN:       {"EAGAIN", "resource temporarily unavailable"},
	syscall.ENOMEM:       {"ENOMEM", "not enough memory"},
	syscall.EBADF:        {"EBADF", "bad file descriptor"},
	syscall.EPIPE:        {"EPIPE", "broken pipe"},
	syscall.ESPIPE:       {"ESPIPE", "invalid seek"},
	syscall.E2BIG:        {"E2BIG", "argument list too long"},
	syscall.ENOEXEC:      {"ENOEXEC", "exec format error"},
}

// NodeErrorText renders a file-system error the way Node.js does, e.g.
// "ENOENT: no such file or directory, open 'missing.a0'". op is the system
// call name shown (open, read, write, scandir, mkdir); path is shown as
// given, and omitted when empty.
func NodeErrorText(err error, op, path string) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			errno = syscall.ENOENT
		case errors.Is(err, fs.ErrPermission):
			errno = syscall.EACCES
		default:
			return err.Error()
		}
	}
	t, ok := errnoText[errno]
	if !ok {
		// An errno without a known name: Node's code for those, with the
		// system's text.
		t = [2]string{"UNKNOWN", errno.Error()}
	}
	s := t[0] + ": " + t[1] + ", " + op
	if path != "" {
		s += " '" + path + "'"
	}
	return s
}

// IsErrno reports whether err wraps the given errno.
func IsErrno(err error, errno syscall.Errno) bool {
	var e syscall.Errno
	return errors.As(err, &e) && e == errno
}
