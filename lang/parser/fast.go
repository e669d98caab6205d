package parser

import (
	"strings"
	"sync/atomic"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

// fastParser is a recursive-descent recogniser of the grammar in grammar.go
// that builds the AST straight from the tokens: the very tree participle's
// grammar structs lower to (lower.go), without participle's
// per-alternative branches, deferred captures and reflection (which cost
// ~35 allocations per token), and without grammar structs at all. The
// spans, the shape checks and their order (first failure wins, depth
// first, in source order) are the lowerer's: both call the same helpers.
//
// It only ever accepts: at the first token it does not expect it gives up,
// and Parse runs participle on the tokens (from the failing top-level
// element on, see resume), which reports the error in the reference's
// words — or parses the program, should the fast parser have given up on
// something valid. Giving up is therefore always safe (what was built is
// dropped, shape errors included: the slow path lowers afresh);
// accepting is what must agree with participle, and TestFastAgrees plus
// FuzzFastAgrees check that it does (same AST, spans included, on every
// input the fast parser accepts, and participle accepts them all).
//
// participle runs with UseLookahead(0): a branch that consumed a token
// and then failed is an error, never a backtrack. That makes the grammar
// LL(1) apart from its explicit (?= ...) lookaheads, which are mirrored
// below with a one-token peek.
type fastParser struct {
	toks []lexer.Token
	i    int
	lw   *lowerer

	at resume // where participle takes over should the fast parser give up

	// While a list of statements, expressions, record entries or names
	// is parsed its items wait on these stacks (a nested list's above
	// them); at its end they are copied to a slice of exactly their
	// number. The stacks outlive the parse (see spareParser).
	stmts   stack[ast.Stmt]
	exprs   stack[ast.Expr]
	entries stack[*ast.Entry]
	strs    stack[string]

	// first holds the stacks' first backing arrays, so that the parser
	// and its stacks are one small allocation.
	first struct {
		stmts   [8]ast.Stmt
		exprs   [16]ast.Expr
		entries [8]*ast.Entry
		strs    [8]string
	}
}

// stack is one of the fast parser's item stacks.
type stack[T any] struct{ s []T }

func (s *stack[T]) mark() int         { return len(s.s) }
func (s *stack[T]) push(x T)          { s.s = append(s.s, x) }
func (s *stack[T]) size(mark int) int { return len(s.s) - mark }

// done pops the items pushed since mark and returns them as a slice of
// their exact length (empty, not nil, for none).
func (s *stack[T]) done(mark int) []T {
	out := make([]T, len(s.s)-mark)
	copy(out, s.s[mark:])
	s.pop(mark)
	return out
}

// pop drops the items pushed since mark.
func (s *stack[T]) pop(mark int) {
	clear(s.s[mark:])
	s.s = s.s[:mark]
}

// reset empties the stack (a parse that gave up leaves items on it) and
// lets a large backing array go.
func (s *stack[T]) reset(first []T) {
	s.pop(0)
	if cap(s.s) > 256 {
		s.s = first[:0]
	}
}

// newFastParser makes a fast parser whose stacks start in p.first.
func newFastParser() *fastParser {
	p := new(fastParser)
	p.stmts.s = p.first.stmts[:0]
	p.exprs.s = p.first.exprs[:0]
	p.entries.s = p.first.entries[:0]
	p.strs.s = p.first.strs[:0]
	return p
}

// giveUp is the panic value that unwinds the fast parser.
type giveUp struct{}

// resume tells Parse where participle can start when the fast parser gave
// up: at the first token of the top-level header or statement it was in,
// parsing a program's rest (after its headers when stmts), unless whole
// asks for the whole program (a repetition reached participle's limit).
type resume struct {
	elem  int
	stmts bool
	whole bool
	tok   int // the token the fast parser gave up at
}

// fastParse parses toks (ending with EOF) into the lowerer's tree. ok is
// false when the fast parser gives up, with where participle can take
// over; otherwise prog and d are the lowerer's result.
func fastParse(lw *lowerer) (prog *ast.Program, d *diag.Diagnostic, ok bool, at resume) {
	p := spareParser.Swap(nil)
	if p == nil {
		p = newFastParser()
	}
	p.toks, p.lw = lw.toks, lw
	defer func() {
		if r := recover(); r != nil {
			if _, isGiveUp := r.(giveUp); !isGiveUp {
				panic(r)
			}
			prog, d, ok, at = nil, nil, false, p.at
			at.tok = p.i
		}
		p.release()
	}()
	prog, d = p.program()
	return prog, d, true, resume{}
}

// spareParser keeps one fast parser, stacks included, between parses
// (concurrent parses make their own). Nothing of a parse outlives it on
// the stacks. A single atomic slot rather than a sync.Pool: the first
// parse of a fresh process stays as cheap as before.
var spareParser atomic.Pointer[fastParser]

// release clears p's references to the parse and keeps it as the spare.
func (p *fastParser) release() {
	p.stmts.reset(p.first.stmts[:])
	p.exprs.reset(p.first.exprs[:])
	p.entries.reset(p.first.entries[:])
	p.strs.reset(p.first.strs[:])
	p.toks, p.lw, p.i, p.at = nil, nil, 0, resume{}
	spareParser.Store(p)
}

// maxRepeat bounds every repetition below participle's MaxIterations: a
// longer run is left to participle, which reports it.
const maxRepeat = 1_000_000 - 2

func (p *fastParser) fail() { panic(giveUp{}) }

func (p *fastParser) peek() *lexer.Token { return &p.toks[p.i] }

// is reports whether the next token's text is s. Keyword, punctuation and
// literal tokens are matched by text in participle's grammar; no other
// token kind can have such a text (strings keep their quotes).
func (p *fastParser) is(s string) bool { return p.toks[p.i].Text == s }

// span is the span of the tokens from start to the current one
// (exclusive).
func (p *fastParser) span(start int) diag.Span { return p.lw.spanTok(start, p.i) }

func (p *fastParser) next() *lexer.Token {
	t := &p.toks[p.i]
	if t.Type != lexer.EOF {
		p.i++
	}
	return t
}

func (p *fastParser) expect(s string) {
	if !p.is(s) {
		p.fail()
	}
	p.i++
}

func (p *fastParser) ident() string {
	t := p.peek()
	if t.Type != lexer.Ident {
		p.fail()
	}
	p.i++
	return t.Text
}

// name is an Ident or a Keyword (record keys and path segments).
func (p *fastParser) name() string {
	t := p.peek()
	if t.Type != lexer.Ident && t.Type != lexer.Keyword {
		p.fail()
	}
	p.i++
	return t.Text
}

func count(n int, p *fastParser) {
	if n >= maxRepeat {
		p.at.whole = true
		p.fail()
	}
}

func (p *fastParser) program() (*ast.Program, *diag.Diagnostic) {
	prog := p.lw.begin()
	for n := 0; p.is("cap") || p.is("budget") || p.is("import") || p.isInputHeader(); n++ {
		count(n, p)
		p.at.elem = p.i
		prog.Headers = append(prog.Headers, p.header())
	}
	prog.Stmts = make([]ast.Stmt, 0, 16)
	for p.peek().Type != lexer.EOF {
		count(len(prog.Stmts), p)
		p.at.elem = p.i
		prog.Stmts = append(prog.Stmts, p.stmt())
		p.at.stmts = true
	}
	return p.lw.end(prog)
}

// isInputHeader reports whether an input header starts here: the
// identifier `input` followed by `{` (the grammar's lookahead).
func (p *fastParser) isInputHeader() bool {
	t := p.peek()
	return t.Type == lexer.Ident && t.Text == "input" && p.i+1 < len(p.toks) && p.toks[p.i+1].Text == "{"
}

func (p *fastParser) header() *ast.Header {
	start := p.i
	hd := &ast.Header{}
	switch p.next().Text {
	case "cap":
		hd.Kind = ast.CapHeader
		hd.Rec = p.record()
	case "budget":
		hd.Kind = ast.BudgetHeader
		hd.Rec = p.record()
	case "input":
		hd.Kind = ast.InputHeader
		hd.Rec = p.record()
	default: // import
		t := p.next()
		if t.Type != lexer.String {
			p.fail()
		}
		p.expect("as")
		hd.Kind = ast.ImportHeader
		hd.Alias = p.ident()
		s, err := lexer.DecodeString(t.Text)
		if err != nil {
			p.lw.badString(err, start+1, t.Text)
		}
		hd.Path = s
	}
	hd.Span = p.span(start)
	return hd
}

func (p *fastParser) stmt() ast.Stmt {
	start := p.i
	switch {
	case p.is("let"):
		p.i++
		s := &ast.LetStmt{Name: p.ident()}
		p.expect("=")
		s.Value = p.expr()
		s.Span = p.span(start)
		return s
	case p.is("return"):
		p.i++
		s := &ast.ReturnStmt{X: p.expr()}
		s.Span = p.span(start)
		return s
	case p.is("fn"):
		return p.fn()
	default:
		s := &ast.ExprStmt{X: p.expr()}
		if p.is("->") {
			p.i++
			s.Target = p.identPath()
		}
		s.Span = p.span(start)
		return s
	}
}

//go:noinline
func (p *fastParser) fn() ast.Stmt {
	start := p.i
	p.i++ // fn
	d := &ast.FnDecl{Name: p.ident()}
	p.expect("{")
	if p.peek().Type == lexer.Ident {
		m := p.strs.mark()
		p.strs.push(p.ident())
		for p.is(",") && p.toks[p.i+1].Type == lexer.Ident {
			count(p.strs.size(m), p)
			p.i++
			p.strs.push(p.ident())
		}
		d.Params = p.strs.done(m)
		if p.is(",") {
			p.i++
		}
	}
	p.expect("}")
	d.Body = p.block()
	d.Span = p.span(start)
	return d
}

func (p *fastParser) block() *ast.Block {
	start := p.i
	p.expect("{")
	m := p.stmts.mark()
	for !p.is("}") {
		count(p.stmts.size(m), p)
		p.stmts.push(p.stmt())
	}
	p.i++
	return &ast.Block{Span: p.span(start), Stmts: p.stmts.done(m)}
}

func (p *fastParser) expr() ast.Expr {
	// The operator form, the most common, recurses through a small frame;
	// the keyword-led forms are parsed by exprForm.
	if t := p.peek(); t.Type != lexer.CallQ && t.Type != lexer.Keyword {
		return p.cmp()
	}
	return p.exprForm()
}

// exprForm parses the keyword-led forms of an expression (if, for, match,
// ...): see expr.
//
//go:noinline
func (p *fastParser) exprForm() ast.Expr {
	start := p.i
	t := p.peek()
	if t.Type == lexer.CallQ {
		return p.tool()
	}
	switch t.Text {
	case "if":
		return p.ifExpr()
	case "for":
		p.i++
		rec := p.record()
		n := &ast.ForExpr{Rec: rec, In: rec.Get("in"), As: stringAs(rec)}
		n.Body, n.Span = p.shapedBody(start, n.In == nil || n.As == "", msgForFields, fieldsHint(rec, "in", hintForFields))
		return n
	case "loop":
		p.i++
		rec := p.record()
		n := &ast.LoopExpr{Rec: rec, In: rec.Get("in"), Times: rec.Get("times"), As: stringAs(rec)}
		n.Body, n.Span = p.shapedBody(start, n.In == nil || n.Times == nil || n.As == "", msgLoopFields, fieldsHint(rec, "in", hintLoopFields))
		return n
	case "filter":
		p.i++
		rec := p.record()
		if !p.is("{") {
			return &ast.CallExpr{Span: p.span(start), Name: "filter", NameSpan: p.lw.tokSpan(start), Args: rec}
		}
		n := &ast.FilterBlock{Rec: rec, In: rec.Get("in"), As: stringAs(rec)}
		n.Body, n.Span = p.shapedBody(start, n.In == nil || n.As == "", msgFilterFields, fieldsHint(rec, "in", hintFilterField))
		return n
	case "match":
		return p.match()
	case "do":
		return p.tool()
	case "assert", "check":
		p.i++
		rec := p.record()
		return &ast.AssertExpr{Span: p.span(start), Check: t.Text == "check", Args: rec}
	case "try":
		return p.try()
	}
	p.fail()
	return nil
}

// shapedBody parses the body of a block form that started at token start
// and returns it with the form's span. bad says the form's record lacks
// fields: its shape error (msg, hint) is recorded before the body is
// parsed, so that the body's errors come after it, and gets the form's
// span once that is known.
func (p *fastParser) shapedBody(start int, bad bool, msg, hint string) (*ast.Block, diag.Span) {
	var d *diag.Diagnostic
	if bad {
		d = p.lw.failLater(diag.EParse, msg, hint)
	}
	body := p.block()
	sp := p.span(start)
	setSpan(d, sp)
	return body, sp
}

func (p *fastParser) ifExpr() ast.Expr {
	start := p.i
	p.i++ // if
	if !p.is("(") {
		rec := p.record()
		return p.lw.ifRecord(p.span(start), rec)
	}
	p.i++
	n := &ast.IfBlock{Cond: p.expr()}
	p.expect(")")
	n.Then = p.block()
	p.expect("else")
	n.Else = p.block()
	n.Span = p.span(start)
	return n
}

func (p *fastParser) match() ast.Expr {
	start := p.i
	p.i++ // match
	n := &ast.MatchExpr{}
	if p.is("(") {
		p.i++
		n.Subject = p.expr()
		n.SubjParen = true
		p.expect(")")
	} else {
		n.Subject = p.identPath()
	}
	p.expect("{")
	a1 := p.arm()
	a2 := p.arm()
	p.expect("}")
	n.Span = p.span(start)
	p.lw.matchArms(n, a1, a2)
	return n
}

func (p *fastParser) arm() *ast.MatchArm {
	start := p.i
	tag := p.ident()
	p.expect("{")
	binding := p.ident()
	p.expect("}")
	body := p.block()
	return p.lw.matchArm(p.span(start), tag, binding, body)
}

func (p *fastParser) try() ast.Expr {
	start := p.i
	p.i++ // try
	n := &ast.TryExpr{Body: p.block()}
	p.expect("catch")
	p.expect("{")
	n.CatchName = p.ident()
	p.expect("}")
	n.Catch = p.block()
	n.Span = p.span(start)
	return n
}

func (p *fastParser) tool() ast.Expr {
	start := p.i
	do := p.next().Text == "do"
	name, nameSpan := p.dottedName()
	args := p.record()
	return &ast.ToolCall{Span: p.span(start), Do: do, Tool: name, ToolSpan: nameSpan, Args: args}
}

func (p *fastParser) cmp() ast.Expr {
	start := p.i
	left := p.arith()
	if t := p.peek(); t.Type == lexer.Punct {
		switch t.Text {
		case ">=", "<=", "==", "!=", ">", "<":
			p.i++
			b := &ast.BinaryExpr{Op: t.Text, L: left}
			b.R = p.arith()
			b.Span = p.span(start)
			return b
		}
	}
	return left
}

// isArithOp reports whether t is + - * / or %.
func isArithOp(t *lexer.Token) bool {
	if t.Type != lexer.Punct || len(t.Text) != 1 {
		return false
	}
	switch t.Text[0] {
	case '+', '-', '*', '/', '%':
		return true
	}
	return false
}

func (p *fastParser) arith() ast.Expr {
	start := p.i
	x := p.operand()
	if !isArithOp(p.peek()) {
		return x
	}
	return p.arithChain(start, x)
}

// arithChain parses the operators and operands after an arith's first
// operand (arith keeps its own frame small: most operands have none, and
// the recursion goes through it).
//
//go:noinline
func (p *fastParser) arithChain(start int, first ast.Expr) ast.Expr {
	mo, mx := p.strs.mark(), p.exprs.mark()
	for isArithOp(p.peek()) {
		count(p.strs.size(mo), p)
		p.strs.push(p.next().Text)
		p.exprs.push(p.operand())
	}
	x := p.lw.chain(first, p.strs.s[mo:], p.exprs.s[mx:], start, p.i)
	p.strs.pop(mo)
	p.exprs.pop(mx)
	return x
}

func (p *fastParser) operand() ast.Expr {
	// A dispatcher: the rarer forms are parsed by functions of their own,
	// so that this frame, on the stack of every level of nesting, stays
	// small.
	start := p.i
	neg := 0
	for p.is("-") {
		count(neg, p)
		neg++
		p.i++
	}
	t := p.peek()
	var x ast.Expr
	switch t.Type {
	case lexer.Ident:
		x = p.pathOrCall()
	case lexer.Int, lexer.Float, lexer.String, lexer.Literal:
		p.i++
		x = p.lw.literal(t.Text, p.lw.tokSpan(start+neg))
	case lexer.Punct:
		switch t.Text {
		case "{":
			x = p.record()
		case "[":
			x = p.list()
		case "(":
			x = p.paren()
		default:
			p.fail()
		}
	default:
		p.fail()
	}
	if neg > 0 {
		x = p.lw.negate(start, neg, x)
	}
	return x
}

//go:noinline
func (p *fastParser) paren() ast.Expr {
	start := p.i
	p.i++ // (
	n := &ast.ParenExpr{X: p.expr()}
	p.expect(")")
	n.Span = p.span(start)
	return n
}

// pathOrCall parses a name: a variable path, or a call when a record
// follows.
//
//go:noinline
func (p *fastParser) pathOrCall() ast.Expr {
	start := p.i
	m := p.pathParts()
	if !p.is("{") {
		return &ast.IdentPath{Span: p.span(start), Parts: p.strs.done(m)}
	}
	name, nameSpan := joinDots(p.strs.s[m:]), p.span(start)
	p.strs.pop(m)
	args := p.record()
	return &ast.CallExpr{Span: nameSpan.Join(args.Span), Name: name, NameSpan: nameSpan, Args: args}
}

// pathParts pushes the parts of a dotted name (an identifier, then names
// after dots) on p.strs and returns the mark to take them from.
func (p *fastParser) pathParts() int {
	m := p.strs.mark()
	p.strs.push(p.ident())
	for p.is(".") {
		count(p.strs.size(m), p)
		p.i++
		p.strs.push(p.name())
	}
	return m
}

// dottedName parses a dotted name and returns it joined, with its span.
func (p *fastParser) dottedName() (string, diag.Span) {
	start := p.i
	m := p.pathParts()
	name := joinDots(p.strs.s[m:])
	p.strs.pop(m)
	return name, p.span(start)
}

// joinDots joins parts with dots (one part is returned as it is).
func joinDots(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, ".")
}

