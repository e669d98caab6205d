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

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/runtime/proc"
)

// processStart is when the process started (proc.Started: the first
// package initialization, before the others and before main); a run's time
// budget counts from here, so timeMs bounds the whole invocation.
var processStart = proc.Started()

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
	if inv.Command != "repl" && inv.Command != "mcp" {
		// A result that could not be written (a full disk, a closed
		// stdout) is a failure, not exit 0 with the output lost.
		ew := &errWriter{w: stdout}
		defer func() {
			if ew.err != nil {
				d := &diag.Diagnostic{Code: diag.EIO, Message: "Error writing output: " + jscompat.NodeErrorText(ew.err, "write", ""),
					Hint: "The command's output could not be written to stdout: send it to a file or a pipe that takes it (the command itself ran)."}
				if inv.Flags[optJSON] || (inv.Command == "run" || inv.Command == "check") && !inv.Flags[optPretty] {
					io.WriteString(stderr, d.JSON(diag.FormRuntime)+"\n")
				} else {
					io.WriteString(stderr, d.Text("", diag.Style{})+"\n")
				}
				if code == diag.ExitOK || code == diag.ExitAssert {
					code = diag.ExitRuntime
				}
			}
		}()
		stdout = ew
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

// errWriter passes writes to w and keeps the first error; later writes
// are dropped.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}
