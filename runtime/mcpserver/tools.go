package mcpserver

// Tool discovery over MCP (spec/mcp.md §9): the resource a0://tools is
// a compact index of the environment's tools by namespace (the built-in
// fs, http and sh, each MCP server, a host's own), a resource
// a0://tools/NAMESPACE holds one namespace's A0 signatures, and the tool
// a0_tools returns one namespace, one tool in full, or a search.

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/mcpwire"
)

// builtinDescriptions describe the built-in namespaces in the index.
var builtinDescriptions = map[string]string{
	"fs":   "Files: read, list, test and write under the policy's fs roots (built-in).",
	"http": "HTTP GET requests to the hosts the policy allows (built-in).",
	"sh":   "Shell commands and background jobs under the policy's exec rules (built-in).",
}

// toolGroup is the tools of one namespace.
type toolGroup struct {
	name    string
	builtin bool
	tools   []runtime.Tool
}

// groups returns the environment's tools by namespace: the built-in ones
// first, then the others in the order their first tool comes.
func (h *mcpHost) groups() []*toolGroup {
	var out []*toolGroup
	byName := map[string]*toolGroup{}
	for _, t := range h.env.Tools() {
		ns, _, _ := strings.Cut(t.Name(), ".")
		g := byName[ns]
		if g == nil {
			_, builtin := builtinDescriptions[ns]
			if _, isMCP := t.(*mcptool.Tool); isMCP {
				builtin = false
			}
			g = &toolGroup{name: ns, builtin: builtin}
			byName[ns] = g
			out = append(out, g)
		}
		g.tools = append(g.tools, t)
	}
	slices.SortStableFunc(out, func(a, b *toolGroup) int {
		switch {
		case a.builtin && !b.builtin:
			return -1
		case !a.builtin && b.builtin:
			return 1
		}
		return 0
	})
	return out
}

func (g *toolGroup) description() string {
	if d, ok := builtinDescriptions[g.name]; ok && g.builtin {
		return d
	}
	for _, t := range g.tools {
		if mt, ok := t.(*mcptool.Tool); ok {
			if d := mt.ServerDescription(); d != "" {
				return "MCP server: " + d
			}
			return "MCP server, not started yet: it starts at the first call the policy grants, and its signatures are known from then on."
		}
	}
	return ""
}

func (g *toolGroup) signatures() []mcptool.Signature {
	out := make([]mcptool.Signature, len(g.tools))
	for i, t := range g.tools {
		out[i] = mcptool.ToolSignature(t)
	}
	return out
}

// indexEntry is one namespace in the index.
type indexEntry struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"` // builtin, mcp or host
	Tools       int      `json:"tools"`
	Description string   `json:"description"`
	URI         string   `json:"uri"`
	Names       []string `json:"names"`
}

func (h *mcpHost) index() []indexEntry {
	out := []indexEntry{}
	for _, g := range h.groups() {
		e := indexEntry{Name: g.name, Kind: "host", Tools: len(g.tools), Description: g.description(), URI: ToolsURI + "/" + g.name}
		if g.builtin {
			e.Kind = "builtin"
		}
		for _, t := range g.tools {
			if _, ok := t.(*mcptool.Tool); ok {
				e.Kind = "mcp"
			}
			e.Names = append(e.Names, strings.TrimPrefix(t.Name(), g.name+"."))
		}
		out = append(out, e)
	}
	return out
}

// toolsIndexJSON is the text of the resource a0://tools.
func (h *mcpHost) toolsIndexJSON() string {
	// One line per server: short, and still easy to read.
	var lines []string
	for _, e := range h.index() {
		lines = append(lines, "  "+strings.TrimSuffix(mcptool.MarshalJSONLine(e), "\n"))
	}
	more := strings.TrimSuffix(mcptool.MarshalJSONLine("Read "+ToolsURI+"/<name> for a server's A0 signatures, or call a0_tools with server, tool or search."), "\n")
	return "{\"servers\": [\n" + strings.Join(lines, ",\n") + "\n],\n\"more\": " + more + "}\n"
}

