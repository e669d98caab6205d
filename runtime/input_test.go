package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

const inputProg = `input { s: "str", i: "int?", f: "float?", b: "bool?", l: "list?", r: "rec?", a: "any?" }
return input
`

// TestRunInput drives RunOptions.Input through every type, optional and
// required inputs, text to parse, and each way of getting it wrong.
func TestRunInput(t *testing.T) {
	prog := compile(t, inputProg)
	deep := any("x")
	for i := 0; i < 1100; i++ {
		deep = []any{deep}
	}
	cases := []struct {
		name string
		in   map[string]any
		want string // the program's value as JSON, or "E_INPUT <reason> <input>"
		msg  string // a piece of the E_INPUT message
	}{
		{"only the required input", map[string]any{"s": "x"},
			`{"s":"x","i":null,"f":null,"b":null,"l":null,"r":null,"a":null}`, ""},
		{"every type", map[string]any{"s": "x", "i": 3, "f": 2.5, "b": true, "l": []any{1, "a"}, "r": map[string]any{"k": 1}, "a": nil},
			`{"s":"x","i":3,"f":2.5,"b":true,"l":[1,"a"],"r":{"k":1},"a":null}`, ""},
		{"a whole float is an int", map[string]any{"s": "x", "i": 4.0}, `{"s":"x","i":4,"f":null,"b":null,"l":null,"r":null,"a":null}`, ""},
		{"an int is a float", map[string]any{"s": "x", "f": 7}, `{"s":"x","i":null,"f":7,"b":null,"l":null,"r":null,"a":null}`, ""},
		{"explicit null for an optional input", map[string]any{"s": "x", "i": nil}, `{"s":"x","i":null,"f":null,"b":null,"l":null,"r":null,"a":null}`, ""},
		{"json.Number and value.Value", map[string]any{"s": value.Str("v"), "i": json.Number("12")}, `{"s":"v","i":12,"f":null,"b":null,"l":null,"r":null,"a":null}`, ""},
		{"text parsed per type", map[string]any{"s": runtime.InputText("42"), "i": runtime.InputText("-12"), "f": runtime.InputText("0.5"), "b": runtime.InputText("false"),
			"l": runtime.InputText(`[1]`), "r": runtime.InputText(`{"a":[]}`), "a": runtime.InputText("7")},
			`{"s":"42","i":-12,"f":0.5,"b":false,"l":[1],"r":{"a":[]},"a":"7"}`, ""},
		{"missing required", map[string]any{"i": 1}, "E_INPUT missing s", "Missing required input 's' (str)."},
		{"missing required, nothing given", nil, "E_INPUT missing s", "Missing required input 's'"},
		{"null for a required str", map[string]any{"s": nil}, "E_INPUT type s", "Input 's' must be a string (str), got null."},
		{"wrong type", map[string]any{"s": 1}, "E_INPUT type s", "Input 's' must be a string (str), got number."},
		{"fraction for an int", map[string]any{"s": "x", "i": 2.5}, "E_INPUT type i", "Input 'i' must be a whole number (int), got 2.5."},
		{"string for an int", map[string]any{"s": "x", "i": "3"}, "E_INPUT type i", "got string"},
		{"record for a list", map[string]any{"s": "x", "l": map[string]any{}}, "E_INPUT type l", "must be a list"},
		{"list for a rec", map[string]any{"s": "x", "r": []any{}}, "E_INPUT type r", "must be a record"},
		{"string for a bool", map[string]any{"s": "x", "b": "true"}, "E_INPUT type b", "must be a boolean"},
		{"text that is not an int", map[string]any{"s": "x", "i": runtime.InputText("abc")}, "E_INPUT parse i", "Input 'i' must be a whole number (int), got 'abc'."},
		{"text that is a fraction for an int", map[string]any{"s": "x", "i": runtime.InputText("1.5")}, "E_INPUT parse i", "got '1.5'"},
		{"text that is not a bool", map[string]any{"s": "x", "b": runtime.InputText("yes")}, "E_INPUT parse b", "got 'yes'"},
		{"text that is not JSON for a list", map[string]any{"s": "x", "l": runtime.InputText("[1,")}, "E_INPUT parse l", "must be a list"},
		{"undeclared", map[string]any{"s": "x", "ss": 1}, "E_INPUT undeclared ss", "Unknown input 'ss'."},
		{"not a data value", map[string]any{"s": "x", "a": func() {}}, "E_INPUT type a", "is not a data value"},
		{"too deep", map[string]any{"s": "x", "a": deep}, "E_INPUT depth a", "nested more than 1000 levels deep"},
		{"too deep as a value", map[string]any{"s": "x", "a": deepList(1001)}, "E_INPUT depth a", "nested more than 1000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := prog.Run(context.Background(), runtime.RunOptions{Input: c.in})
			if !strings.HasPrefix(c.want, "E_INPUT") {
				if err != nil {
					t.Fatalf("err %v", err)
				}
				if got := value.JSON(res.Value); got != c.want {
					t.Errorf("got %s, want %s", got, c.want)
				}
				return
			}
			e, ok := err.(*runtime.Error)
			if !ok || e.Code != "E_INPUT" {
				t.Fatalf("err %v, want E_INPUT", err)
			}
			if res.Started {
				t.Error("the run started")
			}
			if runtime.ExitCode(res, err) != 2 {
				t.Errorf("exit %d, want 2", runtime.ExitCode(res, err))
			}
			f := strings.Fields(c.want)
			d := e.Details.AsRecord()
			if r, _ := d.Get("reason"); r.AsString() != f[1] {
				t.Errorf("reason %s, want %s", value.JSON(r), f[1])
			}
			if n, _ := d.Get("input"); n.AsString() != f[2] {
				t.Errorf("input %s, want %s", value.JSON(n), f[2])
			}
			if !strings.Contains(e.Message, c.msg) {
				t.Errorf("message %q, want it to contain %q", e.Message, c.msg)
			}
			if e.Hint == "" || e.Span == nil {
				t.Errorf("hint %q span %v", e.Hint, e.Span)
			}
		})
	}
}

