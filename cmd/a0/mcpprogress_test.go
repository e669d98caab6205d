package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// wireNote is a notification the server sent, and when it arrived.
type wireNote struct {
	at     time.Time
	method string
	params map[string]json.RawMessage
}

func (n wireNote) str(k string) string {
	var s string
	json.Unmarshal(n.params[k], &s)
	return s
}

// callNotes sends a tools/call with params (the JSON of its params) and
// collects the notifications that arrive until its answer, with the
// longest wait between two messages (the request counts as the first).
func (w *mcpWire) callNotes(id, params string, timeout time.Duration) (notes []wireNote, raw string, maxGap time.Duration) {
	w.t.Helper()
	last := time.Now()
	w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`)
	for {
		m := w.next(timeout)
		if m == nil {
			w.t.Fatalf("no answer to %s", id)
		}
		now := time.Now()
		maxGap = max(maxGap, now.Sub(last))
		last = now
		if string(m["id"]) == id {
			return notes, m.line(), maxGap
		}
		var method string
		json.Unmarshal(m["method"], &method)
		n := wireNote{at: now, method: method}
		json.Unmarshal(m["params"], &n.params)
		notes = append(notes, n)
	}
}

// progressOf checks the progress notifications among notes (token, a
// progress that always grows) and returns their messages.
func progressOf(t *testing.T, notes []wireNote, token string) []string {
	t.Helper()
	var msgs []string
	prev := 0.0
	for _, n := range notes {
		if n.method != "notifications/progress" {
			continue
		}
		var p float64
		json.Unmarshal(n.params["progress"], &p)
		if string(n.params["progressToken"]) != token || p <= prev {
			t.Errorf("progress %v after %v, token %s", p, prev, n.params["progressToken"])
		}
		prev = p
		msgs = append(msgs, n.str("message"))
	}
	return msgs
}

// TestMCPWireProgress: an a0_run of about 5 s whose call carries a
// progress token gets a notification per tool call started and ended and
// at least one a second in between, all before the answer; so a client
// whose 1.5 s timeout is reset by each progress notification (the
// TypeScript SDK's resetTimeoutOnProgress) completes the call: the
// longest silence is well under 1.5 s. Before, a0 mcp sent no progress at
// all and such a client gave up after 1.5 s.
func TestMCPWireProgress(t *testing.T) {
	w := startMCPWire(t, "", "--unsafe-allow-all")
	src := `cap { sh.exec: true }
do sh.exec { argv: ["sleep", "1"] } -> a
do sh.exec { argv: ["sleep", "4"] } -> b
return [a.exitCode, b.exitCode]`
	args, _ := json.Marshal(map[string]any{"name": "a0_run", "arguments": map[string]any{"source": src}, "_meta": map[string]any{"progressToken": "p-1"}})
	start := time.Now()
	notes, raw, maxGap := w.callNotes("1", string(args), 30*time.Second)
	took := time.Since(start)
	sc, _, isErr := wireResult(t, raw)
	if isErr || string(sc["value"]) != "[0,0]" {
		t.Fatalf("result %s", short(raw))
	}
	msgs := progressOf(t, notes, `"p-1"`)
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"tool call 1: sh.exec started", "tool call 1: sh.exec done in", "tool call 2: sh.exec started", "tool call 2: sh.exec done in", "running 3s: sh.exec (tool call 2)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no progress %q in:\n%s", want, joined)
		}
	}
	if maxGap >= 1500*time.Millisecond || len(msgs) < 8 {
		t.Errorf("%d progress notifications in %v, longest silence %v:\n%s", len(msgs), took, maxGap, joined)
	}
	t.Logf("%d progress notifications in %v, longest silence %v", len(msgs), took, maxGap)

	// Without a token: no notification, only the answer.
	notes, _, _ = w.callNotes("2", `{"name":"a0_run","arguments":{"source":"cap { sh.exec: true }\ndo sh.exec { argv: [\"true\"] } -> r\nreturn r.exitCode"}}`, 30*time.Second)
	if len(notes) != 0 {
		t.Errorf("notifications without a progress token: %v", notes)
	}
}

// TestMCPWireLogging: nothing is logged until the client sets a level
// (logging/setLevel); then failed checks (warning), tool errors (error)
// and started jobs (info) are sent as notifications/message at or above
// that level. Before, logging was declared but nothing was ever sent.
func TestMCPWireLogging(t *testing.T) {
	w := startMCPWire(t, "", "--unsafe-allow-all")
	failing := `{"name":"a0_run","arguments":{"source":"check { that: 1 > 2, msg: \"one is more\" }\nreturn 1"}}`
	notes, raw, _ := w.callNotes("1", failing, 30*time.Second)
	if sc, _, _ := wireResult(t, raw); string(sc["exitCode"]) != "5" || len(notes) != 0 {
		t.Fatalf("before setLevel: %v %s", notes, short(raw))
	}

	w.send(`{"jsonrpc":"2.0","id":"lv","method":"logging/setLevel","params":{"level":"warning"}}`)
	if m := w.next(10 * time.Second); m == nil || m["result"] == nil {
		t.Fatalf("setLevel: %v", m)
	}
	notes, _, _ = w.callNotes("2", failing, 30*time.Second)
	if len(notes) != 1 || notes[0].method != "notifications/message" || notes[0].str("level") != "warning" || notes[0].str("logger") != "a0" ||
		!strings.Contains(string(notes[0].params["data"]), `"message":"check failed: one is more"`) || !strings.Contains(string(notes[0].params["data"]), `"span":"source.a0:1:1"`) {
		t.Errorf("failed check at warning: %v", notes)
	}

	// A tool error is an error; the job started is info, under warning.
	src := `cap { sh.exec: true }
do sh.start { argv: ["true"] } -> j
do sh.exec { argv: ["no-such-command-a0-test"] } -> r
return r`
	args, _ := json.Marshal(map[string]any{"name": "a0_run", "arguments": map[string]any{"source": src}})
	notes, _, _ = w.callNotes("3", string(args), 30*time.Second)
	if len(notes) != 1 || notes[0].str("level") != "error" || !strings.Contains(string(notes[0].params["data"]), `tool sh.exec failed: `) {
		t.Errorf("tool error at warning: %v", notes)
	}
	w.send(`{"jsonrpc":"2.0","id":"lv2","method":"logging/setLevel","params":{"level":"info"}}`)
	w.next(10 * time.Second)
	notes, _, _ = w.callNotes("4", string(args), 30*time.Second)
	var levels []string
	for _, n := range notes {
		levels = append(levels, n.str("level"))
	}
	if strings.Join(levels, " ") != "info error" || !strings.Contains(string(notes[0].params["data"]), `"event":"job_start"`) {
		t.Errorf("at info: %v", notes)
	}
}

// TestMCPWireTextIsJSON: a0_run's text content is the result's full
// JSON, the same as its structured content, up to maxTextBytes (64 KiB by
// default): a 200-row result arrives whole in the text. Past the bound
// the text is the summary, which says why. Before, the text was a summary
// of about 300 bytes that cut such a result at row 12.
func TestMCPWireTextIsJSON(t *testing.T) {
	w := startMCPWire(t, "")
	src := "return for { in: range { from: 0, to: 200 }, as: \"i\" } {\n  return { row: i, name: str.concat { parts: [\"item \", i] }, even: i % 2 == 0 }\n}"
	args, _ := json.Marshal(map[string]any{"source": src})
	raw := w.call("1", "a0_run", string(args))
	sc, text, isErr := wireResult(t, raw)
	var full struct {
		OK    bool `json:"ok"`
		Value []struct {
			Row  int    `json:"row"`
			Name string `json:"name"`
		} `json:"value"`
	}
	if err := json.Unmarshal([]byte(text), &full); err != nil || isErr || !full.OK || len(full.Value) != 200 || full.Value[199].Name != "item 199" {
		t.Fatalf("text %q: %v", short(text), err)
	}
	if !strings.Contains(raw, `"structuredContent":`+text) {
		t.Errorf("the text is not the structured content: %s", short(raw))
	}
	if string(sc["value"])[:20] != `[{"row":0,"name":"it` {
		t.Errorf("structured %s", short(string(sc["value"])))
	}

	// A bound under the size: the summary, saying so.
	args, _ = json.Marshal(map[string]any{"source": src, "maxTextBytes": 1000})
	_, text, _ = wireResult(t, w.call("2", "a0_run", string(args)))
	if !strings.HasPrefix(text, "exit 0 (ok); value: [") || !strings.Contains(text, "is over maxTextBytes (1000); the structured content has the whole result.") {
		t.Errorf("summary %q", text)
	}
	for i, bad := range []string{`-1`, `1.5`, `"big"`} {
		raw := w.call(`"b`+string(rune('0'+i))+`"`, "a0_run", `{"source":"return 1","maxTextBytes":`+bad+`}`)
		if _, text, isErr := wireResult(t, raw); !isErr || !strings.Contains(text, `invalid arguments: "maxTextBytes" must be a non-negative integer`) {
			t.Errorf("maxTextBytes %s: %s", bad, short(raw))
		}
	}
}

// TestMCPWireServerNotifications: the progress and logs of an MCP server
// an a0_run calls reach the client: its progress as a0_run's progress,
// its logs as notifications/message with the logger "mcp:<server>".
func TestMCPWireServerNotifications(t *testing.T) {
	bin := testServerBin(t)
	w := startMCPWire(t, `{"allow":["notes.*"],"mcp":{"notes":{"command":["`+bin+`"]}}}`)
	w.send(`{"jsonrpc":"2.0","id":"lv","method":"logging/setLevel","params":{"level":"warning"}}`)
	w.next(10 * time.Second)
	src := `cap { notes.steps: true }
return call? notes.steps { steps: 3, ms: 20 }`
	args, _ := json.Marshal(map[string]any{"name": "a0_run", "arguments": map[string]any{"source": src}, "_meta": map[string]any{"progressToken": 7}})
	notes, raw, _ := w.callNotes("1", string(args), 30*time.Second)
	if sc, _, _ := wireResult(t, raw); string(sc["value"]) != `"done"` {
		t.Fatalf("result %s", short(raw))
	}
	joined := strings.Join(progressOf(t, notes, "7"), "\n")
	for i, want := range []string{"notes.steps: step 1 of 3 (1/3)", "notes.steps: step 2 of 3 (2/3)", "notes.steps: step 3 of 3 (3/3)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("%d: no progress %q in:\n%s", i, want, joined)
		}
	}
	var logs []string
	for _, n := range notes {
		if n.method == "notifications/message" {
			logs = append(logs, n.str("level")+" "+n.str("logger")+" "+string(n.params["data"]))
		}
	}
	// The server logs steps 1 and 2 at info (under the client's level)
	// and step 3 at warning.
	if len(logs) != 1 || logs[0] != `warning mcp:notes {"data":{"step":3},"logger":"steps","server":"notes"}` {
		t.Errorf("logs %q", logs)
	}
}

// TestMCPWireTextOnce: a result that fits --max-result-bytes once but not
// twice keeps the summary as text, saying so, and the response stays
// within the limit.
func TestMCPWireTextOnce(t *testing.T) {
	w := startMCPWire(t, "", "--max-result-bytes", "4096")
	raw := w.call("1", "a0_run", `{"source":"return loop { in: \"y\", times: 11, as: \"a\" } { return a + a }"}`) // 2048 bytes
	sc, text, isErr := wireResult(t, raw)
	if isErr || sc["truncated"] != nil || len(raw) > 4096 || !strings.Contains(text, "fits the server's limit (4096 bytes) only once; the structured content has the whole result.") {
		t.Errorf("%d bytes: %s", len(raw), short(raw))
	}
}
