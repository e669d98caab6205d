// Package mcptest is a small MCP server for a0's tests: read and effect
// tools, structured and plain results, errors, a slow tool, a crashing
// one, names that are not A0 identifiers, and tools that probe how a0
// holds a server: its environment (environ), its confinement (writefile,
// dial), the processes it leaves (spawn). Every tools/call it receives
// is appended to the file named by $MCP_CALL_LOG (when set), so tests can
// tell whether a call reached the server. Main's arguments select
// hand-written servers that misbehave on purpose (see Main).
package mcptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
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
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["q"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"hits":{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"score":{"type":"number"}}}},"count":{"type":"integer"}},"required":["query","hits","count"]}`)},
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
	// report: a schema that lets other members through (a misspelt
	// optional argument reaches the server), with an enum and a range.
	add(&mcp.Tool{Name: "report", Description: "Report the notes in a format.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"format":{"type":"string","enum":["json","text"]},"count":{"type":"integer","minimum":1,"maximum":10}},"required":["format"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			b, _ := json.Marshal(args(req))
			return text(string(b)), nil
		})
	add(&mcp.Tool{Name: "forecast", Description: "Weather forecast for a city.\nUses the nearest station.", Annotations: readOnly,
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"type":"string","enum":["c","f"],"default":"c"},"days":{"type":"integer","minimum":1,"maximum":7,"default":3}},"required":["city"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"array","items":{"type":"object","properties":{"day":{"type":"integer"},"high":{"type":"number"},"sky":{"type":"string","enum":["sun","rain"]}},"required":["day","high","sky"]}}},"required":["city","days"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := args(req)
			city, _ := a["city"].(string)
			n := 3
			if d, ok := a["days"].(float64); ok {
				n = int(d)
			}
			days := make([]map[string]any, n)
			for i := range days {
				days[i] = map[string]any{"day": i + 1, "high": 20 + i, "sky": "sun"}
			}
			sc, _ := json.Marshal(map[string]any{"city": city, "days": days})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(sc)}}, StructuredContent: json.RawMessage(sc)}, nil
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
	add(&mcp.Tool{Name: "environ", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		env := map[string]string{}
		for _, kv := range os.Environ() {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
		b, _ := json.Marshal(env)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "see structured"}}, StructuredContent: json.RawMessage(b)}, nil
	})
	add(&mcp.Tool{Name: "writefile"}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p, _ := args(req)["path"].(string)
		if err := os.WriteFile(p, []byte("written by the server\n"), 0o644); err != nil {
			r := text(err.Error())
			r.IsError = true
			return r, nil
		}
		return text("written"), nil
	})
	add(&mcp.Tool{Name: "dial", Annotations: readOnly}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		addr, _ := args(req)["addr"].(string)
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			r := text(err.Error())
			r.IsError = true
			return r, nil
		}
		c.Close()
		return text("connected"), nil
	})
	add(&mcp.Tool{Name: "spawn"}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// A helper that leaves the server's process group and session.
		cmd := exec.Command("setsid", "sleep", "600")
		if err := cmd.Start(); err != nil {
			r := text(err.Error())
			r.IsError = true
			return r, nil
		}
		go cmd.Wait()
		sc, _ := json.Marshal(map[string]any{"pid": cmd.Process.Pid, "execId": os.Getenv("A0_EXEC_ID")})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(sc)}}, StructuredContent: json.RawMessage(sc)}, nil
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
	addNotifyTools(add)
	if os.Getenv("MCP_RICH") != "" {
		addRich(s, add)
	}
	if os.Getenv("MCP_COLLIDE") != "" {
		add(&mcp.Tool{Name: "x-y", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("x-y"), nil })
		add(&mcp.Tool{Name: "x.y", Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("x.y"), nil })
	}
	return s
}

// With $MCP_RICH set, New also has the tools and resources of addRich
// (rich.go).
//
// Main runs the test server on stdin/stdout, first appending "start" to
// the file named by $MCP_START_LOG (when set). With the argument "exit" it
// fails at once instead (a server that never starts); with "hang" it never
// answers; with "raw" it is a minimal hand-written server (rawServer);
// with "bad" a hand-written server that misbehaves (badServer).
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
		case "bad":
			badServer()
			return
		}
	}
	if err := New().Run(context.Background(), taskTransport{&mcp.StdioTransport{}}); err != nil {
		os.Exit(1)
	}
}

// rawServer speaks just enough MCP by hand, as a minimal third-party
// server might: the 2024-11-05 protocol, no SDK, one tool "odd" whose
// result has a content item of a type the SDK does not know. A call with
// the argument "unreadable": true is answered as one the server could
// not read: an error with id null.
func rawServer() {
	dec := json.NewDecoder(os.Stdin)
	enc := json.NewEncoder(os.Stdout)
	for {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Arguments struct {
					Unreadable bool `json:"unreadable"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := dec.Decode(&msg); err != nil {
			return
		}
		if msg.Params.Arguments.Unreadable {
			// As a server answers a request whose id it could not read:
			// an error with id null.
			enc.Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32700, "message": "Parse error: the request could not be read"}})
			continue
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

