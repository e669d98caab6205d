// Command embed shows a Go program hosting A0: it registers two tools of
// its own (an in-memory key-value store), grants only their capability,
// caps the budget, then compiles and runs an A0 program and prints the
// result.
//
//	go run ./examples/embed
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
)

// program is the A0 program the host runs. It declares the capability it
// needs and a budget; the host's ceiling may lower the budget, never raise it.
const program = `cap { kv: true }
budget { maxToolCalls: 10 }

do kv.put { key: "greeting", value: "hello" }
do kv.put { key: "count", value: 21 }
call? kv.get { key: "count" } -> n
call? kv.get { key: "greeting" } -> g
check { that: n == 21, msg: "count was stored" }
return { greeting: g, doubled: n * 2 }
`

// store is the host's state. Tools may be called from many runs at once,
// so it is locked.
type store struct {
	mu sync.Mutex
	m  map[string]value.Value
}

// kvTools returns kv.get (a read tool: call? or do) and kv.put (an effect:
// do only), both gated by the host-defined capability "kv". The JSON
// Schemas are checked before a tool runs (E_TOOL_ARGS otherwise).
func kvTools(s *store) ([]runtime.Tool, error) {
	get, err := hosttool.New(hosttool.Def{
		Name: "kv.get", Capability: "kv", Mode: runtime.ModeRead,
		Description: "Read a key; null when it is not set.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if v, ok := s.m[c.Args.GetOrNull("key").AsString()]; ok {
				return v, nil
			}
			return value.NullValue, nil
		},
	})
	if err != nil {
		return nil, err
	}
	put, err := hosttool.New(hosttool.Def{
		Name: "kv.put", Capability: "kv", Mode: runtime.ModeEffect,
		Description: "Set a key to any value.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"},"value":{}},"required":["key","value"]}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.m[c.Args.GetOrNull("key").AsString()] = c.Args.GetOrNull("value")
			return value.True, nil
		},
	})
	if err != nil {
		return nil, err
	}
	return []runtime.Tool{get, put}, nil
}

func run(w io.Writer) error {
	tools, err := kvTools(&store{m: map[string]value.Value{}})
	if err != nil {
		return err
	}
	env, err := runtime.NewEnv(
		runtime.WithTools(tools...),
		// The policy: grant "kv" and nothing else (fs.read, sh.exec, ... are refused).
		runtime.WithGrants(runtime.GrantFunc(func(capability string) bool { return capability == "kv" })),
		// The budget ceiling: no run may take more than 5 tool calls or 2 s.
		runtime.WithBudgetCeiling(runtime.Budget{MaxToolCalls: runtime.Limit(5), TimeMs: runtime.Limit(2000)}),
	)
	if err != nil {
		return err
	}
	prog, diags := env.Compile("task.a0", program)
	if len(diags) > 0 {
		return diags // static errors: nothing ran
	}
	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	if err != nil {
		return err // a *runtime.Error with an A0 code such as E_CAP_DENIED or E_BUDGET
	}
	fmt.Fprintln(w, "result:", value.JSONIndent(res.Value))
	fmt.Fprintln(w, "evidence:", value.JSON(value.ListOf(res.Evidence)))
	fmt.Fprintln(w, "exit code:", runtime.ExitCode(res, nil))

	// The same environment refuses a program that asks for more than the policy grants.
	greedy, diags := env.Compile("greedy.a0", "cap { kv: true, sh.exec: true }\nreturn 1")
	if len(diags) > 0 {
		return diags
	}
	_, err = greedy.Run(context.Background(), runtime.RunOptions{})
	fmt.Fprintln(w, "greedy program:", err)
	return nil
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
