package hostpolicy

// The signature views of `a0 tools` (spec/mcp.md §8): one server, one
// tool, or a search over the tools of the servers the policy grants.

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/termout"
)

// ToolsQuery selects what ToolsView shows.
type ToolsQuery struct {
	// Target is "" (every server), "SERVER" (its signatures) or
	// "SERVER.TOOL" (one tool in full).
	Target string
	// Search, when not empty, ranks the tools of the Target server (or of
	// every granted server) by how well their names and descriptions
	// match it.
	Search string
	// JSON selects the machine form.
	JSON bool
}

// sigEntry is a signature in the JSON of `a0 tools`, with whether the
// policy grants the tool.
type sigEntry struct {
	mcptool.Signature
	Allowed bool `json:"allowed"`
}

// toolDetail is one tool in full (`a0 tools SERVER.TOOL --json`).
type toolDetail struct {
	mcptool.Signature
	Allowed         bool            `json:"allowed"`
	FullDescription string          `json:"fullDescription"`
	InputSchema     json.RawMessage `json:"inputSchema"`
	OutputSchema    json.RawMessage `json:"outputSchema"`
}

// serverEntry is one server in the JSON of `a0 tools SERVER`.
type serverEntry struct {
	Server  string     `json:"server"`
	Started bool       `json:"started"`
	Reason  string     `json:"reason,omitempty"`
	Message string     `json:"message,omitempty"`
	Hint    string     `json:"hint,omitempty"`
	Error   string     `json:"error,omitempty"`
	Tools   []sigEntry `json:"tools,omitempty"`
}

// ToolsView is `a0 tools` with a target or a search (ToolsReport without
// either): the text or JSON for stdout, a usage error for stderr, and the
// exit code — 1 for an unknown server or tool (with did-you-mean and the
// valid names), 4 when a server could not be listed, else 0. Only a server
// the policy grants a tool of is started.
func ToolsView(m *mcptool.Manager, res *policy.Resolved, q ToolsQuery) (out, errOut string, code int) {
	if q.Target == "" && q.Search == "" {
		out, code = ToolsReport(m, res, q.JSON)
		return out, "", code
	}
	servers := m.Servers()
	srv, tool, hasTool := strings.Cut(q.Target, ".")
	if q.Target != "" {
		if !slices.Contains(servers, srv) {
			return "", unknownServer(srv, servers, res), diag.ExitUsage
		}
		servers = []string{srv}
	}
	if q.Search != "" {
		if hasTool {
			return "", "error: --search takes a server name, not a tool ('" + termout.Safe(q.Target, false) + "')\n", diag.ExitUsage
		}
		return searchView(m, res, servers, q)
	}
	e := listServer(m, res, srv)
	if !e.Started {
		return notStarted(e, q.JSON), "", serverCode(e)
	}
	if !hasTool {
		if q.JSON {
			return mcptool.MarshalJSON(e), "", diag.ExitOK
		}
		var b strings.Builder
		b.WriteString("server " + srv + "  (" + plural(len(e.Tools), "tool") + ")\n")
		for _, s := range e.Tools {
			b.WriteString(renderSig(s))
		}
		return b.String(), "", diag.ExitOK
	}
	infos, _ := listInfos(m, srv)
	var names []string
	for _, t := range infos {
		short := strings.TrimPrefix(t.Name, srv+".")
		if short != tool && t.Remote != tool {
			names = append(names, short)
			continue
		}
		s := mcptool.SignatureOf(t)
		d := toolDetail{Signature: s, Allowed: res.Allowed(t.Name), FullDescription: s.FullDescription(), InputSchema: t.Schema, OutputSchema: t.OutputSchema}
		if q.JSON {
			return mcptool.MarshalJSON(d), "", diag.ExitOK
		}
		text := s.RenderFull(t.Schema, t.OutputSchema)
		if !d.Allowed {
			text = strings.Replace(text, "\n", "  [not allowed by the policy]\n", 1)
		}
		return text, "", diag.ExitOK
	}
	msg := "error: the MCP server '" + srv + "' has no tool '" + termout.Safe(tool, false) + "'"
	if s := diag.Suggest(tool, names); s != "" {
		msg += " (did you mean '" + srv + "." + termout.Safe(s, false) + "'?)"
	}
	return "", msg + "; its tools: " + termout.Safe(strings.Join(names, ", "), false) + "\n", diag.ExitUsage
}

