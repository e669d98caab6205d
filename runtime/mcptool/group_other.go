//go:build !unix

package mcptool

import (
	"os"
	"os/exec"
)

func setGroup(*exec.Cmd) {}

// signalGroup kills the leader (no process groups here).
func signalGroup(pid int, kill bool) {
	if p, err := os.FindProcess(pid); err == nil && kill {
		_ = p.Kill()
	}
}
