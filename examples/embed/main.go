// Command embed shows a Go program hosting A0: it registers two tools of
// its own (an in-memory key-value store) next to the built-in tools, built
// from a policy with tools.FromPolicy exactly as the a0 command builds
// them, grants only what the policy allows, caps the budget, then compiles
// and runs A0 programs and prints the results.
//
//	go run ./examples/embed
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/tools"
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

// hostPolicy is the host's policy, in the policy file format: the "kv"
// capability and fs.read, confined to the host's directory. An embedder
// may instead load the user's files with policy.Load(dir, home).
const hostPolicy = `{"version": 1, "allow": ["kv", "fs.read"], "fs": {"read": ["."]}}`

func run(w io.Writer) error {
	kv, err := kvTools(&store{m: map[string]value.Value{}})
	if err != nil {
		return err
	}
	// The host's directory, with a file the programs may read.
	dir, err := os.MkdirTemp("", "a0-embed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("from the host"), 0o644); err != nil {
		return err
	}
	pfile := filepath.Join(dir, ".a0policy.json")
	pol, err := policy.Parse(pfile, []byte(hostPolicy))
	if err != nil {
		return err
	}
	res := &policy.Resolved{Source: policy.SourceProject, Path: pfile, Policy: pol}
	// The built-in tools from a typed configuration. tools.FromPolicy is
	// what `a0 run` uses; a tools.Config written by hand works too, and
	// its zero value reaches no file and no private address.
	builtin := tools.New(tools.FromPolicy(res, dir))
	env, err := runtime.NewEnv(
		runtime.WithTools(append(kv, builtin...)...),
		runtime.WithWorkDir(dir),
		// The policy: grant "kv" and fs.read and nothing else (fs.write, sh.exec, ... are refused).
		runtime.WithGrants(res),
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
	result, err := prog.Run(context.Background(), runtime.RunOptions{})
	if err != nil {
		return err // a *runtime.Error with an A0 code such as E_CAP_DENIED or E_BUDGET
	}
	fmt.Fprintln(w, "result:", value.JSONIndent(result.Value))
	fmt.Fprintln(w, "evidence:", value.JSON(value.ListOf(result.Evidence)))
	fmt.Fprintln(w, "exit code:", runtime.ExitCode(result, nil))

	// The same environment refuses a program that asks for more than the policy grants.
	greedy, diags := env.Compile("greedy.a0", "cap { kv: true, sh.exec: true }\nreturn 1")
	if len(diags) > 0 {
		return diags
	}
	_, err = greedy.Run(context.Background(), runtime.RunOptions{})
	fmt.Fprintln(w, "greedy program:", err)

	// fs.read reaches the policy's root and nothing outside it.
	for _, path := range []string{"notes.txt", "/etc/passwd"} {
		reader, diags := env.Compile("read.a0", "cap { fs.read: true }\nreturn call? fs.read { path: \""+path+"\" }")
		if len(diags) > 0 {
			return diags
		}
		result, err := reader.Run(context.Background(), runtime.RunOptions{})
		var rerr *runtime.Error
		if errors.As(err, &rerr) {
			fmt.Fprintln(w, "read", path+":", rerr.Code, rerr.Details.AsRecord().GetOrNull("reason").AsString())
			continue
		}
		fmt.Fprintln(w, "read", path+":", value.JSON(result.Value))
	}
	return nil
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