// unknownServer is the usage error of a0 tools for a server the policy
// does not configure.
func unknownServer(srv string, servers []string, res *policy.Resolved) string {
	msg := "error: no MCP server named '" + termout.Safe(srv, false) + "' in "
	if res != nil && res.Path != "" {
		msg += res.Path
	} else {
		msg += "the policy"
	}
	if slices.Contains(policy.ReservedNamespaces, srv) {
		msg += " ('" + srv + "' is a built-in namespace: run 'a0 help tools')"
	} else if s := diag.Suggest(srv, servers); s != "" {
		msg += " (did you mean '" + s + "'?)"
	}
	if len(servers) == 0 {
		return msg + "; it configures none\n"
	}
	return msg + "; its MCP servers: " + strings.Join(servers, ", ") + "\n"
}

// listInfos lists a started server's tools.
func listInfos(m *mcptool.Manager, srv string) ([]mcptool.ToolInfo, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ListTimeout)
	defer cancel()
	return m.List(ctx, srv)
}

// listServer starts and lists srv when the policy grants one of its tools.
func listServer(m *mcptool.Manager, res *policy.Resolved, srv string) serverEntry {
	if !res.ServerGranted(srv) {
		return serverEntry{Server: srv, Reason: "not_granted", Message: "the policy grants none of its tools", Hint: ServerGrantHint(res, srv)}
	}
	infos, err := listInfos(m, srv)
	if err != nil {
		return serverEntry{Server: srv, Error: err.Error()}
	}
	e := serverEntry{Server: srv, Started: true, Tools: []sigEntry{}}
	for _, t := range infos {
		e.Tools = append(e.Tools, sigEntry{mcptool.SignatureOf(t), res.Allowed(t.Name)})
	}
	return e
}

// notStarted is the text or JSON of a server that was not listed.
func notStarted(e serverEntry, asJSON bool) string {
	if asJSON {
		return mcptool.MarshalJSON(e)
	}
	if e.Error != "" {
		return "server " + e.Server + ": " + termout.Safe(e.Error, false) + "\n"
	}
	return "server " + e.Server + ": not started: " + e.Message + "\n    hint: " + e.Hint + "\n"
}

func serverCode(e serverEntry) int {
	if e.Error != "" {
		return diag.ExitRuntime
	}
	return diag.ExitOK
}

// renderSig is a signature in a listing, marked when the policy does not
// grant the tool.
func renderSig(s sigEntry) string {
	text := s.Render("  ")
	if !s.Allowed {
		text = strings.Replace(text, "\n", "  [not allowed by the policy]\n", 1)
	}
	return text
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// searchView ranks the tools of servers (those the policy grants a tool
// of) against q.Search.
func searchView(m *mcptool.Manager, res *policy.Resolved, servers []string, q ToolsQuery) (string, string, int) {
	var sigs []mcptool.Signature
	allowed := map[string]bool{}
	var skipped []serverEntry
	var searched []string
	code := diag.ExitOK
	for _, srv := range servers {
		e := listServer(m, res, srv)
		if !e.Started {
			skipped = append(skipped, e)
			code = max(code, serverCode(e))
			continue
		}
		searched = append(searched, srv)
		for _, s := range e.Tools {
			sigs = append(sigs, s.Signature)
			allowed[s.Name] = s.Allowed
		}
	}
	hits := mcptool.Search(sigs, q.Search)
	if q.JSON {
		out := struct {
			Query    string        `json:"query"`
			Matches  []sigEntry    `json:"matches"`
			Searched []string      `json:"searched"`
			Skipped  []serverEntry `json:"skipped"`
		}{Query: q.Search, Matches: []sigEntry{}, Searched: searched, Skipped: skipped}
		if out.Searched == nil {
			out.Searched = []string{}
		}
		if out.Skipped == nil {
			out.Skipped = []serverEntry{}
		}
		for _, h := range hits {
			out.Matches = append(out.Matches, sigEntry{h, allowed[h.Name]})
		}
		return mcptool.MarshalJSON(out), "", code
	}
	var b strings.Builder
	quoted := diag.QuoteJSON(q.Search)
	if len(hits) == 0 {
		b.WriteString("No tool matches " + termout.Safe(quoted, false) + " (searched: " + listOrNone(searched) + ").\n")
	} else {
		b.WriteString(plural(len(hits), "tool") + " match " + termout.Safe(quoted, false) + " (searched: " + listOrNone(searched) + "):\n")
		if len(hits) == 1 {
			b.Reset()
			b.WriteString("1 tool matches " + termout.Safe(quoted, false) + " (searched: " + listOrNone(searched) + "):\n")
		}
		for _, h := range hits {
			b.WriteString(renderSig(sigEntry{h, allowed[h.Name]}))
		}
	}
	for _, e := range skipped {
		b.WriteString(notStarted(e, false))
	}
	return b.String(), "", code
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "no server"
	}
	return strings.Join(l, ", ")
}
