package mcpwire

import (
	"bytes"
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
