package runtime

// Compilation turns the checked AST into a tree of evaluation nodes with
// every variable resolved to frame slots, so that no name is looked up by
// string at run time.
//
// Scoping (spec/language.md §5.2): every block body runs in a fresh frame whose
// parent is the frame where the construct is evaluated (for a function: the
// frame where its `fn` statement ran). Closures capture frames by
// reference, and a later `let` in an enclosing block becomes visible to a
// function that was declared before it. To reproduce that exactly, a
// variable reference resolves to the list of every enclosing frame that
// binds the name anywhere in its block, innermost first; at run time the
// first of those slots that has been set wins. In the common case the list
// has one element.
//
// Functions live in one program-wide table indexed by name (last executed
// declaration wins), as the reference does.

import (
	"sync/atomic"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// slotRef addresses a slot `hops` frames up from the current one.
type slotRef struct {
	hops int
	slot int
}

type scopeInfo struct {
	parent *scopeInfo
	names  map[string]int
}

func (s *scopeInfo) declare(n string) int {
	if i, ok := s.names[n]; ok {
		return i
	}
	i := len(s.names)
	s.names[n] = i
	return i
}

func (s *scopeInfo) resolve(n string) []slotRef {
	var out []slotRef
	hops := 0
	for sc := s; sc != nil; sc = sc.parent {
		if i, ok := sc.names[n]; ok {
			out = append(out, slotRef{hops, i})
		}
		hops++
	}
	return out
}

type compiler struct {
	fnIDs map[string]int
	fns   int
	nargs int // stdlib calls given a reusable argument record
}

func newScope(parent *scopeInfo, implicit ...string) *scopeInfo {
	s := &scopeInfo{parent: parent, names: map[string]int{}}
	for _, n := range implicit {
		s.declare(n)
	}
	return s
}

// predeclare reserves slots for every name bound directly in stmts.
func predeclare(s *scopeInfo, stmts []ast.Stmt) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.LetStmt:
			s.declare(st.Name)
		case *ast.ExprStmt:
			if st.Target != nil {
				s.declare(st.Target.Parts[0])
			}
		}
	}
}

// collectFns assigns a table index to every function name in the program.
func (c *compiler) collectFns(stmts []ast.Stmt) {
	for _, st := range stmts {
		walkStmtFns(st, func(d *ast.FnDecl) {
			if _, ok := c.fnIDs[d.Name]; !ok {
				c.fnIDs[d.Name] = c.fns
				c.fns++
			}
		})
	}
}

func walkStmtFns(s ast.Stmt, f func(*ast.FnDecl)) {
	var visitBlock func(b *ast.Block)
	var visitExpr func(e ast.Expr)
	visitBlock = func(b *ast.Block) {
		for _, s := range b.Stmts {
			walkStmtFns(s, f)
		}
	}
	visitRec := func(r *ast.RecordExpr) {
		for _, e := range r.Entries {
			visitExpr(e.Value)
		}
	}
	visitExpr = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.RecordExpr:
			visitRec(e)
		case *ast.ListExpr:
			for _, x := range e.Elems {
				visitExpr(x)
			}
		case *ast.CallExpr:
			visitRec(e.Args)
		case *ast.ToolCall:
			visitRec(e.Args)
		case *ast.AssertExpr:
			visitRec(e.Args)
		case *ast.IfBlock:
			visitExpr(e.Cond)
			visitBlock(e.Then)
			visitBlock(e.Else)
		case *ast.IfRecord:
			visitRec(e.Rec)
		case *ast.ForExpr:
			visitRec(e.Rec)
			visitBlock(e.Body)
		case *ast.FilterBlock:
			visitRec(e.Rec)
			visitBlock(e.Body)
		case *ast.LoopExpr:
			visitRec(e.Rec)
			visitBlock(e.Body)
		case *ast.MatchExpr:
			visitExpr(e.Subject)
			visitBlock(e.Ok.Body)
			visitBlock(e.Err.Body)
		case *ast.TryExpr:
			visitBlock(e.Body)
			visitBlock(e.Catch)
		case *ast.BinaryExpr:
			visitExpr(e.L)
			visitExpr(e.R)
		case *ast.UnaryExpr:
			visitExpr(e.X)
		case *ast.ParenExpr:
			visitExpr(e.X)
		}
	}
	switch s := s.(type) {
	case *ast.FnDecl:
		f(s)
		visitBlock(s.Body)
	case *ast.LetStmt:
		visitExpr(s.Value)
	case *ast.ExprStmt:
		visitExpr(s.X)
	case *ast.ReturnStmt:
		visitExpr(s.X)
	}
}

