package check

import (
	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
)

// scope is one level of the binding walk: vars and fns bound in it so far.
type scope struct {
	parent *scope
	vars   map[string]bool
	fns    map[string]bool
	params map[string][]string // parameters of the fns declared here
	top    bool
	// ext answers for the names of earlier session inputs (Config.Outer).
	ext      func(name string, fn bool) bool
	extNames func(fn bool) []string
}

func newScope(parent *scope, locals ...string) *scope {
	s := &scope{parent: parent, vars: map[string]bool{}, fns: map[string]bool{}, params: map[string][]string{}}
	for _, n := range locals {
		s.vars[n] = true
	}
	return s
}

func (s *scope) varVisible(n string) bool {
	for ; s != nil; s = s.parent {
		if s.vars[n] || s.ext != nil && s.ext(n, false) {
			return true
		}
	}
	return false
}

func (s *scope) fnVisible(n string) bool {
	for ; s != nil; s = s.parent {
		if s.fns[n] || s.ext != nil && s.ext(n, true) {
			return true
		}
	}
	return false
}

// fnParams returns the parameters of the visible user function n.
func (s *scope) fnParams(n string) ([]string, bool) {
	for ; s != nil; s = s.parent {
		if s.fns[n] {
			p, ok := s.params[n]
			return p, ok
		}
	}
	return nil, false
}

// visibleNames lists bound variables (or functions) for suggestions.
func (s *scope) visibleNames(fns bool) []string {
	var out []string
	for ; s != nil; s = s.parent {
		m := s.vars
		if fns {
			m = s.fns
		}
		for k := range m {
			out = append(out, k)
		}
		if s.extNames != nil {
			out = append(out, s.extNames(fns)...)
		}
	}
	return out
}

func (c *checker) stdlibName(n string) bool {
	if c.stdlib == nil {
		c.stdlib = map[string]bool{}
		for _, s := range c.cfg.Stdlib {
			c.stdlib[s] = true
		}
	}
	return c.stdlib[n]
}

func (c *checker) bindings(p *ast.Program) {
	var outer *scope
	if c.cfg.Outer != nil {
		outer = newScope(nil)
		outer.ext, outer.extNames = c.cfg.Outer, c.cfg.OuterNames
	} else if len(c.cfg.Vars) > 0 || len(c.cfg.Fns) > 0 {
		outer = newScope(nil, c.cfg.Vars...)
		for _, f := range c.cfg.Fns {
			outer.fns[f] = true
		}
	}
	top := newScope(outer)
	top.top = true
	if c.inputs != nil {
		// The input header binds `input` in the top scope.
		top.vars["input"] = true
	}
	c.parenArg = map[*ast.IdentPath]string{}
	parenArgs(p.Stmts, c.parenArg)
	for _, s := range p.Stmts {
		c.stmt(s, top)
	}
}

func (c *checker) dupVar(n string, sc *scope) bool {
	return sc.vars[n] || sc.fns[n]
}

func (c *checker) stmt(s ast.Stmt, sc *scope) {
	switch s := s.(type) {
	case *ast.LetStmt:
		if c.dupVar(s.Name, sc) {
			c.add(diag.EDupBinding, &s.Span, "Duplicate binding '"+s.Name+"'.", "Use a different variable name.")
		}
		c.expr(s.Value, sc)
		sc.vars[s.Name] = true
	case *ast.ExprStmt:
		c.expr(s.X, sc)
		if s.Target != nil {
			n := s.Target.Parts[0]
			if c.dupVar(n, sc) {
				c.add(diag.EDupBinding, &s.Target.Span, "Duplicate binding '"+n+"'.", "Use a different variable name.")
			}
			sc.vars[n] = true
		}
	case *ast.ReturnStmt:
		c.expr(s.X, sc)
	case *ast.FnDecl:
		dup := false
		if sc.top {
			dup = sc.fns[s.Name] || sc.vars[s.Name]
		} else {
			dup = sc.fnVisible(s.Name) || sc.vars[s.Name]
		}
		if dup {
			c.add(diag.EFnDup, &s.Span, "Duplicate function definition '"+s.Name+"'.", "Use a different function name.")
		}
		seen := map[string]bool{}
		for _, p := range s.Params {
			if seen[p] {
				c.add(diag.EDupBinding, &s.Span, "Duplicate parameter '"+p+"' in function '"+s.Name+"'.", "Use unique parameter names in function declarations.")
			}
			seen[p] = true
		}
		if c.stdlibName(s.Name) {
			c.add(diag.EFnDup, &s.Span, "Function name '"+s.Name+"' conflicts with a built-in stdlib function.", "Use a different function name to avoid shadowing the stdlib.")
		}
		sc.fns[s.Name] = true
		sc.params[s.Name] = s.Params
		locals := append([]string{s.Name}, s.Params...)
		c.block(s.Body, sc, "function '"+s.Name+"'", locals...)
	}
}

