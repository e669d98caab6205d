package main

// MCP servers named in the policy's `mcp` section become A0 tools
// (spec/mcp.md). This file wires them into run, check, repl and mcp, and
// implements `a0 tools`, which lists them.

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/tools"
)

// mcpListTimeout bounds listing one server for `a0 check` and `a0 tools`.
const mcpListTimeout = 10 * time.Second

// newMCPManager returns a manager for the MCP servers of the policy that
// applies in the working directory, with the policy; the manager is nil
// when the policy has no servers or does not load (the caller's own policy
// resolution reports that).
func newMCPManager(allowAll bool) (*mcptool.Manager, *policy.Resolved) {
	wd, err := getwd()
	if err != nil {
		return nil, nil
	}
	res, err := policy.Load(wd, os.Getenv("HOME"))
	if err != nil || len(res.MCPServers()) == 0 {
		return nil, nil
	}
	if allowAll {
		res = res.AllowAll()
	}
	cfg := tools.ExecConfig(res.Exec(), wd)
	cfg.Version = version
	// Remote servers obey the http section; without one, private and
	// loopback addresses stay refused.
	scope := tools.HTTPScope{AllowPrivate: allowAll}
	if h := res.HTTPScope(); h != nil {
		scope = tools.HTTPScope{Allow: h.Allow, Deny: h.Deny, AllowPrivate: h.AllowPrivate}
	}
	cfgs := mcptool.FromPolicy(res.MCPServers(), cfg, scope.Client(), scope.CheckURL)
	for i := range cfgs {
		cfgs[i].Version = version
	}
	m, err := mcptool.NewManager(cfgs...)
	if err != nil {
		return nil, nil
	}
	return m, res
}

// programMCPTools returns the MCP tools a program may call: the names it
// uses or declares that belong to a configured server (see
// mcptool.Manager.Tools). With list set (a0 check), each server whose
// tools the program uses and the policy allows is listed first, so that
// unknown names and call? on effect tools are found statically.
func programMCPTools(m *mcptool.Manager, res *policy.Resolved, file, src string, list bool) []runtime.Tool {
	p, ds := parser.Parse(file, src, parser.Options{})
	if len(ds) > 0 {
		return m.Tools(nil)
	}
	used := append(check.UsedTools(p), check.DeclaredCaps(p)...)
	if list {
		for _, srv := range m.Servers() {
			for _, u := range used {
				if strings.HasPrefix(u, srv+".") && res.Allowed(u) {
					ctx, cancel := context.WithTimeout(context.Background(), mcpListTimeout)
					_, _ = m.List(ctx, srv) // a server that fails is checked by name only
					cancel()
					break
				}
			}
		}
	}
	return m.Tools(used)
}

// sessionMCPTools returns the MCP tools of a session (REPL, a0 mcp): the
// servers without a tools allowlist are listed now, since inputs are not
// known in advance; those with one start at their first call.
func sessionMCPTools(m *mcptool.Manager) []runtime.Tool {
	var wg sync.WaitGroup
	for _, srv := range m.Servers() {
		if m.HasAllowlist(srv) {
			continue // starts at its first call
		}
		wg.Add(1)
		go func() { // in parallel: one slow server does not delay the others
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), mcpListTimeout)
			defer cancel()
			_, _ = m.List(ctx, srv)
		}()
	}
	wg.Wait()
	return m.Tools(nil)
}

// mcpToolsCmd is `a0 tools`: the tools of the configured MCP servers with
// their A0 names, modes and argument schemas. Every server is started,
// listed and stopped.
func (c *cli) mcpToolsCmd() int {
	wd, err := getwd()
	if err != nil {
		io.WriteString(c.stderr, (&diag.Diagnostic{Code: diag.EIO, Message: err.Error()}).JSON(diag.FormCLI)+"\n")
		return diag.ExitRuntime
	}
	if _, err := policy.Load(wd, os.Getenv("HOME")); err != nil {
		io.WriteString(c.stderr, policy.TextError(err))
		return policy.ExitCode
	}
	m, res := newMCPManager(false)
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
		ctx, cancel := context.WithTimeout(context.Background(), mcpListTimeout)
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
				b.WriteString("server " + srv + ": " + err.Error() + "\n\n")
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
			line := "  " + call + " " + t.Name
			if t.Remote != t.Name[len(srv)+1:] {
				line += "  (server tool " + t.Remote + ")"
			}
			if !granted {
				line += "  [not allowed by the policy]"
			}
			b.WriteString(line + "\n")
			if len(t.Collision) > 0 {
				b.WriteString("    not callable: the server tools " + strings.Join(t.Collision, ", ") + " map to this name\n")
			}
			if t.NotCallable != "" {
				b.WriteString("    not callable: " + t.NotCallable + "\n")
			}
			if t.Description != "" {
				b.WriteString("    " + strings.ReplaceAll(strings.TrimSpace(t.Description), "\n", "\n    ") + "\n")
			}
			if len(t.Schema) > 0 {
				b.WriteString("    args: " + compactJSON(t.Schema) + "\n")
			}
		}
		if !asJSON {
			b.WriteString("\n")
		}
	}
	if asJSON {
		io.WriteString(c.stdout, value.JSONIndent(value.ListOf(all))+"\n")
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

// policyBeforeStatic returns the E_POLICY diagnostic of an invalid policy
// file when the static diagnostics include an unknown capability or tool
// outside the built-in namespaces: such a name may belong to an MCP server
// of that policy's `mcp` section, so the policy is the problem to report.
// It returns nil otherwise (the static errors are reported as usual).
func policyBeforeStatic(ds diag.List) *diag.Diagnostic {
	suspect := false
	for _, d := range ds {
		if d.Code != diag.EUnknownCap && d.Code != diag.EUnknownTool {
			continue
		}
		name := d.Message[strings.IndexByte(d.Message, '\'')+1:]
		ns, _, _ := strings.Cut(name, ".")
		if !slices.Contains(policy.ReservedNamespaces, ns) {
			suspect = true
		}
	}
	if !suspect {
		return nil
	}
	wd, err := getwd()
	if err != nil {
		return nil
	}
	if _, err := policy.Load(wd, os.Getenv("HOME")); err != nil {
		if pe, ok := err.(*policy.Error); ok {
			return pe.Diagnostic()
		}
	}
	return nil
}
