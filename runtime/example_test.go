package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hosttool"
	"github.com/a0lang/a0/runtime/tools"
)

// A host builds one Env, compiles a program once and runs it.
func Example() {
	env, err := runtime.NewEnv() // no tools, no grants: pure computation only
	if err != nil {
		panic(err)
	}
	prog, diags := env.Compile("hello.a0", `let x = 40 + 2  return { answer: x }`)
	if len(diags) > 0 {
		panic(diags)
	}
	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	fmt.Println(value.JSON(res.Value), runtime.ExitCode(res, err))
	// Output: {"answer":42} 0
}

// NewEnv takes the tools, the grants and the limits every run of the
// environment shares.
func ExampleNewEnv() {
	env, err := runtime.NewEnv(
		// fs.read, fs.write, http.get, sh.exec, ...; the file tools reach only
		// the roots their Config names (the zero Config reaches no file).
		runtime.WithTools(tools.New(tools.Config{FS: tools.FSScope{Read: []string{"."}}})...),
		runtime.WithGrants(runtime.GrantFunc(func(c string) bool { return c == "fs.read" })),
		runtime.WithWorkDir("."),
		runtime.WithBudgetCeiling(runtime.Budget{TimeMs: runtime.Limit(5000)}),
	)
	if err != nil {
		panic(err)
	}
	prog, diags := env.Compile("here.a0", "cap { fs.read: true }\nreturn call? fs.exists { path: \".\" }")
	if len(diags) > 0 {
		panic(diags)
	}
	fmt.Println(prog.Capabilities())
	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	fmt.Println(value.JSON(res.Value), err)
	// Output:
	// [fs.read]
	// true <nil>
}

// Compile reports static problems as diagnostics; nothing runs.
func ExampleEnv_Compile() {
	env, _ := runtime.NewEnv()
	_, diags := env.Compile("bad.a0", "let a = 1\nreturn { b: missing }")
	for _, d := range diags {
		fmt.Println(d.Code, d.Span, d.Message)
	}
	// A code is a plain string to the host: it joins with text.
	err := errors.New(diags[0].Code + ": " + diags[0].Message)
	fmt.Println(err)
	fmt.Println(diags.JSONArray())
	// Output:
	// E_UNBOUND bad.a0:2:13 Unbound variable 'missing'.
	// E_UNBOUND: Unbound variable 'missing'.
	// [{"code":"E_UNBOUND","message":"Unbound variable 'missing'.","span":{"file":"bad.a0","startLine":2,"startCol":13,"endLine":2,"endCol":20},"hint":"Make sure the variable is defined with 'let' (or '-> name') before use. Bound here: a."}]
}

// A budget ceiling lowers what a program's budget header asks for; a
// field the program leaves out gets the ceiling.
func ExampleProgram_Run() {
	env, _ := runtime.NewEnv()
	prog, _ := env.Compile("loop.a0", `budget { maxIterations: 1000 }
let xs = for { in: range { from: 0, to: 100 }, as: "i" } { return i * i }
return len { in: xs }`)

	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	fmt.Println(value.JSON(res.Value), err)

	res, err = prog.Run(context.Background(), runtime.RunOptions{
		Ceiling: runtime.Budget{MaxIterations: runtime.Limit(10)},
	})
	fmt.Println(err)
	fmt.Println("exit code", runtime.ExitCode(res, err))
	if e, ok := err.(*runtime.Error); ok {
		fmt.Println(e.Code, value.JSON(e.Details))
	}
	// Output:
	// 100 <nil>
	// E_BUDGET: Budget exceeded: maxIterations limit of 10 reached.
	// exit code 4
	// E_BUDGET {"budget":"maxIterations","limit":10,"actual":11}
}

// Hosts pass per-run values to their tools with RunOptions.Values; the
// same Program can run concurrently with different values.
func ExampleCall_Value() {
	user, _ := hosttool.New(hosttool.Def{
		Name: "host.user", Capability: "host", Mode: runtime.ModeRead,
		Func: func(c *runtime.Call) (value.Value, error) {
			return value.FromGo(c.Value("user"))
		},
	})
	env, _ := runtime.NewEnv(runtime.WithTools(user), runtime.WithGrants(runtime.AllowAll))
	prog, _ := env.Compile("user.a0", "cap { host: true }\ncall? host.user {} -> u\nreturn { name: u.name }")
	for _, name := range []string{"ada", "grace"} {
		res, _ := prog.Run(context.Background(), runtime.RunOptions{
			Values: map[string]any{"user": map[string]any{"name": name}},
		})
		fmt.Println(value.JSON(res.Value))
	}
	// Output:
	// {"name":"ada"}
	// {"name":"grace"}
}

