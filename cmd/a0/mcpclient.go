package main

// MCP servers named in the policy's `mcp` section become A0 tools
// (spec/mcp.md). This file wires them into run, check, repl and mcp, and
// implements `a0 tools`, which lists them.

import (
	"context"
	"encoding/json"
	"io"
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

// mcpListTimeout bounds listing one server for a session and `a0 tools`.
const mcpListTimeout = 10 * time.Second

// newMCPManager returns a manager for the MCP servers of the command's
// policy res (resolved once, by resolvePolicy: with --policy FILE the
// servers and their http and exec settings come from FILE only); it is nil
// when res is nil or has no servers. Nothing is started here: a server
// starts when a program calls one of its tools that the grants allow, or
// when a granted server must be listed (sessionMCPTools, a0 tools).
func newMCPManager(res *policy.Resolved, wd string) *mcptool.Manager {
	if res == nil || len(res.MCPServers()) == 0 {
		return nil
	}
	allowAll := res.IsAllowAll()
	cfg := res.Exec()
	if wd != "" {
		cfg.WorkDir = wd
	}
	cfg.Version = version
	// Remote servers obey the http section; without one, private and
	// loopback addresses stay refused.
	scope := tools.HTTPScope{AllowPrivate: allowAll}
	if h := res.HTTPScope(); h != nil {
		scope = tools.HTTPScope{Allow: h.Allow, Deny: h.Deny, AllowPrivate: h.AllowPrivate}
	}
	cfgs := mcptool.FromPolicy(res.MCPServers(), cfg, scope.Client(), scope.CheckURL)
	secrets := mcptool.NewSecretReader(res.Secrets())
	for i := range cfgs {
		cfgs[i].Version = version
		cfgs[i].Secrets = secrets
	}
	m, err := mcptool.NewManager(cfgs...)
	if err != nil {
		return nil
	}
	return m
}

// programMCPTools returns the MCP tools a program may call: the names it
// uses or declares that belong to a configured server (see
// mcptool.Manager.Tools). Nothing is started or listed: `a0 check` knows
// an MCP tool by its name only (there is no schema cache), and `a0 run`
// starts a server at the first call the grants allow.
func programMCPTools(m *mcptool.Manager, file, src string) []runtime.Tool {
	p, ds := parser.Parse(file, src, parser.Options{})
	if len(ds) > 0 {
		return m.Tools(nil)
	}
	return m.Tools(append(check.UsedTools(p), check.DeclaredCaps(p)...))
}

// sessionMCPTools returns the MCP tools of a session (REPL, a0 mcp): the
// servers the policy grants a tool of (policy.Resolved.ServerGranted)
// and that have no tools allowlist are listed now, since inputs are not
// known in advance; those with one start at their first call the grants
// allow. A server the policy grants nothing of is never started.
func sessionMCPTools(m *mcptool.Manager, res *policy.Resolved) []runtime.Tool {
	var wg sync.WaitGroup
	for _, srv := range m.Servers() {
		if m.HasAllowlist(srv) || !res.ServerGranted(srv) {
			continue // starts at its first granted call, or never
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

// policyBeforeStatic returns perr, the E_POLICY diagnostic of the
// command's policy, when the static diagnostics include an unknown
// capability or tool outside the built-in namespaces: such a name may
// belong to an MCP server of that policy's `mcp` section, so the policy is
// the problem to report. It returns nil otherwise (the static errors are
// reported as usual).
func policyBeforeStatic(ds diag.List, perr *diag.Diagnostic) *diag.Diagnostic {
	if perr == nil || perr.Code != diag.EPolicy {
		return nil
	}
	for _, d := range ds {
		if d.Code != diag.EUnknownCap && d.Code != diag.EUnknownTool {
			continue
		}
		name := d.Message[strings.IndexByte(d.Message, '\'')+1:]
		ns, _, _ := strings.Cut(name, ".")
		if !slices.Contains(policy.ReservedNamespaces, ns) {
			return perr
		}
	}
	return nil
}

// serverGrantHint says how to grant the tools of the MCP server srv that
// the policy res grants nothing of: the policy file's allow line with
// "srv.*" added (or the deny entry to remove).
func serverGrantHint(res *policy.Resolved, srv string) string {
	star := srv + ".*"
	if res.Denied(star) {
		return "the policy " + res.Path + " denies \"" + star + "\": remove it from \"deny\" there to use the server"
	}
	list := []string{}
	if res.Policy != nil {
		list = append(list, res.Policy.Allow...)
	}
	list = append(list, star)
	q := make([]string, len(list))
	for i, a := range list {
		q[i] = diag.QuoteJSON(a)
	}
	where := "the policy"
	if res.Path != "" {
		where = res.Path
	}
	return "to use it, grant its tools in " + where + ": \"allow\": [" + strings.Join(q, ", ") + "] (or list only the tools you need, as \"" + srv + ".<tool>\")"
}

// hintUngrantedServers gives the unknown-tool and unknown-capability
// diagnostics of a session input (REPL, a0 mcp) whose name belongs to a
// configured MCP server the policy grants nothing of the reason: that
// server was not started, so its tools are not known; the hint names the
// allow line to add.
func hintUngrantedServers(ds diag.List, res *policy.Resolved) {
	if res == nil {
		return
	}
	for _, d := range ds {
		if d.Code != diag.EUnknownTool && d.Code != diag.EUnknownCap {
			continue
		}
		name := d.Message[strings.IndexByte(d.Message, '\'')+1:]
		srv, _, ok := strings.Cut(name, ".")
		if !ok || slices.Contains(policy.ReservedNamespaces, srv) || res.ServerGranted(srv) || !slices.ContainsFunc(res.MCPServers(), func(s *policy.MCPServer) bool { return s.Name == srv }) {
			continue
		}
		d.Hint = "The MCP server '" + srv + "' is not started: the policy grants none of its tools; " + serverGrantHint(res, srv) + "."
	}
}
