package mcpwire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
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

// TestStreamableLongNotification: an event over the message bound that is
// a notification of the server (its start shows a method) is skipped, in
// one data line or several, and the answer after it is read; an answer
// over the bound still fails its call. Before, any over-long event failed
// the call with ErrMessageTooLarge, though it did not answer it.
func TestStreamableLongNotification(t *testing.T) {
	long := strings.Repeat("x", 3000)
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + long + `"}}`
	s := &ctSSEServer{t: t}
	s.call = func(method, id string, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		answer := `data: {"jsonrpc":"2.0","id":` + id + `,"result":{"ok":true}}` + "\n\n"
		switch method {
		case "one-line":
			fmt.Fprint(w, "data: "+note+"\n\n"+answer)
		case "lines":
			fmt.Fprint(w, "data: "+note[:500]+"\ndata: "+note[500:1500]+"\ndata: "+note[1500:]+"\n\n"+answer)
		case "big-answer":
			fmt.Fprint(w, `data: {"jsonrpc":"2.0","id":`+id+`,"result":{"t":"`+long+`"}}`+"\n\n")
		}
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := NewClient(&Implementation{Name: "a0"}, nil).Connect(ctx, &StreamableClientTransport{Endpoint: srv.URL, MaxMessageBytes: 1000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, m := range []string{"one-line", "lines"} {
		var raw json.RawMessage
		if err := cs.Call(ctx, m, nil, &raw); err != nil || string(raw) != `{"ok":true}` {
			t.Errorf("%s: %s %v", m, raw, err)
		}
	}
	if err := cs.Call(ctx, "big-answer", nil, nil); !errors.Is(err, ErrMessageTooLarge) {
		t.Errorf("big-answer: %v", err)
	}
	for _, c := range []struct {
		head string
		want bool
	}{
		{`{"jsonrpc":"2.0","method":"x","params":{"a":`, true},
		{`{"params":{"method":1},"method":"x"`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"method":"x"`, false},
		{`{"a":"method","b":`, false},
		{`["method"`, false},
		{`{"jsonrpc":"2.0","id":1,"result":{"t":"xx`, false},
	} {
		if got := sseHeadIsRequest([]byte(c.head)); got != c.want {
			t.Errorf("%s: %v", c.head, got)
		}
	}
}
