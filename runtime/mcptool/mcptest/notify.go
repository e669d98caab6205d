//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28, but a0 still serves and uses it for the protocol versions that have it (spec/mcp.md §8.5, §9.1).

package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addNotifyTools adds the tool "steps", which reports its progress and
// logs as it works: {steps, ms} sends, for each of steps steps (default
// 3), a notifications/progress (when the call has a progress token:
// progress i, total steps, message "step i of n") and a log message
// (level info, logger "steps", data {step, secret?}), then waits ms
// (default 50) milliseconds; the last step logs at warning. With
// {leak: true} the log data also carries $SECRET_TOKEN, so tests can see
// it masked. The result is the text "done".
func addNotifyTools(add func(*mcp.Tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error))) {
	add(&mcp.Tool{Name: "steps", Description: "Work in steps, reporting progress and logging each.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"steps":{"type":"integer","minimum":0},"ms":{"type":"integer","minimum":0},"leak":{"type":"boolean"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := args(req)
			n, ms := 3, 50
			if v, ok := a["steps"].(float64); ok {
				n = int(v)
			}
			if v, ok := a["ms"].(float64); ok {
				ms = int(v)
			}
			leak, _ := a["leak"].(bool)
			token := req.Params.GetProgressToken()
			for i := 1; i <= n; i++ {
				if token != nil {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
						Progress: float64(i), Total: float64(n), Message: fmt.Sprintf("step %d of %d", i, n)})
				}
				data := map[string]any{"step": i}
				if leak {
					data["secret"] = os.Getenv("SECRET_TOKEN")
				}
				level := mcp.LoggingLevel("info")
				if i == n {
					level = "warning"
				}
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: "steps", Data: data})
				select {
				case <-time.After(time.Duration(ms) * time.Millisecond):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return text("done"), nil
		})
}
