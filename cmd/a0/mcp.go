package main

// a0 mcp: the Model Context Protocol server of runtime/mcpserver on stdin
// and stdout (spec/embedding.md §10). This file wires the flags, the
// policy and the signals to it.
//
// The server resolves the policy once, at start, exactly as `a0 run` does:
// the grants, the tool settings (exec configuration, fs and http scopes)
// and the policy's limits as budget ceilings are the server's, and no
// client request can change them.

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hostpolicy"
	"github.com/a0lang/a0/runtime/mcpserver"
)

// mcp runs the server until the client closes stdin or a signal arrives,
// then cancels the runs still going and waits for their cleanup.
//
// The first SIGINT, SIGTERM or SIGHUP cancels every run in flight at once
// (the session waits for its handlers when it ends, so the runs must end
// first), then the server closes and exits 0 once their commands and jobs
// are stopped. A second signal makes those stop sequences skip their grace
// period and the server exit at once, with 128 + the signal number.
func (c *cli) mcp() int {
	maxResult := mcpserver.DefaultMaxResultBytes
	if v := c.inv.Values[optMaxResultBytes]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			io.WriteString(c.stderr, "error: option '--max-result-bytes <bytes>' argument '"+v+"' is invalid. Expected a positive integer.\n")
			return diag.ExitUsage
		}
		maxResult = n
	}
	s, d := c.newMCPServer(c.inv.Flags[optUnsafeAllowAll], maxResult)
	if d != nil {
		io.WriteString(c.stderr, d.JSON(hintForm(d, diag.FormCLI))+"\n")
		if d.Code == diag.EPolicy {
			return diag.ExitCap
		}
		return diag.ExitRuntime
	}
	sig := make(chan os.Signal, 2)
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	signal.Notify(sig, sigs...)
	defer signal.Stop(sig)
	// A client that closes its end of stdout would otherwise kill the
	// server with SIGPIPE at its next answer, leaving the commands of the
	// calls still running behind. Received (not ignored, which commands
	// would inherit), the signal turns into EPIPE: the session then cancels
	// the calls in flight and the shutdown below stops their commands.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	runDone := make(chan struct{})
	go func() {
		err = s.Serve(ctx, c.stdin, c.stdout)
		close(runDone)
	}()

	var first os.Signal
	// wait waits for ch; a first signal cancels the runs and the session,
	// a second one ends the wait (false).
	wait := func(ch <-chan struct{}) bool {
		for {
			select {
			case <-ch:
				return true
			case sg := <-sig:
				if first != nil {
					s.Kill()
					return false
				}
				first = sg
				s.CancelRuns(runtime.SignalCause{Signal: signalName(sg)})
				cancel()
			}
		}
	}
	if !wait(runDone) || !wait(s.Shutdown()) {
		// The second signal: the stop sequences now kill at once; give
		// them a moment to do so, then go.
		select {
		case <-s.Shutdown():
		case <-time.After(200 * time.Millisecond):
		}
		return 128 + signalNumber(first)
	}
	if first == nil && err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		io.WriteString(c.stderr, (&diag.Diagnostic{Code: diag.EIO, Message: "MCP session failed: " + err.Error()}).JSON(diag.FormCLI)+"\n")
		return diag.ExitRuntime
	}
	return diag.ExitOK
}

// newMCPServer resolves the policy and builds the server every call
// uses: the policy's grants, tool settings and limits, and the MCP
// servers it names (stopped when the server shuts down).
func (c *cli) newMCPServer(allowAll bool, maxResult int) (*mcpserver.Server, *diag.Diagnostic) {
	grants, toolCfg, ceiling, d := c.resolveRunPolicy(allowAll)
	if d != nil {
		return nil, d
	}
	var extra []runtime.Option
	m := newMCPManager(grants, c.pol.wd)
	if m != nil {
		extra = append(extra, runtime.WithTools(hostpolicy.SessionMCPTools(m, grants)...))
	}
	env, err := newEnvWith(toolCfg, extra...)
	if err != nil {
		if m != nil {
			m.Close()
		}
		return nil, &diag.Diagnostic{Code: diag.ERuntime, Message: err.Error()}
	}
	opts := mcpserver.Options{
		Env: env, Grants: grants, Ceiling: ceiling, MaxResultBytes: maxResult, Version: version,
		ErrorHint: func(e *runtime.Error, need []string) string { return hostpolicy.GrantHint(e, grants, need) },
		CheckHint: func(ds diag.List) { hostpolicy.HintUngrantedServers(ds, grants) },
	}
	if m != nil {
		opts.OnClose = m.Close
	}
	s, err := mcpserver.New(opts)
	if err != nil {
		return nil, &diag.Diagnostic{Code: diag.ERuntime, Message: err.Error()}
	}
	return s, nil
}
