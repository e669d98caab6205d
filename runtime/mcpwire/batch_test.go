package mcpwire_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/runtime/mcpwire"
)

// TestServerAnswersBatch: a JSON-RPC batch (a JSON array as one line),
// which MCP removed in protocol 2025-06-18, is answered with one error
// -32600 of id null that says to send one message per line, and the
// session goes on. Before, the line ended the session.
func TestServerAnswersBatch(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	done := make(chan error, 1)
	go func() {
		done <- testServer(make(chan struct{})).Run(context.Background(), &mcpwire.IOTransport{Reader: inR, Writer: outW})
	}()
	lines := bufio.NewScanner(outR)
	next := func() map[string]json.RawMessage {
		t.Helper()
		got := make(chan bool, 1)
		go func() { got <- lines.Scan() }()
		select {
		case ok := <-got:
			if !ok {
				t.Fatal("the session ended")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no answer")
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", lines.Text(), err)
		}
		return m
	}
	send := func(line string) { inW.WriteString(line + "\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next()
	for _, batch := range []string{
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
		`[]`,
	} {
		send(batch)
		m := next()
		var e mcpwire.Error
		json.Unmarshal(m["error"], &e)
		if string(m["id"]) != "null" || e.Code != mcpwire.CodeInvalidRequest ||
			!strings.Contains(e.Message, "batches are not supported") || !strings.Contains(e.Message, "one message per line") {
			t.Errorf("%s: answered %v", batch, m)
		}
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if m := next(); string(m["id"]) != "4" || m["result"] == nil {
		t.Errorf("ping after the batches: %v", m)
	}
	inW.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after the input closed")
	}
	outW.Close()
}