// indexText is the index as text.
func (h *mcpHost) indexText() string {
	var b strings.Builder
	for _, e := range h.index() {
		b.WriteString(e.Name + "  (" + strconv.Itoa(e.Tools) + " tools, " + e.Kind + ")")
		if e.Description != "" {
			b.WriteString("  " + e.Description)
		}
		b.WriteString("\n    " + strings.Join(e.Names, ", ") + "\n")
	}
	b.WriteString("Call a0_tools with server for its signatures, with tool (server.tool) for one in full, with search to find tools.\n")
	return b.String()
}

// groupText renders a namespace's signatures.
func groupText(g *toolGroup, sigs []mcptool.Signature) string {
	var b strings.Builder
	b.WriteString(g.name + "  (" + strconv.Itoa(len(sigs)) + " tools)\n")
	for _, t := range g.tools {
		if mt, ok := t.(*mcptool.Tool); ok && mt.Remote() == "" {
			b.WriteString("  (the server has not started: its signatures are known after the first call the policy grants)\n")
			break
		}
	}
	for _, s := range sigs {
		b.WriteString(s.Render("  "))
	}
	return b.String()
}

// allSignaturesText is every namespace's signatures (the end of the
// a0_help tools topic).
func (h *mcpHost) allSignaturesText() string {
	var b strings.Builder
	for _, g := range h.groups() {
		b.WriteString(groupText(g, g.signatures()))
	}
	return b.String()
}

// addToolViews registers the per-namespace resources and a0_tools.
func (h *mcpHost) addToolViews(s *mcpwire.Server) {
	for _, g := range h.groups() {
		uri := ToolsURI + "/" + g.name
		desc := "The A0 signatures of the " + g.name + " tools"
		if d := g.description(); d != "" {
			desc += ": " + d
		}
		s.AddResource(&mcpwire.Resource{URI: uri, Name: "a0-tools-" + g.name, Title: "A0 tools: " + g.name, Description: desc, MIMEType: "text/plain"},
			func(context.Context, *mcpwire.ReadResourceRequest) (*mcpwire.ReadResourceResult, error) {
				text := "(no such tools)\n"
				for _, cur := range h.groups() {
					if cur.name == g.name {
						text = groupText(cur, cur.signatures())
					}
				}
				return &mcpwire.ReadResourceResult{Contents: []*mcpwire.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
			})
	}
	s.AddTool(&mcpwire.Tool{
		Name: "a0_tools",
		Description: "Discover the tools A0 programs can call, as A0 signatures (arguments with types, ? for optional, enums and defaults; -> the result's shape). " +
			"No argument: the index of servers. server: that server's signatures. tool (\"server.tool\", or with server): one tool in full, with its input and output schemas. " +
			"search: the tools whose names or descriptions contain every word, best first.",
		InputSchema: json.RawMessage(mcpToolsSchema),
		Annotations: withTitle(&mcpwire.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}, "A0 tool signatures"),
	}, guard(h.toolsTool))
}

const mcpToolsSchema = `{"type":"object","properties":{` +
	`"server":{"type":"string","description":"a server or namespace (fs, http, sh, or an MCP server's name): its tools' signatures"},` +
	`"tool":{"type":"string","description":"one tool, as server.tool (or the tool's name with server): its full signature, description and schemas"},` +
	`"search":{"type":"string","description":"words to find in tool names and descriptions (case-insensitive; with server: only its tools)"}},` +
	`"additionalProperties":false}`

type mcpToolsInput struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Search string `json:"search"`
}

