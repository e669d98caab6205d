package runtime

import (
	"syscall"

	"github.com/a0lang/a0/lang/diag"
)

// NodeErrorText renders a file-system error the way Node.js does, e.g.
// "ENOENT: no such file or directory, open 'missing.a0'" (see
// diag.NodeErrorText, which it calls).
func NodeErrorText(err error, op, path string) string { return diag.NodeErrorText(err, op, path) }

// IsErrno reports whether err wraps the given errno.
func IsErrno(err error, errno syscall.Errno) bool { return diag.IsErrno(err, errno) }
