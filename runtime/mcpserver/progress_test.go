//lint:file-ignore SA1019 MCP logging is deprecated from protocol 2026-07-28, but a0 still serves and uses it for the protocol versions that have it (spec/mcp.md §8.5, §9.1).

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
	"github.com/a0lang/a0/runtime/mcpserver"
)

// TestProgressAndLogs: a host's server reports an a0_run's progress to
// an SDK client that sent a progress token (each tool call, and every
// second of a tool call that takes longer), in order, and logs a failed check at the client's level: set with
// logging/setLevel (protocol 2025-06-18) or sent with the request
// (2026-07-28).
func TestProgressAndLogs(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2026-07-28"} {
		t.Run(version, func(t *testing.T) { testProgressAndLogs(t, version) })
	}
}

func testProgressAndLogs(t *testing.T, version string) {
	step, err := hosttool.New(hosttool.Def{
		Name: "work.step", Capability: "work", Mode: runtime.ModeRead,
		Schema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer"}}}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			if c.Args.GetOrNull("ms").AsNumber() < 100 {
				// As runtime/mcptool reports a server it started.
				d := value.NewRecord(5)
				d.Set("server", value.Str("notes"))
				d.Set("transport", value.Str("stdio"))
				d.Set("ms", value.Int(23))
				d.Set("ok", value.True)
				d.Set("tools", value.Int(4))
				c.Emit("mcp_server_start", value.RecordOf(d))
			}
			time.Sleep(time.Duration(c.Args.GetOrNull("ms").AsNumber()) * time.Millisecond)
			return value.Str("ok"), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	env, err := runtime.NewEnv(runtime.WithTools(step))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(mcpserver.Options{Env: env, Grants: runtime.GrantFunc(func(c string) bool { return c == "work" })})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	defer func() {
		inW.Close()
		<-srv.Shutdown()
	}()

	var mu sync.Mutex
	var progress, logs, bad []string
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			if req.Params.ProgressToken != "tok" || req.Params.Progress != float64(len(progress)+1) {
				bad = append(bad, fmt.Sprintf("progress %v token %v after %d", req.Params.Progress, req.Params.ProgressToken, len(progress)))
			}
			progress = append(progress, req.Params.Message)
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(req.Params.Data)
			mu.Lock()
			logs = append(logs, string(req.Params.Level)+" "+req.Params.Logger+" "+string(b))
			mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	if version < "2026" {
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
			t.Fatal(err)
		}
	}
	params := &mcp.CallToolParams{Name: "a0_run", Arguments: map[string]any{"source": `cap { work: true }
call? work.step { ms: 10 } -> a
call? work.step { ms: 1300 } -> b
check { that: a == "no", msg: "a is ok" }
return [a, b]`}}
	params.SetProgressToken("tok")
	if version >= "2026" {
		params.Meta[mcp.MetaKeyLogLevel] = "warning"
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	// The server sends every notification before the answer
	// (TestMCPWireProgress looks at the wire), but the SDK client may
	// hand the answer over before it has handled the last ones.
	var got string
	var gotLogs, gotBad []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		got, gotLogs, gotBad = strings.Join(progress, "\n"), slices.Clone(logs), slices.Clone(bad)
		mu.Unlock()
		if strings.Contains(got, "tool call 2: work.step done") && len(gotLogs) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(gotBad) > 0 {
		t.Error(gotBad)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"value":["ok","ok"]`) {
		t.Errorf("text %s", text)
	}
	for _, want := range []string{"started\ntool call 1: work.step started\nMCP server notes started in 23 ms (4 tools)\ntool call 1: work.step done in", "tool call 2: work.step started\nrunning 1s: work.step (tool call 2)\ntool call 2: work.step done in"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q:\n%s", want, got)
		}
	}
	if len(gotLogs) != 1 || !strings.HasPrefix(gotLogs[0], `warning a0 {"event":"check_failed","message":"check failed: a is ok","span":"source.a0:4:1"}`) {
		t.Errorf("logs %q", gotLogs)
	}
}
