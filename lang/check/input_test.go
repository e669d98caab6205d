package check_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/check"
)

// TestInputHeader covers the static checks of `input { … }` headers and of
// input.x uses: each case lists the codes and a piece of each message.
func TestInputHeader(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string // "CODE: message fragment", in reporting order
	}{
		{"valid header and uses", `input { repo: "str", limit: "int?", tags: "list", o: "rec", f: "float", b: "bool", x: "any" }
return [input.repo, input.limit, input.tags, input.o.k, input]`, nil},
		{"empty header binds an empty input", "input {}\nreturn input", nil},
		{"input without a header is an ordinary name", "let input = { a: 1 }\nreturn input.zzz", nil},
		{"input unbound without a header", "return input.a", []string{"E_UNBOUND: Unbound variable 'input'."}},
		{"undeclared use", `input { repo: "str" }` + "\nreturn input.rpo", []string{"E_INPUT_DECL: Input 'rpo' is not declared"}},
		{"undeclared use with an empty header", "input {}\nreturn input.a", []string{"E_INPUT_DECL: Input 'a' is not declared"}},
		{"undeclared use inside a function", `input { a: "str" }` + "\nfn f {} { return input.b }\nreturn f {}", []string{"E_INPUT_DECL: Input 'b'"}},
		{"a shadowing parameter is not checked", `input { a: "str" }` + "\nfn f { input } { return input.b }\nreturn f { input: {} }", nil},
		{"a shadowing for name is not checked", `input { a: "str" }` + "\nreturn for { in: [], as: \"input\" } { return input.zz }", nil},
		{"binding input again at top level", `input { a: "str" }` + "\nlet input = 1\nreturn input", []string{"E_DUP_BINDING: Duplicate binding 'input'."}},
		{"duplicate header", "input { a: \"str\" }\ninput { b: \"int\" }\nreturn 1", []string{"E_INPUT_DECL: Only one input header is allowed."}},
		{"unknown type", `input { a: "string" }` + "\nreturn 1", []string{"E_INPUT_DECL: Unknown input type 'string' for input 'a'."}},
		{"type not a string", "input { a: 3 }\nreturn 1", []string{"E_INPUT_DECL: Input 'a' must be declared with a type string."}},
		{"type as a variable", "input { a: str }\nreturn 1", []string{"E_INPUT_DECL: Input 'a' must be declared with a type string."}},
		{"double question mark", `input { a: "int??" }` + "\nreturn 1", []string{"E_INPUT_DECL: Unknown input type 'int??'"}},
		{"dotted name", `input { a.b: "str" }` + "\nreturn 1", []string{"E_INPUT_DECL: Input name 'a.b' must be a single word."}},
		{"duplicate name", `input { a: "str", a: "int" }` + "\nreturn 1", []string{"E_INPUT_DECL: Duplicate input 'a'."}},
		{"spread", `input { ...x }` + "\nreturn 1", []string{"E_SPREAD_NOT_ALLOWED: A spread is not allowed in an input header."}},
		{"after cap and budget headers", "cap { fs.read: true }\nbudget { timeMs: 10 }\ninput { p: \"str\" }\nreturn call? fs.read { path: input.p }", nil},
		{"header errors come after budget errors", "budget { x: 1 }\ninput { a: 1 }\nreturn input.b",
			[]string{"E_UNKNOWN_BUDGET: Unknown budget field 'x'.", "E_INPUT_DECL: Input 'a' must be declared", "E_INPUT_DECL: Input 'b' is not declared"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := check.Program(parse(t, "t.a0", c.src), config())
			var got []string
			for _, d := range ds {
				got = append(got, string(d.Code)+": "+d.Message)
				if d.Hint == "" {
					t.Errorf("%s has no hint", d.Code)
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Errorf("diagnostic %d: got %q, want prefix %q", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestInputHints(t *testing.T) {
	cases := []struct{ src, hint string }{
		{`input { repo: "str", pattern: "str" }` + "\nreturn input.rpo", "Declared inputs: repo, pattern. Did you mean 'repo'? To take a new input, add 'rpo: \"<type>\"' to the input header."},
		{"input {}\nreturn input.a", "The input header declares no inputs: add 'a: \"str\"' (or another type) to it."},
		{`input { n: "integer?" }` + "\nreturn 1", `Did you mean "int?"?`},
		{`input { n: "strr" }` + "\nreturn 1", `Did you mean "str"?`},
		{"let a = 1\ninput { n: \"str\" }\nreturn a", "An input header must come before the first statement"},
	}
	for _, c := range cases {
		ds := check.Program(parse(t, "t.a0", c.src), config())
		if len(ds) != 1 || !strings.Contains(ds[0].Hint, c.hint) {
			t.Errorf("%q: got %s, want a hint containing %q", c.src, ds.JSONArray(), c.hint)
		}
	}
}

func TestInputsDecl(t *testing.T) {
	p := parse(t, "t.a0", `input { repo: "str", limit: "int?", bad: "x", repo: "int" }`+"\nreturn 1")
	got, ok := check.Inputs(p)
	if !ok {
		t.Fatal("no header found")
	}
	var names []string
	for _, d := range got {
		names = append(names, d.Name+":"+d.Type+map[bool]string{true: "?"}[d.Optional])
	}
	if want := []string{"repo:str", "limit:int?"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Inputs = %v, want %v", names, want)
	}
	if _, ok := check.Inputs(parse(t, "t.a0", "return 1")); ok {
		t.Error("a program without a header has inputs")
	}
	if d, ok := check.Inputs(parse(t, "t.a0", "input {}\nreturn 1")); !ok || len(d) != 0 {
		t.Errorf("empty header: %v %v", d, ok)
	}
}

func TestInputHeaderInSession(t *testing.T) {
	cfg := config()
	cfg.Session = true
	ds := check.Program(parse(t, "t.a0", `input { a: "str" }`+"\ninput.a"), cfg)
	if len(ds) == 0 || ds[0].Code != "E_INPUT_DECL" {
		t.Fatalf("got %s", ds.JSONArray())
	}
}
