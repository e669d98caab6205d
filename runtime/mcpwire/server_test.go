//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28, but a0 still serves it for the protocol versions that have it.

package mcpwire_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/runtime/mcpwire"
)

// testServer is a server with tools echo, fail, block and log and the
// resource test://r; cancelled is closed when a block call's context
// ends.
func testServer(cancelled chan struct{}) *mcpwire.Server {
	s := mcpwire.NewServer(&mcpwire.Implementation{Name: "t", Version: "1.2"}, &mcpwire.ServerOptions{Instructions: "be nice"})
	schema := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcpwire.Tool{Name: "echo", InputSchema: schema}, func(_ context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		return &mcpwire.CallToolResult{Content: []mcpwire.Content{&mcpwire.TextContent{Text: string(req.Params.Arguments)}}}, nil
	})
	s.AddTool(&mcpwire.Tool{Name: "fail", InputSchema: schema}, func(context.Context, *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		return nil, errors.New("it broke")
	})
	s.AddTool(&mcpwire.Tool{Name: "soft", InputSchema: schema}, func(context.Context, *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		return &mcpwire.CallToolResult{IsError: true, Content: []mcpwire.Content{&mcpwire.TextContent{Text: "bad input"}}}, nil
	})
	s.AddTool(&mcpwire.Tool{Name: "block", InputSchema: schema}, func(ctx context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	s.AddTool(&mcpwire.Tool{Name: "log", InputSchema: schema}, func(ctx context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		for _, l := range []mcpwire.LoggingLevel{"debug", "info", "warning", "error"} {
			if err := req.Session.Log(ctx, &mcpwire.LoggingMessageParams{Level: l, Logger: "t", Data: string(l)}); err != nil {
				return nil, err
			}
		}
		if tok := req.Params.ProgressToken(); tok != nil {
			req.Session.NotifyProgress(ctx, &mcpwire.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Message: "half"})
		}
		return &mcpwire.CallToolResult{}, nil
	})
	s.AddResource(&mcpwire.Resource{URI: "test://r", Name: "r", MIMEType: "text/plain"}, func(_ context.Context, req *mcpwire.ReadResourceRequest) (*mcpwire.ReadResourceResult, error) {
		return &mcpwire.ReadResourceResult{Contents: []*mcpwire.ResourceContents{{Text: "hello"}}}, nil
	})
	return s
}

// serve runs s on a pair of pipes; it returns the client's ends and a
// function that closes the input and waits for Run to return.
func serve(t *testing.T, s *mcpwire.Server) (io.ReadCloser, io.WriteCloser, func() error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- s.Run(context.Background(), &mcpwire.IOTransport{Reader: inR, Writer: outW})
		outW.Close()
	}()
	return outR, inW, func() error {
		inW.Close()
		select {
		case err := <-errc:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after the input closed")
			return nil
		}
	}
}

// TestServerWithSDKClient: the official SDK client negotiates, lists and
// calls tools, reads resources and cancels a call.
func TestServerWithSDKClient(t *testing.T) {
	cancelled := make(chan struct{})
	outR, inW, stop := serve(t, testServer(cancelled))
	var mu sync.Mutex
	var logs []string
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, string(req.Params.Level))
			mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	init := cs.InitializeResult()
	if init.ProtocolVersion != "2025-06-18" || init.ServerInfo.Name != "t" || init.ServerInfo.Version != "1.2" || init.Instructions != "be nice" ||
		init.Capabilities.Tools == nil || init.Capabilities.Resources == nil || init.Capabilities.Logging == nil {
		t.Errorf("initialize: %+v caps %+v", init, init.Capabilities)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, " ") != "block echo fail log soft" {
		t.Errorf("tools %v", names)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"a": 1}})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != `{"a":1}` {
		t.Errorf("echo: %+v %v", res, err)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "soft"})
	if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "bad input" {
		t.Errorf("soft: %+v %v", res, err)
	}
	var we *jsonrpc.Error
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fail"}); !errors.As(err, &we) || we.Code != mcpwire.CodeInternalError || we.Message != "it broke" {
		t.Errorf("fail: %v", err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); !errors.As(err, &we) || we.Code != mcpwire.CodeInvalidParams || !strings.Contains(we.Message, `unknown tool "nope"; this server's tools: `) {
		t.Errorf("unknown tool: %v", err)
	}

	rs, err := cs.ListResources(ctx, nil)
	if err != nil || len(rs.Resources) != 1 || rs.Resources[0].URI != "test://r" {
		t.Errorf("resources: %+v %v", rs, err)
	}
	if rt, err := cs.ListResourceTemplates(ctx, nil); err != nil || len(rt.ResourceTemplates) != 0 {
		t.Errorf("templates: %+v %v", rt, err)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://r"})
	if err != nil || rr.Contents[0].Text != "hello" || rr.Contents[0].URI != "test://r" || rr.Contents[0].MIMEType != "text/plain" {
		t.Errorf("read: %+v %v", rr, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://nope"}); !errors.As(err, &we) || we.Code != mcpwire.CodeInvalidParams {
		t.Errorf("unknown resource: %v", err)
	}

	// Logging: nothing before setLevel, then at or above the level.
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "log"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "log"}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		got := strings.Join(logs, " ")
		mu.Unlock()
		if got == "info warning error" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("logs %q", got)
		}
	}

	// Cancelling the client's context cancels the handler's.
	cctx, ccancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "block"})
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	ccancel()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not cancelled")
	}
	if err := <-errc; err == nil {
		t.Error("a cancelled call succeeded")
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping after the cancel: %v", err)
	}
	cs.Close()
	if err := stop(); !errors.Is(err, io.EOF) {
		t.Errorf("Run: %v", err)
	}
}

