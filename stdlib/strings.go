package stdlib

import (
	"strings"

	"github.com/a0lang/a0/lang/value"
)

// String functions (spec/stdlib.md "Strings").
//
// Strings are WTF-8 (see lang/value). Byte-wise search on WTF-8 agrees with
// UTF-16 code-unit search except when the needle begins with a lone low
// surrogate or ends with a lone high surrogate (it may then match half of a
// surrogate pair); such needles take a slower path over code units. Text
// built by concatenation is passed through value.PairSurrogates so that a lone high
// surrogate followed by a lone low one becomes a proper pair again.

func init() {
	register("str.concat", fnStrConcat)
	register("str.split", fnStrSplit)
	register("str.starts", fnStrStarts)
	register("str.ends", fnStrEnds)
	register("str.replace", fnStrReplace)
	register("str.template", fnStrTemplate)
}

func fnStrConcat(l Limits, args *value.Record) (value.Value, error) {
	parts := Arg(args, "parts")
	if parts.Kind() != value.ListKind {
		return value.Value{}, fail("str.concat: 'parts' must be a list")
	}
	return joinText(l, parts.AsList(), "")
}

// joinText string-converts items (spec/stdlib.md "Conventions") and joins them with sep. The
// length of the strings and separators is checked against the memory
// limit before anything is built; the text of other items (bounded by
// their Size) is checked as it is written.
func joinText(l Limits, items []value.Value, sep string) (value.Value, error) {
	switch len(items) {
	case 0:
		return value.EmptyStr, nil
	case 1:
		if items[0].Kind() == value.String {
			return items[0], nil
		}
	}
	size := int64(len(sep)) * int64(len(items)-1)
	others := false
	for _, it := range items {
		if it.Kind() == value.String {
			size += int64(len(it.AsString()))
		} else {
			size += 8
			others = true
		}
	}
	if err := need(l, size); err != nil {
		return value.Value{}, err
	}
	max := l.MaxBytes()
	t := ticker{l: l}
	var b strings.Builder
	b.Grow(int(size))
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep)
		}
		appendText(&b, it)
		if others {
			if max > 0 && int64(b.Len()) > max {
				return value.Value{}, &value.SizeError{Bytes: int64(b.Len())}
			}
			if err := t.tick(); err != nil {
				return value.Value{}, err
			}
		}
	}
	return value.Str(value.PairSurrogates(b.String())), nil
}

// appendText appends the JavaScript String() conversion of v to b.
func appendText(b *strings.Builder, v value.Value) {
	switch v.Kind() {
	case value.String:
		b.WriteString(v.AsString())
	case value.Number:
		var buf [32]byte
		b.Write(value.AppendNumber(buf[:0], v.AsNumber()))
	case value.Bool:
		if v.AsBool() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case value.Null, value.Undefined:
		b.WriteString("null")
	default:
		value.AppendText(b, v)
	}
}

func fnStrSplit(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.String {
		return value.Value{}, fail("str.split: 'in' must be a string")
	}
	sep := Arg(args, "sep")
	if sep.Kind() != value.String {
		return value.Value{}, fail("str.split: 'sep' must be a string")
	}
	s, p := in.AsString(), sep.AsString()
	switch {
	case p == "":
		if err := need(l, slots(value.Len16(s))+int64(len(s))); err != nil {
			return value.Value{}, err
		}
		return value.ListOf(splitUnits(s)), nil
	case unitSafe(p):
		n := strings.Count(s, p) + 1
		if err := need(l, slots(n)+int64(len(s))); err != nil {
			return value.Value{}, err
		}
		// The list and its items in one allocation.
		l := value.NewListN(n)
		out := l.Items
		for i := 0; i < n-1; i++ {
			j := strings.Index(s, p)
			out[i] = value.Str(s[:j])
			s = s[j+len(p):]
		}
		out[n-1] = value.Str(s)
		return value.SealList(l), nil
	}
	// The UTF-16 copy takes two bytes per code unit.
	if err := need(l, 2*int64(len(s))); err != nil {
		return value.Value{}, err
	}
	u, q := value.Units(s), value.Units(p)
	var out []value.Value
	last := 0
	t := ticker{l: l}
	for {
		j := index16(u, q, last)
		if j < 0 {
			break
		}
		out = append(out, value.Str(value.FromUnits(u[last:j])))
		last = j + len(q)
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
	}
	return value.ListOf(append(out, value.Str(value.FromUnits(u[last:])))), nil
}

