//lint:file-ignore SA1019 the SDK server here uses logging, roots and sampling, deprecated from protocol 2026-07-28, to check that a0's client answers them for the protocol versions that have them.
package mcpwire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ctSDKServer is the official SDK's server with the features the client
// uses: tools over several pages, structured content, progress and log
// notifications, resources and templates, and a tool that calls back
// (ping, roots/list, sampling) during its call.
func ctSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk", Title: "The SDK", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		s.AddTool(&mcp.Tool{Name: n, InputSchema: json.RawMessage(`{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"integer"}}}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: n}}}, nil
			})
	}
	s.AddTool(&mcp.Tool{Name: "structured", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "half"})
			}
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "working"})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "s"}}, StructuredContent: json.RawMessage(`{"zeta":1,"alpha":[true]}`)}, nil
		})
	s.AddTool(&mcp.Tool{Name: "callback", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var out []string
			if err := req.Session.Ping(ctx, nil); err != nil {
				out = append(out, "ping: "+err.Error())
			} else {
				out = append(out, "ping ok")
			}
			if r, err := req.Session.ListRoots(ctx, nil); err != nil {
				out = append(out, "roots: "+err.Error())
			} else {
				out = append(out, fmt.Sprintf("roots %d", len(r.Roots)))
			}
			if _, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 1, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}); err != nil {
				out = append(out, "sampling refused")
			} else {
				out = append(out, "sampling answered")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(out, "; ")}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "file:///r1", Name: "r1", MIMEType: "text/plain"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "one"}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: "file:///r2", Name: "r2"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Blob: []byte("two")}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: "file:///r3", Name: "r3"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "three"}}}, nil
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "file:///t/{x}", Name: "t"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "t"}}}, nil
	})
	return s
}

// ctNotes collects the notifications a client receives.
type ctNotes struct {
	mu   sync.Mutex
	seen []string
}

func (n *ctNotes) options() *ClientOptions {
	return &ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *ProgressNotificationClientRequest) {
			n.mu.Lock()
			n.seen = append(n.seen, fmt.Sprintf("progress %v %v/%v %s", r.Params.ProgressToken, r.Params.Progress, r.Params.Total, r.Params.Message))
			n.mu.Unlock()
		},
		LoggingMessageHandler: func(_ context.Context, r *LoggingMessageRequest) {
			n.mu.Lock()
			n.seen = append(n.seen, fmt.Sprintf("log %s %v", r.Params.Level, r.Params.Data))
			n.mu.Unlock()
		},
	}
}

func (n *ctNotes) get() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return strings.Join(n.seen, "; ")
}

// ctExercise runs the client's methods against ctSDKServer; with
// oneMessage, the server answers each call with its result alone (the
// SDK's JSON responses), without notifications or requests.
func ctExercise(t *testing.T, cs *ClientSession, n *ctNotes, oneMessage bool) {
	t.Helper()
	ctx := context.Background()
	ir := cs.InitializeResult()
	if ir.ProtocolVersion != LatestProtocolVersion || ir.ServerInfo.Title != "The SDK" || ir.Capabilities.Tools == nil || ir.Capabilities.Resources == nil {
		t.Errorf("initialize result %+v", ir)
	}
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		if tool.Name == "a" && string(tool.InputSchema) != `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"integer"}}}` {
			t.Errorf("input schema %s: members not in the server's order", tool.InputSchema)
		}
	}
	if got := strings.Join(names, ","); got != "a,b,c,callback,d,e,structured" && got != "a,b,c,d,e,structured,callback" && len(names) != 7 {
		t.Errorf("tools %s", got)
	}
	if err := cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &CallToolParams{Name: "structured", Arguments: map[string]any{}, Meta: Meta{"progressToken": "tok-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.StructuredContent) != `{"zeta":1,"alpha":[true]}` || len(res.Content) != 1 || res.Content[0].(*TextContent).Text != "s" {
		t.Errorf("result %s %+v", res.StructuredContent, res.Content)
	}
	if got := n.get(); got != "progress tok-1 1/2 half; log info working" && !oneMessage {
		t.Errorf("notifications: %q", got)
	}
	res, err = cs.CallTool(ctx, &CallToolParams{Name: "callback"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*TextContent).Text; got != "ping ok; roots 0; sampling refused" && !oneMessage {
		t.Errorf("server requests: %s", got)
	}
	var uris []string
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, r.URI)
	}
	var tmpl []string
	for r, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tmpl = append(tmpl, r.URITemplate)
	}
	if strings.Join(uris, " ") != "file:///r1 file:///r2 file:///r3" || strings.Join(tmpl, " ") != "file:///t/{x}" {
		t.Errorf("resources %v, templates %v", uris, tmpl)
	}
	rr, err := cs.ReadResource(ctx, &ReadResourceParams{URI: "file:///r2"})
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Blob != "dHdv" {
		t.Errorf("read: %+v %v", rr, err)
	}
	if err := cs.Ping(ctx); err != nil {
		t.Error(err)
	}
	var we *Error
	if _, err := cs.CallTool(ctx, &CallToolParams{Name: "nope"}); err == nil || (errors.As(err, &we) && we.Unwrap() != nil) {
		t.Errorf("unknown tool: %v", err)
	}
}