// noLeak returns a check that the goroutines started since are gone
// (within a few seconds).
func noLeak(t *testing.T) func() {
	before := goruntime.NumGoroutine()
	return func() {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); goruntime.NumGoroutine() > before; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("%d goroutines before, %d after", before, goruntime.NumGoroutine())
				return
			}
		}
	}
}

// wire is a raw JSON-RPC client of a server on pipes.
type wire struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

func newWire(t *testing.T, s *mcpwire.Server) (*wire, func() error) {
	outR, inW, stop := serve(t, s)
	w := &wire{t: t, in: inW, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w, stop
}

func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wire) next() string {
	w.t.Helper()
	select {
	case l := <-w.lines:
		return l
	case <-time.After(5 * time.Second):
		w.t.Fatal("no message from the server")
		return ""
	}
}

// TestServerProtocol: requests before initialize, version negotiation,
// unknown methods, duplicate initialize, bad levels and per-call levels,
// over the wire.
func TestServerProtocol(t *testing.T) {
	defer noLeak(t)()
	w, stop := newWire(t, testServer(make(chan struct{})))
	steps := []struct{ send, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"method \"tools/list\" is invalid before initialize"}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"w","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"protocolVersion":"` + mcpwire.LatestProtocolVersion + `","capabilities":{"logging":{},"tools":{},"resources":{}},"serverInfo":{"name":"t","version":"1.2"},"instructions":"be nice"}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"w","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"duplicate \"initialize\" received"}}`},
		{`{"jsonrpc":"2.0","id":5,"method":"completion/complete","params":{}}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found: \"completion/complete\""}}`},
		{`{"jsonrpc":"2.0","id":51,"method":"prompts/list"}`, `{"jsonrpc":"2.0","id":51,"result":{"prompts":[]}}`},
		{`{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"loud"}}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"invalid logging level \"loud\"; the levels: debug, info, notice, warning, error, critical, alert, emergency"}}`},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"invalid params: \"params\" must be provided"}}`},
		{`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"x:y"}}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"x:y"}}}`},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"cursor":"abc"}}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"invalid cursor"}}`},
		// No level set: no log messages; the call's own level and its
		// progress token apply to that call (the token kept as sent).
		{`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"log"}}`, `{"jsonrpc":"2.0","id":10,"result":{"content":[]}}`},
		{`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"log","_meta":{"io.modelcontextprotocol/logLevel":"warning","progressToken":12345678901234567}}}`,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"t","data":"warning"}}` + "\n" +
				`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"t","data":"error"}}` + "\n" +
				`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":12345678901234567,"progress":1,"message":"half"}}` + "\n" +
				`{"jsonrpc":"2.0","id":11,"result":{"content":[]}}`},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":"x","method":"resources/templates/list"}`, `{"jsonrpc":"2.0","id":"x","result":{"resourceTemplates":[]}}`},
	}
	for _, st := range steps {
		w.send(st.send)
		for _, want := range strings.Split(st.want, "\n") {
			if got := w.next(); got != want {
				t.Errorf("after %s\ngot  %s\nwant %s", st.send, got, want)
			}
		}
	}
	if err := stop(); !errors.Is(err, io.EOF) {
		t.Errorf("Run: %v", err)
	}
}

// TestServerRunEnds: Run returns when its context ends, cancelling the
// calls in flight, and a middleware sees every request.
func TestServerRunEnds(t *testing.T) {
	defer noLeak(t)()
	cancelled := make(chan struct{})
	s := testServer(cancelled)
	var mu sync.Mutex
	var seen []string
	s.AddReceivingMiddleware(func(next mcpwire.MethodHandler) mcpwire.MethodHandler {
		return func(ctx context.Context, ss *mcpwire.ServerSession, req *mcpwire.Request) (any, error) {
			mu.Lock()
			if req.Method == "tools/call" && !ss.Initialized() {
				seen = append(seen, "(not initialized)")
			}
			seen = append(seen, req.Method)
			mu.Unlock()
			return next(ctx, ss, req)
		}
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go io.Copy(io.Discard, outR)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Run(ctx, &mcpwire.IOTransport{Reader: inR, Writer: outW}) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"w","version":"1"}}}`+"\n")
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block"}}`+"\n")
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return when its context ended")
	}
	select {
	case <-cancelled:
	default:
		t.Error("Run returned before the call in flight was cancelled")
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(seen, " ") != "initialize notifications/initialized tools/call" {
		t.Errorf("the middleware saw %v", seen)
	}
}
