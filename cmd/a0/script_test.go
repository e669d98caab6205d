package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/a0lang/a0/runtime/proc"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/a0lang/a0/runtime/mcptool/mcptest"
)

// TestMain lets testscript run the a0 command in-process.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == proc.SupervisorArg {
		os.Exit(proc.Supervise()) // a detached job's supervisor
	}
	testscript.Main(cleanupM{m}, map[string]func(){
		"a0":            func() { os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"mcptestserver": mcptest.Main, // an MCP server for mcp_client.txtar
		"hostilemcp":    hostileMCP,   // an MCP server whose text steers terminals (trust_test.go)
	})
}

// cleanupM runs the tests, then removes what tests built for the whole
// process (builtA0's binary).
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	code := c.m.Run()
	if builtBin.path != "" {
		os.RemoveAll(filepath.Dir(builtBin.path))
	}
	return code
}

// TestScripts runs the end-to-end CLI scripts in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		Cmds: scriptCmds,
		Condition: func(cond string) (bool, error) {
			if cond == "landlock" {
				return proc.SandboxStatus().Available, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}
