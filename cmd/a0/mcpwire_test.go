package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
)

// mcpWire is `a0 mcp` as a real subprocess (the test binary, which runs
// realMain when called as a0) spoken to over real pipes, line by line.
type mcpWire struct {
	t       *testing.T
	dir     string
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     io.ReadCloser // the server's stdout, read end
	lines   chan string
	exited  chan struct{} // closed when the process has exited
	waitErr error
}

// startMCPWire starts `a0 mcp args...` in a fresh directory holding the
// given policy ("" for none) and completes the MCP handshake.
func startMCPWire(t *testing.T, policy string, args ...string) *mcpWire {
	t.Helper()
	dir := t.TempDir()
	if policy != "" {
		if err := os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(policy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("no a0 command on PATH (run through go test)")
	}
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &mcpWire{t: t, dir: dir, cmd: cmd, in: in, out: out, lines: make(chan string, 1024), exited: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
		w.waitErr = cmd.Wait()
		close(w.exited)
	}()
	t.Cleanup(func() {
		in.Close()
		if !w.waitExit(10 * time.Second) {
			cmd.Process.Kill()
			t.Errorf("a0 mcp did not exit after its stdin closed")
		}
	})
	w.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}}`)
	if m := w.next(10 * time.Second); m == nil || string(m["id"]) != `"init"` {
		t.Fatalf("initialize: %v", m)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return w
}

// waitExit waits for the process to exit; false after timeout.
func (w *mcpWire) waitExit(timeout time.Duration) bool {
	select {
	case <-w.exited:
		return true
	case <-time.After(timeout):
		return false
	}
}

// exitCode is the exit status once the process has exited.
func (w *mcpWire) exitCode() int {
	<-w.exited
	return w.cmd.ProcessState.ExitCode()
}

func (w *mcpWire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

// wireMsg is a message from the server by member; "_raw" holds the line
// (as a JSON string), which is what it prints as.
type wireMsg map[string]json.RawMessage

func (m wireMsg) String() string { return short(m.line()) }

// line is the message as the server sent it.
func (m wireMsg) line() string {
	var s string
	json.Unmarshal(m["_raw"], &s)
	return s
}

// next is the next message from the server, nil after timeout or EOF.
func (w *mcpWire) next(timeout time.Duration) wireMsg {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		if !ok {
			return nil
		}
		var m wireMsg
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			w.t.Fatalf("the server sent a line that is not JSON: %q", short(line))
		}
		m["_raw"], _ = json.Marshal(line)
		return m
	case <-time.After(timeout):
		return nil
	}
}

// call sends a tools/call and returns the raw line of its response.
func (w *mcpWire) call(id, tool, argsJSON string) string {
	w.t.Helper()
	w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + argsJSON + `}}`)
	m := w.next(30 * time.Second)
	if m == nil {
		w.t.Fatalf("no answer to %s", id)
	}
	if string(m["id"]) != id {
		w.t.Fatalf("answer to %s has id %s", id, m["id"])
	}
	var raw string
	json.Unmarshal(m["_raw"], &raw)
	return raw
}

// wireError decodes the error member of a response.
func wireError(m wireMsg) (code int, msg string) {
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal(m["error"], &e)
	return e.Code, e.Message
}

// TestMCPWireMalformed: a malformed line is answered with a JSON-RPC error
// (-32700 for what is not JSON, -32600 for what is not a valid message)
// and the session carries on. Before, the first such line ended the
// session (E_IO "MCP session failed", exit 4) without an answer.
func TestMCPWireMalformed(t *testing.T) {
	w := startMCPWire(t, "")
	cases := []struct {
		line string
		code int
		id   string
	}{
		{`this is not json`, -32700, "null"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"`, -32700, "null"},
		{`{"jsonrpc":"1.0","id":2,"method":"ping"}`, -32600, "2"},
		{`{"id":3,"method":"ping"}`, -32600, "3"},
		{`{"jsonrpc":"2.0","id":4}`, -32600, "4"},
		{`{"jsonrpc":"2.0"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":[5],"method":"ping"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":6.5,"method":"ping"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":7,"method":7}`, -32600, "7"},
		{`{"jsonrpc":"2.0","id":8,"method":"ping","params":3}`, -32600, "8"},
		{`[]`, -32600, "null"},
		{`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, -32600, "null"},
		{`42`, -32600, "null"},
		{`"ping"`, -32600, "null"},
		{`null`, -32600, "null"},
		{strings.Repeat("[", 20000) + strings.Repeat("]", 20000), -32700, "null"}, // past the decoder's nesting limit
	}
	for i, c := range cases {
		w.send(c.line)
		m := w.next(10 * time.Second)
		if m == nil {
			t.Fatalf("%d %q: no answer", i, short(c.line))
		}
		code, msg := wireError(m)
		if code != c.code || string(m["id"]) != c.id || string(m["jsonrpc"]) != `"2.0"` || msg == "" {
			t.Errorf("%d %q: id %s code %d %q", i, short(c.line), m["id"], code, msg)
		}
		// The session goes on: a ping after each bad line is answered.
		w.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
		if m := w.next(10 * time.Second); m == nil || string(m["id"]) != `"p"` || m["result"] == nil {
			t.Fatalf("%d %q: no pong after it: %v", i, short(c.line), m)
		}
	}
	// Blank lines are skipped; a tool call still works.
	w.send("")
	w.send("   ")
	raw := w.call("10", "a0_run", `{"source":"return { z: 1, a: 0.1 + 0.2 }"}`)
	if !strings.Contains(raw, `"structuredContent":{"ok":true,"exitCode":0,"value":{"z":1,"a":0.30000000000000004},"diagnostics":[],"evidence":[]}`) {
		t.Errorf("a0_run after the bad lines: %s", short(raw))
	}
}

// wireResult decodes the result of a tools/call response line.
func wireResult(t *testing.T, raw string) (structured map[string]json.RawMessage, text string, isError bool) {
	t.Helper()
	var resp struct {
		Result struct {
			Content []struct {
				Type, Text string
			} `json:"content"`
			StructuredContent map[string]json.RawMessage `json:"structuredContent"`
			IsError           bool                       `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(raw), &resp); err != nil {
		t.Fatalf("response %q: %v", short(raw), err)
	}
	if len(resp.Result.Content) != 1 || resp.Result.Content[0].Type != "text" {
		t.Fatalf("content: %q", short(raw))
	}
	return resp.Result.StructuredContent, resp.Result.Content[0].Text, resp.Result.IsError
}

