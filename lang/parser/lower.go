package parser

import (
	"strconv"
	"strings"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

// lowerer turns grammar structs into AST nodes with exact spans, and runs
// the shape checks of spec/language.md §3.4 (depth-first, source order): the
// first failure is the only diagnostic.
type lowerer struct {
	file     string
	toks     []lexer.Token
	comments []lexer.Comment // attached to the tree by end
	err      *diag.Diagnostic
}

func (l *lowerer) span(pos, end plexer.Position) diag.Span {
	return l.spanTok(pos.Offset, end.Offset)
}

// spanTok is the span of tokens first up to end (exclusive; at least the
// first token).
func (l *lowerer) spanTok(first, end int) diag.Span {
	last := end - 1
	if last < first {
		last = first
	}
	if last >= len(l.toks) {
		last = len(l.toks) - 1
	}
	return diag.Span{File: l.file, Start: l.toks[first].Start, End: l.toks[last].End}
}

// fail records the first error. It copies *sp, so that the caller's span
// stays on its stack (every expression computes one).
func (l *lowerer) fail(code diag.Code, sp *diag.Span, msg, hint string) {
	if l.err != nil {
		return
	}
	var at *diag.Span
	if sp != nil {
		c := *sp
		at = &c
	}
	l.err = &diag.Diagnostic{Code: code, Message: msg, Span: at, Hint: hint}
}

// failLater is fail for a shape error found before the node's span is
// known (the fast parser checks a for's fields before it parses the body,
// whose errors come later): it returns the recorded diagnostic, nil when
// an earlier error was kept, for setSpan once the span is known.
func (l *lowerer) failLater(code diag.Code, msg, hint string) *diag.Diagnostic {
	if l.err != nil {
		return nil
	}
	l.err = &diag.Diagnostic{Code: code, Message: msg, Hint: hint}
	return l.err
}

// setSpan gives d (from failLater) its span.
func setSpan(d *diag.Diagnostic, sp diag.Span) {
	if d != nil {
		d.Span = &sp
	}
}

// The shape errors of spec/language.md §3.4 (message, hint).
const (
	msgIfFields     = "if expression requires cond, then, and else fields"
	hintIfFields    = "Use syntax: if { cond: ..., then: ..., else: ... }."
	msgForFields    = "for expression requires 'in' and 'as' fields"
	hintForFields   = "Use syntax: for { in: <list>, as: \"name\" } { ... }."
	msgFilterFields = "filter block requires 'in' and 'as' fields"
	hintFilterField = "Use syntax: filter { in: <list>, as: \"name\" } { ... }."
	msgLoopFields   = "loop requires 'in', 'times', and 'as' fields"
	hintLoopFields  = "Use syntax: loop { in: <init>, times: <N>, as: \"name\" } { ... }."
	msgMatchArms    = "match expression requires both ok and err arms"
	hintMatchArms   = "Provide both arms: ok {v} { ... } and err {e} { ... }."
	hintMatchArm    = "Use exactly two arms: ok {v} { ... } and err {e} { ... }."
)

// ifRecord is the record form of if, with its shape check.
func (l *lowerer) ifRecord(sp diag.Span, rec *ast.RecordExpr) *ast.IfRecord {
	n := &ast.IfRecord{Span: sp, Rec: rec, Cond: rec.Get("cond"), Then: rec.Get("then"), Else: rec.Get("else")}
	if n.Cond == nil || n.Then == nil || n.Else == nil {
		l.fail(diag.EParse, &sp, msgIfFields, hintIfFields)
	}
	return n
}

// matchArm is a match arm, with its shape check (after its body's).
func (l *lowerer) matchArm(sp diag.Span, tag, binding string, body *ast.Block) *ast.MatchArm {
	arm := &ast.MatchArm{Span: sp, Tag: tag, Binding: binding, Body: body}
	if tag != "ok" && tag != "err" {
		l.fail(diag.EParse, &sp, "match arm must be 'ok' or 'err', got '"+tag+"'", hintMatchArm)
	}
	return arm
}

// matchArms places a match's two arms (n.Span set), with the check that
// they are one of each.
func (l *lowerer) matchArms(n *ast.MatchExpr, a1, a2 *ast.MatchArm) {
	switch {
	case a1.Tag == "ok" && a2.Tag == "err":
		n.Ok, n.Err, n.OkFirst = a1, a2, true
	case a1.Tag == "err" && a2.Tag == "ok":
		n.Ok, n.Err = a2, a1
	default:
		l.fail(diag.EParse, &n.Span, msgMatchArms, hintMatchArms)
		n.Ok, n.Err, n.OkFirst = a1, a2, true
	}
}

func (l *lowerer) program(g *gProgram) (*ast.Program, *diag.Diagnostic) {
	p := l.begin()
	for _, h := range g.Headers {
		l.header(p, h)
	}
	p.Stmts = l.stmts(g.Stmts)
	return l.end(p)
}

// begin returns the program node the headers and statements are lowered
// into, one at a time (the fast parser lowers each top-level statement as
// soon as it is parsed).
func (l *lowerer) begin() *ast.Program {
	p := &ast.Program{}
	if len(l.toks) == 1 {
		p.Empty = true
		p.Span = diag.Span{File: l.file, Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2}}
	} else {
		p.Span = diag.Span{File: l.file, Start: l.toks[0].Start, End: l.toks[len(l.toks)-2].End}
	}
	return p
}

func (l *lowerer) header(p *ast.Program, h *gHeader) {
	hd := &ast.Header{Span: l.span(h.Pos, h.EndPos)}
	switch {
	case h.Cap != nil:
		hd.Kind = ast.CapHeader
		hd.Rec = l.record(h.Cap)
	case h.Budget != nil:
		hd.Kind = ast.BudgetHeader
		hd.Rec = l.record(h.Budget)
	case h.Input != nil:
		hd.Kind = ast.InputHeader
		hd.Rec = l.record(h.Input)
	default:
		hd.Kind = ast.ImportHeader
		s, err := lexer.DecodeString(h.Import.Path)
		if err != nil {
			l.badString(err, h.Pos.Offset+1, h.Import.Path)
		}
		hd.Path = s
		hd.Alias = h.Import.Alias
	}
	p.Headers = append(p.Headers, hd)
}

func (l *lowerer) end(p *ast.Program) (*ast.Program, *diag.Diagnostic) {
	if l.err != nil {
		return nil, l.err
	}
	l.attachComments(p)
	return p, nil
}

func (l *lowerer) stmts(gs []*gStmt) []ast.Stmt {
	out := make([]ast.Stmt, 0, len(gs))
	for _, g := range gs {
		out = append(out, l.stmt(g))
	}
	return out
}

func (l *lowerer) stmt(g *gStmt) ast.Stmt {
	sp := l.span(g.Pos, g.EndPos)
	switch {
	case g.Fn != nil:
		return &ast.FnDecl{Span: sp, Name: g.Fn.Name, Params: g.Fn.Params, Body: l.block(g.Fn.Body)}
	case g.Let != nil:
		return &ast.LetStmt{Span: sp, Name: g.Let.Name, Value: l.expr(g.Let.Value)}
	case g.Return != nil:
		return &ast.ReturnStmt{Span: sp, X: l.expr(g.Return)}
	default:
		s := &ast.ExprStmt{Span: sp, X: l.expr(g.Expr.X)}
		if g.Expr.Target != nil {
			s.Target = l.path(g.Expr.Target)
		}
		return s
	}
}

func (l *lowerer) block(g *gBlock) *ast.Block {
	return &ast.Block{Span: l.span(g.Pos, g.EndPos), Stmts: l.stmts(g.Stmts)}
}

func (l *lowerer) path(g *gIdentPath) *ast.IdentPath {
	parts := make([]string, 0, 1+len(g.Rest))
	parts = append(parts, g.Head)
	parts = append(parts, g.Rest...)
	return &ast.IdentPath{Span: l.span(g.Pos, g.EndPos), Parts: parts}
}

func (l *lowerer) record(g *gRecord) *ast.RecordExpr {
	r := &ast.RecordExpr{Span: l.span(g.Pos, g.EndPos), Entries: make([]*ast.Entry, 0, len(g.Entries))}
	for _, e := range g.Entries {
		en := &ast.Entry{Span: l.span(e.Pos, e.EndPos)}
		if e.Spread != nil {
			en.Spread = true
			en.Value = l.expr(e.Spread)
		} else {
			en.Key = strings.Join(e.Key, ".")
			en.Value = l.expr(e.Value)
		}
		r.Entries = append(r.Entries, en)
	}
	return r
}

// stringAs returns the binding name of the last `as` entry whose value is a
// string literal ("" when there is none or it is empty: both are the
// missing-field shape error).
func stringAs(r *ast.RecordExpr) string {
	for i := len(r.Entries) - 1; i >= 0; i-- {
		e := r.Entries[i]
		if e.Spread || e.Key != "as" {
			continue
		}
		if lit, ok := e.Value.(*ast.Literal); ok && lit.Kind == ast.LitString {
			return lit.Str // "" counts as missing
		}
	}
	return ""
}

// fieldsHint is the hint of a for, filter or loop head that lacks a
// field: when the head names the variable without quotes (as: x) or not
// at all, it says so before the form (base).
func fieldsHint(r *ast.RecordExpr, in, base string) string {
	if r.Get(in) == nil {
		for _, e := range r.Entries {
			if !e.Spread && e.Key != "as" && e.Key != "times" {
				return "The head reads '" + in + "', not '" + e.Key + "': write " + in + ": … . " + base
			}
		}
	}
	v := r.Get("as")
	switch x := v.(type) {
	case nil:
		if r.Get(in) != nil {
			return "Name the variable each item is bound to with as, in quotes: as: \"x\". " + base
		}
	case *ast.IdentPath:
		if len(x.Parts) == 1 {
			return "Write the variable's name in quotes: as: \"" + x.Parts[0] + "\" (a name without quotes reads a variable). " + base
		}
	case *ast.Literal:
		if x.Kind == ast.LitString && x.Str == "" {
			return "The variable needs a name: as: \"x\". " + base
		}
	}
	return base
}

func (l *lowerer) expr(g *gExpr) ast.Expr {
	// The operator form, the most common, recurses through a small frame;
	// the keyword-led forms are lowered by exprForm.
	if g.Cmp != nil {
		return l.cmp(g.Cmp)
	}
	return l.exprForm(g)
}

// exprForm lowers the keyword-led forms of an expression (if, for, match,
// ...): see expr.
//
//go:noinline
func (l *lowerer) exprForm(g *gExpr) ast.Expr {
	sp := l.span(g.Pos, g.EndPos)
	switch {
	case g.If != nil:
		if g.If.Rec != nil {
			return l.ifRecord(sp, l.record(g.If.Rec))
		}
		return &ast.IfBlock{Span: sp, Cond: l.expr(g.If.Cond), Then: l.block(g.If.Then), Else: l.block(g.If.Else)}
	case g.For != nil:
		rec := l.record(g.For.Rec)
		n := &ast.ForExpr{Span: sp, Rec: rec, In: rec.Get("in"), As: stringAs(rec)}
		if n.In == nil || n.As == "" {
			l.fail(diag.EParse, &sp, msgForFields, fieldsHint(rec, "in", hintForFields))
		}
		n.Body = l.block(g.For.Body)
		return n
	case g.Filter != nil:
		rec := l.record(g.Filter.Rec)
		if g.Filter.Body == nil {
			return &ast.CallExpr{Span: sp, Name: "filter", NameSpan: l.tokSpan(g.Pos.Offset), Args: rec}
		}
		n := &ast.FilterBlock{Span: sp, Rec: rec, In: rec.Get("in"), As: stringAs(rec)}
		if n.In == nil || n.As == "" {
			l.fail(diag.EParse, &sp, msgFilterFields, fieldsHint(rec, "in", hintFilterField))
		}
		n.Body = l.block(g.Filter.Body)
		return n
	case g.Loop != nil:
		rec := l.record(g.Loop.Rec)
		n := &ast.LoopExpr{Span: sp, Rec: rec, In: rec.Get("in"), Times: rec.Get("times"), As: stringAs(rec)}
		if n.In == nil || n.Times == nil || n.As == "" {
			l.fail(diag.EParse, &sp, msgLoopFields, fieldsHint(rec, "in", hintLoopFields))
		}
		n.Body = l.block(g.Loop.Body)
		return n
	case g.Match != nil:
		return l.match(g.Match, sp)
	case g.Try != nil:
		return &ast.TryExpr{Span: sp, Body: l.block(g.Try.Body), CatchName: g.Try.Name, Catch: l.block(g.Try.Catch)}
	case g.Tool != nil:
		tp := l.path(g.Tool.Tool)
		return &ast.ToolCall{Span: sp, Do: g.Tool.Kind == "do", Tool: strings.Join(tp.Parts, "."), ToolSpan: tp.Span, Args: l.record(g.Tool.Args)}
	case g.Assert != nil:
		return &ast.AssertExpr{Span: sp, Check: g.Assert.Kind == "check", Args: l.record(g.Assert.Args)}
	}
	return &ast.Literal{Span: sp, Kind: ast.LitNull, Raw: "null"}
}

func (l *lowerer) tokSpan(i int) diag.Span {
	t := l.toks[i]
	return diag.Span{File: l.file, Start: t.Start, End: t.End}
}

func (l *lowerer) match(g *gMatch, sp diag.Span) ast.Expr {
	n := &ast.MatchExpr{Span: sp}
	if g.Paren != nil {
		n.Subject = l.expr(g.Paren)
		n.SubjParen = true
	} else {
		n.Subject = l.path(g.Path)
	}
	a1 := l.matchArm(l.span(g.Arm1.Pos, g.Arm1.EndPos), g.Arm1.Tag, g.Arm1.Binding, l.block(g.Arm1.Body))
	a2 := l.matchArm(l.span(g.Arm2.Pos, g.Arm2.EndPos), g.Arm2.Tag, g.Arm2.Binding, l.block(g.Arm2.Body))
	l.matchArms(n, a1, a2)
	return n
}

func (l *lowerer) cmp(g *gCmp) ast.Expr {
	left := l.arith(g.L)
	if g.Op == "" {
		return left
	}
	return &ast.BinaryExpr{Span: l.span(g.Pos, g.EndPos), Op: g.Op, L: left, R: l.arith(g.R)}
}

// arith applies precedence to a flat operand chain: * / % bind tighter
// than + -, both left-associative. Every operator of a precedence-level
// chain gets the span of that whole chain (the reference reports operator
// errors there): the whole additive chain for + and -, and each run of
// * / % operands for those.
func (l *lowerer) arith(g *gArith) ast.Expr {
	if len(g.Rest) == 0 {
		return l.operand(g.L)
	}
	return l.arithChain(g)
}

// arithChain lowers an operand followed by operators (arith keeps its own
// frame small: most operands have none, and the recursion goes through it).
//
//go:noinline
func (l *lowerer) arithChain(g *gArith) ast.Expr {
	first := l.operand(g.L)
	var opBuf [4]string
	var xBuf [4]ast.Expr
	ops, xs := opBuf[:0], xBuf[:0]
	for _, r := range g.Rest {
		ops = append(ops, r.Op)
		xs = append(xs, l.operand(r.X))
	}
	return l.chain(first, ops, xs, g.Pos.Offset, g.EndPos.Offset)
}

// chain applies precedence to the operand chain first ops[0] xs[0] ...
// (tokens start up to end): see arith.
func (l *lowerer) chain(first ast.Expr, ops []string, xs []ast.Expr, start, end int) ast.Expr {
	type term struct {
		x    ast.Expr
		span diag.Span
	}
	// Short chains (the usual case) keep their terms on the stack.
	var termBuf [4]term
	var opBuf [4]string
	terms, addOps := termBuf[:0], opBuf[:0]
	cur := term{x: first, span: first.GetSpan()}
	var mulOps []string
	var mulArgs []ast.Expr
	flush := func() {
		if len(mulOps) > 0 {
			sp := cur.span
			x := cur.x
			nodes := make([]*ast.BinaryExpr, len(mulOps))
			for i, op := range mulOps {
				sp = sp.Join(mulArgs[i].GetSpan())
				nodes[i] = &ast.BinaryExpr{Op: op, L: x, R: mulArgs[i]}
				x = nodes[i]
			}
			// Every operator of the run shares the run's span.
			for _, b := range nodes {
				b.Span = sp
			}
			cur = term{x: x, span: sp}
		}
		mulOps, mulArgs = nil, nil
	}
	for i, op := range ops {
		x := xs[i]
		switch op {
		case "*", "/", "%":
			mulOps = append(mulOps, op)
			mulArgs = append(mulArgs, x)
		default:
			flush()
			terms = append(terms, cur)
			addOps = append(addOps, op)
			cur = term{x: x, span: x.GetSpan()}
		}
	}
	flush()
	if len(addOps) == 0 {
		return cur.x
	}
	terms = append(terms, cur)
	sp := l.spanTok(start, end)
	x := terms[0].x
	for i, op := range addOps {
		x = &ast.BinaryExpr{Span: sp, Op: op, L: x, R: terms[i+1].x}
	}
	return x
}

func (l *lowerer) operand(g *gOperand) ast.Expr {
	// A dispatcher: each form is lowered by a function of its own, so that
	// this frame, on the stack of every level of nesting, stays small.
	var x ast.Expr
	switch {
	case g.Path != nil:
		if g.Args != nil {
			x = l.callOperand(g)
		} else {
			x = l.path(g.Path)
		}
	case g.Lit != "":
		x = l.litOperand(g)
	case g.Rec != nil:
		x = l.record(g.Rec)
	case g.List != nil:
		x = l.listOperand(g.List)
	default:
		x = l.parenOperand(g)
	}
	if len(g.Neg) > 0 {
		x = l.negate(g.Pos.Offset, len(g.Neg), x)
	}
	return x
}

//go:noinline
func (l *lowerer) callOperand(g *gOperand) ast.Expr {
	p := l.path(g.Path)
	sp := p.Span.Join(l.span(g.Args.Pos, g.Args.EndPos))
	return &ast.CallExpr{Span: sp, Name: strings.Join(p.Parts, "."), NameSpan: p.Span, Args: l.record(g.Args)}
}

//go:noinline
func (l *lowerer) litOperand(g *gOperand) ast.Expr {
	first := g.Pos.Offset + len(g.Neg)
	return l.literal(g.Lit, l.tokSpan(first))
}

//go:noinline
func (l *lowerer) listOperand(g *gList) ast.Expr {
	elems := make([]ast.Expr, 0, len(g.Elems))
	for _, e := range g.Elems {
		elems = append(elems, l.expr(e))
	}
	return &ast.ListExpr{Span: l.span(g.Pos, g.EndPos), Elems: elems}
}

//go:noinline
func (l *lowerer) parenOperand(g *gOperand) ast.Expr {
	first := g.Pos.Offset + len(g.Neg)
	sp := l.span(plexer.Position{Offset: first}, g.EndPos)
	return &ast.ParenExpr{Span: sp, X: l.expr(g.Paren)}
}

// negate wraps x in the n unary minus signs at tokens first..., innermost
// last: the k-th sign spans from itself to the end of the operand.
//
//go:noinline
func (l *lowerer) negate(first, n int, x ast.Expr) ast.Expr {
	end := x.GetSpan()
	for k := n - 1; k >= 0; k-- {
		sp := l.tokSpan(first + k)
		sp.End = end.End
		x = &ast.UnaryExpr{Span: sp, X: x}
	}
	return x
}

// badString reports a string literal that fails JSON decoding (a raw
// control character) at token index tok.
func (l *lowerer) badString(err error, tok int, raw string) {
	l.badStringAt(err, l.toks[tok].Start, raw)
}

// badStringAt reports E_AST with the reference's message, plus (doing
// better than the reference, which gives neither) the span of the
// offending character and a hint.
func (l *lowerer) badStringAt(err error, start diag.Pos, raw string) {
	cc, ok := err.(*lexer.ControlCharError)
	if !ok {
		l.fail(diag.EAST, nil, err.Error(), "")
		return
	}
	// Walk the literal to the character's line and column (UTF-16 units).
	pos := start
	units := 0
	for _, r := range raw {
		if units >= cc.Pos {
			break
		}
		if r == '\n' {
			pos.Line++
			pos.Col = 1
		} else if r >= 0x10000 {
			pos.Col += 2
		} else {
			pos.Col++
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	sp := diag.Span{File: l.file, Start: pos, End: diag.Pos{Line: pos.Line, Col: pos.Col + 1}}
	l.fail(diag.EAST, &sp, err.Error(), "Raw control characters (newline, tab, ...) are not allowed inside a string literal: write them as escapes such as \\n or \\t, and close the string on the same line.")
}

func (l *lowerer) literal(raw string, sp diag.Span) ast.Expr {
	lit := &ast.Literal{Span: sp, Raw: raw}
	switch {
	case raw == "null":
		lit.Kind = ast.LitNull
	case raw == "true" || raw == "false":
		lit.Kind = ast.LitBool
		lit.Bool = raw == "true"
	case raw[0] == '"':
		lit.Kind = ast.LitString
		s, err := lexer.DecodeString(raw)
		if err != nil {
			l.badStringAt(err, sp.Start, raw)
		}
		lit.Str = s
	default:
		lit.Kind = ast.LitInt
		if strings.ContainsAny(raw, ".eE") {
			lit.Kind = ast.LitFloat
		}
		f, _ := strconv.ParseFloat(raw, 64)
		lit.Num = f
	}
	return lit
}
