package main

// MCP servers named in the policy's `mcp` section become A0 tools
// (spec/mcp.md). This file wires them into run, check, repl and mcp, and
// implements `a0 tools`, which lists them.

import (
	"io"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/hostpolicy"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
)

// newMCPManager returns a manager for the MCP servers of the command's
// policy res (hostpolicy.NewMCPManager); nil when it names none.
func newMCPManager(res *policy.Resolved, wd string) *mcptool.Manager {
	return hostpolicy.NewMCPManager(res, wd, version)
}

// mcpToolsCmd is `a0 tools`: the tools of the configured MCP servers with
// their A0 names, modes and argument schemas. Each server the policy
// grants a tool of is started, listed and stopped; the others are shown
// as not started, with the allow entry that would grant them. Text a
// server provides (names, descriptions, errors) is shown with its control
// characters escaped (termSafe).
func (c *cli) mcpToolsCmd() int {
	cp := c.loadPolicy(false)
	if cp.err != nil {
		if cp.err.Code != diag.EPolicy {
			io.WriteString(c.stderr, cp.err.JSON(diag.FormCLI)+"\n")
			return diag.ExitRuntime
		}
		io.WriteString(c.stderr, policy.TextError(cp.err))
		return policy.ExitCode
	}
	res := cp.res
	m := newMCPManager(res, cp.wd)
	asJSON := c.inv.Flags[optJSON]
	if m == nil {
		if asJSON {
			io.WriteString(c.stdout, "[]\n")
		} else {
			io.WriteString(c.stdout, "No MCP servers are configured: add an \"mcp\" section to the policy (see spec/mcp.md).\n")
		}
		return diag.ExitOK
	}
	defer m.Close()
	out, code := hostpolicy.ToolsReport(m, res, asJSON)
	io.WriteString(c.stdout, out)
	return code
}
