package hosttool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
)

func TestHostToolSchemaAndCeilings(t *testing.T) {
	store := map[string]value.Value{}
	get, err := hosttool.New(hosttool.Def{
		Name: "kv.get", Capability: "kv", Mode: runtime.ModeRead,
		Schema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			v, ok := store[c.Args.GetOrNull("key").AsString()]
			if !ok {
				return value.NullValue, nil
			}
			return v, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	put, err := hosttool.New(hosttool.Def{
		Name: "kv.put", Capability: "kv", Mode: runtime.ModeEffect,
		Schema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"},"value":{}},"required":["key","value"]}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			store[c.Args.GetOrNull("key").AsString()] = c.Args.GetOrNull("value")
			return value.True, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	env, err := runtime.NewEnv(runtime.WithTools(get, put), runtime.WithGrants(runtime.GrantFunc(func(c string) bool { return c == "kv" })),
		runtime.WithBudgetCeiling(runtime.Budget{MaxToolCalls: runtime.Limit(3)}))
	if err != nil {
		t.Fatal(err)
	}
	run := func(src string) (*runtime.Result, error) {
		p, ds := env.Compile("t.a0", src)
		if len(ds) > 0 {
			return nil, ds
		}
		return p.Run(context.Background(), runtime.RunOptions{})
	}
	res, err := run(`cap { kv: true }
do kv.put { key: "a", value: [1, 2] }
call? kv.get { key: "a" } -> v
return v`)
	if err != nil || value.JSON(res.Value) != "[1,2]" {
		t.Fatalf("got %v %v", res, err)
	}
	// Schema violations are E_TOOL_ARGS.
	_, err = run("cap { kv: true }\nreturn call? kv.get { key: 5 }")
	if e, ok := err.(*runtime.Error); !ok || e.Code != "E_TOOL_ARGS" || !strings.Contains(e.Message, "key:") {
		t.Fatalf("got %v", err)
	}
	// The checker knows host tools: call? on an effect tool, undeclared cap.
	if _, ds := env.Compile("t.a0", "return call? kv.put { key: \"a\", value: 1 }"); len(ds) != 2 ||
		ds[0].Code != "E_UNDECLARED_CAP" || ds[1].Code != "E_CALL_EFFECT" {
		t.Fatalf("got %v", ds)
	}
	// The ceiling caps maxToolCalls even when the program asks for more.
	_, err = run(`cap { kv: true }
budget { maxToolCalls: 100 }
do kv.put { key: "a", value: 1 }
do kv.put { key: "a", value: 1 }
do kv.put { key: "a", value: 1 }
do kv.put { key: "a", value: 1 }
return 1`)
	if e, ok := err.(*runtime.Error); !ok || e.Code != "E_BUDGET" || !strings.Contains(e.Message, "limit of 3") {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(string(runtime.ToolSchema(get)), `"required":["key"]`) {
		t.Errorf("schema %s", runtime.ToolSchema(get))
	}
}