// TestMCPWireResultLimit: a small value is sent twice (the structured
// content, and the same JSON as text), a larger one once (the text is then
// a short summary), a result over --max-result-bytes omits its
// value (truncated, size, omitted, valuePreview), and a result nested too
// deep for clients' JSON parsers is answered the same way. Before, the
// value was sent twice without bound, and a 12 000-deep value got no
// answer at all.
func TestMCPWireResultLimit(t *testing.T) {
	w := startMCPWire(t, "", "--max-result-bytes", "4096")

	raw := w.call("1", "a0_run", `{"source":"return { a: [1, 2], b: \"x\" }"}`)
	sc, text, isErr := wireResult(t, raw)
	if isErr || string(sc["value"]) != `{"a":[1,2],"b":"x"}` || sc["truncated"] != nil {
		t.Errorf("small result: %s", raw)
	}
	if strings.Count(raw, `[1,2]`) != 2 || text != `{"ok":true,"exitCode":0,"value":{"a":[1,2],"b":"x"},"diagnostics":[],"evidence":[]}` { // the value and its JSON as text
		t.Errorf("small result: %s", raw)
	}

	// 2^14 bytes: four times the limit.
	raw = w.call("2", "a0_run", `{"source":"check { that: true, msg: \"c\" }\nreturn loop { in: \"y\", times: 14, as: \"a\" } { return a + a }"}`)
	if len(raw) > 4096 {
		t.Errorf("response of %d bytes over a limit of 4096", len(raw))
	}
	sc, text, isErr = wireResult(t, raw)
	var preview string
	json.Unmarshal(sc["valuePreview"], &preview)
	if isErr || string(sc["truncated"]) != "true" || atoi(string(sc["size"])) < 16384 || string(sc["value"]) != "null" ||
		string(sc["omitted"]) != `["value"]` || !strings.HasPrefix(preview, `"yyyy`) || len(sc["evidence"]) < 10 {
		t.Errorf("large result: %s", short(raw))
	}
	if !strings.Contains(text, "Truncated: value omitted") {
		t.Errorf("summary %q", text)
	}

	// Nested deeper than clients parse: answered, with a preview.
	raw = w.call("3", "a0_run", `{"source":"budget { maxIterations: 100000 }\nlet d = loop { in: 0, times: 12000, as: \"v\" } { return [v] }\nreturn d"}`)
	sc, _, _ = wireResult(t, raw)
	if string(sc["truncated"]) != "true" && string(sc["exitCode"]) == "0" {
		t.Errorf("deep result: %s", short(raw))
	}
	if value.JSONTextDepth(raw) > mcpMaxDepth+4 {
		t.Errorf("deep result sent %d levels deep", value.JSONTextDepth(raw))
	}

	// Other tools are bounded too.
	raw = w.call("4", "a0_format", `{"source":"return \"`+strings.Repeat("z", 5000)+`\""}`)
	sc, _, _ = wireResult(t, raw)
	if string(sc["truncated"]) != "true" || string(sc["formatted"]) != `""` || len(raw) > 4096 {
		t.Errorf("a0_format: %s", short(raw))
	}
	w.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a0_help","arguments":{"topic":"stdlib"}}}`)
	if m := w.next(10 * time.Second); m == nil || len(m.line()) > 4096 || !strings.Contains(string(m["result"]), "truncated") {
		t.Errorf("a0_help: %v", m)
	}
}

// TestMCPWireSmallResultLimit: under a small limit the whole response line
// still fits, and a large value is still sent truncated (not as an error).
func TestMCPWireSmallResultLimit(t *testing.T) {
	w := startMCPWire(t, "", "--max-result-bytes", "1000")
	raw := w.call("1", "a0_run", `{"source":"return loop { in: \"\\n\\\"\", times: 12, as: \"a\" } { return a + a }"}`)
	sc, text, isErr := wireResult(t, raw)
	if len(raw) > 1000 || isErr || string(sc["truncated"]) != "true" || string(sc["exitCode"]) != "0" {
		t.Errorf("%d bytes: %s", len(raw), raw)
	}
	if !strings.Contains(text, "Truncated") {
		t.Errorf("summary %q", text)
	}
}

// TestMCPMaxResultBytesFlag: the flag takes a positive integer.
func TestMCPMaxResultBytesFlag(t *testing.T) {
	for _, v := range []string{"abc", "0", "-5", "1.5"} {
		var out, errb strings.Builder
		code := realMain([]string{"mcp", "--max-result-bytes", v}, strings.NewReader(""), &out, &errb)
		if code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), "--max-result-bytes") {
			t.Errorf("%s: exit %d, stderr %q", v, code, errb.String())
		}
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }
