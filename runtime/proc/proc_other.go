//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// On non-Unix systems the engine has no process groups yet: the leader
// alone is stopped. (Windows Job Objects are future work, spec/exec.md §13.)

func setGroup(cmd *exec.Cmd) {}

func signalGroup(pid int, sig string) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

func groupAlive(pid int) bool { return false }

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

func exitStatus(cmd *exec.Cmd, err error) (int, string) {
	if cmd.ProcessState == nil {
		return 1, ""
	}
	return cmd.ProcessState.ExitCode(), ""
}

// No /proc: no start ticks, boot id or sweep.

func startTicks(pid int) (int64, bool) { return 0, false }

func bootID() string { return "" }

func sweep(ids map[string]bool) int { return 0 }

func hasLiveMember(pgid int) bool { return false }

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
