// Package ast is the syntax tree of A0 programs.
//
// Every node records its source [diag.Span] exactly as the reference
// reports it (1-based lines, UTF-16 columns, exclusive end). The tree is
// produced by lang/parser and consumed by the checker, the formatter and the
// runtime. Nodes are plain structs; Stmt and Expr are sealed interfaces.
package ast

import "github.com/a0lang/a0/lang/diag"

// Node is any syntax tree node.
type Node interface {
	GetSpan() diag.Span
}

// Program is a whole source file.
type Program struct {
	Span    diag.Span // first to last token; 1:1–1:2 for an empty file
	Headers []*Header
	Stmts   []Stmt
	Empty   bool // the file has no tokens

	// Comments holds every comment of the file in source order; each is
	// also attached to exactly one place of the tree (see [Notes]).
	Comments []*Comment
	// Notes are the comments before and after each statement: nil, or one
	// (possibly nil) entry per statement.
	Notes []*Notes
	// End holds the comments after the last header or statement.
	End []*Comment
}

// Comment is one `#` comment. Comments mean nothing to the evaluator; the
// parser keeps them so that the formatter can print them where they were.
type Comment struct {
	Span diag.Span
	Text string // from `#` up to the line end, exactly as written
}

// Notes are the comments attached to one item of a sequence: a header or
// statement, a record entry or a list element.
type Notes struct {
	// Leading are the comments on their own lines before the item, then
	// the comments inside the item that no nested block, record or list
	// holds (the formatter prints those before the item too).
	Leading []*Comment
	// Trailing is the comment on the item's last line, after the item
	// (and after the comma that follows it), or nil.
	Trailing *Comment
}

// NotesAt returns notes[i], or nil when notes has no entry i.
func NotesAt(notes []*Notes, i int) *Notes {
	if i < len(notes) {
		return notes[i]
	}
	return nil
}

// GetSpan returns the node's span.
func (p *Program) GetSpan() diag.Span { return p.Span }

// HeaderKind distinguishes cap, budget, import and input headers.
type HeaderKind int

// Header kinds.
const (
	CapHeader HeaderKind = iota
	BudgetHeader
	ImportHeader
	// InputHeader is `input { name: "type", … }`: the inputs the program
	// takes (spec/language.md §5.6). `input` is not a keyword; it starts a
	// header only before the first statement and when `{` follows.
	InputHeader
)

// Header is a `cap {…}`, `budget {…}`, `input {…}` or `import "p" as x`
// header.
type Header struct {
	Span  diag.Span
	Kind  HeaderKind
	Rec   *RecordExpr // cap, budget and input
	Path  string      // import
	Alias string      // import
	Notes *Notes      // comments around the header, or nil
}

// GetSpan returns the node's span.
func (h *Header) GetSpan() diag.Span { return h.Span }

// Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Block is a `{ stmt… }` body.
type Block struct {
	Span  diag.Span
	Stmts []Stmt
	Notes []*Notes   // as Program.Notes
	Open  *Comment   // the comment after `{` on its line, or nil
	End   []*Comment // own-line comments after the last statement
}

// GetSpan returns the node's span.
func (b *Block) GetSpan() diag.Span { return b.Span }

// LetStmt is `let name = value`.
type LetStmt struct {
	Span  diag.Span
	Name  string
	Value Expr
}

// ExprStmt is `expr` or `expr -> a.b.c`.
type ExprStmt struct {
	Span   diag.Span // includes the target
	X      Expr
	Target *IdentPath // nil without `->`
}

// ReturnStmt is `return expr`.
type ReturnStmt struct {
	Span diag.Span
	X    Expr
}

// FnDecl is `fn name { params } { body }`.
type FnDecl struct {
	Span   diag.Span
	Name   string
	Params []string
	Body   *Block
}

func (*LetStmt) stmt()    {}
func (*ExprStmt) stmt()   {}
func (*ReturnStmt) stmt() {}
func (*FnDecl) stmt()     {}

// GetSpan returns the node's span.
func (s *LetStmt) GetSpan() diag.Span { return s.Span }

// GetSpan returns the node's span.
func (s *ExprStmt) GetSpan() diag.Span { return s.Span }

// GetSpan returns the node's span.
func (s *ReturnStmt) GetSpan() diag.Span { return s.Span }

// GetSpan returns the node's span.
func (s *FnDecl) GetSpan() diag.Span { return s.Span }

// LitKind is the kind of a literal.
type LitKind int

// Literal kinds.
const (
	LitNull LitKind = iota
	LitBool
	LitInt
	LitFloat
	LitString
)

// Literal is a number, string, boolean or null literal.
type Literal struct {
	Span diag.Span
	Kind LitKind
	Raw  string  // source text
	Num  float64 // LitInt, LitFloat
	Str  string  // LitString (decoded)
	Bool bool    // LitBool
}

// IdentPath is `a` or `a.b.c`.
type IdentPath struct {
	Span  diag.Span
	Parts []string
}

// Entry is one record entry: `key: value` or `...value`.
type Entry struct {
	Span   diag.Span
	Key    string // dotted keys joined with "."
	Value  Expr
	Spread bool
	Notes  *Notes // comments around the entry, or nil
}

// GetSpan returns the entry's span.
func (e *Entry) GetSpan() diag.Span { return e.Span }

