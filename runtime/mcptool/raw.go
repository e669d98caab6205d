package mcptool

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK decodes a tool result's structuredContent into Go maps, which
// lose the member order the server sent. rawTransport wraps a stdio
// connection to keep the raw JSON of each tools/call response, so results
// reach A0 with their members in the server's order.

type rawKey struct{}

// rawSlot receives the raw result of one tools/call request; it is put in
// the request's context.
type rawSlot struct {
	mu  sync.Mutex
	raw json.RawMessage
}

func (s *rawSlot) get() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw
}

type rawTransport struct{ mcp.Transport }

func (t *rawTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rawConn{Connection: c, pending: map[jsonrpc.ID]*rawSlot{}}, nil
}

type rawConn struct {
	mcp.Connection
	mu      sync.Mutex
	pending map[jsonrpc.ID]*rawSlot
}

func (c *rawConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" && req.ID.IsValid() {
		if slot, ok := ctx.Value(rawKey{}).(*rawSlot); ok {
			c.mu.Lock()
			c.pending[req.ID] = slot
			c.mu.Unlock()
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		slot := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		if slot != nil {
			slot.mu.Lock()
			slot.raw = resp.Result
			slot.mu.Unlock()
		}
	}
	return msg, err
}
