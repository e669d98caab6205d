//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// On non-Unix systems the engine has no process groups yet: the leader
// alone is stopped. (Windows Job Objects are future work, EXEC.md §12.)

func setGroup(cmd *exec.Cmd) {}

func signalGroup(pid int, kill bool) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

func groupAlive(pid int) bool { return false }

func exitStatus(cmd *exec.Cmd, err error) (int, string) {
	if cmd.ProcessState == nil {
		return 1, ""
	}
	return cmd.ProcessState.ExitCode(), ""
}
