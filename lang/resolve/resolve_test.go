package resolve_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/resolve"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden resolves each testdata/*.a0 and compares a listing of what
// every block, variable use and call resolved to with the .golden file
// beside it.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.a0")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, ds := parser.Parse(filepath.Base(f), string(src), parser.Options{})
			if len(ds) > 0 {
				t.Fatal(ds.JSONArray())
			}
			info := resolve.Program(p, &resolve.Options{
				Input: p.Headers != nil && p.Headers[0].Kind == ast.InputHeader,
			})
			got := dump(p, info)
			golden := strings.TrimSuffix(f, ".a0") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func pos(sp diag.Span) string { return fmt.Sprintf("%d:%d", sp.Start.Line, sp.Start.Col) }

func scopeName(s *resolve.Scope) string {
	switch {
	case s == nil:
		return "outside"
	case s.Top():
		return "top"
	}
	return "block@" + pos(s.Node.GetSpan())
}

func bindingText(b *resolve.Binding) string {
	if b == nil {
		return "unbound"
	}
	s := b.Kind.String() + " in " + scopeName(b.Scope)
	if b.Slot >= 0 {
		s += fmt.Sprintf(" slot %d", b.Slot)
	}
	if b.Kind == resolve.Function {
		s += fmt.Sprintf(" id %d declared@%s", b.ID, pos(b.Fn.Span))
	}
	return s
}

// dump lists, in source order, each block's frame, each use's static
// binding and run-time candidates, each call's callee and each rejected
// binding statement.
func dump(p *ast.Program, info *resolve.Info) string {
	type line struct {
		at   diag.Span
		text string
	}
	var lines []line
	add := func(sp diag.Span, format string, args ...any) {
		lines = append(lines, line{sp, pos(sp) + " " + fmt.Sprintf(format, args...)})
	}
	frame := func(s *resolve.Scope) string {
		names := s.Names()
		fn := ""
		if s.HasFn {
			fn = " (may be captured)"
		}
		return "[" + strings.Join(names, " ") + "]" + fn
	}
	add(p.Span, "top frame %s", frame(info.Top))
	var stmts func([]ast.Stmt, *resolve.Scope)
	var expr func(ast.Expr, *resolve.Scope, resolve.Point)
	block := func(b *ast.Block, parent *resolve.Scope) {
		s := info.Block(b)
		if s.Parent != parent {
			add(b.Span, "block has the wrong parent")
		}
		add(b.Span, "block frame %s", frame(s))
		stmts(b.Stmts, s)
	}
	stmts = func(list []ast.Stmt, sc *resolve.Scope) {
		for i, st := range list {
			at := sc.At(i)
			if info.Redeclared(st) {
				add(st.GetSpan(), "redeclared")
			}
			switch st := st.(type) {
			case *ast.LetStmt:
				expr(st.Value, sc, at)
				add(st.Span, "let %s: %s", st.Name, bindingText(sc.Bound(st)))
			case *ast.ExprStmt:
				expr(st.X, sc, at)
				if st.Target != nil {
					add(st.Target.Span, "-> %s: %s", st.Target.Parts[0], bindingText(sc.Bound(st)))
				}
			case *ast.ReturnStmt:
				expr(st.X, sc, at)
			case *ast.FnDecl:
				add(st.Span, "fn %s: %s", st.Name, bindingText(sc.Bound(st)))
				block(st.Body, sc)
			}
		}
	}
	expr = func(e ast.Expr, sc *resolve.Scope, at resolve.Point) {
		rec := func(r *ast.RecordExpr) {
			for _, en := range r.Entries {
				expr(en.Value, sc, at)
			}
		}
		switch e := e.(type) {
		case *ast.IdentPath:
			var refs []string
			for _, r := range sc.Refs(e.Parts[0]) {
				refs = append(refs, fmt.Sprintf("%d:%d", r.Hops, r.Slot))
			}
			add(e.Span, "use %s: %s; runs from [%s]", e.Parts[0], bindingText(at.Var(e.Parts[0])), strings.Join(refs, " "))
		case *ast.CallExpr:
			if b := at.Fn(e.Name); b != nil {
				add(e.Span, "call %s: %s", e.Name, bindingText(b))
			} else {
				add(e.Span, "call %s: no user function", e.Name)
			}
			rec(e.Args)
		case *ast.RecordExpr:
			rec(e)
		case *ast.ListExpr:
			for _, x := range e.Elems {
				expr(x, sc, at)
			}
		case *ast.ToolCall:
			rec(e.Args)
		case *ast.AssertExpr:
			rec(e.Args)
		case *ast.IfBlock:
			expr(e.Cond, sc, at)
			block(e.Then, sc)
			block(e.Else, sc)
		case *ast.IfRecord:
			expr(e.Cond, sc, at)
			expr(e.Then, sc, at)
			expr(e.Else, sc, at)
		case *ast.ForExpr:
			expr(e.In, sc, at)
			block(e.Body, sc)
		case *ast.FilterBlock:
			expr(e.In, sc, at)
			block(e.Body, sc)
		case *ast.LoopExpr:
			expr(e.In, sc, at)
			expr(e.Times, sc, at)
			block(e.Body, sc)
		case *ast.MatchExpr:
			expr(e.Subject, sc, at)
			block(e.Ok.Body, sc)
			block(e.Err.Body, sc)
		case *ast.TryExpr:
			block(e.Body, sc)
			block(e.Catch, sc)
		case *ast.BinaryExpr:
			expr(e.L, sc, at)
			expr(e.R, sc, at)
		case *ast.UnaryExpr:
			expr(e.X, sc, at)
		case *ast.ParenExpr:
			expr(e.X, sc, at)
		}
	}
	stmts(p.Stmts, info.Top)
	sort.SliceStable(lines, func(i, j int) bool {
		a, b := lines[i].at.Start, lines[j].at.Start
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(l.text + "\n")
	}
	return sb.String()
}
