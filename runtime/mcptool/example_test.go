package mcptool_test

import (
	"context"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/lang/value"
	a0 "github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/mcptool/mcptest"
	"github.com/a0lang/a0/runtime/mcpwire"
)

// A host that already holds an MCP client session registers it under a
// server name; its tools become A0 tools gated by their own names.
func ExampleManager_AddSession() {
	ctx := context.Background()
	// Any transport will do; here the server (the official SDK's) runs in
	// this process, over a pair of pipes.
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	if _, err := mcptest.New().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil); err != nil {
		panic(err)
	}
	cs, err := mcpwire.NewClient(&mcpwire.Implementation{Name: "host"}, nil).Connect(ctx, &mcpwire.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	m, _ := mcptool.NewManager()
	defer m.Close()
	if err := m.AddSession("kb", cs, []string{"search", "add-note"}); err != nil {
		panic(err)
	}
	env, _ := a0.NewEnv(a0.WithTools(m.Tools(nil)...), a0.WithGrants(a0.GrantFunc(func(c string) bool { return c == "kb.search" })))
	prog, ds := env.Compile("q.a0", `cap { kb.search: true }
let r = call? kb.search { q: "tea" }
return get { in: r, path: "hits.0.title" }`)
	if ds != nil {
		panic(ds)
	}
	res, err := prog.Run(ctx, a0.RunOptions{})
	fmt.Println(value.ToText(res.Value), err)
	// Output: first tea <nil>
}
