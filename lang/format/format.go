// Package format is the canonical A0 formatter behind `a0 fmt`.
//
// [Program] prints a parsed program in the layout of spec/cli.md §10: headers,
// a blank line, statements; two-space indentation; records and lists kept
// on one line when their inline text (members already formatted one level
// deeper, embedded newlines included) is at most 72 UTF-16 code units;
// binary operators parenthesised by precedence only; literals printed in
// their canonical spelling. Every comment the parser placed in the tree
// (spec/language.md §3.9) is printed where it was: leading comments on
// their own lines before their statement, entry or element, trailing ones
// after it, one space before; a record or list that holds a comment is
// laid out one member per line; in a program with comments a run of blank
// lines between statements is kept as one (spec/cli.md §10). A program
// without comments is laid out exactly as the reference formatter does
// it: a blank line after the headers and none elsewhere.
//
// The output is the reference formatter's, except where the reference's
// output would not parse again, or would parse to a different tree:
//
//   - an integer literal of 10²¹ or more prints as a float literal with its
//     digits expanded (`1000000000000000000000.0`) instead of `1e+21`;
//   - a keyword expression (if, for, match, try, filter, loop, call?, do,
//     assert, check) that is an operand of a binary or unary operator keeps
//     its parentheses;
//   - a comparison that is an operand of a comparison keeps its
//     parentheses (comparisons do not associate);
//   - an expression statement that would otherwise merge into the
//     statement before it (one starting with `-` after a statement ending in
//     an operand, or one starting with `{` after a statement ending in an
//     identifier path or a block-less `filter { … }`) is parenthesised;
//   - a number literal whose value is not finite (`1.0e999`) keeps its
//     source text.
package format

