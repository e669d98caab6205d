package mcptool

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/runtime/mcpwire"
)

// TestStdioPendingForgotten: a call whose context ends leaves no entry in
// the connection's bookkeeping, though the server never answers it (as
// MCP asks of a server told notifications/cancelled), and a late answer
// to it, nested too deep to decode, is dropped rather than ending the
// connection. Before, every timed-out call left its entry for the life
// of the session, so a long session grew without bound.
func TestStdioPendingForgotten(t *testing.T) {
	toA0R, toA0W, err := os.Pipe() // the server's stdout
	if err != nil {
		t.Fatal(err)
	}
	toSrvR, toSrvW, err := os.Pipe() // the server's stdin
	if err != nil {
		t.Fatal(err)
	}
	defer toA0W.Close()
	defer toSrvR.Close()
	conn, err := newStdioTransport(toA0R, toSrvW, 1<<20).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := conn.(*stdioConn).st
	peer := mcpwire.NewPeer(conn, mcpwire.PeerOptions{})
	defer peer.Close()
	// The server reads everything and answers nothing.
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(toSrvR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for i := 0; i < 20; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		err := peer.Call(ctx, mcpwire.MethodCallTool, map[string]any{"name": "x"}, nil)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		st.mu.Lock()
		n := len(st.pending)
		st.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls still pending after their contexts ended", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A late, deep answer to call 1, then a ping the peer answers.
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	io.WriteString(toA0W, `{"jsonrpc":"2.0","id":1,"result":{"x":`+deep+`}}`+"\n")
	io.WriteString(toA0W, `{"jsonrpc":"2.0","id":"p","method":"ping"}`+"\n")
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the connection ended: %v", peer.Err())
			}
			if strings.Contains(l, `"id":"p"`) {
				return
			}
		case <-timeout:
			t.Fatalf("no answer to the ping; the connection: %v", peer.Err())
		}
	}
}

// TestProgressRouteSession: a progress notification reaches a call only
// from the session the call went out on. Tokens are a0's ("a0-N", shared
// by every server), so before, any server could put progress events, with
// a message of its choosing, into the trace of another server's call.
func TestProgressRouteSession(t *testing.T) {
	mine, other := &mcpwire.ClientSession{}, &mcpwire.ClientSession{}
	params := &mcpwire.CallToolParams{Name: "x"}
	done := routes.open(params, mine, nil, nil, "s.x")
	defer done()
	token, _ := params.Meta["progressToken"].(string)
	if routes.route(token, mine) == nil {
		t.Fatalf("no route for %q on its own session", token)
	}
	if routes.route(token, other) != nil {
		t.Errorf("another session's notification reaches the call")
	}
}

// TestRefusedCallText: a server's JSON-RPC error is shown with the
// server's name; one without a message by its code (it read "refused the
// call: " and nothing), and a huge one cut (it was shown whole, up to the
// size of a line).
func TestRefusedCallText(t *testing.T) {
	tool := &Tool{srv: &server{cfg: ServerConfig{Name: "notes"}}}
	for _, c := range []struct {
		err  *mcpwire.Error
		want string
	}{
		{mcpwire.NewError(-32602, "bad params"), "MCP server 'notes' refused the call: bad params"},
		{mcpwire.NewError(-32000, " "), "MCP server 'notes' refused the call: error -32000 without a message"},
		{mcpwire.NewError(1, strings.Repeat("é", 5000)), "… (10000 bytes)"},
	} {
		got := tool.failed(context.Background(), nil, nil, c.err).Error()
		if !strings.Contains(got, c.want) || len(got) > 5000 {
			t.Errorf("%q…: got %q…", c.err.Message[:min(len(c.err.Message), 20)], got[:min(len(got), 200)])
		}
	}
}