func (c *checker) block(b *ast.Block, parent *scope, ctx string, locals ...string) {
	has := false
	for _, s := range b.Stmts {
		if _, ok := s.(*ast.ReturnStmt); ok {
			has = true
		}
	}
	if !has {
		var sp *diag.Span
		if n := len(b.Stmts); n > 0 {
			x := b.Stmts[n-1].GetSpan()
			sp = &x
		}
		c.add(diag.ENoReturn, sp, ctx+" must end with a return statement.", "Add a 'return <expr>' statement at the end of the body.")
	}
	for i, s := range b.Stmts {
		if r, ok := s.(*ast.ReturnStmt); ok && i != len(b.Stmts)-1 {
			c.add(diag.EReturnNotLast, &r.Span, "Return statement must be the last statement in "+ctx+".", "Move any statements after return before it, or remove them.")
		}
	}
	sc := newScope(parent, locals...)
	parenArgs(b.Stmts, c.parenArg)
	for _, s := range b.Stmts {
		c.stmt(s, sc)
	}
}

func (c *checker) record(r *ast.RecordExpr, sc *scope, spreadCtx string) {
	for _, e := range r.Entries {
		if e.Spread && spreadCtx != "" {
			c.add(diag.ESpreadNotAllowed, &e.Span, "A spread is not allowed in the arguments of "+spreadCtx+".", "Pass each argument as 'name: value'.")
		}
		c.expr(e.Value, sc)
	}
}

func (c *checker) expr(e ast.Expr, sc *scope) {
	switch e := e.(type) {
	case *ast.Literal:
	case *ast.IdentPath:
		n := e.Parts[0]
		if !sc.varVisible(n) {
			c.add(diag.EUnbound, &e.Span, "Unbound variable '"+n+"'.", c.unboundHint(e, sc))
		} else {
			c.checkInputUse(e, sc)
		}
	case *ast.RecordExpr:
		c.record(e, sc, "")
	case *ast.ListExpr:
		for _, x := range e.Elems {
			c.expr(x, sc)
		}
	case *ast.CallExpr:
		if !sc.fnVisible(e.Name) && !c.stdlibName(e.Name) {
			c.add(diag.EUnknownFn, &e.NameSpan, "Unknown function '"+e.Name+"'.", c.unknownFnHint(e.Name, sc))
		} else if c.cfg.Strict {
			if ps, ok := c.params(e.Name, sc); ok {
				c.argNames(e.Name, ps, e.Args, e.Args.Span)
			}
		}
		if e.Name == "map" || e.Name == "reduce" || e.Name == "filter" {
			for _, en := range e.Args.Entries {
				if en.Spread || en.Key != "fn" {
					continue
				}
				if lit, ok := en.Value.(*ast.Literal); ok && lit.Kind == ast.LitString && !sc.fnVisible(lit.Str) {
					c.add(diag.EUnknownFn, &lit.Span, "Unknown function '"+lit.Str+"'.",
						withSuggestion("For "+e.Name+", define the user function with 'fn' before use and pass its name as a string.", lit.Str, sc.visibleNames(true)))
				}
				break
			}
		}
		c.record(e.Args, sc, "a function call")
	case *ast.ToolCall:
		c.record(e.Args, sc, "a tool call")
	case *ast.AssertExpr:
		kw := "assert"
		if e.Check {
			kw = "check"
		}
		c.record(e.Args, sc, kw)
	case *ast.IfBlock:
		c.expr(e.Cond, sc)
		c.block(e.Then, sc, "if body")
		c.block(e.Else, sc, "else body")
	case *ast.IfRecord:
		c.expr(e.Cond, sc)
		c.expr(e.Then, sc)
		c.expr(e.Else, sc)
	case *ast.ForExpr:
		c.expr(e.In, sc)
		c.block(e.Body, sc, "for body", e.As)
	case *ast.FilterBlock:
		c.expr(e.In, sc)
		c.block(e.Body, sc, "filter body", e.As)
	case *ast.LoopExpr:
		c.expr(e.In, sc)
		c.expr(e.Times, sc)
		c.block(e.Body, sc, "loop body", e.As)
	case *ast.MatchExpr:
		c.expr(e.Subject, sc)
		c.block(e.Ok.Body, sc, "match ok arm", e.Ok.Binding)
		c.block(e.Err.Body, sc, "match err arm", e.Err.Binding)
	case *ast.TryExpr:
		c.block(e.Body, sc, "try body")
		c.block(e.Catch, sc, "catch body", e.CatchName)
	case *ast.BinaryExpr:
		c.expr(e.L, sc)
		c.expr(e.R, sc)
	case *ast.UnaryExpr:
		c.expr(e.X, sc)
	case *ast.ParenExpr:
		c.expr(e.X, sc)
	}
}
