package main

// MCP servers named in the policy's `mcp` section become A0 tools
// (spec/mcp.md). This file wires them into run, check, repl and mcp, and
// implements `a0 tools`, which lists them.

import (
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hostpolicy"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
)

// newMCPManager returns a manager for the MCP servers of the command's
// policy res (hostpolicy.NewMCPManager); nil when it names none.
func newMCPManager(res *policy.Resolved, wd string) *mcptool.Manager {
	return hostpolicy.NewMCPManager(res, wd, version)
}

var (
	programMCPTools      = hostpolicy.ProgramMCPTools
	sessionMCPTools      = hostpolicy.SessionMCPTools
	policyBeforeStatic   = hostpolicy.PolicyBeforeStatic
	serverGrantHint      = hostpolicy.ServerGrantHint
	hintUngrantedServers = hostpolicy.HintUngrantedServers
)

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
	var b strings.Builder
	var all []value.Value
	code := diag.ExitOK
	for _, srv := range m.Servers() {
		if !res.ServerGranted(srv) {
			reason := "not started: the policy grants none of its tools"
			hint := serverGrantHint(res, srv)
			if asJSON {
				r := value.NewRecord(5)
				r.Set("server", value.Str(srv))
				r.Set("started", value.False)
				r.Set("reason", value.Str("not_granted"))
				r.Set("message", value.Str("the policy grants none of its tools"))
				r.Set("hint", value.Str(hint))
				all = append(all, value.RecordOf(r))
			} else {
				b.WriteString("server " + srv + ": " + reason + "\n    hint: " + hint + "\n\n")
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), hostpolicy.ListTimeout)
		infos, err := m.List(ctx, srv)
		cancel()
		if err != nil {
			code = diag.ExitRuntime
			if asJSON {
				r := value.NewRecord(2)
				r.Set("server", value.Str(srv))
				r.Set("error", value.Str(err.Error()))
				all = append(all, value.RecordOf(r))
			} else {
				b.WriteString("server " + srv + ": " + termSafe(err.Error(), false) + "\n\n")
			}
			continue
		}
		if !asJSON {
			b.WriteString("server " + srv + "\n")
		}
		for _, t := range infos {
			granted := res.Allowed(t.Name)
			if asJSON {
				r := value.NewRecord(8)
				r.Set("name", value.Str(t.Name))
				r.Set("server", value.Str(srv))
				r.Set("tool", value.Str(t.Remote))
				r.Set("mode", value.Str(t.Mode.String()))
				r.Set("allowed", value.BoolOf(granted))
				r.Set("description", value.Str(t.Description))
				schema := value.NullValue
				if len(t.Schema) > 0 {
					if v, err := value.ParseJSON(string(t.Schema)); err == nil {
						schema = v
					}
				}
				r.Set("inputSchema", schema)
				if len(t.Collision) > 0 {
					r.Set("collision", value.Str(strings.Join(t.Collision, ", ")))
				}
				if t.NotCallable != "" {
					r.Set("notCallable", value.Str(t.NotCallable))
				}
				all = append(all, value.RecordOf(r))
				continue
			}
			call := "do"
			if t.Mode == runtime.ModeRead {
				call = "call?"
			}
			line := "  " + call + " " + termSafe(t.Name, false)
			if t.Remote != t.Name[len(srv)+1:] {
				line += "  (server tool " + termSafe(t.Remote, false) + ")"
			}
			if !granted {
				line += "  [not allowed by the policy]"
			}
			b.WriteString(line + "\n")
			if len(t.Collision) > 0 {
				b.WriteString("    not callable: the server tools " + termSafe(strings.Join(t.Collision, ", "), false) + " map to this name\n")
			}
			if t.NotCallable != "" {
				b.WriteString("    not callable: " + termSafe(t.NotCallable, false) + "\n")
			}
			if t.Description != "" {
				b.WriteString("    " + strings.ReplaceAll(termSafe(strings.TrimSpace(t.Description), true), "\n", "\n    ") + "\n")
			}
			if len(t.Schema) > 0 {
				b.WriteString("    args: " + jsonTermSafe(compactJSON(t.Schema)) + "\n")
			}
		}
		if !asJSON {
			b.WriteString("\n")
		}
	}
	if asJSON {
		io.WriteString(c.stdout, jsonTermSafe(value.JSONIndent(value.ListOf(all)))+"\n")
	} else {
		io.WriteString(c.stdout, strings.TrimSuffix(b.String(), "\n"))
	}
	return code
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(out)
}