// splitUnits returns one string per UTF-16 code unit of s.
func splitUnits(s string) []value.Value {
	out := make([]value.Value, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		n := 1
		switch {
		case c < 0x80:
		case c < 0xE0:
			n = 2
		case c < 0xF0:
			n = 3
		default:
			// Astral character: two lone surrogates.
			r := rune(c&0x07)<<18 | rune(s[i+1]&0x3F)<<12 | rune(s[i+2]&0x3F)<<6 | rune(s[i+3]&0x3F)
			r -= 0x10000
			buf := make([]byte, 0, 6)
			buf = value.AppendCodeUnit(buf, uint16(0xD800+(r>>10)))
			buf = value.AppendCodeUnit(buf, uint16(0xDC00+(r&0x3FF)))
			t := string(buf)
			out = append(out, value.Str(t[:3]), value.Str(t[3:]))
			i += 4
			continue
		}
		if i+n > len(s) {
			n = len(s) - i
		}
		out = append(out, value.Str(s[i:i+n]))
		i += n
	}
	return out
}

func fnStrStarts(l Limits, args *value.Record) (value.Value, error) {
	in, v, err := twoStrings(args, "str.starts")
	if err != nil {
		return value.Value{}, err
	}
	if unitSafe(v) {
		return value.BoolOf(strings.HasPrefix(in, v)), nil
	}
	u, p := value.Units(in), value.Units(v)
	return value.BoolOf(len(p) <= len(u) && unitsEqual(u[:len(p)], p)), nil
}

func fnStrEnds(l Limits, args *value.Record) (value.Value, error) {
	in, v, err := twoStrings(args, "str.ends")
	if err != nil {
		return value.Value{}, err
	}
	if unitSafe(v) {
		return value.BoolOf(strings.HasSuffix(in, v)), nil
	}
	u, p := value.Units(in), value.Units(v)
	return value.BoolOf(len(p) <= len(u) && unitsEqual(u[len(u)-len(p):], p)), nil
}

func twoStrings(args *value.Record, name string) (string, string, error) {
	in := Arg(args, "in")
	if in.Kind() != value.String {
		return "", "", fail(name + ": 'in' must be a string")
	}
	v := Arg(args, "value")
	if v.Kind() != value.String {
		return "", "", fail(name + ": 'value' must be a string")
	}
	return in.AsString(), v.AsString(), nil
}

func fnStrReplace(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.String {
		return value.Value{}, fail("str.replace: 'in' must be a string")
	}
	from := Arg(args, "from")
	if from.Kind() != value.String {
		return value.Value{}, fail("str.replace: 'from' must be a string")
	}
	to := Arg(args, "to")
	if to.Kind() != value.String {
		return value.Value{}, fail("str.replace: 'to' must be a string")
	}
	out, err := replaceAll(l, in.AsString(), from.AsString(), to.AsString())
	if err != nil {
		return value.Value{}, err
	}
	return value.Str(out), nil
}

// A replacement-template piece: kind 0 is literal text; kinds '&', '`'
// and the single quote stand for the match, the text before it and the
// text after it.
type repOp struct {
	kind byte
	lit  string
}

// parseReplacement splits a JavaScript replacement string into pieces
// ($$, $&, $`, $' are special; every other $ is literal). ok is false when
// the string has no special pattern at all.
func parseReplacement(to string) (ops []repOp, ok bool) {
	start := 0
	for i := 0; i+1 < len(to); i++ {
		if to[i] != '$' {
			continue
		}
		var op repOp
		switch to[i+1] {
		case '$':
			op = repOp{lit: "$"}
		case '&', '`', '\'':
			op = repOp{kind: to[i+1]}
		default:
			continue
		}
		if start < i {
			ops = append(ops, repOp{lit: to[start:i]})
		}
		ops = append(ops, op)
		ok = true
		i++
		start = i + 1
	}
	if start < len(to) {
		ops = append(ops, repOp{lit: to[start:]})
	}
	return ops, ok
}