func (p *fastParser) identPath() *ast.IdentPath {
	start := p.i
	m := p.pathParts()
	return &ast.IdentPath{Span: p.span(start), Parts: p.strs.done(m)}
}

func (p *fastParser) record() *ast.RecordExpr {
	start := p.i
	p.expect("{")
	m := p.entries.mark()
	if !p.is("}") {
		p.entries.push(p.entry())
		for p.is(",") && startsEntry(&p.toks[p.i+1]) {
			count(p.entries.size(m), p)
			p.i++
			p.entries.push(p.entry())
		}
		if p.is(",") {
			p.i++
		}
	}
	p.expect("}")
	return &ast.RecordExpr{Span: p.span(start), Entries: p.entries.done(m)}
}

func startsEntry(t *lexer.Token) bool {
	return t.Type == lexer.Ident || t.Type == lexer.Keyword || t.Text == "..."
}

func (p *fastParser) entry() *ast.Entry {
	start := p.i
	en := &ast.Entry{}
	if p.is("...") {
		p.i++
		en.Spread = true
		en.Value = p.expr()
	} else {
		m := p.strs.mark()
		p.strs.push(p.name())
		for p.is(".") {
			count(p.strs.size(m), p)
			p.i++
			p.strs.push(p.name())
		}
		en.Key = joinDots(p.strs.s[m:])
		p.strs.pop(m)
		p.expect(":")
		en.Value = p.expr()
	}
	en.Span = p.span(start)
	return en
}

func (p *fastParser) list() ast.Expr {
	start := p.i
	p.expect("[")
	m := p.exprs.mark()
	if !p.is("]") {
		p.exprs.push(p.expr())
		for p.is(",") && startsExpr(&p.toks[p.i+1]) {
			count(p.exprs.size(m), p)
			p.i++
			p.exprs.push(p.expr())
		}
		if p.is(",") {
			p.i++
		}
	}
	p.expect("]")
	return &ast.ListExpr{Span: p.span(start), Elems: p.exprs.done(m)}
}

// startsExpr mirrors the lookahead set after a list's comma in grammar.go.
func startsExpr(t *lexer.Token) bool {
	switch t.Type {
	case lexer.Int, lexer.Float, lexer.String, lexer.Literal, lexer.Ident, lexer.CallQ:
		return true
	case lexer.Punct:
		switch t.Text {
		case "(", "{", "[", "-":
			return true
		}
	case lexer.Keyword:
		switch t.Text {
		case "do", "if", "for", "match", "assert", "check", "try", "filter", "loop":
			return true
		}
	}
	return false
}
