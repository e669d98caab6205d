//go:build unix

package mcptool

import (
	"os/exec"
	"syscall"
)

// setGroup starts the server in a new session, so in its own process
// group that stop can signal as a whole.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// signalGroup sends SIGTERM (or SIGKILL when kill) to the group pgid.
func signalGroup(pgid int, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pgid, sig)
}