// replaceAll is JavaScript's s.replaceAll(from, to) for a string pattern.
// The length of the result is computed first (one pass over the matches,
// no allocation) and checked against the memory limit before it is built.
func replaceAll(l Limits, s, from, to string) (string, error) {
	ops, special := parseReplacement(to)
	if from == "" {
		if strings.IndexFunc(s, func(r rune) bool { return r >= 0x10000 }) >= 0 {
			return replaceUnits(l, s, from, ops)
		}
	} else if !unitSafe(from) {
		return replaceUnits(l, s, from, ops)
	} else if !special {
		grow := int64(len(to) - len(from))
		most := float64(len(s)) + float64(len(s)/len(from))*float64(grow) // in float64: no overflow
		if m := l.MaxBytes(); grow > 0 && m > 0 && most > float64(m) {
			// Only a longer replacement can grow the text, and only when
			// the most matches there can be would pass the limit does it
			// cost a count.
			n := strings.Count(s, from)
			if n == 0 {
				return s, nil
			}
			if err := need(l, int64(len(s))+int64(n)*grow); err != nil {
				return "", err
			}
		} else if !strings.Contains(s, from) {
			return s, nil
		}
		return value.PairSurrogates(strings.ReplaceAll(s, from, to)), nil
	} else if !strings.Contains(s, from) {
		return s, nil
	}
	// The pieces of the result, in order: text of s kept as is, and the
	// expansion of ops at each match [pos, end).
	each := func(keep func(string), expand func(pos, end int)) error {
		t := ticker{l: l}
		if from == "" {
			// Before every code unit (here: every character, all in the
			// BMP) and at the end.
			for i := 0; i < len(s); {
				n := 1
				switch c := s[i]; {
				case c < 0x80:
				case c < 0xE0:
					n = 2
				default:
					n = 3
				}
				if i+n > len(s) {
					n = len(s) - i
				}
				expand(i, i)
				keep(s[i : i+n])
				i += n
				if err := t.tick(); err != nil {
					return err
				}
			}
			expand(len(s), len(s))
			return nil
		}
		last := 0
		for {
			j := strings.Index(s[last:], from)
			if j < 0 {
				break
			}
			j += last
			keep(s[last:j])
			expand(j, j+len(from))
			last = j + len(from)
			if err := t.tick(); err != nil {
				return err
			}
		}
		keep(s[last:])
		return nil
	}
	// Measure.
	size := int64(0)
	add := func(n int) {
		if size <= 1<<62 {
			size += int64(n)
		}
	}
	err := each(func(k string) { add(len(k)) }, func(pos, end int) {
		for _, op := range ops {
			switch op.kind {
			case 0:
				add(len(op.lit))
			case '&':
				add(end - pos)
			case '`':
				add(pos)
			case '\'':
				add(len(s) - end)
			}
		}
	})
	if err != nil {
		return "", err
	}
	if err := need(l, size); err != nil {
		return "", err
	}
	// Build.
	var b strings.Builder
	b.Grow(int(size))
	err = each(func(k string) { b.WriteString(k) }, func(pos, end int) {
		for _, op := range ops {
			switch op.kind {
			case 0:
				b.WriteString(op.lit)
			case '&':
				b.WriteString(s[pos:end])
			case '`':
				b.WriteString(s[:pos])
			case '\'':
				b.WriteString(s[end:])
			}
		}
	})
	if err != nil {
		return "", err
	}
	return value.PairSurrogates(b.String()), nil
}

// replaceUnits is replaceAll over UTF-16 code units.
func replaceUnits(l Limits, s, from string, ops []repOp) (string, error) {
	// The UTF-16 copy takes two bytes per code unit.
	if err := need(l, 2*int64(len(s))); err != nil {
		return "", err
	}
	u, f := value.Units(s), value.Units(from)
	lits := make([][]uint16, len(ops))
	for i, op := range ops {
		if op.kind == 0 {
			lits[i] = value.Units(op.lit)
		}
	}
	each := func(keep func([]uint16), expand func(pos, end int)) error {
		t := ticker{l: l}
		if len(f) == 0 {
			for i := range u {
				expand(i, i)
				keep(u[i : i+1])
				if err := t.tick(); err != nil {
					return err
				}
			}
			expand(len(u), len(u))
			return nil
		}
		last := 0
		for {
			j := index16(u, f, last)
			if j < 0 {
				break
			}
			keep(u[last:j])
			expand(j, j+len(f))
			last = j + len(f)
			if err := t.tick(); err != nil {
				return err
			}
		}
		keep(u[last:])
		return nil
	}
	// Measure (in code units; the buffer takes two bytes each).
	size := int64(0)
	add := func(n int) {
		if size <= 1<<61 {
			size += int64(n)
		}
	}
	err := each(func(k []uint16) { add(len(k)) }, func(pos, end int) {
		for i, op := range ops {
			switch op.kind {
			case 0:
				add(len(lits[i]))
			case '&':
				add(end - pos)
			case '`':
				add(pos)
			case '\'':
				add(len(u) - end)
			}
		}
	})
	if err != nil {
		return "", err
	}
	if err := need(l, 2*size); err != nil {
		return "", err
	}
	out := make([]uint16, 0, size)
	err = each(func(k []uint16) { out = append(out, k...) }, func(pos, end int) {
		for i, op := range ops {
			switch op.kind {
			case 0:
				out = append(out, lits[i]...)
			case '&':
				out = append(out, u[pos:end]...)
			case '`':
				out = append(out, u[:pos]...)
			case '\'':
				out = append(out, u[end:]...)
			}
		}
	})
	if err != nil {
		return "", err
	}
	return value.FromUnits(out), nil
}

