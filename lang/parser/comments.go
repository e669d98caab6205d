package parser

import (
	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
)

// Comments are not part of the grammar: the lexer returns them beside the
// tokens, and after lowering attachComments places each one in the tree by
// position (spec/language.md §3.8). Both parsers build the same tree, so
// they agree on the comments without either grammar knowing of them.
//
// The file, each block, record and list is a sequence of items (headers
// and statements, entries, elements). A comment between two items, or
// between an item and the brace around it, is
//
//   - the Open comment of the sequence when it follows the opening brace
//     or bracket on the same line;
//   - the Trailing comment of the item before it when it follows that item
//     (or the comma after it) on the same line;
//   - else a Leading comment of the next item, or an End comment of the
//     sequence when no item follows.
//
// The arms of a match are a sequence too. A comment inside an item belongs
// to the innermost block, record, list or match arms of the item that
// holds it; when none does (`let x = # c` then `1`), it becomes a Leading
// comment of the item.

// item is one element of a sequence, with the way to its notes.
type item struct {
	span  diag.Span
	node  ast.Node
	notes func() *ast.Notes // the item's notes, created on first use
}

type attacher struct {
	cs   []*ast.Comment
	same []bool // the comment is on the line of the token before it
}

// before reports whether a comes before b.
func before(a, b diag.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// attachComments records the lexer's comments in p.
func (l *lowerer) attachComments(p *ast.Program) {
	if len(l.comments) == 0 {
		return
	}
	a := &attacher{cs: make([]*ast.Comment, len(l.comments)), same: make([]bool, len(l.comments))}
	for i, c := range l.comments {
		a.cs[i] = &ast.Comment{Span: diag.Span{File: l.file, Start: c.Start, End: c.End}, Text: c.Text}
		a.same[i] = c.Next > 0 && l.toks[c.Next-1].End.Line == c.Start.Line
	}
	p.Comments = a.cs
	items := make([]item, 0, len(p.Headers)+len(p.Stmts))
	for _, h := range p.Headers {
		items = append(items, item{span: h.Span, node: h, notes: fieldNotes(&h.Notes)})
	}
	items = stmtItems(items, p.Stmts, &p.Notes)
	a.seq(items, 0, len(a.cs), nil, &p.End)
}

// fieldNotes returns the notes stored at *f, creating them on first use.
func fieldNotes(f **ast.Notes) func() *ast.Notes {
	return func() *ast.Notes {
		if *f == nil {
			*f = &ast.Notes{}
		}
		return *f
	}
}

// sliceNotes returns the notes of item i of n, stored in the parallel
// slice *s, creating both on first use.
func sliceNotes(s *[]*ast.Notes, n, i int) func() *ast.Notes {
	return func() *ast.Notes {
		if *s == nil {
			*s = make([]*ast.Notes, n)
		}
		if (*s)[i] == nil {
			(*s)[i] = &ast.Notes{}
		}
		return (*s)[i]
	}
}

func stmtItems(items []item, stmts []ast.Stmt, notes *[]*ast.Notes) []item {
	for i, s := range stmts {
		items = append(items, item{span: s.GetSpan(), node: s, notes: sliceNotes(notes, len(stmts), i)})
	}
	return items
}

// seq attaches the comments cs[lo:hi], all inside one sequence, to its
// items. open is nil for the file, which has no opening brace.
func (a *attacher) seq(items []item, lo, hi int, open **ast.Comment, end *[]*ast.Comment) {
	k := 0 // the first item that starts after the comment
	for i := lo; i < hi; {
		c := a.cs[i]
		pos := c.Span.Start
		for k < len(items) && !before(pos, items[k].span.Start) {
			k++
		}
		if k > 0 && before(pos, items[k-1].span.End) {
			it := items[k-1]
			j := i + 1
			for j < hi && before(a.cs[j].Span.Start, it.span.End) {
				j++
			}
			a.inside(it, i, j)
			i = j
			continue
		}
		switch {
		case a.same[i] && k == 0 && open != nil && *open == nil:
			*open = c
		case a.same[i] && k > 0 && items[k-1].notes().Trailing == nil:
			items[k-1].notes().Trailing = c
		case k == len(items):
			*end = append(*end, c)
		default:
			n := items[k].notes()
			n.Leading = append(n.Leading, c)
		}
		i++
	}
}

// inside attaches the comments cs[lo:hi], all inside item it, to the
// blocks, records and lists of the item that hold them, the others to the
// item's leading comments.
func (a *attacher) inside(it item, lo, hi int) {
	cons := nested(it.node, nil) // in source order, disjoint
	k := 0
	for i := lo; i < hi; {
		pos := a.cs[i].Span.Start
		for k < len(cons) && !before(pos, interior(cons[k]).End) {
			k++ // cons[k] ends before the comment
		}
		var in ast.Node
		var sp diag.Span
		if k < len(cons) {
			if sp = interior(cons[k]); before(sp.Start, pos) {
				in = cons[k]
			}
		}
		if in == nil {
			n := it.notes()
			n.Leading = append(n.Leading, a.cs[i])
			i++
			continue
		}
		j := i + 1
		for j < hi && before(a.cs[j].Span.Start, sp.End) {
			j++
		}
		a.container(in, i, j)
		i = j
	}
}

// interior returns the part of a block, record, list or match whose
// comments container attaches: from its opening bracket (exclusive) to the
// end (for a match, what follows the subject).
func interior(n ast.Node) diag.Span {
	sp := n.GetSpan()
	if m, ok := n.(*ast.MatchExpr); ok {
		sp.Start = m.Subject.GetSpan().End
	}
	return sp
}

// container attaches cs[lo:hi] inside a block, record, list or the arms
// of a match.
func (a *attacher) container(n ast.Node, lo, hi int) {
	switch n := n.(type) {
	case *ast.MatchExpr:
		arms := n.Arms()
		items := make([]item, 0, 2)
		for _, arm := range arms {
			if arm != nil {
				items = append(items, item{span: arm.Span, node: arm, notes: fieldNotes(&arm.Notes)})
			}
		}
		a.seq(items, lo, hi, &n.Open, &n.End)
	case *ast.Block:
		a.seq(stmtItems(nil, n.Stmts, &n.Notes), lo, hi, &n.Open, &n.End)
	case *ast.RecordExpr:
		items := make([]item, len(n.Entries))
		for i, e := range n.Entries {
			items[i] = item{span: e.Span, node: e, notes: fieldNotes(&e.Notes)}
		}
		a.seq(items, lo, hi, &n.Open, &n.End)
	case *ast.ListExpr:
		items := make([]item, len(n.Elems))
		for i, e := range n.Elems {
			items[i] = item{span: e.GetSpan(), node: e, notes: sliceNotes(&n.Notes, len(n.Elems), i)}
		}
		a.seq(items, lo, hi, &n.Open, &n.End)
	}
}

// nested appends to out the outermost blocks, records and lists within n
// (n itself when it is one), in source order.
func nested(n ast.Node, out []ast.Node) []ast.Node {
	switch n := n.(type) {
	case *ast.Header:
		if n.Rec != nil {
			out = append(out, n.Rec)
		}
	case *ast.LetStmt:
		out = nested(n.Value, out)
	case *ast.ExprStmt:
		out = nested(n.X, out)
	case *ast.ReturnStmt:
		out = nested(n.X, out)
	case *ast.FnDecl:
		out = append(out, n.Body)
	case *ast.Entry:
		out = nested(n.Value, out)
	case *ast.Block, *ast.RecordExpr, *ast.ListExpr:
		out = append(out, n)
	case *ast.CallExpr:
		out = append(out, n.Args)
	case *ast.ToolCall:
		out = append(out, n.Args)
	case *ast.AssertExpr:
		out = append(out, n.Args)
	case *ast.IfBlock:
		out = nested(n.Cond, out)
		out = appendBlocks(out, n.Then, n.Else)
	case *ast.IfRecord:
		out = append(out, n.Rec)
	case *ast.ForExpr:
		out = appendBlocks(append(out, n.Rec), n.Body)
	case *ast.FilterBlock:
		out = appendBlocks(append(out, n.Rec), n.Body)
	case *ast.LoopExpr:
		out = appendBlocks(append(out, n.Rec), n.Body)
	case *ast.MatchExpr:
		out = append(nested(n.Subject, out), n) // the subject, then the arms
	case *ast.MatchArm:
		out = appendBlocks(out, n.Body)
	case *ast.TryExpr:
		out = appendBlocks(out, n.Body, n.Catch)
	case *ast.BinaryExpr:
		out = nested(n.R, nested(n.L, out))
	case *ast.UnaryExpr:
		out = nested(n.X, out)
	case *ast.ParenExpr:
		out = nested(n.X, out)
	}
	return out
}

func appendBlocks(out []ast.Node, bs ...*ast.Block) []ast.Node {
	for _, b := range bs {
		if b != nil {
			out = append(out, b)
		}
	}
	return out
}