// ctGoroutines waits until the number of goroutines is at most n.
func ctGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestClientStdioAgainstSDK(t *testing.T) {
	base := runtime.NumGoroutine()
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	ctx := context.Background()
	ss, err := ctSDKServer().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := &ctNotes{}
	cs, err := NewClient(&Implementation{Name: "a0", Version: "test"}, n.options()).Connect(ctx, &IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctExercise(t, cs, n, false)
	if err := cs.Close(); err != nil {
		t.Error(err)
	}
	if err := cs.Wait(); err != nil {
		t.Errorf("Wait after Close: %v", err)
	}
	ss.Wait()
	ctGoroutines(t, base)
}

// TestStreamableAgainstSDK: the SDK's streamable HTTP handler, answering
// with event streams and with JSON bodies; the session id is kept and
// deleted at Close.
func TestStreamableAgainstSDK(t *testing.T) {
	for _, jsonResp := range []bool{false, true} {
		t.Run(fmt.Sprint("json=", jsonResp), func(t *testing.T) {
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ctSDKServer() }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResp})
			var mu sync.Mutex
			var log []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				log = append(log, r.Method+" sid="+r.Header.Get("Mcp-Session-Id")+" v="+r.Header.Get("MCP-Protocol-Version"))
				mu.Unlock()
				h.ServeHTTP(w, r)
			}))
			defer srv.Close()
			base := runtime.NumGoroutine()
			n := &ctNotes{}
			cs, err := NewClient(&Implementation{Name: "a0", Version: "test"}, n.options()).Connect(context.Background(), &StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sid := cs.ID()
			if sid == "" {
				t.Fatal("no session id kept")
			}
			ctExercise(t, cs, n, jsonResp)
			cs.Close()
			srv.Client().CloseIdleConnections()
			ctGoroutines(t, base)
			mu.Lock()
			defer mu.Unlock()
			if !strings.HasPrefix(log[0], "POST sid= v=") || !strings.HasPrefix(log[1], "POST sid="+sid+" v="+LatestProtocolVersion) {
				t.Errorf("first requests: %v", log[:2])
			}
			if last := log[len(log)-1]; last != "DELETE sid="+sid+" v="+LatestProtocolVersion {
				t.Errorf("last request %q, want the DELETE of the session", last)
			}
		})
	}
}

