package termout

import (
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// Colors colours the parts of a printed value: each function wraps the
// JSON text of an object key or a scalar; a nil function leaves it as is.
type Colors struct {
	Key, String, Number, Bool, Null func(string) string
}

// ColorJSON is value.JSONIndent with coloured keys and scalars.
func ColorJSON(v value.Value, c *Colors) string {
	var b strings.Builder
	writeColor(&b, v, 0, c)
	return b.String()
}

func writeColor(b *strings.Builder, v value.Value, depth int, c *Colors) {
	indent := func(d int) {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", d))
	}
	switch v.Kind() {
	case value.ListKind:
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
			indent(depth + 1)
			writeColor(b, it, depth+1, c)
		}
		indent(depth)
		b.WriteByte(']')
	case value.RecordKind:
		rec := v.AsRecord()
		if rec.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i := 0; i < rec.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			b.WriteString(applyStyle(c.Key, diag.QuoteJSON(rec.Key(i))))
			b.WriteString(": ")
			writeColor(b, rec.At(i), depth+1, c)
		}
		indent(depth)
		b.WriteByte('}')
	default:
		s := value.JSON(v)
		switch {
		case v.Kind() == value.String:
			s = applyStyle(c.String, s)
		case v.Kind() == value.Number && s != "null":
			s = applyStyle(c.Number, s)
		case v.Kind() == value.Bool:
			s = applyStyle(c.Bool, s)
		default:
			s = applyStyle(c.Null, s)
		}
		b.WriteString(s)
	}
}

func applyStyle(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}
