package parser

import (
	"sync/atomic"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

// fastParser is a recursive-descent recogniser of the grammar in grammar.go
// that builds the very grammar structs participle builds for a valid
// program, without participle's per-alternative branches, deferred
// captures and reflection (which cost ~35 allocations per token).
//
// It only ever accepts: at the first token it does not expect it gives up,
// and Parse runs participle on the tokens (from the failing top-level
// element on, see resume), which reports the error in the reference's
// words — or parses the program, should the fast parser have given up on
// something valid. Giving up is therefore always safe;
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

	// The grammar structs of one top-level statement come from these
	// arenas; once the statement is lowered they are dead, and the arenas
	// are reused for the next one (the lowerer keeps no pointer into them).
	stmts    arena[gStmt]
	exprs    arena[gExpr]
	cmps     arena[gCmp]
	ariths   arena[gArith]
	ariths2  arena[gArithR]
	operands arena[gOperand]
	paths    arena[gIdentPath]
	records  arena[gRecord]
	entries  arena[gEntry]
	blocks   arena[gBlock]
	lists    arena[gList]

	// The pointer slices of list elements, operator chains and record
	// entries, likewise.
	elems   ptrSlices[gExpr]
	rests   ptrSlices[gArithR]
	entryPs ptrSlices[gEntry]

	// first holds the first chunk of every arena and ptrSlices, so that
	// the parser and all of them are one allocation (see newFastParser).
	first firstChunks
}

// firstChunks are the first chunks of a fast parser's arenas and pointer
// slices. A first parse of a process made each on first use, a dozen
// allocations of as many size classes, each a new span of fresh memory
// (page faults) for a program of a few lines; inside the parser they are
// one allocation, and only the slots a parse uses are ever touched.
type firstChunks struct {
	stmts    [firstChunk]gStmt
	exprs    [firstChunk]gExpr
	cmps     [firstChunk]gCmp
	ariths   [firstChunk]gArith
	ariths2  [firstChunk]gArithR
	operands [firstChunk]gOperand
	paths    [firstChunk]gIdentPath
	records  [firstChunk]gRecord
	entries  [firstChunk]gEntry
	blocks   [firstChunk]gBlock
	lists    [firstChunk]gList

	elems        [firstPtrChunk]*gExpr
	rests        [firstPtrChunk]*gArithR
	entryPs      [firstPtrChunk]*gEntry
	elemsStack   [firstStack]*gExpr
	restsStack   [firstStack]*gArithR
	entryPsStack [firstStack]*gEntry
}

// The sizes of the first chunks: an arena's first chunk, a pointer
// slice's stack and its first chunk.
const (
	firstChunk    = 4
	firstStack    = 8
	firstPtrChunk = 32
)

// newFastParser makes a fast parser whose arenas start in p.first.
func newFastParser() *fastParser {
	p := new(fastParser)
	f := &p.first
	p.stmts.seed(f.stmts[:])
	p.exprs.seed(f.exprs[:])
	p.cmps.seed(f.cmps[:])
	p.ariths.seed(f.ariths[:])
	p.ariths2.seed(f.ariths2[:])
	p.operands.seed(f.operands[:])
	p.paths.seed(f.paths[:])
	p.records.seed(f.records[:])
	p.entries.seed(f.entries[:])
	p.blocks.seed(f.blocks[:])
	p.lists.seed(f.lists[:])
	p.elems.seed(f.elems[:], f.elemsStack[:])
	p.rests.seed(f.rests[:], f.restsStack[:])
	p.entryPs.seed(f.entryPs[:], f.entryPsStack[:])
	return p
}

// ptrSlices builds slices of pointers without allocating them one by one:
// while a slice is parsed its elements go on a stack (a nested slice's
// above them), and at its end they are copied to chunks that reset makes
// reusable, as the arenas' are. A slice handed out has no spare capacity.
type ptrSlices[T any] struct {
	stack  []*T
	chunks [][]*T
	c, n   int // current chunk, next free slot in it

	stack0 []*T    // the stack's first backing array (see seed)
	hdr    [2][]*T // the first headers of chunks
}

// seed makes chunk the first chunk and stack the stack's backing array.
func (s *ptrSlices[T]) seed(chunk, stack []*T) {
	s.hdr[0] = chunk
	s.chunks = s.hdr[:1]
	s.stack0 = stack[:0]
	s.stack = s.stack0
}

func (s *ptrSlices[T]) mark() int         { return len(s.stack) }
func (s *ptrSlices[T]) push(x *T)         { s.stack = append(s.stack, x) }
func (s *ptrSlices[T]) size(mark int) int { return len(s.stack) - mark }