// asciiJSON encodes s as a JSON string with every non-ASCII character
// escaped (\uXXXX), as some servers write them.
func asciiJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f:
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				fmt.Fprintf(&b, "\\u%04x\\u%04x", r1, r2)
			} else {
				fmt.Fprintf(&b, "\\u%04x", r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// deepSchema returns an object schema nested n levels deep.
func deepSchema(n int) string {
	return strings.Repeat(`{"type":"object","properties":{"a":`, n-1) + `{"type":"string"}` + strings.Repeat("}}", n-1)
}

// badSchemas are the input schemas of badServer's tools, by tool name.
var badSchemas = map[string]string{
	"selfref":    `{"$ref":"#"}`,
	"mutual":     `{"type":"object","$ref":"#/$defs/a","$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"$ref":"#/$defs/a"}}}`,
	"deep":       deepSchema(10000),
	"tree":       `{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#"}}},"required":["name"]}`,
	"echo":       `{"type":"object"}`,
	"big":        `{"type":"object","properties":{"mb":{"type":"integer"}}}`,
	"secret":     `{"type":"object"}`,
	"secreterr":  `{"type":"object"}`,
	"secrettext": `{"type":"object"}`,
	"flood":      `{"type":"object","properties":{"n":{"type":"integer"}}}`,
}

// loopOrDeep are the tools of badServer listed only when
// $MCP_BAD_SCHEMAS (a comma-separated list) names them.
var loopOrDeep = map[string]bool{"selfref": true, "mutual": true, "deep": true, "tree": true}

// badServer is a hand-written server whose tools misbehave: input
// schemas that loop (selfref, mutual) or nest 10 000 levels (deep) next
// to a recursive one that is fine (tree), when $MCP_BAD_SCHEMAS names
// them; a result of mb MiB (big); the value of $QUOTED_SECRET in a result's text and structured content,
// written with JSON escapes (secret), and in a JSON-RPC error message
// (secreterr); and n requests to a0 (ping, roots/list) sent without
// reading its input, before the result (flood).
func badServer() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	send := func(s string) {
		out.WriteString(s)
		out.WriteByte('\n')
		out.Flush()
	}
	secret := asciiJSON(os.Getenv("QUOTED_SECRET"))
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string         `json:"name"`
				Arguments map[string]any `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil || msg.Method == "" {
			continue // a notification, or a0's answer to a request
		}
		id := string(msg.ID)
		result := func(r string) { send(`{"jsonrpc":"2.0","id":` + id + `,"result":` + r + `}`) }
		switch msg.Method {
		case "initialize":
			result(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bad","version":"0"}}`)
		case "tools/list":
			names := make([]string, 0, len(badSchemas))
			for n := range badSchemas {
				if loopOrDeep[n] && !slices.Contains(strings.Split(os.Getenv("MCP_BAD_SCHEMAS"), ","), n) {
					continue
				}
				names = append(names, n)
			}
			sort.Strings(names)
			var tools []string
			for _, n := range names {
				tools = append(tools, `{"name":"`+n+`","annotations":{"readOnlyHint":true},"inputSchema":`+badSchemas[n]+`}`)
			}
			result(`{"tools":[` + strings.Join(tools, ",") + `]}`)
		case "tools/call":
			logCall(msg.Params.Name)
			a := msg.Params.Arguments
			switch msg.Params.Name {
			case "big":
				mb, _ := a["mb"].(float64)
				result(`{"content":[{"type":"text","text":"` + strings.Repeat("x", int(mb*(1<<20))) + `"}]}`)
			case "secret":
				result(`{"content":[{"type":"text","text":` + secret + `}],"structuredContent":{"token":` + secret + `,"list":["a",` + secret + `]}}`)
			case "secrettext":
				result(`{"content":[{"type":"text","text":` + asciiJSON("before "+os.Getenv("QUOTED_SECRET")+" after") + `}]}`)
			case "secreterr":
				send(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32000,"message":` + asciiJSON("backend refused key "+os.Getenv("QUOTED_SECRET")) + `}}`)
			case "flood":
				n, _ := a["n"].(float64)
				for i := 0; i < int(n); i++ {
					m := "ping"
					if i%2 == 1 {
						m = "roots/list"
					}
					out.WriteString(`{"jsonrpc":"2.0","id":"f` + strconv.Itoa(i) + `","method":"` + m + `"}` + "\n")
				}
				out.Flush()
				result(`{"content":[{"type":"text","text":"flooded"}]}`)
			default:
				result(`{"content":[{"type":"text","text":` + asciiJSON(fmt.Sprint(a)) + `}]}`)
			}
		case "ping":
			result(`{}`)
		default:
			send(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32601,"message":"method not found"}}`)
		}
	}
}
