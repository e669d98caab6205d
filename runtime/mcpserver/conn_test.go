package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/runtime/mcpwire"
)

// syncBuffer collects what the connection writes.
type syncBuffer struct{ lines chan string }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.lines <- string(p)
	return len(p), nil
}

// TestMCPConnWrite: a response that cannot be encoded becomes an internal
// error with the request's id (never silence), and the response of a
// cancelled request is dropped.
func TestMCPConnWrite(t *testing.T) {
	inR, inW := io.Pipe()
	out := &syncBuffer{lines: make(chan string, 16)}
	conn, err := (&mcpStdio{r: inR, w: out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	read := func() mcpwire.Message {
		t.Helper()
		m, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`+"\n")
	req := read().(*mcpwire.Request)
	if err := conn.Write(ctx, &mcpwire.Response{ID: req.ID, Result: json.RawMessage(`{"broken":`)}); err != nil {
		t.Fatal(err)
	}
	got := <-out.lines
	if !strings.Contains(got, `"id":1`) || !strings.Contains(got, `"code":-32603`) {
		t.Errorf("unencodable response: %s", got)
	}

	io.WriteString(inW, `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{}}`+"\n")
	req = read().(*mcpwire.Request)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}`+"\n")
	read()
	if err := conn.Write(ctx, &mcpwire.Response{ID: req.ID, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-out.lines:
		t.Errorf("a cancelled request was answered: %s", got)
	case <-time.After(50 * time.Millisecond):
	}
	// Its id is free again.
	io.WriteString(inW, `{"jsonrpc":"2.0","id":"c","method":"ping"}`+"\n")
	if m, ok := read().(*mcpwire.Request); !ok || m.Method != "ping" {
		t.Errorf("reused id: %+v", m)
	}
	inW.Close()
	if _, err := conn.Read(ctx); err != io.EOF {
		t.Errorf("at the end of input: %v", err)
	}
}

// TestReadBoundedLine: a line over the limit is consumed to its end and
// reported without its bytes; the next line is read normally.
func TestReadBoundedLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)+"\nshort\nlast"), 16)
	line, tooLong, err := readBoundedLine(r, 50)
	if !tooLong || line != nil || err != nil {
		t.Errorf("long line: %q %v %v", line, tooLong, err)
	}
	line, tooLong, err = readBoundedLine(r, 50)
	if string(line) != "short\n" || tooLong || err != nil {
		t.Errorf("short line: %q %v %v", line, tooLong, err)
	}
	line, tooLong, err = readBoundedLine(r, 50)
	if string(line) != "last" || tooLong || err != io.EOF {
		t.Errorf("last line: %q %v %v", line, tooLong, err)
	}
}

// TestMCPConnFloatID: a request whose integer id is written 1.0 is handed
// to the server (the line check admits it, and the decoding agrees), and
// the answer to it after its cancellation is dropped. Before, the decoding
// refused what the check admitted: the request got -32600 instead.
func TestMCPConnFloatID(t *testing.T) {
	inR, inW := io.Pipe()
	out := &syncBuffer{lines: make(chan string, 16)}
	conn, err := (&mcpStdio{r: inR, w: out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.0}}`+"\n")
	m, err := conn.Read(ctx)
	if err != nil {
		t.Fatalf("no request: %v (written: %q)", err, drain(out))
	}
	req, ok := m.(*mcpwire.Request)
	if !ok || req.ID != mcpwire.Int64ID(1) {
		t.Fatalf("got %#v", m)
	}
	if _, err := conn.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if err := conn.Write(ctx, &mcpwire.Response{ID: req.ID, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if s := drain(out); s != "" {
		t.Errorf("written: %s", s)
	}
}

func drain(b *syncBuffer) string {
	var s string
	for {
		select {
		case l := <-b.lines:
			s += l
		default:
			return s
		}
	}
}
