package mcpwire

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSSELines: event-stream lines end with \r\n, \n or \r alone, mixed
// in one stream; a line over the bound is refused. Before, a line ended
// only at \n, so a stream whose lines end with \r alone (allowed by the
// format) was one line that never ended: its call waited for its timeout.
func TestSSELines(t *testing.T) {
	s := &sseLines{r: bufio.NewReaderSize(strings.NewReader("a\r\nb\nc\rd\r\r\ne\n\n\r\rf"), 16)}
	var got []string
	for {
		l, err := s.next(100)
		if err != nil {
			break
		}
		got = append(got, string(l))
	}
	if want := "a|b|c|d||e|||"; strings.Join(got, "|") != want {
		t.Errorf("lines %q, want %q", strings.Join(got, "|"), want)
	}
	s = &sseLines{r: bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 40)+"\n"), 16)}
	if _, err := s.next(39); err != errSSELineTooLong {
		t.Errorf("a long line: %v", err)
	}
}

// TestStreamableCROnly: an answer whose event lines end with \r alone is
// read as soon as its blank line arrives, while the server keeps the
// stream open.
func TestStreamableCROnly(t *testing.T) {
	release := make(chan struct{})
	s := &ctSSEServer{t: t}
	s.call = func(method, id string, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": hi\revent: message\rdata: {\"jsonrpc\":\"2.0\",\"id\":"+id+",\rdata: \"result\":{\"cr\":true}}\r\r")
		w.(http.Flusher).Flush()
		select { // the stream stays open
		case <-release:
		case <-time.After(5 * time.Second):
		}
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cs, err := NewClient(&Implementation{Name: "a0"}, nil).Connect(ctx, &StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var raw json.RawMessage
	if err := cs.Call(ctx, "cr", nil, &raw); err != nil || string(raw) != `{"cr":true}` {
		t.Errorf("got %s %v", raw, err)
	}
}