func fnStrTemplate(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.String {
		return value.Value{}, fail("str.template: 'in' must be a string")
	}
	vars := Arg(args, "vars")
	if vars.Kind() != value.RecordKind {
		return value.Value{}, fail("str.template: 'vars' must be a record")
	}
	s, r := in.AsString(), vars.AsRecord()
	// Two passes over the placeholders, keeping nothing per match, so the
	// working memory is the result's and no more: the first measures the
	// result (numbers counted at their longest, 24 bytes, and exactly only
	// when that bound passes the limit) and gives up as soon as even the
	// shortest reading of what it has seen passes the limit; the second
	// builds it.
	max := l.MaxBytes()
	var size, least int64 = int64(len(s)), int64(len(s))
	numbers, matched := 0, 0
	err := templateMatches(l, s, r, func(open, end int, v value.Value) error {
		matched++
		gone := int64(end + 1 - open)
		size -= gone
		least -= gone
		switch v.Kind() {
		case value.String:
			size += int64(len(v.AsString()))
			least += int64(len(v.AsString()))
		case value.Number:
			size += 24
			least++
			numbers++
		case value.Bool:
			size += 5
			least += 4
		default:
			n := int64(len(value.ToText(v)))
			size += n
			least += n
		}
		if max > 0 && least > max {
			return need(l, least)
		}
		return nil
	})
	if err != nil {
		return value.Value{}, err
	}
	if matched == 0 {
		return in, nil
	}
	if max > 0 && size > max && numbers > 0 {
		var nb [32]byte
		_ = templateMatches(NoLimits, s, r, func(_, _ int, v value.Value) error {
			if v.Kind() == value.Number {
				size += int64(len(value.AppendNumber(nb[:0], v.AsNumber()))) - 24
			}
			return nil
		})
	}
	if err := need(l, size); err != nil {
		return value.Value{}, err
	}
	var b strings.Builder
	b.Grow(int(size))
	last := 0 // s[:last] has been written
	err = templateMatches(l, s, r, func(open, end int, v value.Value) error {
		b.WriteString(s[last:open])
		appendText(&b, v)
		last = end + 1
		return nil
	})
	if err != nil {
		return value.Value{}, err
	}
	b.WriteString(s[last:])
	return value.Str(value.PairSurrogates(b.String())), nil
}

// templateMatches calls fn for each placeholder of s that names a
// non-null field of r, in order: s[open] is its '{' and s[end] its '}'.
// It stops at fn's first error, or when l says the run stopped.
func templateMatches(l Limits, s string, r *value.Record, fn func(open, end int, v value.Value) error) error {
	t := ticker{l: l}
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 {
			return nil
		}
		open := i + j
		k := strings.IndexByte(s[open+1:], '}')
		if k < 0 {
			return nil // no '}' anywhere after: nothing more can match
		}
		if k == 0 {
			i = open + 1 // "{}" does not match
			continue
		}
		end := open + 1 + k // index of '}'
		if v, ok := r.Get(s[open+1 : end]); ok && !v.IsNull() {
			if err := fn(open, end, v); err != nil {
				return err
			}
		}
		if err := t.tick(); err != nil {
			return err
		}
		i = end + 1
	}
	return nil
}

// unitSafe reports whether byte-wise search for needle in WTF-8 text gives
// the same matches as a search over UTF-16 code units: needle must not begin
// with a lone low surrogate nor end with a lone high surrogate.
func unitSafe(needle string) bool {
	n := len(needle)
	if n >= 3 && needle[0] == 0xED && needle[1] >= 0xB0 {
		return false
	}
	if n >= 3 && needle[n-3] == 0xED && needle[n-2] >= 0xA0 && needle[n-2] < 0xB0 {
		return false
	}
	return true
}

// index16 returns the first index >= from at which needle occurs in h, or -1.
func index16(h, needle []uint16, from int) int {
	if len(needle) == 0 {
		if from <= len(h) {
			return from
		}
		return -1
	}
	first := needle[0]
	for i := from; i+len(needle) <= len(h); i++ {
		if h[i] == first && unitsEqual(h[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

func unitsEqual(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// hasLoneSurrogate reports whether s holds a WTF-8 encoded surrogate.
func hasLoneSurrogate(s string) bool {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], 0xED)
		if j < 0 {
			return false
		}
		i += j
		if i+1 < len(s) && s[i+1] >= 0xA0 {
			return true
		}
		i++
	}
}
