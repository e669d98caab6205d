package diag

import (
	"strconv"
	"strings"
)

// AppendSpanJSON writes the JSON object of a span.
func AppendSpanJSON(b *strings.Builder, s Span) {
	b.WriteString(`{"file":`)
	AppendQuoted(b, s.File)
	b.WriteString(`,"startLine":`)
	b.WriteString(strconv.Itoa(s.Start.Line))
	b.WriteString(`,"startCol":`)
	b.WriteString(strconv.Itoa(s.Start.Col))
	b.WriteString(`,"endLine":`)
	b.WriteString(strconv.Itoa(s.End.Line))
	b.WriteString(`,"endCol":`)
	b.WriteString(strconv.Itoa(s.End.Col))
	b.WriteByte('}')
}

// Form selects which JSON shape a diagnostic is rendered in.
type Form int

const (
	// FormStatic is one element of the array printed for lex, parse and
	// validation failures: code, message, span, hint.
	FormStatic Form = iota
	// FormRuntime is the single object printed for a runtime error: code,
	// message, span, details, and a0's hint when there is one.
	FormRuntime
	// FormCLI is the bare {code, message} object of I/O and trace errors.
	FormCLI
)

// AppendJSON writes d as a compact JSON object in the given form.
func (d *Diagnostic) AppendJSON(b *strings.Builder, form Form) {
	b.WriteString(`{"code":`)
	AppendQuoted(b, string(d.Code))
	b.WriteString(`,"message":`)
	AppendQuoted(b, d.Message)
	if form == FormCLI {
		b.WriteByte('}')
		return
	}
	if d.Span != nil {
		b.WriteString(`,"span":`)
		AppendSpanJSON(b, *d.Span)
	}
	if form == FormStatic {
		if d.Hint != "" {
			b.WriteString(`,"hint":`)
			AppendQuoted(b, d.Hint)
		}
	} else {
		if d.DetailsJSON != "" {
			b.WriteString(`,"details":`)
			b.WriteString(d.DetailsJSON)
		}
		if d.Hint != "" {
			b.WriteString(`,"hint":`)
			AppendQuoted(b, d.Hint)
		}
	}
	b.WriteByte('}')
}

// JSON returns d rendered in the given form.
func (d *Diagnostic) JSON(form Form) string {
	var b strings.Builder
	d.AppendJSON(&b, form)
	return b.String()
}

// JSONArray renders a list as the JSON array of the static form.
func (l List) JSONArray() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		d.AppendJSON(&b, FormStatic)
	}
	b.WriteByte(']')
	return b.String()
}

// Style colours parts of the text form. The zero value is plain text.
type Style struct {
	Error func(string) string // "error[E_X]" label
	Bold  func(string) string // message
	Dim   func(string) string // arrows, gutter
	Caret func(string) string // the caret line
	Hint  func(string) string // "hint:" label
}

func (s Style) apply(f func(string) string, t string) string {
	if f == nil {
		return t
	}
	return f(t)
}

// Text renders d the way `--pretty` prints it:
//
//	error[E_CODE]: message
//	  --> file:line:col
//	   |
//	 3 | let x = "s" + 1
//	   |         ^^^^^^^
//	  hint: ...
//
// The source excerpt appears only when src holds the text of the file the
// span points into.
func (d *Diagnostic) Text(src string, st Style) string {
	var b strings.Builder
	b.WriteString(st.apply(st.Error, "error["+string(d.Code)+"]"))
	b.WriteString(": ")
	b.WriteString(st.apply(st.Bold, d.Message))
	b.WriteString("\n  ")
	b.WriteString(st.apply(st.Dim, "-->"))
	b.WriteByte(' ')
	if d.Span == nil {
		b.WriteString("<unknown>")
	} else {
		b.WriteString(d.Span.String())
		if src != "" {
			writeExcerpt(&b, src, *d.Span, st)
		}
	}
	if d.Hint != "" {
		b.WriteString("\n  ")
		b.WriteString(st.apply(st.Hint, "hint:"))
		b.WriteByte(' ')
		b.WriteString(d.Hint)
	}
	return b.String()
}

