package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/resolve"
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
	{"a function in a never-evaluated entry does not exist (spec 5.5)", `let r = for { in: [1], as: "x", junk: if (true) { fn len {} { return 0 }
  return 1 } else { return 2 } } { return len { in: [1, 2] } }
return r`, `[2]`},
	{"match, try, target", `{ v: 3 } -> r.x
let m = match ({ ok: r.x.v }) {
  ok { v } { return v }
  err { e } { return e }
}
let t = try { return m } catch { e } { return e }
return t`, `3`},
}

// TestCompilerUsesCheckerBindings shows that name resolution is shared:
// every frame the compiler lays out is a scope of the resolution the
// checker made, every `let` writes the slot of the checker's binding,
// every variable reads the candidates that resolution gives, every user
// call reads the function-table index of the function the checker found
// visible, and each program runs to the value its scoping rules give.
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
			c := newCompiler(info)
			prog := c.program(env, p)
			if prog.top.nslots != info.Top.Len() {
				t.Errorf("top frame: %d slots, resolution %d", prog.top.nslots, info.Top.Len())
			}
			n := sharedWalk(t, c, info.Top, p.Stmts)
			if n == 0 {
				t.Fatal("nothing checked")
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

// sharedWalk compiles each statement of a block (scope sc) and compares
// what the compiled nodes read and write with the checker's resolution.
// It returns how many names it compared.
func sharedWalk(t *testing.T, c *compiler, sc *resolve.Scope, list []ast.Stmt) int {
	n := 0
	var expr func(e ast.Expr, at resolve.Point)
	block := func(b *ast.Block, implicit ...string) {
		bc := c.block(b, sc, implicit...)
		bs := c.info.Block(b)
		if bc.nslots != bs.Len() || bc.mayCapture != bs.HasFn {
			t.Errorf("block at %d:%d: frame %d slots (capture %v), resolution %d (%v)", b.Span.Start.Line, b.Span.Start.Col, bc.nslots, bc.mayCapture, bs.Len(), bs.HasFn)
		}
		n += sharedWalk(t, c, bs, b.Stmts)
	}
	expr = func(e ast.Expr, at resolve.Point) {
		switch e := e.(type) {
		case *ast.IdentPath:
			n++
			if at.Var(e.Parts[0]) == nil {
				t.Errorf("%s: the checker passed an unbound use", e.Parts[0])
			}
			v := c.expr(e, sc).(*varNode)
			if want := sc.Refs(e.Parts[0]); fmt.Sprint(v.refs) != fmt.Sprint(want) {
				t.Errorf("%s at %d:%d: compiled refs %v, resolution %v", e.Parts[0], e.Span.Start.Line, e.Span.Start.Col, v.refs, want)
			}
		case *ast.CallExpr:
			if b := at.Fn(e.Name); b != nil {
				n++
				u, ok := c.call(e, sc).(*userCallNode)
				if !ok || u.id != b.ID {
					t.Errorf("call %s: compiled %#v, the checker's function has id %d", e.Name, c.call(e, sc), b.ID)
				}
			}
			for _, en := range e.Args.Entries {
				expr(en.Value, at)
			}
		case *ast.RecordExpr:
			for _, en := range e.Entries {
				expr(en.Value, at)
			}
		case *ast.ListExpr:
			for _, x := range e.Elems {
				expr(x, at)
			}
		case *ast.IfBlock:
			expr(e.Cond, at)
			block(e.Then)
			block(e.Else)
		case *ast.ForExpr:
			expr(e.In, at)
			block(e.Body, e.As)
		case *ast.MatchExpr:
			expr(e.Subject, at)
			block(e.Ok.Body, e.Ok.Binding)
			block(e.Err.Body, e.Err.Binding)
		case *ast.TryExpr:
			block(e.Body)
			block(e.Catch, e.CatchName)
		case *ast.BinaryExpr:
			expr(e.L, at)
			expr(e.R, at)
		case *ast.ParenExpr:
			expr(e.X, at)
		}
	}
	for i, st := range list {
		at := sc.At(i)
		switch st := st.(type) {
		case *ast.LetStmt:
			expr(st.Value, at)
			if l := c.stmt(st, sc).(*letNode); l.slot != sc.Bound(st).Slot || l.slot != sc.Slot(st.Name) {
				t.Errorf("let %s: slot %d, resolution %d", st.Name, l.slot, sc.Bound(st).Slot)
			}
			n++
		case *ast.ExprStmt:
			expr(st.X, at)
			if st.Target != nil {
				if x := c.stmt(st, sc).(*exprStmtNode); x.slot != sc.Bound(st).Slot {
					t.Errorf("-> %s: slot %d, resolution %d", st.Target.Parts[0], x.slot, sc.Bound(st).Slot)
				}
				n++
			}
		case *ast.ReturnStmt:
			expr(st.X, at)
		case *ast.FnDecl:
			if d := c.stmt(st, sc).(*fnDeclNode); d.id != sc.Bound(st).ID {
				t.Errorf("fn %s: id %d, resolution %d", st.Name, d.id, sc.Bound(st).ID)
			}
			n++
			block(st.Body, st.Params...)
		}
	}
	return n
}

// TestCompileNeedsResolution: the compiler works out no scope itself, so a
// tree the resolver did not see cannot be compiled.
func TestCompileNeedsResolution(t *testing.T) {
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	src := "let y = if (true) { return 1 } else { return 2 }\nreturn y"
	p1, _ := parser.Parse("t.a0", src, parser.Options{})
	p2, _ := parser.Parse("t.a0", src, parser.Options{})
	info, ds := check.Resolve(p1, env.checkCfg)
	if len(ds) > 0 {
		t.Fatal(ds.JSONArray())
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "not resolved") {
			t.Fatalf("compiling an unresolved tree: %v", r)
		}
	}()
	newCompiler(info).program(env, p2)
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
