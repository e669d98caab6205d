package mcpwire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"
)

// rawServer is the other end of a Peer on real pipes, spoken to line by
// line: the test reads the calls and writes what it likes.
type rawServer struct {
	t     *testing.T
	calls chan map[string]json.RawMessage
	w     *os.File
}

func newRawServer(t *testing.T) (*Peer, *rawServer) {
	t.Helper()
	cr, sw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	sr, cw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	conn, _ := (&IOTransport{Reader: cr, Writer: cw}).Connect(context.Background())
	p := NewPeer(conn, PeerOptions{})
	s := &rawServer{t: t, calls: make(chan map[string]json.RawMessage, 16), w: sw}
	go func() {
		sc := bufio.NewScanner(sr)
		for sc.Scan() {
			// The client never sends a batch.
			if b := sc.Bytes(); len(b) == 0 || b[0] != '{' {
				t.Errorf("the peer sent %q, not one JSON object", b)
			}
			var m map[string]json.RawMessage
			json.Unmarshal(sc.Bytes(), &m)
			s.calls <- m
		}
		close(s.calls)
	}()
	t.Cleanup(func() {
		p.Close()
		sw.Close()
		sr.Close()
	})
	return p, s
}

// next is the id of the next call the peer sent.
func (s *rawServer) next() string {
	s.t.Helper()
	select {
	case m := <-s.calls:
		return string(m["id"])
	case <-time.After(5 * time.Second):
		s.t.Fatal("no call")
	}
	return ""
}

func (s *rawServer) send(line string) {
	s.t.Helper()
	if _, err := s.w.WriteString(line + "\n"); err != nil {
		s.t.Fatal(err)
	}
}

// call starts a call and returns where its error arrives.
func call(p *Peer, method string) chan error {
	ch := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ch <- p.Call(ctx, method, nil, nil)
	}()
	return ch
}

const nullErr = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: %s"}}`

func wantServerError(t *testing.T, what string, ch chan error, msg string) {
	t.Helper()
	select {
	case err := <-ch:
		var we *Error
		if !errors.As(err, &we) || we.Code != CodeParseError || we.Message != "Parse error: "+msg || we.Unwrap() != nil {
			t.Errorf("%s: %v, want the server's error %q", what, err, msg)
		}
	case <-time.After(2 * time.Second):
		t.Fatalf("%s still waits 2 s after the error with id null", what)
	}
}

func wantWaiting(t *testing.T, what string, ch chan error) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("%s ended (%v) while it cannot be told to be the one the error is about", what, err)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestPeerNullIDError: an error the other side sends with id null (its
// answer to a message whose id it could not read) fails the call it must
// be about, with the server's error, at once when one call is in flight;
// with several, once the others are answered; never a call the server
// still answers. Before, it was dropped and the call waited for its
// timeout.
func TestPeerNullIDError(t *testing.T) {
	t.Run("one call", func(t *testing.T) {
		p, s := newRawServer(t)
		a := call(p, "a")
		s.next()
		s.send(fmt.Sprintf(nullErr, "one"))
		wantServerError(t, "the call", a, "one")
		// The peer carries on.
		b := call(p, "b")
		id := s.next()
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`)
		if err := <-b; err != nil {
			t.Errorf("next call: %v", err)
		}
	})
	t.Run("two calls", func(t *testing.T) {
		p, s := newRawServer(t)
		a := call(p, "a")
		idA := s.next()
		b := call(p, "b")
		s.next()
		s.send(fmt.Sprintf(nullErr, "two"))
		wantWaiting(t, "call a", a)
		wantWaiting(t, "call b", b)
		// a is answered: the error was about b.
		s.send(`{"jsonrpc":"2.0","id":` + idA + `,"result":{}}`)
		if err := <-a; err != nil {
			t.Errorf("call a: %v", err)
		}
		wantServerError(t, "call b", b, "two")
	})
	t.Run("as many errors as calls", func(t *testing.T) {
		p, s := newRawServer(t)
		a := call(p, "a")
		s.next()
		b := call(p, "b")
		s.next()
		s.send(fmt.Sprintf(nullErr, "x"))
		s.send(fmt.Sprintf(nullErr, "x"))
		wantServerError(t, "call a", a, "x")
		wantServerError(t, "call b", b, "x")
	})
	t.Run("no call", func(t *testing.T) {
		p, s := newRawServer(t)
		s.send(fmt.Sprintf(nullErr, "none"))
		// The peer's answer to a request sent after shows it has read
		// the error.
		s.send(`{"jsonrpc":"2.0","id":"s1","method":"ping"}`)
		if id := s.next(); id != `"s1"` {
			t.Fatalf("got %s, want the answer to s1", id)
		}
		a := call(p, "a")
		id := s.next()
		wantWaiting(t, "a later call", a)
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`)
		if err := <-a; err != nil {
			t.Errorf("call: %v", err)
		}
	})
}
