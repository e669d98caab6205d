//go:build !linux

package proc

import (
	"errors"
	"os/exec"
	"runtime"
)

func sandboxStatus() SandboxSupport {
	return SandboxSupport{Missing: "confinement needs Linux (Landlock); this is " + runtime.GOOS, ProcessCap: "none"}
}

func (c *confinement) startConfined(cmd *exec.Cmd) error {
	return errors.New("confinement needs Linux")
}

func tempBaseFor(tmp string) string { return tmp }

func (r *sandboxRun) closeRules() {}

type slot struct{ tmp string }

type pidsCgroup struct{}

type sockFprog struct{}

func (r *sandboxRun) take() (*slot, error) {
	return nil, errors.New("confinement needs Linux")
}

func (s *slot) release(r *sandboxRun) {}

func (s *slot) drop() {}

func (r *sandboxRun) removeSpareCgroups() {}