// toolsTool is a0_tools.
func (h *mcpHost) toolsTool(_ context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
	var in mcpToolsInput
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return errorResult(err.Error()), nil
	}
	groups := h.groups()
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = g.name
	}
	find := func(name string) (*toolGroup, *mcpwire.CallToolResult) {
		for _, g := range groups {
			if g.name == name {
				return g, nil
			}
		}
		msg := "no server named '" + name + "'"
		if s := diag.Suggest(name, names); s != "" {
			msg += " (did you mean '" + s + "'?)"
		}
		return nil, errorResult(msg + "; the servers: " + strings.Join(names, ", ") + ".")
	}
	srv, tool := in.Server, in.Tool
	if s, t, ok := strings.Cut(tool, "."); ok && (srv == "" || srv == s) {
		srv, tool = s, t
	}
	if tool != "" && srv == "" {
		return errorResult("tool needs its server: give \"server.tool\", or server and tool; the servers: " + strings.Join(names, ", ") + "."), nil
	}
	var g *toolGroup
	if srv != "" {
		var bad *mcpwire.CallToolResult
		if g, bad = find(srv); bad != nil {
			return bad, nil
		}
	}
	switch {
	case in.Search != "":
		var sigs []mcptool.Signature
		for _, cur := range groups {
			if g == nil || cur == g {
				sigs = append(sigs, cur.signatures()...)
			}
		}
		hits := mcptool.Search(sigs, in.Search)
		var b strings.Builder
		if len(hits) == 0 {
			b.WriteString("No tool matches " + diag.QuoteJSON(in.Search) + ".\n")
		}
		for _, s := range hits {
			b.WriteString(s.Render(""))
		}
		if hits == nil {
			hits = []mcptool.Signature{}
		}
		return h.toolsResult(struct {
			Query   string              `json:"query"`
			Matches []mcptool.Signature `json:"matches"`
		}{in.Search, hits}, b.String()), nil
	case tool != "":
		var short []string
		for _, t := range g.tools {
			n := strings.TrimPrefix(t.Name(), g.name+".")
			mt, _ := t.(*mcptool.Tool)
			if n != tool && (mt == nil || mt.Remote() != tool) {
				short = append(short, n)
				continue
			}
			s := mcptool.ToolSignature(t)
			input := runtime.ToolSchema(t)
			var output json.RawMessage
			if mt != nil {
				output = mt.OutputSchema()
			}
			return h.toolsResult(struct {
				mcptool.Signature
				FullDescription string          `json:"fullDescription"`
				InputSchema     json.RawMessage `json:"inputSchema"`
				OutputSchema    json.RawMessage `json:"outputSchema"`
			}{s, s.FullDescription(), input, output}, s.RenderFull(input, output)), nil
		}
		msg := "the server '" + g.name + "' has no tool '" + tool + "'"
		if s := diag.Suggest(tool, short); s != "" {
			msg += " (did you mean '" + g.name + "." + s + "'?)"
		}
		return errorResult(msg + "; its tools: " + strings.Join(short, ", ") + "."), nil
	case g != nil:
		sigs := g.signatures()
		return h.toolsResult(struct {
			Server string              `json:"server"`
			Tools  []mcptool.Signature `json:"tools"`
		}{g.name, sigs}, groupText(g, sigs)), nil
	}
	return h.toolsResult(struct {
		Servers []indexEntry `json:"servers"`
	}{h.index()}, h.indexText()), nil
}

// toolsResult is an a0_tools answer: v as structured content, text as
// the text content.
func (h *mcpHost) toolsResult(v any, text string) *mcpwire.CallToolResult {
	raw := json.RawMessage(mcptool.MarshalJSON(v))
	if len(raw)+len(text) > h.maxResult-mcpEnvelope {
		text = mcpwire.UTF8Prefix(text, max(h.maxResult-mcpEnvelope-len(raw)-64, 0)) + "\n… (truncated)\n"
	}
	return &mcpwire.CallToolResult{Content: []mcpwire.Content{&mcpwire.TextContent{Text: text}}, StructuredContent: raw}
}
