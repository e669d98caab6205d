//go:build linux && !amd64 && !arm64

package proc

import (
	"errors"
	"os/exec"
	"runtime"
)

// forkExec is not written for this architecture (no vfork in assembly,
// no seccomp filter): SandboxStatus reports confinement unavailable.
func forkExec(c *childSpec, path string) (int, error) {
	if c.after != nil {
		c.after()
	}
	return 0, errors.New("a0 cannot confine commands on " + runtime.GOARCH)
}

// startPlain starts an unconfined command with os/exec (Go's child
// gives RLIMIT_NOFILE back but keeps descriptors a0 inherited without
// close-on-exec; cmd/a0 marks those at start).
func startPlain(cmd *exec.Cmd) error { return cmd.Start() }

// forkThreadIDs: there are no fork threads here.
func forkThreadIDs() map[int]bool { return nil }
