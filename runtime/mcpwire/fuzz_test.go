package mcpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// FuzzDecodeMessage checks that no input makes DecodeMessage panic, and
// that what it accepts encodes again and decodes to the same kind of
// message with the same id.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","arguments":{},"_meta":{"progressToken":0}}}`,
		`{"jsonrpc":"2.0","id":0,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":null}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}`,
		`{"jsonrpc":"2.0","method":7}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`null`, `{}`, `"x"`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, err := DecodeMessage(data)
		if err != nil {
			return
		}
		out, err := EncodeMessage(msg)
		if err != nil {
			// A request decoded from the wire always has a method.
			t.Fatalf("EncodeMessage of a decoded %T: %v", msg, err)
		}
		again, err := DecodeMessage(out)
		if err != nil {
			if r, ok := msg.(*Response); ok && !r.ID.IsValid() && r.Error == nil {
				return
			}
			t.Fatalf("the encoding %s of %s does not decode: %v", out, data, err)
		}
		switch m := msg.(type) {
		case *Request:
			a, ok := again.(*Request)
			if !ok || a.ID != m.ID || a.Method != m.Method {
				t.Fatalf("%s: request %v/%q came back as %s", data, m.ID, m.Method, out)
			}
		case *Response:
			a, ok := again.(*Response)
			if !ok || a.ID != m.ID {
				t.Fatalf("%s: response %v came back as %s", data, m.ID, out)
			}
		}
		_ = bytes.TrimSpace(out)
	})
}

// FuzzServerDispatch checks that no params of any method make the
// server's own handling panic (a panic would be recovered as an internal
// error, but each is a bug), before and after initialize.
func FuzzServerDispatch(f *testing.F) {
	for _, m := range []string{MethodInitialize, MethodPing, MethodListTools, MethodCallTool, MethodListResources,
		MethodListResourceTemplates, MethodReadResource, MethodSetLevel, methodListPrompts, "x"} {
		for _, p := range []string{``, `null`, `{}`, `[]`, `1`, `{"name":"t","arguments":null,"_meta":{"progressToken":1,"io.modelcontextprotocol/logLevel":"debug"}}`,
			`{"uri":"r"}`, `{"cursor":"c"}`, `{"level":"info"}`, `{"protocolVersion":7,"capabilities":[],"clientInfo":"x"}`} {
			f.Add(m, []byte(p), true)
		}
	}
	f.Fuzz(func(t *testing.T, method string, params []byte, initFirst bool) {
		s := NewServer(&Implementation{Name: "s"}, nil)
		s.AddTool(&Tool{Name: "t", InputSchema: []byte(`{"type":"object"}`)}, func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
			return &CallToolResult{}, nil
		})
		s.AddResource(&Resource{URI: "r", Name: "r"}, func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error) {
			return &ReadResourceResult{Contents: []*ResourceContents{{Text: "x"}}}, nil
		})
		ss := &ServerSession{server: s, ready: make(chan struct{})}
		close(ss.ready)
		if initFirst {
			if _, err := s.dispatch(context.Background(), ss, &Request{ID: Int64ID(0), Method: MethodInitialize, Params: []byte(`{"protocolVersion":"2025-06-18"}`)}); err != nil {
				t.Fatal(err)
			}
		}
		var raw []byte
		if len(params) > 0 {
			raw = params
		}
		for _, id := range []ID{Int64ID(1), {}} {
			res, err := s.dispatch(context.Background(), ss, &Request{ID: id, Method: method, Params: raw})
			if err == nil && id.IsValid() {
				if _, err := json.Marshal(res); err != nil {
					t.Fatalf("%s %s: the result does not encode: %v", method, params, err)
				}
			}
		}
	})
}
