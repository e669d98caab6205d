//go:build unix

package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

const (
	readFlags = unix.O_RDONLY | unix.O_NONBLOCK
	listFlags = unix.O_RDONLY | unix.O_DIRECTORY
)

// statBeneath reports (nil) whether p exists beneath roots, following
// symbolic links inside them.
func statBeneath(roots rootList, p string) error {
	base, rel, ok := findRoot(roots, p)
	if !ok {
		return &escapeError{Path: p}
	}
	if haveOpenat2() {
		fd, err := openat2Root(roots.set, base, rel, oPath)
		if err == nil {
			unix.Close(fd)
			return nil
		}
		if !needsWalk(err) {
			return err
		}
	}
	dirfd, name, err := walk(roots, p, false)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	var st unix.Stat_t
	return unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
}

// lookupDir reports whether p names a directory beneath roots. Only a
// refusal (a link out of the roots, a magic link) is an error: a missing
// path or one the write will fail on anyway is not a directory.
func lookupDir(roots rootList, p string) (bool, error) {
	dirfd, name, err := walk(roots, p, false)
	if err != nil {
		var esc *escapeError
		if errors.As(err, &esc) || errors.Is(err, errMagicLink) {
			return false, err
		}
		return false, nil
	}
	defer unix.Close(dirfd)
	var st unix.Stat_t
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false, nil
	}
	return st.Mode&unix.S_IFMT == unix.S_IFDIR, nil
}

// parentBeneath opens the directory that is to hold p (creating missing
// directories) and returns it with the name p gets there; a symbolic
// link at p is followed (a write goes through it), within the roots.
func parentBeneath(roots rootList, p string) (dirfd int, name string, err error) {
	base, rel, ok := findRoot(roots, p)
	if !ok {
		return -1, "", &escapeError{Path: p}
	}
	if haveOpenat2() && rel != "." {
		rootfd, err := roots.set.openDir(base, true)
		if err != nil {
			return -1, "", err
		}
		pfd, err := openat2(rootfd, filepath.Dir(rel), dirFlags)
		unix.Close(rootfd)
		if err == nil {
			name := filepath.Base(rel)
			var st unix.Stat_t
			serr := unix.Fstatat(pfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
			if serr == unix.ENOENT || serr == nil && st.Mode&unix.S_IFMT != unix.S_IFLNK {
				return pfd, name, nil
			}
			unix.Close(pfd) // a link to follow: the walk does it
		}
	}
	return walk(roots, p, true)
}

// writeBeneath writes b to p through a temporary file in p's directory and
// a rename, both relative to that directory's descriptor. The target's
// permissions are kept when it exists. A write that would replace a
// policy file (protected, or any .a0policy.json) is refused with a
// *policyFileError, decided on the folder the path resolved to.
func writeBeneath(ctx context.Context, roots rootList, protected []string, p string, b []byte) error {
	dirfd, name, err := parentBeneath(roots, p)
	if err != nil {
		var esc *escapeError
		var pf *policyFileError
		if errors.As(err, &esc) || errors.Is(err, errMagicLink) || errors.As(err, &pf) {
			return err
		}
		st, serr := os.Stat(filepath.Dir(p))
		return writeErr(err, p, serr == nil && !st.IsDir())
	}
	defer unix.Close(dirfd)
	if err := checkProtected(protected, dirfd, name); err != nil {
		return err
	}
	mode := uint32(0o666)
	var st unix.Stat_t
	exists := false
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			return toolErr(unix.EISDIR, "open", p)
		}
		mode = uint32(st.Mode) & 0o777
		// A file the user may not write is not replaced by a rename in a
		// folder the user may write: the write fails as opening it would.
		exists = st.Mode&unix.S_IFMT == unix.S_IFREG
		special := !exists && st.Mode&unix.S_IFMT != unix.S_IFLNK
		if exists || special {
			if err := unix.Faccessat(dirfd, name, unix.W_OK, unix.AT_EACCESS); err != nil {
				return toolErr(err, "open", p)
			}
		}
		if special {
			// A FIFO, device or socket is written to, never replaced by
			// a regular file (fs.write to /dev/null writes to the device).
			// A FIFO nobody reads is ENXIO, not a wait.
			return writeInPlace(ctx, dirfd, name, p, b)
		}
	}
	cleanStaleTemps(dirfd)
	tmp := tempName()
	fd, err := unix.Openat(dirfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		if exists && (err == unix.EACCES || err == unix.EPERM) {
			// A writable file in a folder the user may not write:
			// no temporary can be made there, so it is written in place.
			return writeInPlace(ctx, dirfd, name, p, b)
		}
		return toolErr(err, "open", p)
	}
	f := os.NewFile(uintptr(fd), tmp)
	ok := false
	defer func() {
		if !ok {
			f.Close()
			unix.Unlinkat(dirfd, tmp, 0)
		}
	}()
	if _, err := f.Write(b); err != nil {
		return toolErr(err, "write", "")
	}
	if err := f.Chmod(os.FileMode(mode) &^ umask()); err != nil {
		return toolErr(err, "open", p)
	}
	if err := f.Close(); err != nil {
		return toolErr(err, "write", "")
	}
	if beforeRename != nil {
		beforeRename()
	}
	if err := unix.Renameat(dirfd, tmp, dirfd, name); err != nil {
		unix.Unlinkat(dirfd, tmp, 0)
		ok = true
		return toolErr(err, "open", p)
	}
	ok = true
	return nil
}

