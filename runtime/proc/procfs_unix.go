//go:build unix

package proc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// startTicks returns field 22 (starttime, clock ticks since boot) of
// /proc/<pid>/stat, parsed after the last ')' since the command name may
// hold spaces and parentheses. ok is false without /proc or the process.
func startTicks(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return 0, false
	}
	f := strings.Fields(s[i+2:])
	// f[0] is field 3 (state), so field 22 is f[19].
	if len(f) < 20 {
		return 0, false
	}
	n, err := strconv.ParseInt(f[19], 10, 64)
	return n, err == nil
}

// bootID returns /proc/sys/kernel/random/boot_id ("" without /proc).
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// sweep sends SIGKILL to every process of this user whose environment (as
// started) holds A0_EXEC_ID=<id> for an id in ids, and returns how many it
// signalled. Linux only (/proc); elsewhere it finds nothing.
func sweep(ids map[string]bool) int {
	if len(ids) == 0 {
		return 0
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	self, uid := os.Getpid(), uint32(os.Getuid())
	var killed []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || pid <= 1 {
			continue
		}
		dir := "/proc/" + e.Name()
		if st, err := os.Stat(dir); err != nil {
			continue
		} else if sys, ok := st.Sys().(*syscall.Stat_t); !ok || sys.Uid != uid {
			continue
		}
		env, err := os.ReadFile(dir + "/environ")
		if err != nil || len(env) == 0 {
			continue
		}
		if !environHasID(env, ids) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	// Let the kills land (briefly), so a later sweep does not count the
	// same processes again.
	deadline := time.Now().Add(500 * time.Millisecond)
	for _, pid := range killed {
		for !gone(pid) && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
	}
	return len(killed)
}

// gone reports whether pid no longer runs (absent or a zombie).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

var execIDKey = []byte("A0_EXEC_ID=")

func environHasID(env []byte, ids map[string]bool) bool {
	for len(env) > 0 {
		entry := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			entry, env = env[:i], env[i+1:]
		} else {
			env = nil
		}
		if bytes.HasPrefix(entry, execIDKey) && ids[string(entry[len(execIDKey):])] {
			return true
		}
	}
	return false
}
