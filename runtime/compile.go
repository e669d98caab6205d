package runtime

// Compilation turns the checked AST into a tree of evaluation nodes with
// every variable resolved to frame slots, so that no name is looked up by
// string at run time.
//
// The compiler does not work scopes out itself: it takes them from the
// resolution the checker made (package lang/resolve, through
// check.Resolve), so the checker and the evaluator share one resolver.
// Each block's frame has the slots of its resolve.Scope, each variable use
// reads the candidate slots its scope gives (resolve.Scope.Refs: innermost
// first, the first that is set wins, spec/language.md §5.3), and each call
// of a user function reads the index the resolver gave its name in the
// function table (spec/language.md §5.4). A block the resolver did not reach is a bug, and
// compiling it panics.

import (
	"sync/atomic"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/resolve"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// slotRef addresses a slot `Hops` frames up from the current one.
type slotRef = resolve.Ref

type compiler struct {
	info  *resolve.Info
	fnIDs map[string]int // the resolver's function table
	nargs int            // stdlib calls given a reusable argument record
	// checkNotes are the hints of the checks whose record names the
	// condition or the message under another key (Program.FailedChecks).
	checkNotes map[diag.Span]string
}

func newCompiler(info *resolve.Info) *compiler {
	c := &compiler{info: info}
	c.fnIDs, _ = info.FnTable()
	return c
}

// program compiles p's top level into a Program of e.
func (c *compiler) program(e *Env, p *ast.Program) *Program {
	sc := c.info.Top
	top := &blockCode{span: p.Span, stmts: c.stmts(p.Stmts, sc), nslots: sc.Len(), mayCapture: sc.HasFn}
	fnIDs, nfns := c.info.FnTable()
	prog := &Program{env: e, ast: p, top: top, fnIDs: fnIDs, nfns: nfns, nargs: c.nargs, caps: check.DeclaredCaps(p), checkNotes: c.checkNotes}
	prog.limits, prog.budget = budgetOf(p)
	return prog
}

// block compiles a block body evaluated in scope parent. Its frame is the
// scope the resolver made for it, whose first slots hold the implicit
// names (execBlock copies their values there).
func (c *compiler) block(b *ast.Block, parent *resolve.Scope, implicit ...string) *blockCode {
	sc := c.info.Block(b)
	if sc == nil || sc.Parent != parent {
		panic("compile: block not resolved in its enclosing scope")
	}
	for i, n := range implicit {
		if sc.Slot(n) != i {
			panic("compile: implicit name '" + n + "' is not in its slot")
		}
	}
	bc := &blockCode{span: b.Span}
	bc.stmts = c.stmts(b.Stmts, sc)
	bc.nslots = sc.Len()
	bc.mayCapture = sc.HasFn
	if len(bc.stmts) == 1 {
		bc.ret, _ = bc.stmts[0].(*returnNode)
	}
	return bc
}

// bound returns the binding a statement of scope sc creates.
func (c *compiler) bound(s ast.Stmt, sc *resolve.Scope) *resolve.Binding {
	b := sc.Bound(s)
	if b == nil {
		panic("compile: statement has no binding from the resolver")
	}
	return b
}

func (c *compiler) stmts(list []ast.Stmt, sc *resolve.Scope) []stmtNode {
	out := make([]stmtNode, 0, len(list))
	for _, s := range list {
		out = append(out, c.stmt(s, sc))
	}
	return out
}

func (c *compiler) stmt(s ast.Stmt, sc *resolve.Scope) stmtNode {
	switch s := s.(type) {
	case *ast.LetStmt:
		return &letNode{span: s.Span, slot: c.bound(s, sc).Slot, x: c.expr(s.Value, sc)}
	case *ast.ReturnStmt:
		return &returnNode{span: s.Span, x: c.expr(s.X, sc)}
	case *ast.ExprStmt:
		n := &exprStmtNode{span: s.Span, x: c.expr(s.X, sc), slot: -1}
		if s.Target != nil {
			n.slot = c.bound(s, sc).Slot
			n.path = s.Target.Parts[1:]
		}
		return n
	case *ast.FnDecl:
		fc := &fnCode{name: s.Name, params: s.Params, span: s.Span}
		fc.body = c.block(s.Body, sc, s.Params...)
		return &fnDeclNode{span: s.Span, id: c.bound(s, sc).ID, fn: fc}
	}
	panic("unknown statement")
}

func (c *compiler) record(r *ast.RecordExpr, sc *resolve.Scope) *recordNode {
	n := &recordNode{span: r.Span, pollSpan: r.Span, entries: make([]recEntry, len(r.Entries))}
	for i, e := range r.Entries {
		n.entries[i] = recEntry{key: e.Key, spread: e.Spread, span: e.Span, x: c.expr(e.Value, sc)}
		if e.Spread {
			n.hasSpread = true
		}
	}
	if !n.hasSpread {
		keys := make([]string, len(n.entries))
		for i := range n.entries {
			keys[i] = n.entries[i].key
		}
		if value.ShapeKeys(keys) {
			n.shape = keys
		}
	}
	return n
}

func (c *compiler) expr(e ast.Expr, sc *resolve.Scope) exprNode {
	switch e := e.(type) {
	case *ast.Literal:
		return &constNode{span: e.Span, v: literalValue(e)}
	case *ast.IdentPath:
		n := &varNode{span: e.Span, name: e.Parts[0], refs: sc.Refs(e.Parts[0]), path: e.Parts[1:], local: -1}
		if len(n.path) > 0 {
			n.hints = make([]atomic.Int32, len(n.path))
		}
		if len(n.refs) == 1 && n.refs[0].Hops == 0 && len(n.path) == 0 {
			n.local = n.refs[0].Slot
		}
		return n
	case *ast.ParenExpr:
		return c.expr(e.X, sc)
	case *ast.RecordExpr:
		return c.record(e, sc)
	case *ast.ListExpr:
		n := &listNode{span: e.Span, elems: make([]exprNode, len(e.Elems))}
		for i, x := range e.Elems {
			n.elems[i] = c.expr(x, sc)
		}
		return n
	case *ast.BinaryExpr:
		n := &binNode{span: e.Span, op: opCode(e.Op), opText: e.Op, l: c.expr(e.L, sc), r: c.expr(e.R, sc)}
		if k, ok := n.l.(*constNode); ok {
			n.lc = k.v
		}
		if k, ok := n.r.(*constNode); ok {
			n.rc = k.v
		}
		n.li, n.ri = localSlot(n.l), localSlot(n.r)
		return specialiseBin(n)
	case *ast.UnaryExpr:
		return &negNode{span: e.Span, x: c.expr(e.X, sc)}
	case *ast.CallExpr:
		return c.call(e, sc)
	case *ast.ToolCall:
		return &toolNode{span: e.Span, do: e.Do, name: e.Tool, args: c.args(e.Args, sc, e.Span)}
	case *ast.AssertExpr:
		note := assertKeyNote(e.Check, check.RecordKeys(e.Args))
		if note != "" && e.Check {
			if c.checkNotes == nil {
				c.checkNotes = map[diag.Span]string{}
			}
			c.checkNotes[e.Span] = note
		}
		return &assertNode{span: e.Span, check: e.Check, args: c.args(e.Args, sc, e.Span), note: note}
	case *ast.IfRecord:
		return &ifRecNode{span: e.Span, cond: c.expr(e.Cond, sc), then: c.expr(e.Then, sc), els: c.expr(e.Else, sc)}
	case *ast.IfBlock:
		return &ifBlockNode{span: e.Span, cond: c.expr(e.Cond, sc), then: c.block(e.Then, sc), els: c.block(e.Else, sc)}
	case *ast.ForExpr:
		return &forNode{span: e.Span, in: c.expr(e.In, sc), inSpan: e.In.GetSpan(), as: e.As, body: c.block(e.Body, sc, e.As)}
	case *ast.FilterBlock:
		return &filterBlockNode{span: e.Span, in: c.expr(e.In, sc), inSpan: e.In.GetSpan(), as: e.As, body: c.block(e.Body, sc, e.As)}
	case *ast.LoopExpr:
		return &loopNode{span: e.Span, in: c.expr(e.In, sc), times: c.expr(e.Times, sc), as: e.As, body: c.block(e.Body, sc, e.As)}
	case *ast.MatchExpr:
		return &matchNode{span: e.Span, subject: c.expr(e.Subject, sc), subjSpan: e.Subject.GetSpan(),
			ok: c.block(e.Ok.Body, sc, e.Ok.Binding), err: c.block(e.Err.Body, sc, e.Err.Binding)}
	case *ast.TryExpr:
		return &tryNode{span: e.Span, body: c.block(e.Body, sc), catch: c.block(e.Catch, sc, e.CatchName)}
	}
	panic("unknown expression")
}

// args compiles the argument record of the call, tool call, assert or
// check at span: a run stopped just before it is reported at span.
func (c *compiler) args(r *ast.RecordExpr, sc *resolve.Scope, span diag.Span) *recordNode {
	n := c.record(r, sc)
	n.pollSpan = span
	return n
}

func (c *compiler) call(e *ast.CallExpr, sc *resolve.Scope) exprNode {
	args := c.args(e.Args, sc, e.Span)
	if id, ok := c.fnIDs[e.Name]; ok {
		return &userCallNode{span: e.Span, name: e.Name, id: id, args: args}
	}
	if bad := checkStdArgs(e.Span, e.Name, args); bad != nil {
		return bad
	}
	switch e.Name {
	case string(hofMap), string(hofReduce):
		kind := hofKind(e.Name)
		return &hofNode{span: e.Span, kind: kind, args: args, inIdx: hofLazyIn(kind, args)}
	case string(hofFilter):
		return &hofNode{span: e.Span, kind: hofFilter, args: args, std: mustStd(string(hofFilter)), inIdx: hofLazyIn(hofFilter, args)}
	}
	f, ok := stdlib.Lookup(e.Name)
	if !ok {
		return &unknownFnNode{span: e.Span, name: e.Name, nameSpan: e.NameSpan}
	}
	// A string literal the function can prepare (a regex pattern) is
	// compiled once, here, not at every call.
	for _, en := range e.Args.Entries {
		if lit, ok := en.Value.(*ast.Literal); ok && !en.Spread && lit.Kind == ast.LitString {
			if pf, ok := stdlib.Prepare(e.Name, en.Key, lit.Str); ok {
				f = pf
				break
			}
		}
	}
	n := stdCallNode{span: e.Span, name: e.Name, fn: f, args: args, reuse: -1, lent: -1}
	if args.shape != nil && len(args.entries) <= maxReusedArgs && !noArgReuse {
		n.reuse = c.nargs
		n.lent = lentEntry(e.Name, args)
		c.nargs++
	}
	if e.Name == "range" {
		return &rangeNode{n}
	}
	return &n
}

// localSlot is the slot of x when it is a plain name bound only in the
// current frame, or -1.
func localSlot(x exprNode) int {
	if v, ok := x.(*varNode); ok {
		return v.local
	}
	return -1
}

func mustStd(name string) stdlib.Func {
	f, _ := stdlib.Lookup(name)
	return f
}

func literalValue(l *ast.Literal) value.Value {
	switch l.Kind {
	case ast.LitBool:
		return value.BoolOf(l.Bool)
	case ast.LitInt, ast.LitFloat:
		return value.Num(l.Num)
	case ast.LitString:
		return value.Str(l.Str)
	}
	return value.NullValue
}

type op uint8

const (
	opAdd op = iota
	opSub
	opMul
	opDiv
	opMod
	opLt
	opGt
	opLe
	opGe
	opEq
	opNe
)

func opCode(s string) op {
	switch s {
	case "+":
		return opAdd
	case "-":
		return opSub
	case "*":
		return opMul
	case "/":
		return opDiv
	case "%":
		return opMod
	case "<":
		return opLt
	case ">":
		return opGt
	case "<=":
		return opLe
	case ">=":
		return opGe
	case "==":
		return opEq
	}
	return opNe
}