// writeInPlace truncates and writes the existing file name of dirfd: a
// FIFO, device or socket, or a regular file in a folder that takes no
// temporary.
//
// The write ends with the call's context: a FIFO whose reader stops
// reading would otherwise hold the run past its timeMs and its cancel.
func writeInPlace(ctx context.Context, dirfd int, name, p string, b []byte) error {
	fd, err := unix.Openat(dirfd, name, unix.O_WRONLY|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return toolErr(err, "open", p)
	}
	f := os.NewFile(uintptr(fd), name)
	stop := context.AfterFunc(ctx, func() { f.SetWriteDeadline(time.Unix(1, 0)) })
	_, err = f.Write(b)
	stop()
	if err != nil {
		f.Close()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return toolErr(err, "write", "")
	}
	if err := f.Close(); err != nil {
		return toolErr(err, "write", "")
	}
	return nil
}

// beforeRename, when set (by tests), runs between writing the temporary
// file and renaming it into place.
var beforeRename func()

// tempName returns a new temporary file name of this process.
func tempName() string {
	var r [8]byte
	rand.Read(r[:])
	return tempPrefix + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(r[:])
}

// tempPid returns the pid in a temporary file name made by tempName.
func tempPid(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// cleanStaleTemps removes the temporary files that fs.write runs of
// processes no longer alive left in the directory dirfd (a0 killed by
// SIGKILL between creating and renaming one). A file whose process lives
// is left alone: it may be a write in progress.
//
// Listing a directory costs time in proportion to its size, so a process
// lists one directory at most once every staleScanEvery.
func cleanStaleTemps(dirfd int) {
	if !dueForScan(dirfd) {
		return
	}
	fd, err := unix.Openat(dirfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	d := os.NewFile(uintptr(fd), ".")
	names, _ := d.Readdirnames(-1)
	d.Close()
	self := os.Getpid()
	for _, n := range names {
		pid, ok := tempPid(n)
		if !ok || pid == self || unix.Kill(pid, 0) != unix.ESRCH {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(dirfd, n, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			unix.Unlinkat(dirfd, n, 0)
		}
	}
}

// staleScanEvery is how often one process lists a directory for stale
// temporary files.
const staleScanEvery = 10 * time.Second

// scans remembers when each directory (device and inode) was last listed;
// it is emptied when it holds too many.
var scans struct {
	sync.Mutex
	last map[[2]uint64]time.Time
}

// dueForScan reports whether the directory dirfd is to be listed now, and
// records that it is.
func dueForScan(dirfd int) bool {
	var st unix.Stat_t
	if unix.Fstat(dirfd, &st) != nil {
		return false
	}
	key := [2]uint64{uint64(st.Dev), uint64(st.Ino)}
	now := time.Now()
	scans.Lock()
	defer scans.Unlock()
	if t, ok := scans.last[key]; ok && now.Sub(t) < staleScanEvery {
		return false
	}
	if scans.last == nil || len(scans.last) >= 4096 {
		scans.last = map[[2]uint64]time.Time{}
	}
	scans.last[key] = now
	return true
}
