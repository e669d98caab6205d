package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A panicking handler answers with an error result instead of crashing
// the server.
func TestMCPGuardRecoversPanic(t *testing.T) {
	h := guard(func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("boom")
	})
	res, err := h(context.Background(), &mcp.CallToolRequest{})
	if err != nil || res == nil || !res.IsError {
		t.Fatalf("res %+v err %v", res, err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text != "internal error: boom" {
		t.Errorf("text %q", text)
	}
}
