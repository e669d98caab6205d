// Command mcpserve shows a Go program serving A0 over the Model Context
// Protocol with a tool of its own: an agent connected to it gets a0_run,
// a0_check, a0_format, a0_help and a0_tools (runtime/mcpserver), and the programs
// it runs may call the host's notes.add and notes.list (an in-memory
// list) and nothing else: the host grants only the "notes" capability
// and caps every run's budget.
//
// It speaks newline-delimited JSON-RPC on stdin and stdout, as `a0 mcp`
// does; register it with an MCP client as the command
//
//	go run ./examples/mcpserve
//
// It ends when stdin closes or at Ctrl-C.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
	"github.com/a0lang/a0/runtime/mcpserver"
)

// notes is the host's state; calls may come from several runs at once.
type notes struct {
	mu   sync.Mutex
	list []value.Value
}

// tools returns notes.add (an effect: do only) and notes.list (a read:
// call? or do), gated by the host-defined capability "notes".
func (n *notes) tools() ([]runtime.Tool, error) {
	add, err := hosttool.New(hosttool.Def{
		Name: "notes.add", Capability: "notes", Mode: runtime.ModeEffect,
		Description: "Append a note; returns how many notes there are.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"],"additionalProperties":false}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.list = append(n.list, c.Args.GetOrNull("text"))
			return value.Num(float64(len(n.list))), nil
		},
	})
	if err != nil {
		return nil, err
	}
	list, err := hosttool.New(hosttool.Def{
		Name: "notes.list", Capability: "notes", Mode: runtime.ModeRead,
		Description: "The notes, oldest first.",
		Schema:      json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Func: func(*runtime.Call) (value.Value, error) {
			n.mu.Lock()
			defer n.mu.Unlock()
			return value.ListOf(append([]value.Value(nil), n.list...)), nil
		},
	})
	if err != nil {
		return nil, err
	}
	return []runtime.Tool{add, list}, nil
}

// newServer builds the MCP server: the host's tools, its grants (only
// "notes") and its budget ceiling.
func newServer() (*mcpserver.Server, error) {
	ts, err := (&notes{}).tools()
	if err != nil {
		return nil, err
	}
	env, err := runtime.NewEnv(runtime.WithTools(ts...))
	if err != nil {
		return nil, err
	}
	return mcpserver.New(mcpserver.Options{
		Env:     env,
		Grants:  runtime.GrantFunc(func(c string) bool { return c == "notes" }),
		Ceiling: runtime.Budget{MaxToolCalls: runtime.Limit(100), TimeMs: runtime.Limit(10_000)},
		Version: "0.1.0",
	})
}

// serve runs one session on in and out until in ends or ctx is
// cancelled, then waits until the runs in flight have returned.
func serve(ctx context.Context, in io.Reader, out io.Writer) error {
	s, err := newServer()
	if err != nil {
		return err
	}
	err = s.Serve(ctx, in, out)
	<-s.Shutdown()
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := serve(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcpserve:", err)
		os.Exit(1)
	}
}
