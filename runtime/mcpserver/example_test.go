package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
	"github.com/a0lang/a0/runtime/mcpserver"
)

// A host serves MCP with its own tool: an agent's a0_run calls reach the
// host's greet.person under the host's grants. Here the client's lines
// come from a pipe; `a0 mcp` serves os.Stdin and os.Stdout the same way.
func Example() {
	greet, err := hosttool.New(hosttool.Def{
		Name: "greet.person", Capability: "greet", Mode: runtime.ModeRead,
		Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			return value.Str("Hello, " + c.Args.GetOrNull("name").AsString() + "!"), nil
		},
	})
	if err != nil {
		panic(err)
	}
	env, err := runtime.NewEnv(runtime.WithTools(greet))
	if err != nil {
		panic(err)
	}
	srv, err := mcpserver.New(mcpserver.Options{
		Env:     env,
		Grants:  runtime.GrantFunc(func(c string) bool { return c == "greet" }),
		Ceiling: runtime.Budget{MaxToolCalls: runtime.Limit(10)},
		Version: "1.0.0",
	})
	if err != nil {
		panic(err)
	}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	answers := bufio.NewScanner(outR)
	answers.Buffer(nil, 1<<20)
	send := func(line string) { io.WriteString(inW, line+"\n") }

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`)
	answers.Scan()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a0_run","arguments":{"source":"cap { greet: true }\ncall? greet.person { name: \"Ada\" } -> g\nreturn g"}}}`)
	answers.Scan()
	var resp struct {
		Result struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(answers.Bytes(), &resp); err != nil {
		panic(err)
	}
	fmt.Println(string(resp.Result.StructuredContent))

	inW.Close() // the client goes away: Serve returns
	<-srv.Shutdown()
	// Output:
	// {"ok":true,"exitCode":0,"value":"Hello, Ada!","diagnostics":[],"evidence":[]}
}