// writeExcerpt writes the source line of the span start and a caret line
// under the span (to the end of that line when the span runs further).
func writeExcerpt(b *strings.Builder, src string, sp Span, st Style) {
	line := SourceLine(src, sp.Start.Line)
	if line == "" && sp.Start.Line != 1 {
		return
	}
	num := strconv.Itoa(sp.Start.Line)
	pad := strings.Repeat(" ", len(num))
	units := utf16Units(line)
	startCol := sp.Start.Col
	endCol := sp.End.Col
	if sp.End.Line != sp.Start.Line || endCol > len(units)+1 {
		endCol = len(units) + 1
	}
	if endCol <= startCol {
		endCol = startCol + 1
	}
	// Columns are UTF-16 units; draw the caret under the matching runes.
	var lead, marks strings.Builder
	col := 1
	for _, r := range line {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		// An astral character (two UTF-16 units, an emoji) is drawn two
		// cells wide by terminals: pad and mark it with two.
		switch {
		case col < startCol:
			if r == '\t' {
				lead.WriteByte('\t')
			} else {
				lead.WriteString("  "[:w])
			}
		case col < endCol:
			marks.WriteString("^^"[:w])
		}
		col += w
	}
	for col < endCol && col >= startCol {
		marks.WriteByte('^')
		col++
	}
	if marks.Len() == 0 {
		marks.WriteByte('^')
	}
	b.WriteString("\n " + pad + " " + st.apply(st.Dim, "|"))
	b.WriteString("\n " + st.apply(st.Dim, num+" |") + " " + strings.TrimRight(line, "\r"))
	b.WriteString("\n " + pad + " " + st.apply(st.Dim, "|") + " " + lead.String() + st.apply(st.Caret, marks.String()))
}

// SourceLine returns line n (1-based) of src without its line end, or ""
// when src has fewer lines. Lines are counted the way the lexer counts
// them for spans: a line feed always ends a line, and a carriage return
// not followed by a line feed ends one only inside a string literal (see
// the lexer's advanceString).
func SourceLine(src string, n int) string {
	line, start := 1, 0
	end := -1 // where line n ends, once found
	brk := func(at, next int) bool {
		if line == n {
			end = at
			return true
		}
		line++
		start = next
		return false
	}
	for i := 0; i < len(src) && end < 0; {
		switch src[i] {
		case '\n':
			if brk(i, i+1) {
				break
			}
			i++
		case '#':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case '"':
			m := StringLiteralLen(src, i)
			if m < 0 {
				i++
				continue
			}
			stop := i + m
			for i++; i < stop && end < 0; i++ {
				c := src[i]
				if c == '\n' || c == '\r' && src[i+1] != '\n' {
					brk(i, i+1)
				}
			}
		default:
			i++
		}
	}
	if line < n {
		return ""
	}
	if end < 0 {
		end = len(src)
	}
	return src[start:end]
}

// StringLiteralLen is the length of the string literal token at src[p]
// (a '"'), or -1 when no literal starts there: escapes \" \\ \/ \b \f \n
// \r \t \uXXXX; any other character, raw line ends included, stands for
// itself. It is the lexer's rule (package lexer matches string tokens with
// it), here because the lexer imports this package and source excerpts
// need it too.
func StringLiteralLen(src string, p int) int {
	for q := p + 1; q < len(src); {
		switch src[q] {
		case '"':
			return q + 1 - p
		case '\\':
			if q+1 >= len(src) {
				return -1
			}
			switch src[q+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				q += 2
			case 'u':
				if q+5 >= len(src) || !isHexDigit(src[q+2]) || !isHexDigit(src[q+3]) || !isHexDigit(src[q+4]) || !isHexDigit(src[q+5]) {
					return -1
				}
				q += 6
			default:
				return -1
			}
		default:
			q++
		}
	}
	return -1
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func utf16Units(s string) []struct{} {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return make([]struct{}, n)
}

// TextList renders several diagnostics separated by one empty line.
func (l List) Text(src func(file string) string, st Style) string {
	var parts []string
	for _, d := range l {
		s := ""
		if src != nil && d.Span != nil {
			s = src(d.Span.File)
		}
		parts = append(parts, d.Text(s, st))
	}
	return strings.Join(parts, "\n\n")
}