// ctRawServer is a hand-written newline-delimited server: answer maps a
// request's method to its result (a JSON text; "" for method not found).
func ctRawServer(t *testing.T, answer func(method string, params json.RawMessage) string) Transport {
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	go func() {
		defer sw.Close()
		sc := bufio.NewScanner(sr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil || m.Method == "" {
				continue
			}
			res := answer(m.Method, m.Params)
			if res == "" {
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`+"\n", m.ID)
				continue
			}
			fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, res)
		}
	}()
	return &IOTransport{Reader: cr, Writer: cw}
}

func ctInitAnswer(version string) string {
	return `{"protocolVersion":"` + version + `","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"0"}}`
}

func TestClientProtocolVersions(t *testing.T) {
	for _, tc := range []struct {
		answer, err string
	}{
		{"2024-11-05", ""},
		{"2025-03-26", ""},
		{"2025-06-18", ""},
		{"2025-11-25", ""},
		{"1999-01-01", `protocol version "1999-01-01"`},
		{"", `protocol version ""`},
	} {
		var asked InitializeParams
		tr := ctRawServer(t, func(method string, params json.RawMessage) string {
			if method == MethodInitialize {
				json.Unmarshal(params, &asked)
				return ctInitAnswer(tc.answer)
			}
			return ""
		})
		cs, err := NewClient(&Implementation{Name: "a0", Version: "1"}, nil).Connect(context.Background(), tr, nil)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.answer, err)
				continue
			}
			cs.Close()
		} else if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: got %v, want an error with %s", tc.answer, err, tc.err)
		}
		caps, _ := json.Marshal(asked.Capabilities)
		if asked.ProtocolVersion != LatestProtocolVersion || asked.ClientInfo.Name != "a0" || string(caps) != `{"roots":{"listChanged":true}}` {
			t.Errorf("initialize sent %+v %s", asked, caps)
		}
	}
}

func TestClientPagination(t *testing.T) {
	pages := map[string]string{
		"":   `{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"p2"}`,
		"p2": `{"tools":[{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"p3"}`,
		"p3": `{"tools":[{"name":"c","inputSchema":{"type":"object"}}]}`,
		"l1": `{"tools":[{"name":"x","inputSchema":{"type":"object"}}],"nextCursor":"l2"}`,
		"l2": `{"tools":[],"nextCursor":"l1"}`,
	}
	tr := ctRawServer(t, func(method string, params json.RawMessage) string {
		switch method {
		case MethodInitialize:
			return ctInitAnswer("2025-06-18")
		case MethodListTools:
			var p ListParams
			json.Unmarshal(params, &p)
			return pages[p.Cursor]
		}
		return ""
	})
	cs, err := NewClient(&Implementation{Name: "a0"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var got []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tool.Name)
	}
	if strings.Join(got, "") != "abc" {
		t.Errorf("tools %v", got)
	}
	var loopErr error
	for _, err := range cs.Tools(context.Background(), &ListParams{Cursor: "l1"}) {
		loopErr = err
	}
	if loopErr == nil || !strings.Contains(loopErr.Error(), "repeats the cursor") {
		t.Errorf("a looping cursor: %v", loopErr)
	}
}

// ctSSEServer is a hand-written streamable HTTP endpoint: it checks the
// client's headers, answers initialize with a session id, and answers
// calls as call(method) says (a status, a content type and a body).
type ctSSEServer struct {
	t     *testing.T
	call  func(method string, id string, w http.ResponseWriter)
	mu    sync.Mutex
	posts []string // method (or "response") and the session and version headers
	gone  bool
}

func (s *ctSSEServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		s.mu.Lock()
		s.posts = append(s.posts, "DELETE "+r.Header.Get("Mcp-Session-Id"))
		s.mu.Unlock()
		return
	}
	if r.Header.Get("Accept") != "application/json, text/event-stream" || r.Header.Get("Content-Type") != "application/json" {
		s.t.Errorf("headers %v", r.Header)
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &m)
	what := m.Method
	if what == "" {
		what = "response " + string(body)
	}
	s.mu.Lock()
	s.posts = append(s.posts, what+" sid="+r.Header.Get("Mcp-Session-Id")+" v="+r.Header.Get("Mcp-Protocol-Version"))
	gone := s.gone
	s.mu.Unlock()
	if gone {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if m.Method == MethodInitialize {
		w.Header().Set("Mcp-Session-Id", "sess-1")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, ctInitAnswer("2025-03-26"))
		return
	}
	if m.ID == nil || m.Method == "" {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	s.call(m.Method, string(m.ID), w)
}