// done pops the elements pushed since mark and returns them as one slice
// (nil for none, as append leaves an empty repetition).
func (s *ptrSlices[T]) done(mark int) []*T {
	xs := s.stack[mark:]
	if len(xs) == 0 {
		return nil
	}
	k := len(xs)
	if s.c == len(s.chunks) || len(s.chunks[s.c])-s.n < k {
		if s.c < len(s.chunks) {
			s.c++
		}
		if s.c == len(s.chunks) {
			s.chunks = append(s.chunks, nil)
		}
		if len(s.chunks[s.c]) < k {
			s.chunks[s.c] = make([]*T, max(64, k))
		}
		s.n = 0
	}
	out := s.chunks[s.c][s.n : s.n+k : s.n+k]
	copy(out, xs)
	s.n += k
	clear(xs)
	s.stack = s.stack[:mark]
	return out
}

// reset clears what was handed out (and a stack left by giving up).
func (s *ptrSlices[T]) reset() {
	for i := 0; i < s.c && i < len(s.chunks); i++ {
		clear(s.chunks[i])
	}
	if s.c < len(s.chunks) {
		clear(s.chunks[s.c][:s.n])
	}
	s.c, s.n = 0, 0
	clear(s.stack)
	s.stack = s.stack[:0]
}

// trim drops what a spare parser should not keep (after a reset).
func (s *ptrSlices[T]) trim() {
	if len(s.chunks) > maxPooledChunks {
		clear(s.chunks[maxPooledChunks:])
		s.chunks = s.chunks[:maxPooledChunks]
	}
	// A stack that outgrew stack0 left pointers in it: clear them too.
	clear(s.stack0[:cap(s.stack0)])
	if cap(s.stack) > 256 {
		s.stack = s.stack0
	}
}

// arena hands out zeroed T from chunks that reset makes reusable. Chunks
// double from the first one's size (firstChunk when seeded, else 8) to 256
// elements, so a small program allocates little.
// Every slot past the cursor is zero: a chunk is zero when made, and reset
// clears the slots handed out since the last reset.
type arena[T any] struct {
	chunks [][]T
	c, n   int    // current chunk, next free slot in it
	hdr    [2][]T // the first headers of chunks (see seed)
}

// seed makes chunk the first chunk.
func (a *arena[T]) seed(chunk []T) {
	a.hdr[0] = chunk
	a.chunks = a.hdr[:1]
}

func (a *arena[T]) new() *T {
	if a.c == len(a.chunks) || a.n == len(a.chunks[a.c]) {
		if a.c < len(a.chunks) {
			a.c++
		}
		if a.c == len(a.chunks) {
			size := 8
			if a.c > 0 {
				size = min(2*len(a.chunks[a.c-1]), 256)
			}
			a.chunks = append(a.chunks, make([]T, size))
		}
		a.n = 0
	}
	t := &a.chunks[a.c][a.n]
	a.n++
	return t
}

// reset clears the slots handed out and makes them available again.
func (a *arena[T]) reset() {
	for i := 0; i < a.c; i++ {
		clear(a.chunks[i])
	}
	if a.c < len(a.chunks) {
		clear(a.chunks[a.c][:a.n])
	}
	a.c, a.n = 0, 0
}

// trim drops the chunks beyond maxPooledChunks (after a reset, so that a
// pooled arena holds no source text).
func (a *arena[T]) trim() {
	if len(a.chunks) > maxPooledChunks {
		clear(a.chunks[maxPooledChunks:])
		a.chunks = a.chunks[:maxPooledChunks]
	}
}