import (
	"math"
	"sort"
	"strings"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// MaxInline is the longest inline text, in UTF-16 code units, that a record
// or list keeps on one line.
const MaxInline = 72

// Program formats p. The result always ends in a newline; an empty program
// formats as "\n".
func Program(p *ast.Program) string {
	pr := &printer{comments: p.Comments}
	if len(p.Comments) > 0 {
		pr.printed = make(map[*ast.Comment]bool, len(p.Comments))
		pr.blanks = true
	}
	items := make([]seqItem, 0, len(p.Headers)+len(p.Stmts))
	for _, h := range p.Headers {
		items = append(items, seqItem{text: pr.header(h), span: h.Span, notes: h.Notes})
	}
	items = pr.stmtItems(items, p.Stmts, p.Notes, 0)
	out := pr.seq(items, len(p.Headers), p.End, 0)
	// Every comment is in the tree once; should one have escaped its
	// place, it is kept at the end rather than lost.
	for _, c := range p.Comments {
		if !pr.printed[c] {
			out += "\n" + c.Text
		}
	}
	out = strings.TrimPrefix(out, "\n")
	return out + "\n"
}

// printer formats one program; it counts the comments it prints so that a
// record or list knows whether its members hold one.
type printer struct {
	count   int
	printed map[*ast.Comment]bool
	// blanks keeps the source's blank lines between statements (one for a
	// run). Only a program with comments keeps them: one without is
	// printed in the reference layout, which has no blank lines.
	blanks bool
	// comments are all the program's comments, in source order.
	comments []*ast.Comment
}

// commentIn reports whether a comment starts inside span.
func (pr *printer) commentIn(span diag.Span) bool {
	i := sort.Search(len(pr.comments), func(i int) bool {
		return !before(pr.comments[i].Span.Start, span.Start)
	})
	return i < len(pr.comments) && before(pr.comments[i].Span.Start, span.End)
}

// comment returns c's text and notes it as printed.
func (pr *printer) comment(c *ast.Comment) string {
	pr.count++
	if pr.printed != nil {
		pr.printed[c] = true
	}
	return c.Text
}

func indent(depth int) string { return strings.Repeat("  ", depth) }

func (pr *printer) header(h *ast.Header) string {
	switch h.Kind {
	case ast.CapHeader:
		return "cap " + pr.record(h.Rec, 0)
	case ast.BudgetHeader:
		return "budget " + pr.record(h.Rec, 0)
	case ast.InputHeader:
		return "input " + pr.record(h.Rec, 0)
	}
	return "import " + diag.QuoteJSON(h.Path) + " as " + h.Alias
}

// seqItem is a formatted header or statement with its source span and
// comments.
type seqItem struct {
	text  string
	span  diag.Span
	notes *ast.Notes
}

// seq lays out headers and statements one per line at depth, each line
// indented and preceded by "\n", with their comments and the end
// comments. A blank line of the source between two items, or between an
// item and a comment, is kept (one, however many there were); items[split]
// (the first statement after headers) always has one before it.
func (pr *printer) seq(items []seqItem, split int, end []*ast.Comment, depth int) string {
	var b strings.Builder
	ind := indent(depth)
	prev := 0 // source line of the last text written; 0 before any
	// line writes text on a line of its own, after a blank line when
	// blank (never at the start).
	line := func(text string, blank bool) {
		if blank && b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("\n" + ind + text)
	}
	gap := func(start diag.Pos) bool { return pr.blanks && prev > 0 && start.Line-prev > 1 }
	for i, it := range items {
		blank := i == split && split > 0
		inside := false
		if it.notes != nil {
			for _, c := range it.notes.Leading {
				switch {
				case inside:
				case before(c.Span.Start, it.span.Start):
					blank = blank || gap(c.Span.Start)
					prev = c.Span.Start.Line
				default:
					// The comments from inside the item go right
					// before it, after its blank line.
					inside = true
					blank = blank || gap(it.span.Start)
				}
				line(pr.comment(c), blank)
				blank = false
			}
		}
		line(it.text, blank || !inside && gap(it.span.Start))
		prev = it.span.End.Line
		if it.notes != nil && it.notes.Trailing != nil {
			b.WriteString(" " + pr.comment(it.notes.Trailing))
			prev = max(prev, it.notes.Trailing.Span.Start.Line)
		}
	}
	for _, c := range end {
		line(pr.comment(c), gap(c.Span.Start))
		prev = c.Span.Start.Line
	}
	return b.String()
}

// before reports whether a comes before b.
func before(a, b diag.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// stmtItems formats statements at depth and appends them to items.
func (pr *printer) stmtItems(items []seqItem, stmts []ast.Stmt, notes []*ast.Notes, depth int) []seqItem {
	// What the previous statement's text would absorb if the next one
	// started with `-` (a binary minus) or `{` (call arguments or a filter
	// block).
	openMinus, openBrace := false, false
	for i, s := range stmts {
		var text string
		switch s := s.(type) {
		case *ast.LetStmt:
			text = "let " + s.Name + " = " + pr.expr(s.Value, depth)
			openMinus, openBrace = endsOpen(s.Value)
		case *ast.ReturnStmt:
			text = "return " + pr.expr(s.X, depth)
			openMinus, openBrace = endsOpen(s.X)
		case *ast.ExprStmt:
			x := ast.Unparen(s.X)
			lead := leading(x)
			wrap := lead == '-' && openMinus || lead == '{' && openBrace
			if wrap {
				text = "(" + pr.expr(x, depth) + ")"
				openMinus, openBrace = true, false
			} else {
				text = pr.expr(x, depth)
				openMinus, openBrace = endsOpen(x)
			}
			if s.Target != nil {
				text += " -> " + strings.Join(s.Target.Parts, ".")
				openMinus, openBrace = false, false
			}
		case *ast.FnDecl:
			text = "fn " + s.Name + " { " + strings.Join(s.Params, ", ") + " } " + pr.block(s.Body, depth)
			openMinus, openBrace = false, false
		}
		items = append(items, seqItem{text: text, span: s.GetSpan(), notes: ast.NotesAt(notes, i)})
	}
	return items
}

// block formats `{`, the statements at depth+1 and `}` at depth.
func (pr *printer) block(bl *ast.Block, depth int) string {
	open := "{"
	if bl.Open != nil {
		open += " " + pr.comment(bl.Open)
	}
	body := pr.seq(pr.stmtItems(nil, bl.Stmts, bl.Notes, depth+1), 0, bl.End, depth+1)
	if body == "" && bl.Open == nil {
		// An empty body is an empty line, as in the reference's layout.
		return "{\n\n" + indent(depth) + "}"
	}
	return open + body + "\n" + indent(depth) + "}"
}

// isKeyword reports whether e (unparenthesised) is a keyword expression,
// which cannot be an operand without parentheses.
func isKeyword(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.IfBlock, *ast.IfRecord, *ast.ForExpr, *ast.FilterBlock, *ast.LoopExpr,
		*ast.MatchExpr, *ast.TryExpr, *ast.ToolCall, *ast.AssertExpr:
		return true
	case *ast.CallExpr:
		return e.Name == "filter" // the block-less `filter { … }`
	}
	return false
}

// endsOpen reports whether the formatted text of e, as a whole statement
// value, would continue with a following `-` (binary minus) or `{`.
func endsOpen(e ast.Expr) (minus, brace bool) {
	e = ast.Unparen(e)
	if isKeyword(e) {
		c, ok := e.(*ast.CallExpr)
		return false, ok && c.Name == "filter"
	}
	return true, endsWithPath(e)
}

// endsWithPath reports whether the formatted text of the operand-level
// expression e ends with a bare identifier path.
func endsWithPath(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.IdentPath:
			return true
		case *ast.BinaryExpr:
			if binaryParen(x, x.R, true) {
				return false
			}
			e = x.R
		case *ast.UnaryExpr:
			if unaryParen(x.X) {
				return false
			}
			e = x.X
		default:
			return false
		}
	}
}

