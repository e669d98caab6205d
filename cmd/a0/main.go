// Command a0 runs, checks and formats A0 programs.
//
// main is a thin wrapper: realMain takes the arguments and streams and
// returns the exit code, so tests run the CLI in-process. No Go panic ever
// reaches a user: it is reported as E_RUNTIME with exit code 4.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/proc"
)

// processStart is when the process started; a run's time budget counts
// from here, so timeMs bounds the whole invocation.
var processStart = time.Now()

func main() {
	closeInheritedOnExec()
	if len(os.Args) == 2 && os.Args[1] == proc.SupervisorArg {
		// The hidden supervisor mode of detached jobs (spec/exec.md §6.5).
		os.Exit(proc.Supervise())
	}
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// cli carries the streams of one invocation.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	inv            invocation
	pol            *commandPolicy // the command's policy, once resolved (loadPolicy)
}

func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			d := &diag.Diagnostic{Code: diag.ERuntime, Message: fmt.Sprintf("internal error: %v", p)}
			fmt.Fprintln(stderr, d.JSON(diag.FormCLI))
			code = diag.ExitRuntime
		}
	}()
	if len(args) > 0 && args[0] == "jobs" {
		// a0 jobs has subcommands with flags of their own (runtime/jobscli).
		c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
		return c.jobsCmd(args[1:])
	}
	inv, out, errOut, code, stop := parseArgs(args)
	if stop {
		io.WriteString(stdout, out)
		io.WriteString(stderr, errOut)
		return code
	}
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr, inv: inv}
	switch inv.Command {
	case "run":
		return c.run()
	case "check":
		return c.check()
	case "fmt":
		return c.fmt()
	case "trace":
		return c.trace()
	case "policy":
		return c.policy()
	case "tools":
		return c.mcpToolsCmd()
	case "repl":
		return c.repl()
	case "mcp":
		return c.mcp()
	case "help":
		if srv, ok := strings.CutPrefix(strings.TrimSpace(inv.Topic), "tools/"); ok && !inv.Flags[optIndex] {
			return c.helpToolsTopic(srv)
		}
		out, errOut, code := helpTopic(inv.Topic, inv.Flags[optIndex])
		io.WriteString(stdout, out)
		io.WriteString(stderr, errOut)
		return code
	}
	fmt.Fprintf(stderr, "Unknown command: %s\n", inv.Command)
	return diag.ExitUsage
}
