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

// TestHostToolStrictCheck: `a0 check --strict` (CompileOptions.Strict)
// knows a host tool's arguments from its schema: an argument name a
// closed schema (additionalProperties: false) does not list is
// E_UNKNOWN_ARG with the likely rename, and every literal value of the
// wrong type is E_TOOL_ARGS; values only known at run time, and tools
// whose schema is open or absent, pass. The plain check reports none.
func TestHostToolStrictCheck(t *testing.T) {
	mk := func(name, schema string) runtime.Tool {
		d := hosttool.Def{Name: name, Capability: "kv", Mode: runtime.ModeRead,
			Func: func(c *runtime.Call) (value.Value, error) { return value.True, nil }}
		if schema != "" {
			d.Schema = json.RawMessage(schema)
		}
		tl, err := hosttool.New(d)
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	env, err := runtime.NewEnv(runtime.WithTools(
		mk("kv.get", `{"type":"object","properties":{"key":{"type":"string"},"ttlMs":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}},"opt":{"type":["string","null"]}},"additionalProperties":false}`),
		mk("kv.open", `{"type":"object","properties":{"key":{"type":"string"}}}`),
		mk("kv.any", ""),
	))
	if err != nil {
		t.Fatal(err)
	}
	src := `cap { kv: true }
let k = "a"
call? kv.get { key: 5, ttl_ms: 10, ttlMs: 1.5, tags: ["x", 2], opt: null } -> a
call? kv.get { key: k, ttlMs: -3, tags: [k], opt: "s" } -> b
call? kv.open { key: 1, other: 2 } -> c
call? kv.any { key: 1 } -> d
return [a, b, c, d]`
	if _, ds := env.Compile("t.a0", src); len(ds) != 0 {
		t.Fatalf("plain check: %v", ds)
	}
	_, ds := env.CompileWith("t.a0", src, runtime.CompileOptions{Strict: true})
	var got []string
	for _, d := range ds {
		got = append(got, string(d.Code)+" "+d.Message+" | "+d.Hint)
	}
	want := []string{
		"E_UNKNOWN_ARG kv.get takes { key, ttlMs, tags, opt }; got ttl_ms. | 'ttl_ms' means 'ttlMs', which the call gives already: keep one of the two.",
		"E_TOOL_ARGS Invalid arguments for tool 'kv.get': key: Expected string, received number | 'key' takes a string: quote it, \"5\".",
		"E_TOOL_ARGS Invalid arguments for tool 'kv.get': ttlMs: Expected integer, received number | 'ttlMs' takes an integer.",
		"E_TOOL_ARGS Invalid arguments for tool 'kv.get': tags.1: Expected string, received number | Every element of 'tags' must be a string: quote it, \"2\".",
		"E_TOOL_ARGS Invalid arguments for tool 'kv.open': key: Expected string, received number | 'key' takes a string: quote it, \"1\".",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
