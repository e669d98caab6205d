package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// resolveCases are programs whose scoping the checker and the evaluator
// must agree on; want is the program's value.
var resolveCases = []struct {
	name, src, want string
}{
	{"shadowing let after a closure (spec 5.3)", `let n = 1
let out = if (true) {
  fn peek {} { return n }
  let before = peek {}
  let n = 2
  return [before, peek {}]
} else { return [] }
return out`, `[1,2]`},
	{"inner let reads the outer name until it runs", `let x = 1
let ys = for { in: [10, 20], as: "i" } {
  let y = x + i
  let x = y * 2
  return [y, x]
}
return ys`, `[[11,22],[21,42]]`},
	{"last executed declaration wins (spec 5.4)", `fn setup {} {
  fn pick {} { return "inner" }
  return true
}
fn pick {} { return "outer" }
let a = pick {}
let ok = setup {}
return [a, pick {}, map { in: [{}], fn: "pick" }]`, `["outer","inner",["inner"]]`},
	{"input header, shadowed in a block", `input { who: "str?" }
let a = input.who
let b = if (true) { let input = { who: "inner" }
  return input.who } else { return 0 }
return [a, b]`, `[null,"inner"]`},
	{"match, try, target", `{ v: 3 } -> r.x
let m = match ({ ok: r.x.v }) {
  ok { v } { return v }
  err { e } { return e }
}
let t = try { return m } catch { e } { return e }
return t`, `3`},
}

// TestCompilerUsesCheckerBindings shows that name resolution is shared:
// the slots every compiled variable reads are the very candidate list the
// checker's resolution recorded (the same backing array, not an equal
// recomputation), and each program runs to the value its scoping rules
// give.
func TestCompilerUsesCheckerBindings(t *testing.T) {
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range resolveCases {
		t.Run(tc.name, func(t *testing.T) {
			p, ds := parser.Parse("t.a0", tc.src, parser.Options{Signatures: stdlib.Params})
			if len(ds) > 0 {
				t.Fatal(ds.JSONArray())
			}
			info, ds := check.Resolve(p, env.checkCfg)
			if len(ds) > 0 {
				t.Fatal(ds.JSONArray())
			}
			c := &compiler{info: info}
			prog := c.program(env, p)
			uses := 0
			for e, u := range info.Uses() {
				uses++
				if u.Binding == nil {
					t.Errorf("%s: the checker passed an unbound use", e.Parts[0])
				}
				n, ok := c.expr(e, nil).(*varNode)
				if !ok {
					t.Fatalf("%s: compiled to %T", e.Parts[0], n)
				}
				if len(n.refs) != len(u.Refs) || len(u.Refs) > 0 && &n.refs[0] != &u.Refs[0] {
					t.Errorf("%s at %d:%d: compiled refs %v are not the resolver's %v", e.Parts[0], e.Span.Start.Line, e.Span.Start.Col, n.refs, u.Refs)
				}
			}
			if uses == 0 {
				t.Fatal("no uses resolved")
			}
			res, err := prog.Run(context.Background(), RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := value.JSON(res.Value); got != tc.want {
				t.Errorf("value %s, want %s", got, tc.want)
			}
		})
	}
}

// TestCompileNeedsResolution: the compiler works out no scope itself, so a
// tree the resolver did not see cannot be compiled.
func TestCompileNeedsResolution(t *testing.T) {
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	src := "let x = 1\nreturn x"
	p1, _ := parser.Parse("t.a0", src, parser.Options{})
	p2, _ := parser.Parse("t.a0", src, parser.Options{})
	info, ds := check.Resolve(p1, env.checkCfg)
	if len(ds) > 0 {
		t.Fatal(ds.JSONArray())
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "no binding from the resolver") {
			t.Fatalf("compiling an unresolved tree: %v", r)
		}
	}()
	(&compiler{info: info}).program(env, p2)
}

// TestSessionResolution: a session input is resolved against the names
// of the inputs before it, and an input the checker refused adds none.
func TestSessionResolution(t *testing.T) {
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	s := env.NewSession()
	defer s.Close()
	steps := []struct{ src, want, code string }{
		{"let a = nope", "", "E_UNBOUND"},
		{"a", "", "E_UNBOUND"},
		{"let b = 1\nfn inc { x } { return x + b }", "", ""},
		{"let b = 5", "", ""}, // binding again replaces
		{"inc { x: 1 }", "6", ""},
		{"fn inc { x } { return x - 1 }\ninc { x: 1 }", "0", ""},
	}
	for _, st := range steps {
		res, ds, err := s.Eval(context.Background(), "in.a0", st.src, RunOptions{})
		if err != nil {
			t.Fatalf("%q: %v", st.src, err)
		}
		if st.code != "" {
			if len(ds) == 0 || string(ds[0].Code) != st.code {
				t.Fatalf("%q: diagnostics %s, want %s", st.src, ds.JSONArray(), st.code)
			}
			continue
		}
		if len(ds) > 0 {
			t.Fatalf("%q: %s", st.src, ds.JSONArray())
		}
		if st.want != "" && value.JSON(res.Value) != st.want {
			t.Errorf("%q = %s, want %s", st.src, value.JSON(res.Value), st.want)
		}
	}
	var names []string
	for _, b := range s.Vars() {
		names = append(names, b.Name)
	}
	if strings.Join(names, ",") != "b" {
		t.Errorf("session variables %v, want [b]", names)
	}
}