// leading returns the first character of the formatted text of e when it
// is `-` or `{`, else 0.
func leading(e ast.Expr) byte {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.RecordExpr:
			return '{'
		case *ast.UnaryExpr:
			return '-'
		case *ast.BinaryExpr:
			if binaryParen(x, x.L, false) {
				return 0
			}
			e = x.L
		default:
			return 0
		}
	}
}

func (pr *printer) expr(e ast.Expr, depth int) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Literal:
		return literal(e)
	case *ast.IdentPath:
		return strings.Join(e.Parts, ".")
	case *ast.RecordExpr:
		return pr.record(e, depth)
	case *ast.ListExpr:
		return pr.list(e, depth)
	case *ast.CallExpr:
		return e.Name + " " + pr.record(e.Args, depth)
	case *ast.ToolCall:
		kw := "call? "
		if e.Do {
			kw = "do "
		}
		return kw + e.Tool + " " + pr.record(e.Args, depth)
	case *ast.AssertExpr:
		kw := "assert "
		if e.Check {
			kw = "check "
		}
		return kw + pr.record(e.Args, depth)
	case *ast.IfBlock:
		return "if (" + pr.expr(e.Cond, depth) + ") " + pr.block(e.Then, depth) + " else " + pr.block(e.Else, depth)
	case *ast.IfRecord:
		if pr.commentIn(e.Rec.Span) {
			return "if " + pr.head(e.Rec, depth)
		}
		d := depth + 1
		return "if { cond: " + pr.expr(e.Cond, d) + ", then: " + pr.expr(e.Then, d) + ", else: " + pr.expr(e.Else, d) + " }"
	case *ast.ForExpr:
		return "for " + pr.loopHead(e.Rec, e.In, nil, e.As, depth) + " " + pr.block(e.Body, depth)
	case *ast.FilterBlock:
		return "filter " + pr.loopHead(e.Rec, e.In, nil, e.As, depth) + " " + pr.block(e.Body, depth)
	case *ast.LoopExpr:
		return "loop " + pr.loopHead(e.Rec, e.In, e.Times, e.As, depth) + " " + pr.block(e.Body, depth)
	case *ast.MatchExpr:
		return pr.match(e, depth)
	case *ast.TryExpr:
		return "try " + pr.block(e.Body, depth) + " catch { " + e.CatchName + " } " + pr.block(e.Catch, depth)
	case *ast.BinaryExpr:
		return pr.operand(e.L, depth, binaryParen(e, e.L, false)) + " " + e.Op + " " + pr.operand(e.R, depth, binaryParen(e, e.R, true))
	case *ast.UnaryExpr:
		return "-" + pr.operand(e.X, depth, unaryParen(e.X))
	}
	return ""
}

func (pr *printer) operand(e ast.Expr, depth int, paren bool) string {
	if paren {
		return "(" + pr.expr(e, depth) + ")"
	}
	return pr.expr(e, depth)
}

// Binding strength of the binary operators (spec/language.md §3.2).
func prec(op string) int {
	switch op {
	case "==", "!=":
		return 1
	case "<", ">", "<=", ">=":
		return 2
	case "+", "-":
		return 3
	}
	return 4 // * / %
}

