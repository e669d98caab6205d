package mcpwire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// pipePair returns two connected IOTransport connections.
func pipePair(t *testing.T) (Connection, Connection) {
	t.Helper()
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	a, _ := (&IOTransport{Reader: ar, Writer: aw}).Connect(context.Background())
	b, _ := (&IOTransport{Reader: br, Writer: bw}).Connect(context.Background())
	return a, b
}

func TestPeerCallAndCancel(t *testing.T) {
	ca, cb := pipePair(t)
	started := make(chan struct{})
	cancelled := make(chan struct{})
	server := NewPeer(cb, PeerOptions{Handler: func(ctx context.Context, req *Request) (any, error) {
		switch req.Method {
		case "echo":
			return req.Params, nil
		case "fail":
			return nil, NewError(-32000, "no")
		case "block":
			close(started)
			<-ctx.Done()
			close(cancelled)
			return nil, ctx.Err()
		}
		return nil, NewError(CodeMethodNotFound, "method not found")
	}})
	client := NewPeer(ca, PeerOptions{})
	defer client.Close()
	defer server.Close()

	var got json.RawMessage
	if err := client.Call(context.Background(), "echo", map[string]int{"a": 1}, &got); err != nil || string(got) != `{"a":1}` {
		t.Fatalf("echo: %s %v", got, err)
	}
	var we *Error
	if err := client.Call(context.Background(), "fail", nil, nil); !errors.As(err, &we) || we.Code != -32000 {
		t.Fatalf("fail: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if err := client.Call(ctx, "block", nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("block: %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled by notifications/cancelled")
	}
}

func TestPeerClosedFailsPending(t *testing.T) {
	ca, cb := pipePair(t)
	server := NewPeer(cb, PeerOptions{Handler: func(ctx context.Context, req *Request) (any, error) {
		<-ctx.Done()
		return nil, nil
	}})
	client := NewPeer(ca, PeerOptions{})
	errc := make(chan error, 1)
	go func() { errc <- client.Call(context.Background(), "block", nil, nil) }()
	time.Sleep(50 * time.Millisecond)
	server.Close()
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("a call on a closed connection succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the pending call did not end when the connection closed")
	}
	client.Close()
}

func TestMessageRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"a","method":"x","params":{"b":2}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":7,"result":{"ok":true}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"nope"}}`,
	} {
		m, err := DecodeMessage([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := EncodeMessage(m)
		if err != nil || string(out) != in {
			t.Errorf("round trip of %s gave %s (%v)", in, out, err)
		}
	}
	for _, bad := range []string{`[]`, `{"id":1,"method":"x"}`, `{"jsonrpc":"2.0","id":1.5,"method":"x"}`, `{"jsonrpc":"2.0","id":1}`} {
		if _, err := DecodeMessage([]byte(bad)); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func TestContentJSON(t *testing.T) {
	r := &CallToolResult{Content: []Content{&TextContent{Text: "hi"}, &ImageContent{Data: "AA==", MIMEType: "image/png"}}, StructuredContent: json.RawMessage(`{"b":1,"a":2}`)}
	out, err := json.Marshal(r)
	want := `{"content":[{"type":"text","text":"hi"},{"type":"image","data":"AA==","mimeType":"image/png"}],"structuredContent":{"b":1,"a":2}}`
	if err != nil || string(out) != want {
		t.Fatalf("got %s (%v)", out, err)
	}
	var back CallToolResult
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Content) != 2 || back.Content[0].(*TextContent).Text != "hi" || string(back.StructuredContent) != `{"b":1,"a":2}` {
		t.Fatalf("decoded %+v", back)
	}
	if out, _ := json.Marshal(&CallToolResult{}); string(out) != `{"content":[]}` {
		t.Errorf("empty result: %s", out)
	}
}

// TestPeerCancelledNotAnswered: a call the other side cancels with
// notifications/cancelled gets no answer (MCP: the receiver does not
// respond to a cancelled request); the next call is answered. Before, the
// handler's error (context canceled) was sent back as an answer.
func TestPeerCancelledNotAnswered(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	inner, _ := (&IOTransport{Reader: inR, Writer: outW}).Connect(context.Background())
	conn := &endingConn{Connection: inner, ended: make(chan ID, 1)}
	started := make(chan struct{})
	p := NewPeer(conn, PeerOptions{Handler: func(ctx context.Context, req *Request) (any, error) {
		if req.Method == "block" {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return struct{}{}, nil
	}})
	defer p.Close()
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"block"}`+"\n")
	<-started
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}`+"\n")
	time.Sleep(50 * time.Millisecond)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":"next","method":"ping"}`+"\n")
	select {
	case l := <-lines:
		if l != `{"jsonrpc":"2.0","id":"next","result":{}}` {
			t.Errorf("first line written: %s", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer to the ping")
	}
	// The connection learns that the call is over (CallEnder).
	select {
	case id := <-conn.ended:
		if id != Int64ID(0) {
			t.Errorf("EndCall(%v)", id)
		}
	case <-time.After(5 * time.Second):
		t.Error("EndCall was not called")
	}
}

// endingConn records the calls ended without an answer.
type endingConn struct {
	Connection
	ended chan ID
}

func (c *endingConn) EndCall(id ID) { c.ended <- id }

// TestPeerWriteWaitFollowsContext: a call whose message waits for another
// message's write (the other side does not read) gives up when its own
// context ends. Before, it waited on a mutex until the blocked write's
// context ended, however long that was: a tool's timeout was no bound.
func TestPeerWriteWaitFollowsContext(t *testing.T) {
	conn := &stuckConn{entered: make(chan struct{}, 1), closed: make(chan struct{})}
	p := NewPeer(conn, PeerOptions{})
	defer p.Close()
	slowCtx, cancelSlow := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelSlow()
	go p.Call(slowCtx, "slow", nil, nil)
	<-conn.entered
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := p.Call(ctx, "fast", nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Errorf("after %v: %v", time.Since(start), err)
	}
}

// stuckConn is a connection whose writes block until their context ends
// (a peer that does not read).
type stuckConn struct {
	entered chan struct{}
	closed  chan struct{}
	once    sync.Once
}

func (c *stuckConn) Read(ctx context.Context) (Message, error) {
	select {
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *stuckConn) Write(ctx context.Context, msg Message) error {
	select {
	case c.entered <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return ctx.Err()
}

func (c *stuckConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *stuckConn) SessionID() string { return "" }

// A method this side does not handle is named in the answer quoted and
// clipped: a peer that sends a huge name does not get it back whole.
func TestMethodNotFoundClipped(t *testing.T) {
	ca, cb := pipePair(t)
	server := NewPeer(cb, PeerOptions{})
	client := NewPeer(ca, PeerOptions{})
	defer client.Close()
	defer server.Close()
	err := client.Call(context.Background(), strings.Repeat("é", 1<<15), nil, nil)
	var we *Error
	if !errors.As(err, &we) || we.Code != CodeMethodNotFound {
		t.Fatalf("got %v", err)
	}
	if len(we.Message) > 300 || !utf8.ValidString(we.Message) || !strings.HasPrefix(we.Message, `method not found: "éé`) {
		t.Errorf("message of %d bytes: %.80q", len(we.Message), we.Message)
	}
}

// A peer whose reading fails (here a line over the limit) closes the
// connection, so the other side's calls end instead of waiting forever.
func TestPeerReadFailureCloses(t *testing.T) {
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	a, _ := (&IOTransport{Reader: ar, Writer: aw}).Connect(context.Background())
	b, _ := (&IOTransport{Reader: br, Writer: bw, MaxLineLength: 1024}).Connect(context.Background())
	server := NewPeer(b, PeerOptions{})
	client := NewPeer(a, PeerOptions{})
	defer client.Close()
	defer server.Close()
	errc := make(chan error, 1)
	go func() { errc <- client.Call(context.Background(), strings.Repeat("x", 4096), nil, nil) }()
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("a call the other side could not read succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call still waits after the other side's reading failed")
	}
}
