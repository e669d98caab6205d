package main

// MCP servers named in the policy's `mcp` section become A0 tools
// (spec/mcp.md). This file wires them into run, check, repl and mcp, and
// implements `a0 tools`, which lists them.

import (
	"io"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/hostpolicy"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/termout"
)

// newMCPManager returns a manager for the MCP servers of the command's
// policy res (hostpolicy.NewMCPManager); nil when it names none.
func newMCPManager(res *policy.Resolved, wd string) *mcptool.Manager {
	return hostpolicy.NewMCPManager(res, wd, version)
}

// mcpToolsCmd is `a0 tools [SERVER[.TOOL]] [--search TEXT]`: the tools of
// the configured MCP servers as A0 signatures (hostpolicy.ToolsView). Each server the policy
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
	q := hostpolicy.ToolsQuery{Target: c.inv.File, Search: c.inv.Values[optSearch], JSON: c.inv.Flags[optJSON]}
	asJSON := q.JSON
	if _, given := c.inv.Values[optSearch]; given && q.Search == "" {
		io.WriteString(c.stderr, "error: option '--search <text>' needs a word to search for\n")
		return diag.ExitUsage
	}
	if m == nil && q.Target != "" {
		io.WriteString(c.stderr, noServers(res, strings.SplitN(q.Target, ".", 2)[0]))
		return diag.ExitUsage
	}
	if m == nil {
		if asJSON {
			io.WriteString(c.stdout, "[]\n")
		} else {
			io.WriteString(c.stdout, noServers(res, ""))
		}
		return diag.ExitOK
	}
	defer m.Close()
	out, errOut, code := hostpolicy.ToolsView(m, res, q)
	io.WriteString(c.stdout, out)
	io.WriteString(c.stderr, errOut)
	return code
}

// helpToolsTopic is `a0 help tools/SERVER`: what `a0 tools SERVER`
// prints, under the same policy rules (only a server the policy grants a
// tool of is started).
func (c *cli) helpToolsTopic(server string) int {
	c.inv.File = server
	return c.mcpToolsCmd()
}

// noServers says that the policy in effect configures no MCP server (none
// named server, when one was asked for) and where to add one: its file,
// or a new one when the built-in default is in effect.
func noServers(res *policy.Resolved, server string) string {
	where := "the policy in effect, " + termout.Safe(res.Path, false)
	if res.Path == "" {
		where = "a policy file (none is in effect: write ./.a0policy.json, or name one with --policy FILE)"
	}
	if server != "" {
		return "error: no MCP server named '" + termout.Safe(server, false) + "': no MCP server is configured; add an \"mcp\" section to " + where + " (a0 help caps shows one)\n"
	}
	return "No MCP servers are configured: add an \"mcp\" section to " + where + " (a0 help caps shows one).\n"
}