// binaryParen reports whether child, the left or right operand of b, needs
// parentheses.
func binaryParen(b *ast.BinaryExpr, child ast.Expr, right bool) bool {
	child = ast.Unparen(child)
	if isKeyword(child) {
		return true
	}
	c, ok := child.(*ast.BinaryExpr)
	if !ok {
		return false
	}
	pp, cp := prec(b.Op), prec(c.Op)
	if pp <= 2 && cp <= 2 {
		return true // comparisons do not associate
	}
	return cp < pp || cp == pp && right
}

// unaryParen reports whether the operand of a unary minus needs
// parentheses.
func unaryParen(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.BinaryExpr, *ast.UnaryExpr:
		return true
	default:
		return isKeyword(x)
	}
}

func (pr *printer) match(m *ast.MatchExpr, depth int) string {
	var b strings.Builder
	b.WriteString("match ")
	subj := ast.Unparen(m.Subject)
	if p, ok := subj.(*ast.IdentPath); ok {
		b.WriteString(strings.Join(p.Parts, "."))
	} else {
		b.WriteString("(" + pr.expr(subj, depth) + ")")
	}
	b.WriteString(" {")
	if m.Open != nil {
		b.WriteString(" " + pr.comment(m.Open))
	}
	ind := indent(depth + 1)
	// The ok arm comes first, whatever the source order (as in the
	// reference); each arm takes its comments along.
	for _, a := range []*ast.MatchArm{m.Ok, m.Err} {
		if a.Notes != nil {
			for _, c := range a.Notes.Leading {
				b.WriteString("\n" + ind + pr.comment(c))
			}
		}
		b.WriteString("\n" + ind + a.Tag + " { " + a.Binding + " } " + pr.block(a.Body, depth+1))
		if a.Notes != nil && a.Notes.Trailing != nil {
			b.WriteString(" " + pr.comment(a.Notes.Trailing))
		}
	}
	for _, c := range m.End {
		b.WriteString("\n" + ind + pr.comment(c))
	}
	b.WriteString("\n" + indent(depth) + "}")
	return b.String()
}

func (pr *printer) entry(e *ast.Entry, depth int) string {
	if e.Spread {
		return "..." + pr.expr(e.Value, depth)
	}
	return e.Key + ": " + pr.expr(e.Value, depth)
}

// loopHead formats the record after for, filter (times nil) or loop as the
// reference does: only the entries that count, in the order in, times, as
// (other keys, spreads and overridden duplicates are never evaluated, so
// they go). A head that holds a comment is printed as written instead, so
// that the comment keeps its place.
func (pr *printer) loopHead(r *ast.RecordExpr, in, times ast.Expr, as string, depth int) string {
	if pr.commentIn(r.Span) {
		return pr.head(r, depth)
	}
	s := "{ in: " + pr.expr(in, depth+1)
	if times != nil {
		s += ", times: " + pr.expr(times, depth+1)
	}
	return s + ", as: " + diag.QuoteJSON(as) + " }"
}

