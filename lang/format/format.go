// Package format is the canonical A0 formatter behind `a0 fmt`.
//
// [Program] prints a parsed program in the layout of HOST.md §8.1: headers,
// a blank line, statements; two-space indentation; records and lists kept
// on one line when their inline text (members already formatted one level
// deeper, embedded newlines included) is at most 72 UTF-16 code units;
// binary operators parenthesised by precedence only; literals printed in
// their canonical spelling. Comments are not in the tree, so they are lost;
// [HasComment] implements the warning rule of §8.4.
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
	var b strings.Builder
	for _, h := range p.Headers {
		b.WriteString(header(h))
		b.WriteByte('\n')
	}
	if len(p.Headers) > 0 && len(p.Stmts) > 0 {
		b.WriteByte('\n')
	}
	if len(p.Stmts) > 0 {
		b.WriteString(stmtList(p.Stmts, 0))
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return "\n"
	}
	return b.String()
}

func indent(depth int) string { return strings.Repeat("  ", depth) }

func header(h *ast.Header) string {
	switch h.Kind {
	case ast.CapHeader:
		return "cap " + record(h.Rec, 0)
	case ast.BudgetHeader:
		return "budget " + record(h.Rec, 0)
	}
	return "import " + diag.QuoteJSON(h.Path) + " as " + h.Alias
}

// stmtList formats statements one per line at depth; every line, the first
// included, is indented.
func stmtList(stmts []ast.Stmt, depth int) string {
	var b strings.Builder
	ind := indent(depth)
	// What the previous statement's text would absorb if the next one
	// started with `-` (a binary minus) or `{` (call arguments or a filter
	// block).
	openMinus, openBrace := false, false
	for i, s := range stmts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(ind)
		switch s := s.(type) {
		case *ast.LetStmt:
			b.WriteString("let " + s.Name + " = " + expr(s.Value, depth))
			openMinus, openBrace = endsOpen(s.Value)
		case *ast.ReturnStmt:
			b.WriteString("return " + expr(s.X, depth))
			openMinus, openBrace = endsOpen(s.X)
		case *ast.ExprStmt:
			x := ast.Unparen(s.X)
			lead := leading(x)
			wrap := lead == '-' && openMinus || lead == '{' && openBrace
			if wrap {
				b.WriteString("(" + expr(x, depth) + ")")
				openMinus, openBrace = true, false
			} else {
				b.WriteString(expr(x, depth))
				openMinus, openBrace = endsOpen(x)
			}
			if s.Target != nil {
				b.WriteString(" -> " + strings.Join(s.Target.Parts, "."))
				openMinus, openBrace = false, false
			}
		case *ast.FnDecl:
			b.WriteString("fn " + s.Name + " { " + strings.Join(s.Params, ", ") + " } " + block(s.Body, depth))
			openMinus, openBrace = false, false
		}
	}
	return b.String()
}

// block formats `{`, the statements at depth+1 and `}` at depth.
func block(bl *ast.Block, depth int) string {
	if len(bl.Stmts) == 0 {
		return "{\n" + indent(depth) + "}"
	}
	return "{\n" + stmtList(bl.Stmts, depth+1) + "\n" + indent(depth) + "}"
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

func expr(e ast.Expr, depth int) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Literal:
		return literal(e)
	case *ast.IdentPath:
		return strings.Join(e.Parts, ".")
	case *ast.RecordExpr:
		return record(e, depth)
	case *ast.ListExpr:
		return list(e, depth)
	case *ast.CallExpr:
		return e.Name + " " + record(e.Args, depth)
	case *ast.ToolCall:
		kw := "call? "
		if e.Do {
			kw = "do "
		}
		return kw + e.Tool + " " + record(e.Args, depth)
	case *ast.AssertExpr:
		kw := "assert "
		if e.Check {
			kw = "check "
		}
		return kw + record(e.Args, depth)
	case *ast.IfBlock:
		return "if (" + expr(e.Cond, depth) + ") " + block(e.Then, depth) + " else " + block(e.Else, depth)
	case *ast.IfRecord:
		return "if " + head(e.Rec, depth)
	case *ast.ForExpr:
		return "for " + head(e.Rec, depth) + " " + block(e.Body, depth)
	case *ast.FilterBlock:
		return "filter " + head(e.Rec, depth) + " " + block(e.Body, depth)
	case *ast.LoopExpr:
		return "loop " + head(e.Rec, depth) + " " + block(e.Body, depth)
	case *ast.MatchExpr:
		return match(e, depth)
	case *ast.TryExpr:
		return "try " + block(e.Body, depth) + " catch { " + e.CatchName + " } " + block(e.Catch, depth)
	case *ast.BinaryExpr:
		return operand(e.L, depth, binaryParen(e, e.L, false)) + " " + e.Op + " " + operand(e.R, depth, binaryParen(e, e.R, true))
	case *ast.UnaryExpr:
		return "-" + operand(e.X, depth, unaryParen(e.X))
	}
	return ""
}