func deepList(n int) value.Value {
	v := value.Int(1)
	for i := 0; i < n; i++ {
		v = value.ListOf([]value.Value{v})
	}
	return v
}

func TestRunInputHints(t *testing.T) {
	prog := compile(t, `input { repo: "str", pattern: "str" }`+"\nreturn input.repo")
	_, err := prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"repo": ".", "pattern": "x", "patern": "y"}})
	e := err.(*runtime.Error)
	if want := "Declared inputs: repo, pattern. Did you mean 'pattern'?"; e.Hint != want {
		t.Errorf("hint %q, want %q", e.Hint, want)
	}
	_, err = prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"pattern": "x"}})
	if e := err.(*runtime.Error); !strings.Contains(e.Hint, "--arg repo=") || !strings.Contains(e.Hint, `"str?"`) {
		t.Errorf("missing hint %q", e.Hint)
	}
}

// TestRunInputNoHeader: without a header `input` is an ordinary name and
// no input may be given; with an empty header `input` is {}.
func TestRunInputNoHeader(t *testing.T) {
	prog := compile(t, "let input = 5\nreturn input + 1")
	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	if err != nil || value.JSON(res.Value) != "6" {
		t.Fatalf("%v %v", res, err)
	}
	if _, ok := prog.Inputs(); ok {
		t.Error("Inputs reports a header")
	}
	res, err = prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{}})
	if err != nil || value.JSON(res.Value) != "6" {
		t.Fatalf("empty map: %v %v", res, err)
	}
	_, err = prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"x": 1}})
	e, ok := err.(*runtime.Error)
	if !ok || e.Code != "E_INPUT" || e.Message != "Program takes no inputs: got 'x'." || e.Hint == "" {
		t.Fatalf("err %v", err)
	}

	empty := compile(t, "input {}\nreturn input")
	res, err = empty.Run(context.Background(), runtime.RunOptions{})
	if err != nil || value.JSON(res.Value) != "{}" {
		t.Fatalf("empty header: %v %v", res, err)
	}
	_, err = empty.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"a": 1}})
	if e, ok := err.(*runtime.Error); !ok || e.Code != "E_INPUT" || e.Hint != "The program declares no inputs." {
		t.Fatalf("empty header given an input: %v", err)
	}
}

// TestRunInputScopes: `input` is a top-level binding that closures see and
// inner blocks may shadow.
func TestRunInputScopes(t *testing.T) {
	prog := compile(t, `input { n: "int" }
fn twice {} { return input.n * 2 }
let shadowed = for { in: [{ n: 100 }], as: "input" } { return input.n }
return [twice {}, shadowed, input.n]`)
	res, err := prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"n": 21}})
	if err != nil || value.JSON(res.Value) != "[42,[100],21]" {
		t.Fatalf("%v %v", value.JSON(res.Value), err)
	}
}

func TestRunInputSizeBound(t *testing.T) {
	env, err := runtime.NewEnv(runtime.WithMemoryLimit(1 << 20))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", `input { blob: "str" }`+"\nreturn 1")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	_, err = prog.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"blob": strings.Repeat("x", 2<<20)}})
	e, ok := err.(*runtime.Error)
	if !ok || e.Code != "E_INPUT" || !strings.Contains(e.Message, "too large") {
		t.Fatalf("err %v", err)
	}
}

