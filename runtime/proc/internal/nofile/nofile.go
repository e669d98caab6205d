// Package nofile records the RLIMIT_NOFILE limits the process was started
// with, before package syscall raises the soft limit (Go does so at start
// and gives children started by os/exec the original back).
//
// It imports nothing, so by the language's rule for initialization order
// (packages sorted by import path, each initialized once its imports are)
// it is initialized before package syscall: "github.com/…" sorts before
// "syscall". A test of runtime/proc checks it.
package nofile

// At is RLIMIT_NOFILE (soft, hard) at the start of the process; Known
// reports whether it could be read (Linux on amd64 and arm64).
var (
	At    [2]uint64
	Known bool
)
