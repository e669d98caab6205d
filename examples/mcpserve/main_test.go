package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestServe drives the server over pipes as an MCP client would: the
// program a0_run receives calls the host's tools; a program that asks
// for a capability the host does not grant is refused.
func TestServe(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(context.Background(), inR, outW)
		outW.Close()
	}()
	answers := bufio.NewScanner(outR)
	answers.Buffer(nil, 1<<20)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	call := func(id int, src string) map[string]any {
		t.Helper()
		args, _ := json.Marshal(map[string]any{"name": "a0_run", "arguments": map[string]any{"source": src}})
		send(`{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":` + string(args) + `}`)
		if !answers.Scan() {
			t.Fatalf("no answer: %v", answers.Err())
		}
		var resp struct {
			Result struct {
				StructuredContent map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(answers.Bytes(), &resp); err != nil {
			t.Fatalf("%v: %s", err, answers.Text())
		}
		return resp.Result.StructuredContent
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if !answers.Scan() || !strings.Contains(answers.Text(), `"a0"`) {
		t.Fatalf("initialize: %s", answers.Text())
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	got := call(2, "cap { notes: true }\ndo notes.add { text: \"buy milk\" }\ndo notes.add { text: \"call Ada\" }\nreturn call? notes.list {}")
	if b, _ := json.Marshal(got["value"]); string(b) != `["buy milk","call Ada"]` || got["exitCode"] != 0.0 {
		t.Errorf("notes: %v", got)
	}
	got = call(3, "cap { sh.exec: true }\nreturn 1")
	if got["exitCode"] != 3.0 || !strings.Contains(jsonText(got["diagnostics"]), "E_CAP_DENIED") {
		t.Errorf("ungranted capability: %v", got)
	}

	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
