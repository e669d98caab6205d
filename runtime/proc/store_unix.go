//go:build unix

package proc

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// notPrivate says why fi (at path) may not be trusted as part of the job
// store — it belongs to another user, or others than its owner may write
// it — or "" when it is private to this user.
func notPrivate(path string, fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return path + " belongs to uid " + strconv.FormatUint(uint64(st.Uid), 10) +
			", not to this user (uid " + strconv.Itoa(uid) + ")"
	}
	if m := fi.Mode().Perm(); m&0o022 != 0 {
		return path + " is writable by group or others (mode " + strconv.FormatUint(uint64(m), 8) + ")"
	}
	return ""
}

// leaderOfJob reports whether pid is, provably, the leader of job id's
// process group pgid: a process of this user that leads its own group
// (getpgid(pid) == pgid == pid) and carries A0_EXEC_ID=id in its
// environment, as the engine starts every job. A record of the store can
// name any pid and group; only what passes this test is ever signalled.
func leaderOfJob(pid, pgid int, id string) bool {
	if pid <= 1 || pgid != pid || pid == os.Getpid() {
		return false
	}
	if g, err := syscall.Getpgid(pid); err != nil || g != pgid {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid)
	fi, err := os.Stat(dir)
	if err != nil {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return false
	}
	env, err := os.ReadFile(dir + "/environ")
	return err == nil && environHasID(env, map[string]bool{id: true})
}

// parentHoldsPipe reports whether pid's parent process holds an end of a
// pipe that is pid's stdin, stdout or stderr. An interpreter reads its
// jobs' output through pipes, so a leader whose parent holds them still
// has its interpreter, whatever a record says about the owner; a leader
// whose interpreter died was handed to init or a subreaper, which holds
// none of them.
func parentHoldsPipe(pid int) bool {
	ppid := parentPid(pid)
	if ppid <= 1 {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	pipes := map[string]bool{}
	for _, fd := range []string{"0", "1", "2"} {
		if t, err := os.Readlink(dir + fd); err == nil && strings.HasPrefix(t, "pipe:") {
			pipes[t] = true
		}
	}
	if len(pipes) == 0 {
		return false
	}
	pdir := "/proc/" + strconv.Itoa(ppid) + "/fd/"
	f, err := os.Open(pdir)
	if err != nil {
		return false
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(256)
		for _, n := range names {
			if t, err := os.Readlink(pdir + n); err == nil && pipes[t] {
				return true
			}
		}
		if err != nil {
			return false
		}
	}
}

// parentPid returns field 4 (ppid) of /proc/<pid>/stat, or 0.
func parentPid(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return 0
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// openLog opens a job log or record file for reading: never through a
// symbolic link, and only a regular file (a planted FIFO must not block
// the reader).
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, os.ErrInvalid
	}
	return f, nil
}
