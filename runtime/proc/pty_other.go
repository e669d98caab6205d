//go:build !unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
)

// Pseudo-terminals are Unix only.

func openTerminal(s *Spec, raw bool) (*pipes, *os.File, error) {
	return nil, nil, errors.New("pty: commands with a terminal need a Unix system; this is " + runtime.GOOS)
}

func setCtty(cmd *exec.Cmd) {}

func veof(f *os.File) byte { return 4 }

func ttyHeld(m *os.File) bool { return true }

func sessionGroups(sid int) ([]int, bool) { return nil, false }
