package hosttool_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
)

// A host tool: a name, a capability that gates it, a mode, a JSON Schema
// for its argument record and a Go function.
func ExampleNew() {
	greet, err := hosttool.New(hosttool.Def{
		Name:        "greet.person",
		Capability:  "greet",
		Mode:        runtime.ModeRead,
		Description: "Greet someone by name.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}`),
		Func: func(c *runtime.Call) (value.Value, error) {
			return value.Str("Hello, " + c.Args.GetOrNull("name").AsString() + "!"), nil
		},
	})
	if err != nil {
		panic(err)
	}
	env, _ := runtime.NewEnv(runtime.WithTools(greet), runtime.WithGrants(runtime.AllowAll))
	run := func(src string) {
		prog, diags := env.Compile("greet.a0", src)
		if len(diags) > 0 {
			fmt.Println(diags[0].Code)
			return
		}
		res, err := prog.Run(context.Background(), runtime.RunOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(value.JSON(res.Value))
	}
	run("cap { greet: true }\nreturn call? greet.person { name: \"Ada\" }")
	run("cap { greet: true }\nreturn call? greet.person { name: \"\" }") // fails the schema
	run("return call? greet.person { name: \"Ada\" }")                   // capability not declared
	// Output:
	// "Hello, Ada!"
	// E_TOOL_ARGS: Invalid arguments for tool 'greet.person': name: minLength: got 0, want 1
	// E_UNDECLARED_CAP
}
