package runtime

import "github.com/a0lang/a0/lang/value"

// Specialised operators: the shapes that dominate loops and recursion (a
// local name against a number literal, as in n - 1, i % 7 or n < 2, or two
// local names, as in acc + x) get nodes whose number case is a few
// instructions. Anything else (a slot not set in this frame, an operand
// that is not a number, division and remainder by anything but a non-zero
// literal) falls back to binNode's eval, which gives the same results and
// the same errors.

// binLKNode is `local op number` (op and slot copied next to the literal,
// so that the fast case reads one node).
type binLKNode struct {
	op op
	li int
	y  float64
	*binNode
}

// binLLNode is `local op local`, for every operator but / and %.
type binLLNode struct {
	op     op
	li, ri int
	*binNode
}

// noFastOps turns the specialisation off in programs compiled while it is
// set (tests compare the two).
var noFastOps bool

// specialiseBin returns the fastest node for n. / and % are specialised
// only against a non-zero literal: their zero checks stay in binNode.
func specialiseBin(n *binNode) exprNode {
	if n.li < 0 || noFastOps {
		return n
	}
	if (n.op == opDiv || n.op == opMod) && (n.rc.Kind() != value.Number || n.rc.AsNumber() == 0) {
		return n
	}
	if n.rc.Kind() == value.Number {
		return &binLKNode{op: n.op, li: n.li, y: n.rc.AsNumber(), binNode: n}
	}
	if n.ri >= 0 {
		return &binLLNode{op: n.op, li: n.li, ri: n.ri, binNode: n}
	}
	return n
}

// The number cases below repeat one switch: written out in each method,
// not called, so that it costs no call.

func (n *binLKNode) eval(r *run, f *frame) (value.Value, error) {
	if a := f.slots[n.li]; a.Kind() == value.Number {
		x, y := a.AsNumber(), n.y
		switch n.op {
		case opAdd:
			return value.Num(x + y), nil
		case opSub:
			return value.Num(x - y), nil
		case opMul:
			return value.Num(x * y), nil
		case opLt:
			return value.BoolOf(x < y), nil
		case opGt:
			return value.BoolOf(x > y), nil
		case opLe:
			return value.BoolOf(x <= y), nil
		case opGe:
			return value.BoolOf(x >= y), nil
		case opEq:
			return value.BoolOf(x == y), nil
		case opDiv:
			return value.Num(x / y), nil
		case opMod:
			return value.Num(modNum(x, y)), nil
		}
		return value.BoolOf(x != y), nil
	}
	return n.binNode.eval(r, f)
}

func (n *binLLNode) eval(r *run, f *frame) (value.Value, error) {
	if a, b := f.slots[n.li], f.slots[n.ri]; a.Kind() == value.Number && b.Kind() == value.Number {
		x, y := a.AsNumber(), b.AsNumber()
		switch n.op {
		case opAdd:
			return value.Num(x + y), nil
		case opSub:
			return value.Num(x - y), nil
		case opMul:
			return value.Num(x * y), nil
		case opLt:
			return value.BoolOf(x < y), nil
		case opGt:
			return value.BoolOf(x > y), nil
		case opLe:
			return value.BoolOf(x <= y), nil
		case opGe:
			return value.BoolOf(x >= y), nil
		case opEq:
			return value.BoolOf(x == y), nil
		}
		return value.BoolOf(x != y), nil
	}
	return n.binNode.eval(r, f)
}