// TestAdmitExactID: a server's request is noted under the id it will be
// decoded with, also past 2^53, so the answer frees its place. Before, the
// id went through a float64 (9007199254740993 became ...992): the request
// was then dropped as unknown and its place among maxServerRequests was
// taken for good.
func TestAdmitExactID(t *testing.T) {
	st := &connState{pending: map[mcpwire.ID]*pendingReq{}, incoming: map[mcpwire.ID]bool{}}
	l := &lineLimiter{st: st}
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"s","method":"ping"}`,
	} {
		if !l.admit([]byte(line)) {
			t.Fatalf("%s: not admitted", line)
		}
		msg, err := mcpwire.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if !st.incoming[msg.(*mcpwire.Request).ID] {
			t.Errorf("%s: noted as %v", line, st.incoming)
		}
	}
}

// TestStdioNotAMessage: a line of the server's stdout that is not a
// JSON-RPC message (a log line, the usual mistake) ends the connection
// with an error that quotes it and says where logs go. Before, the error
// gave only the JSON decoder's complaint ("invalid character 'L' …").
func TestStdioNotAMessage(t *testing.T) {
	toA0R, toA0W, _ := os.Pipe()
	toSrvR, toSrvW, _ := os.Pipe()
	defer toA0W.Close()
	defer toSrvR.Close()
	conn, _ := newStdioTransport(toA0R, toSrvW, 1<<20).Connect(context.Background())
	peer := mcpwire.NewPeer(conn, mcpwire.PeerOptions{})
	defer peer.Close()
	go io.Copy(io.Discard, toSrvR)
	io.WriteString(toA0W, "Listening on port 3000 "+strings.Repeat("x", 100)+"\n")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := peer.Call(ctx, mcpwire.MethodPing, nil, nil)
	want := `("Listening on port 3000 xxx`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "…\": invalid character 'L'") ||
		!strings.Contains(err.Error(), "its logs go to stderr") {
		t.Errorf("got %v", err)
	}
}

// TestStdioLongNotification: a notification of the server longer than
// the line limit is dropped; the calls in flight are answered as usual.
// Before, an over-long line without an id failed every call a0 had in
// flight with output_limit, though none of them was answered by it.
func TestStdioLongNotification(t *testing.T) {
	toA0R, toA0W, _ := os.Pipe()
	toSrvR, toSrvW, _ := os.Pipe()
	defer toA0W.Close()
	defer toSrvR.Close()
	conn, _ := newStdioTransport(toA0R, toSrvW, 1000).Connect(context.Background())
	peer := mcpwire.NewPeer(conn, mcpwire.PeerOptions{})
	defer peer.Close()
	go func() {
		sc := bufio.NewScanner(toSrvR)
		for sc.Scan() {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(sc.Bytes(), &m)
			io.WriteString(toA0W, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`+strings.Repeat("x", 5000)+`"}}`+"\n")
			io.WriteString(toA0W, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"ok":true}}`+"\n")
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var raw json.RawMessage
	if err := peer.Call(ctx, mcpwire.MethodCallTool, map[string]any{"name": "x"}, &raw); err != nil || string(raw) != `{"ok":true}` {
		t.Errorf("got %s %v", raw, err)
	}
}

// TestListRepeatedCursorQuotedShort: a server whose tools/list repeats a
// cursor is refused with an error that quotes at most 200 bytes of it.
// Before, the whole cursor (up to the result limit) went into the error.
func TestListRepeatedCursorQuotedShort(t *testing.T) {
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	srvConn, _ := (&mcpwire.IOTransport{Reader: br, Writer: bw}).Connect(context.Background())
	cursor := strings.Repeat("c", 5000)
	srv := mcpwire.NewPeer(srvConn, mcpwire.PeerOptions{Handler: func(ctx context.Context, req *mcpwire.Request) (any, error) {
		switch req.Method {
		case mcpwire.MethodInitialize:
			return &mcpwire.InitializeResult{ProtocolVersion: mcpwire.LatestProtocolVersion, ServerInfo: &mcpwire.Implementation{Name: "s"}}, nil
		case mcpwire.MethodListTools:
			return map[string]any{"tools": []any{}, "nextCursor": cursor}, nil
		}
		return nil, nil
	}})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcpwire.NewClient(&mcpwire.Implementation{Name: "a0"}, nil).Connect(ctx, &mcpwire.IOTransport{Reader: ar, Writer: aw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	s := &server{cfg: ServerConfig{Name: "notes"}, session: cs}
	err = s.list(ctx)
	if err == nil || !strings.Contains(err.Error(), "repeat the cursor") || len(err.Error()) > 400 {
		t.Errorf("got %d bytes: %.300v", len(fmt.Sprint(err)), err)
	}
}
