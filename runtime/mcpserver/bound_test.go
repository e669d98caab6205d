package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
)

// pipeClient is a client of a server on real pipes, line by line.
type pipeClient struct {
	t     *testing.T
	in    *os.File // the server's input, write end
	lines chan map[string]json.RawMessage
}

// newPipeClient reads the server's output from out and completes the
// handshake.
func newPipeClient(t *testing.T, in, out *os.File) *pipeClient {
	c := &pipeClient{t: t, in: in, lines: make(chan map[string]json.RawMessage, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m map[string]json.RawMessage
			json.Unmarshal(sc.Bytes(), &m)
			c.lines <- m
		}
		close(c.lines)
	}()
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *pipeClient) send(line string) {
	c.t.Helper()
	if _, err := c.in.WriteString(line + "\n"); err != nil {
		c.t.Fatal(err)
	}
}

func (c *pipeClient) next() map[string]json.RawMessage {
	c.t.Helper()
	select {
	case m, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server's output ended")
		}
		return m
	case <-time.After(10 * time.Second):
		c.t.Fatal("no answer in 10 s")
	}
	return nil
}

// blockingEnv is an environment whose tool wait.here returns when release
// is closed (or its run is cancelled).
func blockingEnv(t *testing.T, release chan struct{}) *runtime.Env {
	tool, err := hosttool.New(hosttool.Def{
		Name: "wait.here", Capability: "wait", Mode: runtime.ModeRead,
		Schema: json.RawMessage(`{"type":"object"}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			select {
			case <-release:
			case <-c.Ctx.Done():
			}
			return value.Str("ok"), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	env, err := runtime.NewEnv(runtime.WithTools(tool))
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// waitCall is an a0_run call of wait.here whose source is padded to
// about size bytes.
func waitCall(id, size int) string {
	src := "cap { wait: true }\n# " + strings.Repeat("x", size) + "\ncall? wait.here {} -> r\nreturn r"
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": "a0_run", "arguments": map[string]any{"source": src}}})
	return string(b)
}

// TestMCPRequestBytesBound: the calls in progress hold at most the bound
// of request bytes; a call past it is answered at once with a busy error
// (not queued), a small request and a cancellation still pass, and once
// calls end their bytes are free again.
func TestMCPRequestBytesBound(t *testing.T) {
	release := make(chan struct{})
	srv, err := New(Options{Env: blockingEnv(t, release), Grants: runtime.GrantFunc(func(c string) bool { return c == "wait" })})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	defer inW.Close()
	defer outR.Close()
	served := make(chan error, 1)
	go func() {
		served <- srv.h.server().Run(context.Background(), &mcpStdio{r: inR, w: outW, maxHeld: 1 << 20})
		outW.Close()
	}()
	c := newPipeClient(t, inW, outR)
	c.send(waitCall(1, 400<<10))
	c.send(waitCall(2, 400<<10))
	c.send(waitCall(3, 400<<10)) // 1.2 MiB with the two above
	m := c.next()
	if string(m["id"]) != "3" || !strings.Contains(string(m["error"]), `"code":-32603`) || !strings.Contains(string(m["error"]), "Server busy") {
		t.Fatalf("the call past the bound: %s", fmt.Sprint(m))
	}
	t.Logf("answer: %s", m["error"])
	// A small call and a cancellation still pass.
	c.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if m := c.next(); string(m["id"]) != "4" || m["result"] == nil {
		t.Fatalf("ping: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	// The cancelled call's bytes are free once its run has ended: a call
	// of the same size is taken again (it waits, unanswered).
	accepted := ""
	for id := 5; accepted == "" && id < 100; id++ {
		c.send(waitCall(id, 400<<10))
		select {
		case m := <-c.lines:
			if !strings.Contains(string(m["error"]), "Server busy") || string(m["id"]) != fmt.Sprint(id) {
				t.Fatalf("call %d: %v", id, m)
			}
			time.Sleep(20 * time.Millisecond)
		case <-time.After(300 * time.Millisecond):
			accepted = fmt.Sprint(id)
		}
	}
	if accepted == "" {
		t.Fatal("the cancelled call's bytes were not released")
	}
	close(release)
	ids := map[string]bool{}
	for len(ids) < 2 {
		ids[string(c.next()["id"])] = true
	}
	if !ids["1"] || !ids[accepted] {
		t.Errorf("answers after the release: %v, want 1 and %s", ids, accepted)
	}
	c.send(waitCall(200, 900<<10))
	if m := c.next(); string(m["id"]) != "200" || m["result"] == nil {
		t.Errorf("a call after the others ended: %v", m)
	}
	inW.Close()
	<-served
}

// TestMCPBatch: `a0 mcp` answers a JSON-RPC batch with one error -32600
// of id null saying to send one message per line (none of its requests
// is handled), and the session goes on.
func TestMCPBatch(t *testing.T) {
	env, err := runtime.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	defer inR.Close()
	defer outR.Close()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	c := newPipeClient(t, inW, outR)
	c.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	m := c.next()
	if string(m["id"]) != "null" || !strings.Contains(string(m["error"]), `"code":-32600`) ||
		!strings.Contains(string(m["error"]), "batches are not supported") || !strings.Contains(string(m["error"]), "one message per line") {
		t.Errorf("batch answered %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if m := c.next(); string(m["id"]) != "3" {
		t.Errorf("after the batch: %v (a request of the batch was handled?)", m)
	}
	inW.Close()
	<-served
}