// TestRunInputTrace: run_start records the inputs, secrets masked by name.
func TestRunInputTrace(t *testing.T) {
	prog := compile(t, `input { repo: "str", api_token: "str", opts: "rec?" }`+"\nreturn input.repo")
	c := &collector{}
	_, err := prog.Run(context.Background(), runtime.RunOptions{Trace: c, Input: map[string]any{"repo": ".", "api_token": "s3cr3t-value"}})
	if err != nil {
		t.Fatal(err)
	}
	start := value.JSON(c.events[0].Data)
	if !strings.Contains(start, `"input":{"repo":".","api_token":"[masked:api_token]","opts":null}`) || strings.Contains(start, "s3cr3t") {
		t.Errorf("run_start %s", start)
	}
	c = &collector{}
	_, err = prog.Run(context.Background(), runtime.RunOptions{Trace: c, InputMask: []string{"REPO"}, Input: map[string]any{"repo": ".", "api_token": "s3cr3t-value"}})
	if err != nil {
		t.Fatal(err)
	}
	if start := value.JSON(c.events[0].Data); !strings.Contains(start, `"input":{"repo":"[masked:repo]","api_token":"s3cr3t-value"`) {
		t.Errorf("custom mask: run_start %s", start)
	}
	// A wrong type of a secret input does not echo the value.
	p2 := compile(t, `input { db_password: "int" }`+"\nreturn 1")
	_, err = p2.Run(context.Background(), runtime.RunOptions{Input: map[string]any{"db_password": runtime.InputText("hunter2hunter2")}})
	if e := err.(*runtime.Error); strings.Contains(e.Message, "hunter2") || !strings.Contains(e.Message, "[masked:db_password]") {
		t.Errorf("message %q", e.Message)
	}
	// Without a header run_start has no input member.
	c = &collector{}
	if _, err := compile(t, "return 1").Run(context.Background(), runtime.RunOptions{Trace: c}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(value.JSON(c.events[0].Data), "input") {
		t.Errorf("run_start %s", value.JSON(c.events[0].Data))
	}
}

// TestCheckInput: CheckInput gives the error Run would, running nothing.
func TestCheckInput(t *testing.T) {
	prog := compile(t, `input { n: "int" }`+"\nreturn input.n")
	if err := prog.CheckInput(runtime.RunOptions{Input: map[string]any{"n": 1}}); err != nil {
		t.Fatal(err)
	}
	err := prog.CheckInput(runtime.RunOptions{Input: map[string]any{"n": "x"}})
	if e, ok := err.(*runtime.Error); !ok || e.Code != "E_INPUT" {
		t.Fatalf("err %v", err)
	}
	if err := compile(t, "return 1").CheckInput(runtime.RunOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestSessionBind(t *testing.T) {
	s := newEnv(t, t.TempDir()).NewSession()
	defer s.Close()
	if err := s.Bind("input", value.MustFromGo(map[string]any{"repo": "."})); err != nil {
		t.Fatal(err)
	}
	res, ds, err := s.Eval(context.Background(), "t.a0", "input.repo", runtime.RunOptions{})
	if len(ds) > 0 || err != nil || value.JSON(res.Value) != `"."` {
		t.Fatalf("%v %v %v", res, ds, err)
	}
	if err := s.Bind("input", value.MustFromGo(map[string]any{"repo": "x"})); err != nil {
		t.Fatal(err)
	}
	res, _, _ = s.Eval(context.Background(), "t.a0", "input.repo", runtime.RunOptions{})
	if value.JSON(res.Value) != `"x"` {
		t.Errorf("rebound: %s", value.JSON(res.Value))
	}
	if err := s.Bind("let", value.NullValue); err == nil {
		t.Error("a keyword was bound")
	}
	if err := s.Bind("x", deepList(1001)); err == nil {
		t.Error("a value past the depth bound was bound")
	}
	// Later inputs' run_start records the bound input, masked.
	if err := s.Bind("input", value.MustFromGo(map[string]any{"repo": "x", "api_key": "k3y-k3y-k3y"})); err != nil {
		t.Fatal(err)
	}
	c := &collector{}
	if _, _, err := s.Eval(context.Background(), "t.a0", "1", runtime.RunOptions{Trace: c}); err != nil {
		t.Fatal(err)
	}
	if got := value.JSON(c.events[0].Data); !strings.Contains(got, `"input":{"api_key":"[masked:api_key]","repo":"x"}`) {
		t.Errorf("session run_start %s", got)
	}
	_, ds, _ = s.Eval(context.Background(), "t.a0", `input { a: "str" }`+"\n1", runtime.RunOptions{})
	if len(ds) == 0 || ds[0].Code != "E_INPUT_DECL" {
		t.Errorf("header in a session: %v", ds)
	}
}
