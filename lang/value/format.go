package value

import (
	"math"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/diag"
)

// FormatNumber writes f the way JavaScript's Number#toString does (the
// ECMAScript Number-to-String algorithm): 1.0 → "1", 1e21 → "1e+21",
// 1e-7 → "1e-7", -0 → "0".
func FormatNumber(f float64) string {
	var buf [32]byte
	return string(AppendNumber(buf[:0], f))
}

// AppendNumber appends the JavaScript text of f to dst.
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case f != f:
		return append(dst, "NaN"...)
	case f == 0:
		return append(dst, '0')
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		if math.Abs(f) < 1<<53 {
			return strconv.AppendInt(dst, int64(f), 10)
		}
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	// e looks like d.ddde±XX or de±XX
	mant := e
	exp := 0
	for i := 0; i < len(e); i++ {
		if e[i] == 'e' {
			mant = e[:i]
			x, _ := strconv.Atoi(string(e[i+1:]))
			exp = x
			break
		}
	}
	var digits [24]byte
	d := digits[:0]
	for _, c := range mant {
		if c != '.' {
			d = append(d, c)
		}
	}
	k := len(d)
	n := exp + 1 // value = 0.d × 10^n
	switch {
	case k <= n && n <= 21:
		dst = append(dst, d...)
		for i := 0; i < n-k; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		dst = append(dst, d[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	default:
		dst = append(dst, d[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

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
