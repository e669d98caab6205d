// Package mcptest is a small MCP server for a0's tests: read and effect
// tools, structured and plain results, errors, a slow tool, a crashing
// one, and names that are not A0 identifiers. Every tools/call it receives
// is appended to the file named by $MCP_CALL_LOG (when set), so tests can
// tell whether a call reached the server.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func logCall(name string) {
	if p := os.Getenv("MCP_CALL_LOG"); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, name)
			f.Close()
		}
	}
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func args(req *mcp.CallToolRequest) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &m)
	return m
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

// New returns the test server.
func New() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "a0-test-server", Version: "1"}, nil)
	add := func(t *mcp.Tool, h func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error)) {
		if t.InputSchema == nil {
			t.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			logCall(req.Params.Name)
			return h(ctx, req)
		})
	}
	add(&mcp.Tool{Name: "search", Description: "Search the notes.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["q"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := args(req)
			q, _ := a["q"].(string)
			sc := json.RawMessage(fmt.Sprintf(`{"query":%q,"hits":[{"title":"first %s","score":2},{"title":"second","score":1}],"count":2}`, q, q))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(sc)}}, StructuredContent: sc}, nil
		})
	add(&mcp.Tool{Name: "add-note", Description: "Append a note to $NOTES_FILE.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			t, _ := args(req)["text"].(string)
			if p := os.Getenv("NOTES_FILE"); p != "" {
				f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					return nil, err
				}
				fmt.Fprintln(f, t)
				f.Close()
			}
			return text("added: " + t), nil
		})
	add(&mcp.Tool{Name: "echo", Annotations: readOnly}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(string(req.Params.Arguments)), nil
	})
	add(&mcp.Tool{Name: "record", Annotations: readOnly}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "see structured"}}, StructuredContent: req.Params.Arguments}, nil
	})
	add(&mcp.Tool{Name: "env", Annotations: readOnly}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name, _ := args(req)["name"].(string)
		return text(os.Getenv(name)), nil
	})
	add(&mcp.Tool{Name: "multi", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "one"}, &mcp.TextContent{Text: "two"},
			&mcp.ImageContent{Data: []byte("PNG"), MIMEType: "image/png"}}}, nil
	})
	add(&mcp.Tool{Name: "empty", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	})
	add(&mcp.Tool{Name: "fail", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := text("disk full")
		r.IsError = true
		return r, nil
	})
	add(&mcp.Tool{Name: "slow", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer"},"ignoreCancel":{"type":"boolean"}},"required":["ms"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := args(req)
			ms, _ := a["ms"].(float64)
			if ign, _ := a["ignoreCancel"].(bool); ign {
				time.Sleep(time.Duration(ms) * time.Millisecond)
				return text("slept"), nil
			}
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
				return text("slept"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	add(&mcp.Tool{Name: "crash", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "boom: token="+os.Getenv("SECRET_TOKEN"))
		os.Exit(3)
		return nil, nil
	})
	if os.Getenv("MCP_COLLIDE") != "" {
		add(&mcp.Tool{Name: "x-y", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("x-y"), nil })
		add(&mcp.Tool{Name: "x.y", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("x.y"), nil })
	}
	return s
}

// Main runs the test server on stdin/stdout, first appending "start" to
// the file named by $MCP_START_LOG (when set). With the argument "exit" it
// fails at once instead (a server that never starts); with "hang" it never
// answers; with "raw" it is a minimal hand-written server (rawServer).
func Main() {
	if p := os.Getenv("MCP_START_LOG"); p != "" {
		if f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(f, "start")
			f.Close()
		}
	}
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "exit":
			fmt.Fprintln(os.Stderr, "cannot open the database")
			os.Exit(2)
		case "hang":
			time.Sleep(time.Hour)
		case "raw":
			rawServer()
			return
		}
	}
	if err := New().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// rawServer speaks just enough MCP by hand, as a minimal third-party
// server might: the 2024-11-05 protocol, no SDK, one tool "odd" whose
// result has a content item of a type the SDK does not know.
func rawServer() {
	dec := json.NewDecoder(os.Stdin)
	enc := json.NewEncoder(os.Stdout)
	for {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := dec.Decode(&msg); err != nil {
			return
		}
		if msg.ID == nil {
			continue // a notification
		}
		var result any
		switch msg.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": "2024-11-05", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "raw", "version": "0"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": "odd", "inputSchema": map[string]any{"type": "object"},
				"annotations": map[string]any{"readOnlyHint": true}}}}
		case "tools/call":
			result = json.RawMessage(`{"content":[{"type":"text","text":"a"},{"type":"hologram","uri":"x:1"}]}`)
		default:
			enc.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		enc.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
	}
}
