package check

import (
	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/resolve"
)

func (c *checker) stdlibName(n string) bool {
	if c.stdlib == nil {
		c.stdlib = map[string]bool{}
		for _, s := range c.cfg.Stdlib {
			c.stdlib[s] = true
		}
	}
	return c.stdlib[n]
}

// bindings resolves the program's names (package resolve: the compiler
// uses the same resolution) and reports what the resolution found wrong,
// walking the tree in the resolver's order so the diagnostics come
// depth-first, in source order.
func (c *checker) bindings(p *ast.Program) {
	opts := &resolve.Options{Input: c.inputs != nil, Stdlib: c.stdlibName, Env: c.cfg.Env}
	if c.cfg.Outer != nil {
		opts.Outer, opts.OuterNames = c.cfg.Outer, c.cfg.OuterNames
	} else {
		opts.Vars, opts.Fns = c.cfg.Vars, c.cfg.Fns
	}
	c.info = resolve.Program(p, opts)
	c.parenArg = map[*ast.IdentPath]string{}
	parenArgs(p.Stmts, c.parenArg)
	for _, s := range p.Stmts {
		c.stmt(s)
	}
}

func (c *checker) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.LetStmt:
		if c.info.Redeclared(s) {
			c.add(diag.EDupBinding, &s.Span, "Duplicate binding '"+s.Name+"'.", "Use a different variable name.")
		}
		c.expr(s.Value)
	case *ast.ExprStmt:
		c.expr(s.X)
		if s.Target != nil && c.info.Redeclared(s) {
			c.add(diag.EDupBinding, &s.Target.Span, "Duplicate binding '"+s.Target.Parts[0]+"'.", "Use a different variable name.")
		}
	case *ast.ReturnStmt:
		c.expr(s.X)
	case *ast.FnDecl:
		if c.info.Redeclared(s) {
			c.add(diag.EFnDup, &s.Span, "Duplicate function definition '"+s.Name+"'.", "Use a different function name.")
		}
		for _, p := range c.info.DupParams(s) {
			c.add(diag.EDupBinding, &s.Span, "Duplicate parameter '"+p+"' in function '"+s.Name+"'.", "Use unique parameter names in function declarations.")
		}
		if c.stdlibName(s.Name) {
			c.add(diag.EFnDup, &s.Span, "Function name '"+s.Name+"' conflicts with a built-in stdlib function.", "Use a different function name to avoid shadowing the stdlib.")
		}
		c.block(s.Body, "function '"+s.Name+"'")
	}
}

func (c *checker) block(b *ast.Block, ctx string) {
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
	parenArgs(b.Stmts, c.parenArg)
	for _, s := range b.Stmts {
		c.stmt(s)
	}
}

func (c *checker) record(r *ast.RecordExpr, spreadCtx string) {
	for _, e := range r.Entries {
		if e.Spread && spreadCtx != "" {
			c.add(diag.ESpreadNotAllowed, &e.Span, "A spread is not allowed in the arguments of "+spreadCtx+".", "Pass each argument as 'name: value'.")
		}
		c.expr(e.Value)
	}
}

func (c *checker) expr(e ast.Expr) {
	switch e := e.(type) {
	case *ast.Literal:
	case *ast.IdentPath:
		u, _ := c.info.Use(e)
		if u.Binding == nil {
			c.add(diag.EUnbound, &e.Span, "Unbound variable '"+e.Parts[0]+"'.", c.unboundHint(e, u.At))
		} else {
			c.checkInputUse(e, u.Binding)
		}
	case *ast.RecordExpr:
		c.record(e, "")
	case *ast.ListExpr:
		for _, x := range e.Elems {
			c.expr(x)
		}
	case *ast.CallExpr:
		call, _ := c.info.Call(e)
		if call.Kind == resolve.Undefined {
			c.add(diag.EUnknownFn, &e.NameSpan, "Unknown function '"+e.Name+"'.", c.unknownFnHint(e.Name, call.At))
		} else if c.cfg.Strict {
			if ps, ok := c.params(e.Name, call.At); ok {
				c.argNames(e.Name, ps, e.Args, e.Args.Span)
			}
		}
		if e.Name == "map" || e.Name == "reduce" || e.Name == "filter" {
			for _, en := range e.Args.Entries {
				if en.Spread || en.Key != "fn" {
					continue
				}
				if lit, ok := en.Value.(*ast.Literal); ok && lit.Kind == ast.LitString && call.At.Fn(lit.Str) == nil {
					c.add(diag.EUnknownFn, &lit.Span, "Unknown function '"+lit.Str+"'.",
						withSuggestion("For "+e.Name+", define the user function with 'fn' before use and pass its name as a string.", lit.Str, call.At.Names(true)))
				}
				break
			}
		}
		c.record(e.Args, "a function call")
	case *ast.ToolCall:
		c.record(e.Args, "a tool call")
	case *ast.AssertExpr:
		kw := "assert"
		if e.Check {
			kw = "check"
		}
		c.record(e.Args, kw)
	case *ast.IfBlock:
		c.expr(e.Cond)
		c.block(e.Then, "if body")
		c.block(e.Else, "else body")
	case *ast.IfRecord:
		c.expr(e.Cond)
		c.expr(e.Then)
		c.expr(e.Else)
	case *ast.ForExpr:
		c.expr(e.In)
		c.block(e.Body, "for body")
	case *ast.FilterBlock:
		c.expr(e.In)
		c.block(e.Body, "filter body")
	case *ast.LoopExpr:
		c.expr(e.In)
		c.expr(e.Times)
		c.block(e.Body, "loop body")
	case *ast.MatchExpr:
		c.expr(e.Subject)
		c.block(e.Ok.Body, "match ok arm")
		c.block(e.Err.Body, "match err arm")
	case *ast.TryExpr:
		c.block(e.Body, "try body")
		c.block(e.Catch, "catch body")
	case *ast.BinaryExpr:
		c.expr(e.L)
		c.expr(e.R)
	case *ast.UnaryExpr:
		c.expr(e.X)
	case *ast.ParenExpr:
		c.expr(e.X)
	}
}
