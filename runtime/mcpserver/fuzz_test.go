package mcpserver

import (
	"bytes"
	"io"
	"testing"

	"github.com/a0lang/a0/runtime/mcpwire"
)

// FuzzMCPConnCheck checks that no line makes the line check of `a0 mcp`
// panic, and that a line it hands on is a message mcpwire decodes.
func FuzzMCPConnCheck(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1.0,"method":"x","params":[]}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1e0}}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":1}}`,
		`[]`, `1`, `{"jsonrpc":"2.0","method":""}`, `{"id":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return
		}
		c := newMCPConn(io.Discard)
		defer c.Close()
		if msg, _ := c.check(line); msg != nil {
			if _, err := mcpwire.DecodeMessage(line); err != nil {
				t.Fatalf("handed on %s, which does not decode: %v", line, err)
			}
			// The call is noted under the id the server will answer.
			if req, ok := msg.(*mcpwire.Request); ok && req.IsCall() {
				if _, ok := c.calls[req.ID]; !ok || len(c.calls) != 1 {
					t.Fatalf("%s: the call %v is noted as %v", line, req.ID, c.calls)
				}
			}
		}
	})
}