// program compiles p's top level in sc (its names predeclared) into a
// Program of e.
func (c *compiler) program(e *Env, p *ast.Program, sc *scopeInfo) *Program {
	top := &blockCode{span: p.Span, stmts: c.stmts(p.Stmts, sc), nslots: len(sc.names), mayCapture: containsFn(p.Stmts)}
	prog := &Program{env: e, ast: p, top: top, fnIDs: c.fnIDs, nfns: c.fns, nargs: c.nargs, caps: check.DeclaredCaps(p)}
	prog.limits, prog.budget = budgetOf(p)
	return prog
}

// block compiles a block body in a new scope with the given implicit names.
func (c *compiler) block(b *ast.Block, parent *scopeInfo, implicit ...string) *blockCode {
	sc := newScope(parent, implicit...)
	predeclare(sc, b.Stmts)
	bc := &blockCode{span: b.Span}
	bc.stmts = c.stmts(b.Stmts, sc)
	bc.nslots = len(sc.names)
	bc.mayCapture = containsFn(b.Stmts)
	if len(bc.stmts) == 1 {
		bc.ret, _ = bc.stmts[0].(*returnNode)
	}
	return bc
}

func containsFn(stmts []ast.Stmt) bool {
	found := false
	for _, s := range stmts {
		walkStmtFns(s, func(*ast.FnDecl) { found = true })
		if found {
			return true
		}
	}
	return false
}

func (c *compiler) stmts(list []ast.Stmt, sc *scopeInfo) []stmtNode {
	out := make([]stmtNode, 0, len(list))
	for _, s := range list {
		out = append(out, c.stmt(s, sc))
	}
	return out
}

func (c *compiler) stmt(s ast.Stmt, sc *scopeInfo) stmtNode {
	switch s := s.(type) {
	case *ast.LetStmt:
		return &letNode{span: s.Span, slot: sc.names[s.Name], x: c.expr(s.Value, sc)}
	case *ast.ReturnStmt:
		return &returnNode{span: s.Span, x: c.expr(s.X, sc)}
	case *ast.ExprStmt:
		n := &exprStmtNode{span: s.Span, x: c.expr(s.X, sc), slot: -1}
		if s.Target != nil {
			n.slot = sc.names[s.Target.Parts[0]]
			n.path = s.Target.Parts[1:]
		}
		return n
	case *ast.FnDecl:
		fc := &fnCode{name: s.Name, params: s.Params, span: s.Span}
		implicit := append([]string(nil), s.Params...)
		fc.body = c.block(s.Body, sc, implicit...)
		return &fnDeclNode{span: s.Span, id: c.fnIDs[s.Name], fn: fc}
	}
	panic("unknown statement")
}

func (c *compiler) record(r *ast.RecordExpr, sc *scopeInfo) *recordNode {
	n := &recordNode{span: r.Span, entries: make([]recEntry, len(r.Entries))}
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

func (c *compiler) expr(e ast.Expr, sc *scopeInfo) exprNode {
	switch e := e.(type) {
	case *ast.Literal:
		return &constNode{span: e.Span, v: literalValue(e)}
	case *ast.IdentPath:
		n := &varNode{span: e.Span, name: e.Parts[0], refs: sc.resolve(e.Parts[0]), path: e.Parts[1:], local: -1}
		if len(n.path) > 0 {
			n.hints = make([]atomic.Int32, len(n.path))
		}
		if len(n.refs) == 1 && n.refs[0].hops == 0 && len(n.path) == 0 {
			n.local = n.refs[0].slot
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
		return &toolNode{span: e.Span, do: e.Do, name: e.Tool, args: c.record(e.Args, sc)}
	case *ast.AssertExpr:
		return &assertNode{span: e.Span, check: e.Check, args: c.record(e.Args, sc)}
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

func (c *compiler) call(e *ast.CallExpr, sc *scopeInfo) exprNode {
	args := c.record(e.Args, sc)
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
