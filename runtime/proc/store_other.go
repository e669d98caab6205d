//go:build !unix

package proc

import "os"

// notPrivate: without Unix ownership and modes nothing is checked.
func notPrivate(path string, fi os.FileInfo) string { return "" }

// leaderOfJob: without /proc nothing can be proved, so reconciliation
// signals nothing.
func leaderOfJob(pid, pgid int, id string) bool { return false }

// parentHoldsPipe: without /proc an owner cannot be found this way.
func parentHoldsPipe(pid int) bool { return false }

// openLog opens a job log for reading, only a regular file.
func openLog(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, os.ErrInvalid
	}
	return os.Open(path)
}
