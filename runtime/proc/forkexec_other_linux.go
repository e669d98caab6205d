//go:build linux && !amd64 && !arm64

package proc

import (
	"errors"
	"runtime"
)

// forkExec is not written for this architecture (no vfork in assembly,
// no seccomp filter): SandboxStatus reports confinement unavailable.
func forkExec(c *childSpec, path string) (int, error) {
	return 0, errors.New("a0 cannot confine commands on " + runtime.GOARCH)
}
