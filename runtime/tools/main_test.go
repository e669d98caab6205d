package tools

import (
	"os"
	"testing"

	"github.com/a0lang/a0/runtime/proc"
)

// TestMain lets the test binary serve as the supervisor of detached jobs.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == proc.SupervisorArg {
		os.Exit(proc.Supervise())
	}
	os.Exit(m.Run())
}
