package runtime

import (
	"sync/atomic"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// exprNode is a compiled expression.
type exprNode interface {
	eval(r *run, f *frame) (value.Value, error)
}

// stmtNode is a compiled statement.
type stmtNode interface {
	exec(r *run, f *frame) (ret value.Value, returned bool, err error)
	getSpan() diag.Span
}

// frame holds the variable slots of one block activation.
type frame struct {
	parent *frame
	slots  []value.Value
	inline [4]value.Value
}

func newFrame(parent *frame, n int) *frame {
	f := &frame{parent: parent}
	if n <= len(f.inline) {
		f.slots = f.inline[:n]
	} else {
		f.slots = make([]value.Value, n)
	}
	return f
}

type blockCode struct {
	span       diag.Span
	nslots     int
	stmts      []stmtNode
	mayCapture bool // declares a function somewhere inside
	// ret is the body's only statement when that is a return (a function
	// body run by callBody without the statement layer), or nil.
	ret *returnNode
}

type fnCode struct {
	name   string
	params []string
	span   diag.Span
	body   *blockCode
}

// closure is an entry of the run's function table.
type closure struct {
	fn    *fnCode
	frame *frame
}

type constNode struct {
	span diag.Span
	v    value.Value
}

type varNode struct {
	span diag.Span
	name string
	refs []slotRef
	path []string
	// local is the slot of a plain name bound only in the current frame
	// (one ref, no hops, no path), or -1.
	local int
	// hints holds, per path segment, the position where the key was last
	// found (records of one literal share it). Runs are concurrent, so it
	// is atomic.
	hints []atomic.Int32
}

type recEntry struct {
	key    string
	spread bool
	span   diag.Span
	x      exprNode
}

type recordNode struct {
	span diag.Span
	// pollSpan is the span the interruption check made before the entries
	// are evaluated reports: the record's own, or, for the argument record
	// of a call, tool call, assert or check, that whole expression's (the
	// argument record is not an expression of its own there).
	pollSpan  diag.Span
	entries   []recEntry
	hasSpread bool
	// shape is the literal's keys, computed once at compile time and
	// shared by every record it builds, when they allow it (no spread,
	// distinct, no array-index key: see value.ShapeKeys); nil otherwise.
	shape []string
}

type listNode struct {
	span  diag.Span
	elems []exprNode
}

type binNode struct {
	span   diag.Span
	op     op
	opText string
	l, r   exprNode
	// lc, rc hold the value of a constant operand (undefined otherwise).
	lc, rc value.Value
	// li, ri are the slots of an operand that is a plain local name (see
	// varNode.local), read without a call when set; -1 otherwise.
	li, ri int
}

type negNode struct {
	span diag.Span
	x    exprNode
}

type userCallNode struct {
	span diag.Span
	name string
	id   int
	args *recordNode
	// binding cache: for the last fnCode seen, where each parameter's
	// argument comes from (index into args.entries, -1 = absent). Programs
	// run concurrently, so it is swapped atomically.
	cache atomic.Pointer[bindCache]
}

type bindCache struct {
	fn      *fnCode
	m       []int
	unknown []string // argument names fn does not take (see argnames.go)
	// slot is m inverted: per argument entry, the parameter it binds, or
	// -1 (a later entry with the same name wins); absent lists the
	// parameters no argument binds.
	slot   []int
	absent []int
}

type stdCallNode struct {
	span diag.Span
	name string
	fn   stdlib.Func
	args *recordNode
	// reuse is the index of the run's argument record this call fills
	// and hands to fn instead of building a new one (args has a shape
	// and at most maxReusedArgs entries; a stdlib function never keeps
	// its argument record), or -1.
	reuse int
	// lent is the entry of args holding a list literal that fn only reads
	// (see lentLists), built into a list reused with the record; -1 when
	// none or reuse is -1.
	lent int
}

type unknownFnNode struct {
	span     diag.Span
	name     string
	nameSpan diag.Span
}

// hofKind is the higher-order function a hofNode calls. Its text is the
// function's name, as messages show it.
type hofKind string

// The higher-order functions the evaluator runs itself.
const (
	hofMap    hofKind = "map"
	hofReduce hofKind = "reduce"
	hofFilter hofKind = "filter"
)

type hofNode struct {
	span diag.Span
	kind hofKind
	args *recordNode
	std  stdlib.Func // filter's by-form
	// inIdx is the entry of a range `in` iterated without building it
	// (see hofLazyIn), or -1.
	inIdx int
}

type toolNode struct {
	span diag.Span
	do   bool
	name string
	args *recordNode
}

type assertNode struct {
	span  diag.Span
	check bool
	args  *recordNode
	note  string // assertKeyNote of its record, "" when its keys are right
}

type ifRecNode struct {
	span            diag.Span
	cond, then, els exprNode
}

type ifBlockNode struct {
	span      diag.Span
	cond      exprNode
	then, els *blockCode
}

type forNode struct {
	span   diag.Span
	in     exprNode
	inSpan diag.Span
	as     string
	body   *blockCode
}

type filterBlockNode struct {
	span   diag.Span
	in     exprNode
	inSpan diag.Span
	as     string
	body   *blockCode
}

type loopNode struct {
	span      diag.Span
	in, times exprNode
	as        string
	body      *blockCode
}

type matchNode struct {
	span     diag.Span
	subject  exprNode
	subjSpan diag.Span
	ok, err  *blockCode
}

type tryNode struct {
	span  diag.Span
	body  *blockCode
	catch *blockCode
}

type letNode struct {
	span diag.Span
	slot int
	x    exprNode
}

type returnNode struct {
	span diag.Span
	x    exprNode
}

type exprStmtNode struct {
	span diag.Span
	x    exprNode
	slot int // -1 without a target
	path []string
}

type fnDeclNode struct {
	span diag.Span
	id   int
	fn   *fnCode
}

func (n *letNode) getSpan() diag.Span      { return n.span }
func (n *returnNode) getSpan() diag.Span   { return n.span }
func (n *exprStmtNode) getSpan() diag.Span { return n.span }
func (n *fnDeclNode) getSpan() diag.Span   { return n.span }