func (s *ctSSEServer) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.posts...)
}

func TestStreamableHandWritten(t *testing.T) {
	big := strings.Repeat("x", 2000)
	s := &ctSSEServer{t: t}
	s.call = func(method, id string, w http.ResponseWriter) {
		sse := func(events ...string) {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, e := range events {
				fmt.Fprint(w, e)
				w.(http.Flusher).Flush()
			}
		}
		switch method {
		case "sse":
			// A comment, a priming event without data, a progress
			// notification, a request of the server, an event of
			// another name, then the answer (data over two lines).
			sse(": hello\n\n", "id: 1\ndata:\n\n",
				`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}`+"\r\n\r\n",
				`data: {"jsonrpc":"2.0","id":"s1","method":"ping"}`+"\n\n",
				"event: other\ndata: {}\n\n",
				`data: {"jsonrpc":"2.0","id":`+id+`,`+"\n"+`data: "result":{"b":1,"a":2}}`+"\n\n")
		case "json":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"ok":true}}`, id)
		case "garbage":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `<html>oops</html>`)
		case "garbage-sse":
			sse("data: not json\n\n")
		case "big":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"t":"%s"}}`, id, big)
		case "big-sse":
			sse(`data: {"jsonrpc":"2.0","id":` + id + `,"result":{"t":"` + big + `"}}` + "\n\n")
		case "no-answer":
			sse(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}` + "\n\n")
		case "status":
			http.Error(w, "broken", http.StatusInternalServerError)
		case "rpc-error-status":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"bad params"}}`, id)
		case "null-id":
			// The server could not read the request's id: by JSON-RPC,
			// id null; it answers the one request of the POST.
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unreadable"}}`)
		case "null-id-sse":
			sse(`data: {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: unreadable"}}` + "\n\n")
		case "text":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "hi")
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, id)
		}
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	n := &ctNotes{}
	ctx := context.Background()
	cs, err := NewClient(&Implementation{Name: "a0"}, n.options()).Connect(ctx, &StreamableClientTransport{Endpoint: srv.URL, MaxMessageBytes: 1000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var raw json.RawMessage
	if err := cs.Call(ctx, "sse", nil, &raw); err != nil || string(raw) != `{"b":1,"a":2}` {
		t.Errorf("sse: %s %v", raw, err)
	}
	if got := n.get(); got != "progress t 1/0 " {
		t.Errorf("notifications %q", got)
	}
	if err := cs.Call(ctx, "json", nil, &raw); err != nil || string(raw) != `{"ok":true}` {
		t.Errorf("json: %s %v", raw, err)
	}
	for _, tc := range []struct {
		method, want string
		cause        error // nil: the server's own error
	}{
		{"garbage", "not a JSON-RPC message", ErrNoAnswer},
		{"garbage-sse", "not a JSON-RPC message", ErrNoAnswer},
		{"big", "limit of 1000 bytes", ErrMessageTooLarge},
		{"big-sse", "limit of 1000 bytes", ErrMessageTooLarge},
		{"no-answer", "ended its event stream without answering", ErrNoAnswer},
		{"rpc-error-status", "bad params", nil},
		{"null-id", "Parse error: unreadable", nil},
		{"null-id-sse", "Invalid request: unreadable", nil},
		{"nope", "method not found", nil},
	} {
		err := cs.Call(ctx, tc.method, nil, &raw)
		var we *Error
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &we) || we.Unwrap() != tc.cause {
			t.Errorf("%s: got %v, want %q (cause %v)", tc.method, err, tc.want, tc.cause)
		}
	}
	for _, tc := range []struct{ method, want string }{
		{"status", "HTTP 500 Internal Server Error"},
		{"text", `content type "text/plain"`},
	} {
		if err := cs.Call(ctx, tc.method, nil, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.method, err, tc.want)
		}
	}
	// The session still works after all that.
	if err := cs.Call(ctx, "json", nil, &raw); err != nil {
		t.Errorf("after the failures: %v", err)
	}
	posts := s.log()
	want := []string{"initialize sid= v=", "notifications/initialized sid=sess-1 v=2025-03-26", "sse sid=sess-1 v=2025-03-26"}
	for i, w := range want {
		if i >= len(posts) || posts[i] != w {
			t.Fatalf("requests:\n%s\nwant first:\n%s", strings.Join(posts, "\n"), strings.Join(want, "\n"))
		}
	}
	// The answer to the server's ping (it is sent while the calls go on).
	if !slices.Contains(posts, `response {"jsonrpc":"2.0","id":"s1","result":{}} sid=sess-1 v=2025-03-26`) {
		t.Errorf("the server's ping was not answered:\n%s", strings.Join(posts, "\n"))
	}
	// A 404 for the session: the server ended it; the connection ends,
	// and Close sends no DELETE.
	s.mu.Lock()
	s.gone = true
	s.mu.Unlock()
	if err := cs.Call(ctx, "json", nil, nil); !errors.Is(err, ErrSessionGone) {
		t.Errorf("session gone: %v", err)
	}
	select {
	case <-cs.peer.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the connection did not end")
	}
	cs.Close()
	if last := s.log()[len(s.log())-1]; strings.HasPrefix(last, "DELETE") {
		t.Errorf("a DELETE after the session ended")
	}
}