func (p *fastParser) resetArenas() {
	p.stmts.reset()
	p.exprs.reset()
	p.cmps.reset()
	p.ariths.reset()
	p.ariths2.reset()
	p.operands.reset()
	p.paths.reset()
	p.records.reset()
	p.entries.reset()
	p.blocks.reset()
	p.lists.reset()
	p.elems.reset()
	p.rests.reset()
	p.entryPs.reset()
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

// fastParse parses and lowers toks (ending with EOF). ok is false when the
// fast parser gives up, with where participle can take over; otherwise
// prog and d are the lowerer's result.
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

// spareParser keeps one fast parser, arenas included, between parses: a
// small program then allocates none of its grammar structs (concurrent
// parses make their own). Nothing of a parse outlives it in the arenas
// (the lowerer copies what it keeps). A single atomic slot rather than a
// sync.Pool: the first parse of a fresh process stays as cheap as before.
var spareParser atomic.Pointer[fastParser]

// maxPooledChunks bounds the chunks an arena keeps when spare (4+8
// elements): a large program's arenas are left to the collector.
const maxPooledChunks = 2

// release clears p's references to the parse and keeps it as the spare.
func (p *fastParser) release() {
	p.resetArenas()
	p.stmts.trim()
	p.exprs.trim()
	p.cmps.trim()
	p.ariths.trim()
	p.ariths2.trim()
	p.operands.trim()
	p.paths.trim()
	p.records.trim()
	p.entries.trim()
	p.blocks.trim()
	p.lists.trim()
	p.elems.trim()
	p.rests.trim()
	p.entryPs.trim()
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

func (p *fastParser) pos() plexer.Position { return plexer.Position{Offset: p.i} }

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
		p.lw.header(prog, p.header())
		p.resetArenas()
	}
	prog.Stmts = make([]ast.Stmt, 0, 16)
	for p.peek().Type != lexer.EOF {
		count(len(prog.Stmts), p)
		p.at.elem = p.i
		prog.Stmts = append(prog.Stmts, p.lw.stmt(p.stmt()))
		p.at.stmts = true
		p.resetArenas()
	}
	return p.lw.end(prog)
}

// isInputHeader reports whether an input header starts here: the
// identifier `input` followed by `{` (the grammar's lookahead).
func (p *fastParser) isInputHeader() bool {
	t := p.peek()
	return t.Type == lexer.Ident && t.Text == "input" && p.i+1 < len(p.toks) && p.toks[p.i+1].Text == "{"
}

