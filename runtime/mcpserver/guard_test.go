package mcpserver

import (
	"context"
	"testing"

	"github.com/a0lang/a0/runtime/mcpwire"
)

// A panicking handler answers with an error result instead of crashing
// the server.
func TestMCPGuardRecoversPanic(t *testing.T) {
	h := guard(func(context.Context, *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		panic("boom")
	})
	res, err := h(context.Background(), &mcpwire.CallToolRequest{})
	if err != nil || res == nil || !res.IsError {
		t.Fatalf("res %+v err %v", res, err)
	}
	if text := res.Content[0].(*mcpwire.TextContent).Text; text != "internal error: boom" {
		t.Errorf("text %q", text)
	}
}
