package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPServerToolViews: a0 mcp with an MCP server in its policy lists
// a resource per server, serves its signatures there, keeps a0://tools a
// compact index, and answers a0_tools for a server, a tool, a search and
// unknown names.
func TestMCPServerToolViews(t *testing.T) {
	bin := testServerBin(t)
	cs, _ := mcpSessionStop(t, `{"allow":["notes.*"],"mcp":{"notes":{"command":["`+bin+`"]}}}`)
	ctx := context.Background()

	lr, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range lr.Resources {
		uris = append(uris, r.URI)
	}
	for _, want := range []string{mcpToolsURI, mcpToolsURI + "/fs", mcpToolsURI + "/sh", mcpToolsURI + "/notes"} {
		if !strings.Contains(" "+strings.Join(uris, " ")+" ", " "+want+" ") {
			t.Errorf("resources/list lacks %s: %v", want, uris)
		}
	}

	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpToolsURI + "/notes"})
	if err != nil {
		t.Fatal(err)
	}
	text := rr.Contents[0].Text
	for _, want := range []string{
		"notes  (17 tools)\n",
		"\n  call? notes.search { q: string, limit?: integer } -> { query: string, hits: [{ title?: string, score?: number }], count: integer }\n      Search the notes.\n",
		`call? notes.forecast { city: string, units?: "c"|"f" = "c", days?: integer = 3 } -> { city: string, days: [{ day: integer, high: number, sky: "sun"|"rain" }] }`,
		"(server tool add-note)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("%s/notes lacks %q:\n%s", mcpToolsURI, want, text)
		}
	}
	if len(text) > 1500 {
		t.Errorf("%s/notes has %d bytes", mcpToolsURI, len(text))
	}

	rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpToolsURI})
	if err != nil {
		t.Fatal(err)
	}
	if idx := rr.Contents[0].Text; !strings.Contains(idx, `{"name":"notes","kind":"mcp",`) || !strings.Contains(idx, `"description":"MCP server: a0-test-server 1"`) ||
		!strings.Contains(idx, `"tools":17`) || strings.Contains(idx, "inputSchema") || strings.Contains(idx, `"properties"`) {
		t.Errorf("index:\n%s", idx)
	}

	type structured struct {
		Server  string
		Tools   []map[string]any
		Matches []map[string]any
		Servers []map[string]any
		Name    string
		Result  string
		Args    []map[string]any

		FullDescription string
		InputSchema     map[string]any
		OutputSchema    map[string]any
	}
	call := func(args map[string]any) (bool, string, structured) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "a0_tools", Arguments: args})
		if err != nil {
			t.Fatalf("a0_tools %v: %v", args, err)
		}
		var text string
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
		var st structured
		if res.StructuredContent != nil {
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatalf("a0_tools %v: %v\n%s", args, err, b)
			}
		}
		return res.IsError, text, st
	}

	isErr, text, st := call(map[string]any{})
	if isErr || len(st.Servers) != 4 || !strings.Contains(text, "notes  (17 tools, mcp)") {
		t.Errorf("a0_tools {}: %v %q %+v", isErr, text, st.Servers)
	}
	isErr, text, st = call(map[string]any{"server": "notes"})
	if isErr || st.Server != "notes" || len(st.Tools) != 17 || !strings.Contains(text, "call? notes.search { q: string") {
		t.Errorf("a0_tools server: %v %q", isErr, text)
	}
	isErr, text, st = call(map[string]any{"tool": "notes.forecast"})
	if isErr || st.Name != "notes.forecast" || st.InputSchema["type"] != "object" || st.OutputSchema["type"] != "object" ||
		st.FullDescription != "Weather forecast for a city.\nUses the nearest station." || len(st.Args) != 3 ||
		!strings.Contains(text, "    Uses the nearest station.\n") || !strings.Contains(text, "output schema: {") {
		t.Errorf("a0_tools tool: %v %q %+v", isErr, text, st)
	}
	isErr, _, st = call(map[string]any{"server": "notes", "tool": "add-note"})
	if isErr || st.Name != "notes.add_note" {
		t.Errorf("a0_tools server+remote tool name: %v %+v", isErr, st)
	}
	isErr, text, st = call(map[string]any{"search": "Weather"})
	if isErr || len(st.Matches) != 1 || st.Matches[0]["name"] != "notes.forecast" || !strings.HasPrefix(text, "call? notes.forecast ") {
		t.Errorf("a0_tools search: %v %q %+v", isErr, text, st.Matches)
	}
	isErr, text, _ = call(map[string]any{"search": "READ", "server": "fs"})
	if isErr || !strings.HasPrefix(text, "call? fs.read { path: string") {
		t.Errorf("a0_tools search in fs: %v %q", isErr, text)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"server": "note"}, "no server named 'note' (did you mean 'notes'?); the servers: fs, http, sh, notes."},
		{map[string]any{"tool": "notes.serch"}, "the server 'notes' has no tool 'serch' (did you mean 'notes.search'?); its tools: add_note, "},
		{map[string]any{"tool": "search"}, "tool needs its server"},
		{map[string]any{"sever": "x"}, "invalid arguments"},
	} {
		isErr, text, _ := call(c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("a0_tools %v: %v %q, want %q", c.args, isErr, text, c.want)
		}
	}
}