// Grants decide which declared capabilities a run may use; per-run grants
// override the Env's.
func ExampleGrantFunc() {
	env, _ := runtime.NewEnv(runtime.WithTools(tools.New(tools.Config{FS: tools.FSScope{Read: []string{"."}}})...))
	prog, _ := env.Compile("ls.a0", `cap { fs.read: true }
return call? fs.exists { path: "." }`)
	_, err := prog.Run(context.Background(), runtime.RunOptions{}) // the default is DenyAll
	fmt.Println(err)
	readOnly := runtime.GrantFunc(func(c string) bool { return c == "fs.read" })
	res, err := prog.Run(context.Background(), runtime.RunOptions{Grants: readOnly})
	fmt.Println(value.JSON(res.Value), err)
	// Output:
	// E_CAP_DENIED: Capability 'fs.read' is not allowed by policy.
	// true <nil>
}

// Evidence from check and assert is returned with the result; ExitCode
// turns a failed check into exit code 5.
func ExampleExitCode() {
	env, _ := runtime.NewEnv()
	prog, _ := env.Compile("ev.a0", `check { that: 1 + 1 == 2, msg: "sum" }
check { that: false, msg: "always fails" }
return "done"`)
	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	fmt.Println(value.JSON(res.Value), res.Failed, runtime.ExitCode(res, err))
	for _, ev := range res.Evidence {
		rec := ev.AsRecord()
		fmt.Println(rec.GetOrNull("ok").AsBool(), rec.GetOrNull("msg").AsString())
	}
	// Output:
	// "done" true 5
	// true sum
	// false always fails
}

// echoTool implements runtime.Tool directly, describing its arguments
// with Params instead of a JSON Schema.
type echoTool struct{}

func (echoTool) Name() string       { return "text.echo" }
func (echoTool) Capability() string { return "text" }
func (echoTool) Mode() runtime.Mode { return runtime.ModeRead }
func (echoTool) Params() []runtime.Param {
	return []runtime.Param{
		{Name: "text", Type: runtime.TypeString, Required: true, Doc: "what to echo"},
		{Name: "times", Type: runtime.TypeNumber, Doc: "how often (default 1)"},
	}
}
func (echoTool) Call(c *runtime.Call) (value.Value, error) {
	n := 1
	if t, ok := c.Args.Get("times"); ok {
		n = int(t.AsNumber())
	}
	return value.Str(strings.Repeat(c.Args.GetOrNull("text").AsString(), n)), nil
}

// ToolSchema publishes a tool's argument record as JSON Schema, for
// agents and MCP clients; for a Tool without its own schema it is derived
// from Params.
func ExampleToolSchema() {
	fmt.Println(string(runtime.ToolSchema(echoTool{})))
	env, _ := runtime.NewEnv(runtime.WithTools(echoTool{}), runtime.WithGrants(runtime.AllowAll))
	prog, _ := env.Compile("echo.a0", "cap { text: true }\nreturn call? text.echo { text: \"ab\", times: 3 }")
	res, _ := prog.Run(context.Background(), runtime.RunOptions{})
	fmt.Println(value.JSON(res.Value))
	// Output:
	// {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"text":{"type":"string","description":"what to echo"},"times":{"type":"number","description":"how often (default 1)"}},"required":["text"],"additionalProperties":true}
	// "ababab"
}

type printSink struct{}

func (printSink) Event(ev runtime.TraceEvent) error {
	if !strings.HasPrefix(ev.Event, "stmt") {
		fmt.Println(ev.Event, ev.Span.Start.Line)
	}
	return nil
}

// A TraceSink sees every event of a run as it happens.
func ExampleTraceSink() {
	env, _ := runtime.NewEnv()
	prog, _ := env.Compile("t.a0", "let a = 1\ncheck { that: a == 1, msg: \"one\" }\nreturn a")
	prog.Run(context.Background(), runtime.RunOptions{Trace: printSink{}})
	// Output:
	// run_start 1
	// evidence 2
	// run_end 1
}

// A Session keeps bindings across inputs (the REPL). It must be closed:
// Close stops what its tools keep running (background jobs).
func ExampleSession() {
	env, _ := runtime.NewEnv()
	s := env.NewSession()
	defer s.Close()
	for _, input := range []string{"let x = 20", "fn twice { n } { return n * 2 }", "twice { n: x + 1 }", "y"} {
		res, diags, err := s.Eval(context.Background(), "repl", input, runtime.RunOptions{})
		switch {
		case len(diags) > 0:
			fmt.Println(diags[0].Code)
		case err != nil:
			fmt.Println(err)
		case res.HasValue:
			fmt.Println(value.JSON(res.Value))
		default:
			fmt.Println("(no value)")
		}
	}
	for _, b := range s.Vars() {
		fmt.Println(b.Name, "=", value.JSON(b.Value))
	}
	fmt.Println(s.Fns())
	// Output:
	// (no value)
	// (no value)
	// 42
	// E_UNBOUND
	// x = 20
	// [twice]
}