// TestStreamableCancel: a call whose context ends while its stream is
// open returns, the server is told (notifications/cancelled), and Close
// ends a stream still open.
func TestStreamableCancel(t *testing.T) {
	release := make(chan struct{})
	s := &ctSSEServer{t: t}
	s.call = func(method, id string, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-release
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer close(release)
	base := runtime.NumGoroutine()
	cs, err := NewClient(&Implementation{Name: "a0"}, nil).Connect(context.Background(), &StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := cs.Call(ctx, "hang", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v", err)
	}
	go cs.Call(context.Background(), "hang", nil, nil)
	time.Sleep(50 * time.Millisecond)
	done := make(chan struct{})
	go func() { cs.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	found := false
	for _, p := range s.log() {
		found = found || strings.HasPrefix(p, "notifications/cancelled")
	}
	if !found {
		t.Errorf("no notifications/cancelled: %v", s.log())
	}
	http.DefaultClient.CloseIdleConnections()
	ctGoroutines(t, base+2) // the httptest server's handlers still blocked
}

// TestStreamableConcurrentCalls: a call whose answer is slow to begin
// (a JSON answer comes when the result is ready) does not hold up the
// other calls.
func TestStreamableConcurrentCalls(t *testing.T) {
	freed := make(chan struct{})
	s := &ctSSEServer{t: t}
	s.call = func(method, id string, w http.ResponseWriter) {
		if method == "wait" {
			select {
			case <-freed:
			case <-time.After(5 * time.Second):
			}
		} else {
			close(freed)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"m":%q}}`, id, method)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	cs, err := NewClient(&Implementation{Name: "a0"}, nil).Connect(context.Background(), &StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	errc := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		errc <- cs.Call(ctx, "wait", nil, nil)
	}()
	time.Sleep(50 * time.Millisecond)
	if err := cs.Call(context.Background(), "free", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Errorf("the slow call: %v", err)
	}
}

// TestClientStdioGarbage: a server that writes something other than a
// JSON-RPC message ends the connection; the call in flight fails and
// Wait says why.
func TestClientStdioGarbage(t *testing.T) {
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	go func() {
		defer sw.Close()
		sc := bufio.NewScanner(sr)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			json.Unmarshal(sc.Bytes(), &m)
			switch {
			case m.Method == MethodInitialize:
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, ctInitAnswer("2025-11-25"))
			case m.ID != nil:
				fmt.Fprint(sw, "Starting server on port 8080...\n")
			}
		}
	}()
	cs, err := NewClient(&Implementation{Name: "a0"}, nil).Connect(context.Background(), &IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err == nil || ctx.Err() != nil {
		t.Fatalf("got %v", err)
	}
	if err := cs.Wait(); err == nil {
		t.Error("Wait gave no reason")
	}
}