func operand(e ast.Expr, depth int, paren bool) string {
	if paren {
		return "(" + expr(e, depth) + ")"
	}
	return expr(e, depth)
}

// Binding strength of the binary operators (HOST.md §8.1).
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

func match(m *ast.MatchExpr, depth int) string {
	var b strings.Builder
	b.WriteString("match ")
	subj := ast.Unparen(m.Subject)
	if p, ok := subj.(*ast.IdentPath); ok {
		b.WriteString(strings.Join(p.Parts, "."))
	} else {
		b.WriteString("(" + expr(subj, depth) + ")")
	}
	b.WriteString(" {")
	arms := []*ast.MatchArm{m.Ok, m.Err}
	if !m.OkFirst {
		arms[0], arms[1] = arms[1], arms[0]
	}
	for _, a := range arms {
		b.WriteString("\n" + indent(depth+1) + a.Tag + " { " + a.Binding + " } " + block(a.Body, depth+1))
	}
	b.WriteString("\n" + indent(depth) + "}")
	return b.String()
}

func entry(e *ast.Entry, depth int) string {
	if e.Spread {
		return "..." + expr(e.Value, depth)
	}
	return e.Key + ": " + expr(e.Value, depth)
}

// head formats the record after if/for/filter/loop: always on one line
// around its members, which are formatted at depth+1.
func head(r *ast.RecordExpr, depth int) string {
	if len(r.Entries) == 0 {
		return "{}"
	}
	parts := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		parts[i] = entry(e, depth+1)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func record(r *ast.RecordExpr, depth int) string {
	if len(r.Entries) == 0 {
		return "{}"
	}
	parts := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		parts[i] = entry(e, depth+1)
	}
	return bracket("{ ", " }", parts, depth)
}

func list(l *ast.ListExpr, depth int) string {
	if len(l.Elems) == 0 {
		return "[]"
	}
	parts := make([]string, len(l.Elems))
	for i, e := range l.Elems {
		parts[i] = expr(e, depth+1)
	}
	return bracket("[", "]", parts, depth)
}

// bracket joins already formatted members inline when that text fits in
// MaxInline UTF-16 units, else one member per line at depth+1.
func bracket(open, close string, parts []string, depth int) string {
	inline := open + strings.Join(parts, ", ") + close
	if value.Len16(inline) <= MaxInline {
		return inline
	}
	ind := indent(depth + 1)
	var b strings.Builder
	b.WriteString(strings.TrimSpace(open))
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + ind + p)
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

// HasComment reports whether src has a `#` outside double-quoted string
// literals on any line (HOST.md §8.4): each line is scanned on its own, a
// string runs to the next unescaped `"` on the same line, and an
// unterminated quote is ordinary text.
func HasComment(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		if lineHasComment(line) {
			return true
		}
	}
	return false
}

func lineHasComment(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			return true
		case '"':
			if end := stringEnd(s, i); end > 0 {
				i = end - 1
			}
		}
	}
	return false
}

// stringEnd returns the index just past the string literal starting at the
// quote s[i] (the pattern "(?:[^"\\]|\\.)*"), or -1 when it does not close.
func stringEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '"':
			return j + 1
		case '\\':
			if j+1 >= len(s) || isLineTerminator(s[j+1:]) {
				return -1
			}
			j++
		}
	}
	return -1
}

// isLineTerminator reports whether s starts with a character a JavaScript
// regular expression's `.` does not match.
func isLineTerminator(s string) bool {
	return s[0] == '\n' || s[0] == '\r' || strings.HasPrefix(s, "\u2028") || strings.HasPrefix(s, "\u2029")
}
