package value

import (
	"math"
	"strings"

	"github.com/a0lang/a0/lang/diag"
)

// ToText converts v to text with JavaScript's String() rule: null → "null",
// numbers as FormatNumber, lists joined by "," with null elements empty,
// records → "[object Object]".
func ToText(v Value) string {
	switch v.k {
	case String:
		return v.AsString()
	case Number:
		return FormatNumber(v.AsNumber())
	case Bool:
		if v.u != 0 {
			return "true"
		}
		return "false"
	case Null:
		return "null"
	case Undefined:
		return "undefined"
	case RecordKind:
		return "[object Object]"
	case ListKind:
		var b strings.Builder
		appendListText(&b, v.AsList())
		return b.String()
	}
	return ""
}

// AppendText appends ToText(v) to b.
func AppendText(b *strings.Builder, v Value) {
	switch v.k {
	case String:
		b.WriteString(v.AsString())
	case ListKind:
		appendListText(b, v.AsList())
	default:
		b.WriteString(ToText(v))
	}
}

func appendListText(b *strings.Builder, items []Value) {
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		if it.k <= Null {
			continue
		}
		AppendText(b, it)
	}
}

// JSON returns the compact JSON text of v (JSON.stringify(v)).
func JSON(v Value) string {
	var b strings.Builder
	AppendJSON(&b, v, "", 0)
	return b.String()
}

// JSONIndent returns v as JSON with 2-space indentation
// (JSON.stringify(v, null, 2)), without a final newline.
func JSONIndent(v Value) string {
	var b strings.Builder
	AppendJSON(&b, v, "  ", 0)
	return b.String()
}

// AppendJSON writes v as JSON into b. With a non-empty indent the output is
// pretty-printed, depth giving the current level. Non-finite numbers are
// written as null; undefined (never visible to programs) as null.
func AppendJSON(b *strings.Builder, v Value, indent string, depth int) {
	switch v.k {
	case Undefined, Null:
		b.WriteString("null")
	case Bool:
		if v.u != 0 {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Number:
		f := v.AsNumber()
		if math.IsInf(f, 0) || f != f {
			b.WriteString("null")
			return
		}
		var buf [32]byte
		b.Write(AppendNumber(buf[:0], f))
	case String:
		diag.AppendQuoted(b, v.AsString())
	case ListKind:
		items := v.AsList()
		if len(items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent, depth+1)
			AppendJSON(b, it, indent, depth+1)
		}
		newline(b, indent, depth)
		b.WriteByte(']')
	case RecordKind:
		r := v.AsRecord()
		if r.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range r.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent, depth+1)
			diag.AppendQuoted(b, k)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			AppendJSON(b, r.vals[i], indent, depth+1)
		}
		newline(b, indent, depth)
		b.WriteByte('}')
	}
}

func newline(b *strings.Builder, indent string, depth int) {
	if indent == "" {
		return
	}
	b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		b.WriteString(indent)
	}
}
