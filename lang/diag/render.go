package diag

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// QuoteJSON returns s as a JSON string literal the way JavaScript's
// JSON.stringify writes it: only '"', '\\' and control characters are
// escaped; non-ASCII is written raw. Strings in a0 may carry unpaired UTF-16
// surrogates encoded as WTF-8 (three bytes ED A0..BF xx); those are written as
// lower-case \udxxx escapes. Any other invalid UTF-8 byte is written as U+FFFD.
func QuoteJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	AppendQuoted(&b, s)
	return b.String()
}

// AppendQuoted writes the JSON string literal for s into b (see [QuoteJSON]).
func AppendQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hexdig[c>>4])
				b.WriteByte(hexdig[c&15])
			}
			i++
			start = i
			continue
		}
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			// WTF-8 encoded lone surrogate.
			cp := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			b.WriteString(s[start:i])
			b.WriteString(`\u`)
			b.WriteString(strconv.FormatInt(int64(cp), 16))
			i += 3
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString("\uFFFD")
			i++
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

const hexdig = "0123456789abcdef"

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
	AppendQuoted(b, d.Code)
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
		} else if len(d.Details) > 0 {
			b.WriteString(`,"details":{`)
			for i, kv := range d.Details {
				if i > 0 {
					b.WriteByte(',')
				}
				AppendQuoted(b, kv.Key)
				b.WriteByte(':')
				appendScalar(b, kv.Value)
			}
			b.WriteByte('}')
		}
		if d.Hint != "" {
			b.WriteString(`,"hint":`)
			AppendQuoted(b, d.Hint)
		}
	}
	b.WriteByte('}')
}

func appendScalar(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		AppendQuoted(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	case interface{ JSON() string }:
		b.WriteString(x.JSON())
	default:
		b.WriteString("null")
	}
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
	b.WriteString(st.apply(st.Error, "error["+d.Code+"]"))
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
// when src has fewer lines.
func SourceLine(src string, n int) string {
	for i := 1; i < n; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return src
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