func (p *fastParser) header() *gHeader {
	g := &gHeader{Pos: p.pos()}
	switch p.next().Text {
	case "cap":
		g.Cap = p.record()
	case "budget":
		g.Budget = p.record()
	case "input":
		g.Input = p.record()
	default: // import
		t := p.next()
		if t.Type != lexer.String {
			p.fail()
		}
		p.expect("as")
		g.Import = &gImport{Path: t.Text, Alias: p.ident()}
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) stmt() *gStmt {
	g := p.stmts.new()
	g.Pos = p.pos()
	switch {
	case p.is("let"):
		p.i++
		name := p.ident()
		p.expect("=")
		g.Let = &gLet{Name: name, Value: p.expr()}
	case p.is("return"):
		p.i++
		g.Return = p.expr()
	case p.is("fn"):
		g.Fn = p.fn()
	default:
		s := &gExprStmt{X: p.expr()}
		if p.is("->") {
			p.i++
			s.Target = p.identPath()
		}
		g.Expr = s
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) fn() *gFn {
	p.i++ // fn
	g := &gFn{Name: p.ident()}
	p.expect("{")
	if p.peek().Type == lexer.Ident {
		g.Params = append(g.Params, p.ident())
		for p.is(",") && p.toks[p.i+1].Type == lexer.Ident {
			count(len(g.Params), p)
			p.i++
			g.Params = append(g.Params, p.ident())
		}
		if p.is(",") {
			p.i++
		}
	}
	p.expect("}")
	g.Body = p.block()
	return g
}

func (p *fastParser) block() *gBlock {
	g := p.blocks.new()
	g.Pos = p.pos()
	p.expect("{")
	for !p.is("}") {
		count(len(g.Stmts), p)
		g.Stmts = append(g.Stmts, p.stmt())
	}
	p.i++
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) expr() *gExpr {
	g := p.exprs.new()
	g.Pos = p.pos()
	t := p.peek()
	switch {
	case t.Type == lexer.CallQ:
		g.Tool = p.tool()
	case t.Type != lexer.Keyword:
		g.Cmp = p.cmp()
	default:
		switch t.Text {
		case "if":
			g.If = p.ifExpr()
		case "for":
			p.i++
			g.For = &gFor{Rec: p.record(), Body: p.block()}
		case "loop":
			p.i++
			g.Loop = &gLoop{Rec: p.record(), Body: p.block()}
		case "filter":
			p.i++
			f := &gFilter{Rec: p.record()}
			if p.is("{") {
				f.Body = p.block()
			}
			g.Filter = f
		case "match":
			g.Match = p.match()
		case "do":
			g.Tool = p.tool()
		case "assert", "check":
			p.i++
			g.Assert = &gAssert{Kind: t.Text, Args: p.record()}
		case "try":
			g.Try = p.try()
		default:
			p.fail()
		}
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) ifExpr() *gIf {
	p.i++ // if
	g := &gIf{}
	if p.is("(") {
		p.i++
		g.Cond = p.expr()
		p.expect(")")
		g.Then = p.block()
		p.expect("else")
		g.Else = p.block()
	} else {
		g.Rec = p.record()
	}
	return g
}

func (p *fastParser) match() *gMatch {
	p.i++ // match
	g := &gMatch{}
	if p.is("(") {
		p.i++
		g.Paren = p.expr()
		p.expect(")")
	} else {
		g.Path = p.identPath()
	}
	p.expect("{")
	g.Arm1 = p.arm()
	g.Arm2 = p.arm()
	p.expect("}")
	return g
}

func (p *fastParser) arm() *gArm {
	g := &gArm{Pos: p.pos(), Tag: p.ident()}
	p.expect("{")
	g.Binding = p.ident()
	p.expect("}")
	g.Body = p.block()
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) try() *gTry {
	p.i++ // try
	g := &gTry{Body: p.block()}
	p.expect("catch")
	p.expect("{")
	g.Name = p.ident()
	p.expect("}")
	g.Catch = p.block()
	return g
}

func (p *fastParser) tool() *gTool {
	g := &gTool{Kind: p.next().Text}
	g.Tool = p.identPath()
	g.Args = p.record()
	return g
}

func (p *fastParser) cmp() *gCmp {
	g := p.cmps.new()
	g.Pos = p.pos()
	g.L = p.arith()
	if t := p.peek(); t.Type == lexer.Punct {
		switch t.Text {
		case ">=", "<=", "==", "!=", ">", "<":
			p.i++
			g.Op = t.Text
			g.R = p.arith()
		}
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) arith() *gArith {
	g := p.ariths.new()
	g.Pos = p.pos()
	g.L = p.operand()
	m := p.rests.mark()
	for {
		t := p.peek()
		if t.Type != lexer.Punct {
			break
		}
		if op := t.Text; op != "+" && op != "-" && op != "*" && op != "/" && op != "%" {
			break
		}
		count(p.rests.size(m), p)
		p.i++
		r := p.ariths2.new()
		r.Op = t.Text
		r.X = p.operand()
		p.rests.push(r)
	}
	g.Rest = p.rests.done(m)
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) operand() *gOperand {
	g := p.operands.new()
	g.Pos = p.pos()
	for p.is("-") {
		count(len(g.Neg), p)
		g.Neg = append(g.Neg, p.next().Text)
	}
	t := p.peek()
	switch t.Type {
	case lexer.Ident:
		g.Path = p.identPath()
		if p.is("{") {
			g.Args = p.record()
		}
	case lexer.Int, lexer.Float, lexer.String, lexer.Literal:
		p.i++
		g.Lit = t.Text
	case lexer.Punct:
		switch t.Text {
		case "{":
			g.Rec = p.record()
		case "[":
			g.List = p.list()
		case "(":
			p.i++
			g.Paren = p.expr()
			p.expect(")")
		default:
			p.fail()
		}
	default:
		p.fail()
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) identPath() *gIdentPath {
	g := p.paths.new()
	g.Pos = p.pos()
	g.Head = p.ident()
	for p.is(".") {
		count(len(g.Rest), p)
		p.i++
		g.Rest = append(g.Rest, p.name())
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) record() *gRecord {
	g := p.records.new()
	g.Pos = p.pos()
	p.expect("{")
	if !p.is("}") {
		m := p.entryPs.mark()
		p.entryPs.push(p.entry())
		for p.is(",") && startsEntry(&p.toks[p.i+1]) {
			count(p.entryPs.size(m), p)
			p.i++
			p.entryPs.push(p.entry())
		}
		g.Entries = p.entryPs.done(m)
		if p.is(",") {
			p.i++
		}
	}
	p.expect("}")
	g.EndPos = p.pos()
	return g
}

func startsEntry(t *lexer.Token) bool {
	return t.Type == lexer.Ident || t.Type == lexer.Keyword || t.Text == "..."
}

func (p *fastParser) entry() *gEntry {
	g := p.entries.new()
	g.Pos = p.pos()
	if p.is("...") {
		p.i++
		g.Spread = p.expr()
	} else {
		g.Key = append(g.Key, p.name())
		for p.is(".") {
			count(len(g.Key), p)
			p.i++
			g.Key = append(g.Key, p.name())
		}
		p.expect(":")
		g.Value = p.expr()
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) list() *gList {
	g := p.lists.new()
	g.Pos = p.pos()
	p.expect("[")
	if !p.is("]") {
		m := p.elems.mark()
		p.elems.push(p.expr())
		for p.is(",") && startsExpr(&p.toks[p.i+1]) {
			count(p.elems.size(m), p)
			p.i++
			p.elems.push(p.expr())
		}
		g.Elems = p.elems.done(m)
		if p.is(",") {
			p.i++
		}
	}
	p.expect("]")
	g.EndPos = p.pos()
	return g
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
