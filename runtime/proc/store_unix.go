//go:build unix

package proc

import (
	"os"
	"strconv"
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