// RecordExpr is `{ … }`.
type RecordExpr struct {
	Span    diag.Span
	Entries []*Entry
	Open    *Comment   // the comment after `{` on its line, or nil
	End     []*Comment // own-line comments after the last entry
}

// ListExpr is `[ … ]`.
type ListExpr struct {
	Span  diag.Span
	Elems []Expr
	Notes []*Notes   // nil, or the comments around each element
	Open  *Comment   // the comment after `[` on its line, or nil
	End   []*Comment // own-line comments after the last element
}

// CallExpr is a function call `name { args }`.
type CallExpr struct {
	Span     diag.Span
	Name     string // dotted name joined with "."
	NameSpan diag.Span
	Args     *RecordExpr
}

// ToolCall is `call? tool { args }` or `do tool { args }`.
type ToolCall struct {
	Span     diag.Span
	Do       bool
	Tool     string
	ToolSpan diag.Span
	Args     *RecordExpr
}

// AssertExpr is `assert { … }` or `check { … }`.
type AssertExpr struct {
	Span  diag.Span
	Check bool
	Args  *RecordExpr
}

// IfBlock is `if (cond) { … } else { … }`.
type IfBlock struct {
	Span diag.Span
	Cond Expr
	Then *Block
	Else *Block
}

// IfRecord is `if { cond: …, then: …, else: … }`.
type IfRecord struct {
	Span             diag.Span
	Rec              *RecordExpr
	Cond, Then, Else Expr // the last entry of each key
}

// ForExpr is `for { in: …, as: "x" } { … }`.
type ForExpr struct {
	Span diag.Span
	Rec  *RecordExpr
	In   Expr
	As   string
	Body *Block
}

// FilterBlock is `filter { in: …, as: "x" } { … }`.
type FilterBlock struct {
	Span diag.Span
	Rec  *RecordExpr
	In   Expr
	As   string
	Body *Block
}

// LoopExpr is `loop { in: …, times: …, as: "x" } { … }`.
type LoopExpr struct {
	Span  diag.Span
	Rec   *RecordExpr
	In    Expr
	Times Expr
	As    string
	Body  *Block
}

// MatchArm is `ok { v } { … }` or `err { e } { … }`.
type MatchArm struct {
	Span    diag.Span
	Tag     string
	Binding string
	Body    *Block
	Notes   *Notes // comments around the arm, or nil
}

// GetSpan returns the arm's span.
func (a *MatchArm) GetSpan() diag.Span { return a.Span }

// MatchExpr is `match subject { ok {v} {…} err {e} {…} }`.
type MatchExpr struct {
	Span      diag.Span
	Subject   Expr
	SubjParen bool // subject written as `( expr )`
	Ok, Err   *MatchArm
	OkFirst   bool       // source order of the arms
	Open      *Comment   // the comment after the `{` of the arms on its line, or nil
	End       []*Comment // own-line comments after the last arm
}

// Arms returns the arms in source order.
func (m *MatchExpr) Arms() []*MatchArm {
	if m.OkFirst {
		return []*MatchArm{m.Ok, m.Err}
	}
	return []*MatchArm{m.Err, m.Ok}
}

// TryExpr is `try { … } catch { e } { … }`.
type TryExpr struct {
	Span      diag.Span
	Body      *Block
	CatchName string
	Catch     *Block
}

// BinaryExpr is `l op r`. Span is the span of the whole precedence-level
// chain containing the operator (the reference reports operator errors
// there).
type BinaryExpr struct {
	Span diag.Span
	Op   string
	L, R Expr
}

// UnaryExpr is `-x`.
type UnaryExpr struct {
	Span diag.Span
	X    Expr
}

// ParenExpr is `( x )`; it is kept so the formatter and spans can see it.
type ParenExpr struct {
	Span diag.Span
	X    Expr
}

func (*Literal) expr()     {}
func (*IdentPath) expr()   {}
func (*RecordExpr) expr()  {}
func (*ListExpr) expr()    {}
func (*CallExpr) expr()    {}
func (*ToolCall) expr()    {}
func (*AssertExpr) expr()  {}
func (*IfBlock) expr()     {}
func (*IfRecord) expr()    {}
func (*ForExpr) expr()     {}
func (*FilterBlock) expr() {}
func (*LoopExpr) expr()    {}
func (*MatchExpr) expr()   {}
func (*TryExpr) expr()     {}
func (*BinaryExpr) expr()  {}
func (*UnaryExpr) expr()   {}
func (*ParenExpr) expr()   {}

// GetSpan returns the node's span.
func (e *Literal) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *IdentPath) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *RecordExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *ListExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *CallExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *ToolCall) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *AssertExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *IfBlock) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *IfRecord) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *ForExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *FilterBlock) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *LoopExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *MatchExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *TryExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *BinaryExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *UnaryExpr) GetSpan() diag.Span { return e.Span }

// GetSpan returns the node's span.
func (e *ParenExpr) GetSpan() diag.Span { return e.Span }

// Get returns the value of the last entry named key (spreads ignored), or
// nil.
func (r *RecordExpr) Get(key string) Expr {
	for i := len(r.Entries) - 1; i >= 0; i-- {
		e := r.Entries[i]
		if !e.Spread && e.Key == key {
			return e.Value
		}
	}
	return nil
}

// Unparen strips any ParenExpr wrappers.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}
