package check

import (
	"slices"
	"strconv"
	"strings"

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
	opts := &resolve.Options{Input: c.inputs != nil, Env: c.cfg.Env}
	if c.cfg.Outer != nil {
		opts.Outer, opts.OuterNames = c.cfg.Outer, c.cfg.OuterNames
	} else {
		opts.Vars, opts.Fns = c.cfg.Vars, c.cfg.Fns
	}
	c.info = resolve.Program(p, opts)
	c.parenArg = map[*ast.IdentPath]string{}
	parenArgs(p.Stmts, c.parenArg)
	c.prefixedString = map[*ast.IdentPath]*ast.Literal{}
	prefixedStrings(p.Stmts, c.prefixedString)
	c.innerQuote = map[*ast.IdentPath]string{}
	innerQuotes(p.Stmts, c.innerQuote)
	c.stmts(c.info.Top, p.Stmts)
}

// stmts checks the statements of a block whose scope is sc; each sees
// the names visible where it starts.
func (c *checker) stmts(sc *resolve.Scope, list []ast.Stmt) {
	for i, s := range list {
		c.stmt(s, sc.At(i))
	}
}

func (c *checker) stmt(s ast.Stmt, at resolve.Point) {
	switch s := s.(type) {
	case *ast.LetStmt:
		if c.info.Redeclared(s) {
			c.add(diag.EDupBinding, &s.Span, "Duplicate binding '"+s.Name+"'.", dupBindingHint(s.Name))
		}
		c.expr(s.Value, at)
	case *ast.ExprStmt:
		c.expr(s.X, at)
		if s.Target != nil && c.info.Redeclared(s) {
			c.add(diag.EDupBinding, &s.Target.Span, "Duplicate binding '"+s.Target.Parts[0]+"'.", dupBindingHint(s.Target.Parts[0]))
		}
	case *ast.ReturnStmt:
		c.expr(s.X, at)
	case *ast.FnDecl:
		if c.info.Redeclared(s) {
			c.add(diag.EFnDup, &s.Span, "Duplicate function definition '"+s.Name+"'.", "'"+s.Name+"' is already declared in this scope: remove the older declaration, or rename this one (`fn "+s.Name+"2 { … }`) and its calls.")
		}
		for _, p := range c.info.DupParams(s) {
			c.add(diag.EDupBinding, &s.Span, "Duplicate parameter '"+p+"' in function '"+s.Name+"'.", "Use unique parameter names in function declarations.")
		}
		if c.stdlibName(s.Name) {
			c.add(diag.EFnDup, &s.Span, "Function name '"+s.Name+"' conflicts with a built-in stdlib function.", "The stdlib's "+s.Name+" is always there: call it directly, or name yours differently (`fn my_"+strings.ReplaceAll(s.Name, ".", "_")+" { … }`).")
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
		c.add(diag.ENoReturn, sp, ctx+" must end with a return statement.", noReturnHint(b.Stmts, "Add a 'return <expr>' statement at the end of the body."))
	}
	for i, s := range b.Stmts {
		if r, ok := s.(*ast.ReturnStmt); ok && i != len(b.Stmts)-1 {
			c.add(diag.EReturnNotLast, &r.Span, "Return statement must be the last statement in "+ctx+".", c.returnNotLastHint(r, b.Stmts[i+1]))
		}
	}
	parenArgs(b.Stmts, c.parenArg)
	prefixedStrings(b.Stmts, c.prefixedString)
	innerQuotes(b.Stmts, c.innerQuote)
	c.stmts(c.info.Block(b), b.Stmts)
}

func (c *checker) record(r *ast.RecordExpr, at resolve.Point, spreadCtx string) {
	for _, e := range r.Entries {
		if e.Spread && spreadCtx != "" {
			c.add(diag.ESpreadNotAllowed, &e.Span, "A spread is not allowed in the arguments of "+spreadCtx+".", "Pass each argument as 'name: value'.")
		}
		c.expr(e.Value, at)
	}
}

func (c *checker) expr(e ast.Expr, at resolve.Point) {
	switch e := e.(type) {
	case *ast.Literal:
	case *ast.IdentPath:
		if b := at.Var(e.Parts[0]); b == nil {
			c.add(diag.EUnbound, &e.Span, "Unbound variable '"+e.Parts[0]+"'.", c.unboundHint(e, at))
		} else {
			c.checkInputUse(e, b)
		}
	case *ast.RecordExpr:
		c.record(e, at, "")
	case *ast.ListExpr:
		for _, x := range e.Elems {
			c.expr(x, at)
		}
	case *ast.CallExpr:
		if at.Fn(e.Name) == nil && !c.stdlibName(e.Name) {
			c.add(diag.EUnknownFn, &e.NameSpan, "Unknown function '"+e.Name+"'.", c.unknownFnHint(e.Name, at))
		} else if c.cfg.Strict {
			if ps, ok := c.params(e.Name, at); ok {
				c.argNames(e.Name, ps, e.Args, e.Args.Span)
			}
		}
		if e.Name == "map" || e.Name == "reduce" || e.Name == "filter" {
			for _, en := range e.Args.Entries {
				if en.Spread || en.Key != "fn" {
					continue
				}
				if lit, ok := en.Value.(*ast.Literal); ok && lit.Kind == ast.LitString && at.Fn(lit.Str) == nil {
					hint := withSuggestion("For "+e.Name+", define the user function with 'fn' before use and pass its name as a string.", lit.Str, at.Names(true))
					if d := c.fnDecls[lit.Str]; d != nil {
						hint = "'" + lit.Str + "' is declared at line " + strconv.Itoa(d.Span.Start.Line) + ", after this call or in a block the call cannot see: move `fn " + lit.Str + " { … }` to the top level, above its first use."
					} else if c.stdlibName(lit.Str) {
						args := "in: x"
						if ps, ok := c.params(lit.Str, at); ok && len(ps) > 0 {
							first := "in"
							if !slices.Contains(ps, "in") {
								first = ps[0]
							}
							args = first + ": x"
							for _, p := range ps {
								if p != first {
									args += ", " + p + ": …"
								}
							}
						}
						hint = "fn names a function the program declares; " + lit.Str + " is a stdlib function: declare one that calls it, `fn f { x } { return " + lit.Str + " { " + args + " } }`, and pass fn: \"f\"."
					}
					c.add(diag.EUnknownFn, &lit.Span, "Unknown function '"+lit.Str+"'.", hint)
				}
				break
			}
		}
		c.record(e.Args, at, "a function call")
	case *ast.ToolCall:
		c.record(e.Args, at, "a tool call")
	case *ast.AssertExpr:
		kw := "assert"
		if e.Check {
			kw = "check"
		}
		if c.cfg.Strict {
			c.argNames(kw, []string{"that", "msg", "details"}, e.Args, e.Args.Span)
		}
		c.record(e.Args, at, kw)
	case *ast.IfBlock:
		c.expr(e.Cond, at)
		c.block(e.Then, "if body")
		c.block(e.Else, "else body")
	case *ast.IfRecord:
		c.expr(e.Cond, at)
		c.expr(e.Then, at)
		c.expr(e.Else, at)
	case *ast.ForExpr:
		if c.cfg.Strict && e.Rec != nil {
			c.argNames("for", []string{"in", "as"}, e.Rec, e.Rec.Span)
		}
		c.expr(e.In, at)
		c.block(e.Body, "for body")
	case *ast.FilterBlock:
		if c.cfg.Strict && e.Rec != nil {
			c.argNames("filter", []string{"in", "as"}, e.Rec, e.Rec.Span)
		}
		c.expr(e.In, at)
		c.block(e.Body, "filter body")
	case *ast.LoopExpr:
		if c.cfg.Strict && e.Rec != nil {
			c.argNames("loop", []string{"in", "times", "as"}, e.Rec, e.Rec.Span)
		}
		c.expr(e.In, at)
		c.expr(e.Times, at)
		c.block(e.Body, "loop body")
	case *ast.MatchExpr:
		c.expr(e.Subject, at)
		c.block(e.Ok.Body, "match ok arm")
		c.block(e.Err.Body, "match err arm")
	case *ast.TryExpr:
		c.block(e.Body, "try body")
		c.block(e.Catch, "catch body")
	case *ast.BinaryExpr:
		c.expr(e.L, at)
		c.expr(e.R, at)
	case *ast.UnaryExpr:
		c.expr(e.X, at)
	case *ast.ParenExpr:
		c.expr(e.X, at)
	}
}