// head formats the record after if/for/filter/loop: always on one line
// around its members, which are formatted at depth+1, unless it holds a
// comment.
func (pr *printer) head(r *ast.RecordExpr, depth int) string {
	before := pr.count
	parts := pr.entries(r, depth)
	if pr.count > before || holds(len(parts), entryNotes(r), r.Open, r.End) {
		return pr.bracket("{ ", " }", parts, entryNotes(r), r.Open, r.End, depth, true)
	}
	if len(parts) == 0 {
		return "{}"
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func (pr *printer) entries(r *ast.RecordExpr, depth int) []string {
	parts := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		parts[i] = pr.entry(e, depth+1)
	}
	return parts
}

func entryNotes(r *ast.RecordExpr) func(int) *ast.Notes {
	return func(i int) *ast.Notes { return r.Entries[i].Notes }
}

// holds reports whether a record or list of n members has comments of
// its own (not counting those of nested records, lists and blocks).
func holds(n int, notes func(int) *ast.Notes, open *ast.Comment, end []*ast.Comment) bool {
	if open != nil || len(end) > 0 {
		return true
	}
	for i := range n {
		if nt := notes(i); nt != nil && (len(nt.Leading) > 0 || nt.Trailing != nil) {
			return true
		}
	}
	return false
}

func (pr *printer) record(r *ast.RecordExpr, depth int) string {
	before := pr.count
	parts := pr.entries(r, depth)
	held := pr.count > before || holds(len(parts), entryNotes(r), r.Open, r.End)
	if len(parts) == 0 && !held {
		return "{}"
	}
	return pr.bracket("{ ", " }", parts, entryNotes(r), r.Open, r.End, depth, held)
}

func (pr *printer) list(l *ast.ListExpr, depth int) string {
	before := pr.count
	parts := make([]string, len(l.Elems))
	for i, e := range l.Elems {
		parts[i] = pr.expr(e, depth+1)
	}
	notes := func(i int) *ast.Notes { return ast.NotesAt(l.Notes, i) }
	held := pr.count > before || holds(len(parts), notes, l.Open, l.End)
	if len(parts) == 0 && !held {
		return "[]"
	}
	return pr.bracket("[", "]", parts, notes, l.Open, l.End, depth, held)
}

// bracket joins already formatted members inline when that text fits in
// MaxInline UTF-16 units, else one member per line at depth+1. A record or
// list that holds a comment is always laid out one member per line, each
// member's comments around it.
func (pr *printer) bracket(open, close string, parts []string, notes func(int) *ast.Notes, oc *ast.Comment, end []*ast.Comment, depth int, held bool) string {
	if !held {
		inline := open + strings.Join(parts, ", ") + close
		if value.Len16(inline) <= MaxInline {
			return inline
		}
	}
	ind := indent(depth + 1)
	var b strings.Builder
	b.WriteString(strings.TrimSpace(open))
	if oc != nil {
		b.WriteString(" " + pr.comment(oc))
	}
	for i, p := range parts {
		n := notes(i)
		if n != nil {
			for _, c := range n.Leading {
				b.WriteString("\n" + ind + pr.comment(c))
			}
		}
		b.WriteString("\n" + ind + p)
		if i < len(parts)-1 {
			b.WriteByte(',')
		}
		if n != nil && n.Trailing != nil {
			b.WriteString(" " + pr.comment(n.Trailing))
		}
	}
	for _, c := range end {
		b.WriteString("\n" + ind + pr.comment(c))
	}
	b.WriteString("\n" + indent(depth) + strings.TrimSpace(close))
	return b.String()
}

func literal(l *ast.Literal) string {
	switch l.Kind {
	case ast.LitNull:
		return "null"
	case ast.LitBool:
		if l.Bool {
			return "true"
		}
		return "false"
	case ast.LitString:
		return diag.QuoteJSON(l.Str)
	}
	return number(l)
}

// number prints a number literal: integers with JavaScript's
// number-to-text rule, floats (and integers of 10²¹ or more, whose
// JavaScript text would not lex) with the exponent expanded and ".0" when
// integral.
func number(l *ast.Literal) string {
	f := l.Num
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return l.Raw
	}
	s := value.FormatNumber(f)
	if l.Kind == ast.LitInt && math.Abs(f) < 1e21 {
		return s
	}
	s = expandExponent(s)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// expandExponent rewrites JavaScript exponent notation ("1.5e+21",
// "1e-7") as plain decimal digits.
func expandExponent(s string) string {
	i := strings.IndexByte(s, 'e')
	if i < 0 {
		return s
	}
	mant, exp := s[:i], 0
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	es := s[i+1:]
	sign := 1
	switch {
	case strings.HasPrefix(es, "+"):
		es = es[1:]
	case strings.HasPrefix(es, "-"):
		es, sign = es[1:], -1
	}
	for _, c := range es {
		exp = exp*10 + int(c-'0')
	}
	exp *= sign
	point := len(mant)
	if j := strings.IndexByte(mant, '.'); j >= 0 {
		point = j
	}
	digits := strings.Replace(mant, ".", "", 1)
	point += exp
	var out string
	switch {
	case point >= len(digits):
		out = digits + strings.Repeat("0", point-len(digits))
	case point <= 0:
		out = "0." + strings.Repeat("0", -point) + digits
	default:
		out = digits[:point] + "." + digits[point:]
	}
	if neg {
		out = "-" + out
	}
	return out
}
