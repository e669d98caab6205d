package stdlib

import (
	"math"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/transform"

	"github.com/a0lang/a0/lang/value"
)

// More string functions (spec/stdlib.md "Strings"): trimming, case,
// lines, padding and repetition. Lengths are in UTF-16 code units, as in
// the other string functions.

func init() {
	register("str.trim", func(l Limits, args *value.Record) (value.Value, error) { return trim(args, "str.trim", true, true) })
	register("str.trimStart", func(l Limits, args *value.Record) (value.Value, error) {
		return trim(args, "str.trimStart", true, false)
	})
	register("str.trimEnd", func(l Limits, args *value.Record) (value.Value, error) { return trim(args, "str.trimEnd", false, true) })
	register("str.lower", func(l Limits, args *value.Record) (value.Value, error) {
		return changeCase(l, args, "str.lower", false)
	})
	register("str.upper", func(l Limits, args *value.Record) (value.Value, error) { return changeCase(l, args, "str.upper", true) })
	register("str.lines", fnStrLines)
	register("str.padStart", func(l Limits, args *value.Record) (value.Value, error) { return pad(l, args, "str.padStart", true) })
	register("str.padEnd", func(l Limits, args *value.Record) (value.Value, error) { return pad(l, args, "str.padEnd", false) })
	register("str.repeat", fnStrRepeat)
}

// decodeRune decodes one code point of WTF-8 text: a lone surrogate is
// its own code point.
func decodeRune(s string) (rune, int) {
	if s[0] == 0xED && len(s) >= 3 && s[1] >= 0xA0 {
		return rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// decodeLastRune is decodeRune from the end of s.
func decodeLastRune(s string) (rune, int) {
	n := len(s)
	if n >= 3 && s[n-3] == 0xED && s[n-2] >= 0xA0 {
		return decodeRune(s[n-3:])
	}
	return utf8.DecodeLastRuneInString(s)
}

// isJSSpace reports whether r is white space or a line terminator for
// JavaScript's trim.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func stringArg(args *value.Record, fn, name string) (string, error) {
	v := Arg(args, name)
	if v.Kind() != value.String {
		return "", fail(fn + ": '" + name + "' must be a string")
	}
	return v.AsString(), nil
}

func trim(args *value.Record, fn string, start, end bool) (value.Value, error) {
	s, err := stringArg(args, fn, "in")
	if err != nil {
		return value.Value{}, err
	}
	drop := isJSSpace
	if c := Arg(args, "chars"); !c.IsNull() {
		if c.Kind() != value.String {
			return value.Value{}, fail(fn + ": 'chars' must be a string")
		}
		set := map[rune]bool{}
		for cs := c.AsString(); cs != ""; {
			r, n := decodeRune(cs)
			set[r] = true
			cs = cs[n:]
		}
		drop = func(r rune) bool { return set[r] }
	}
	out := s
	for start && out != "" {
		r, n := decodeRune(out)
		if !drop(r) {
			break
		}
		out = out[n:]
	}
	for end && out != "" {
		r, n := decodeLastRune(out)
		if !drop(r) {
			break
		}
		out = out[:len(out)-n]
	}
	if len(out) == len(s) {
		return Arg(args, "in"), nil
	}
	return value.Str(out), nil
}

func newCaser(upper bool) cases.Caser {
	if upper {
		return cases.Upper(language.Und)
	}
	return cases.Lower(language.Und)
}

// caseMapped applies c to the pieces of s between lone surrogates (which
// have no case and are kept).
func caseMapped(c cases.Caser, s string, each func(string)) {
	for s != "" {
		i := indexLoneSurrogate(s)
		if i < 0 {
			each(c.String(s))
			return
		}
		each(c.String(s[:i]))
		each(s[i : i+3])
		s = s[i+3:]
	}
}

// indexLoneSurrogate returns the byte offset of the first WTF-8 lone
// surrogate in s, or -1.
func indexLoneSurrogate(s string) int {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], 0xED)
		if j < 0 {
			return -1
		}
		i += j
		if i+2 < len(s) && s[i+1] >= 0xA0 {
			return i
		}
		i++
	}
}

// countTransform returns the length of what t makes of s, without
// building it.
func countTransform(t transform.Transformer, s string) int64 {
	var buf [4096]byte
	src := []byte(s)
	total := int64(0)
	for {
		nDst, nSrc, err := t.Transform(buf[:], src, true)
		total += int64(nDst)
		src = src[nSrc:]
		if err != transform.ErrShortDst || (nDst == 0 && nSrc == 0) {
			return total
		}
	}
}

func changeCase(l Limits, args *value.Record, fn string, upper bool) (value.Value, error) {
	s, err := stringArg(args, fn, "in")
	if err != nil {
		return value.Value{}, err
	}
	c := newCaser(upper)
	// A character's mapping takes at most three times its bytes.
	if err := need(l, 3*int64(len(s))); err != nil {
		n := int64(0)
		for rest := s; rest != ""; {
			i := indexLoneSurrogate(rest)
			if i < 0 {
				c.Reset()
				n += countTransform(c, rest)
				break
			}
			c.Reset()
			n += countTransform(c, rest[:i]) + 3
			rest = rest[i+3:]
		}
		if err := need(l, n); err != nil {
			return value.Value{}, err
		}
	}
	var b strings.Builder
	caseMapped(c, s, func(p string) { b.WriteString(p) })
	if b.Len() == len(s) && b.String() == s {
		return Arg(args, "in"), nil
	}
	return value.Str(b.String()), nil
}

func fnStrLines(l Limits, args *value.Record) (value.Value, error) {
	s, err := stringArg(args, "str.lines", "in")
	if err != nil {
		return value.Value{}, err
	}
	if s == "" {
		return value.ListOf(nil), nil
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	if err := need(l, slots(n)+int64(len(s))); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, 0, n)
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		out = append(out, value.Str(strings.TrimSuffix(line, "\r")))
		s = rest
	}
	return value.ListOf(out), nil
}

// countArg reads a non-negative integer argument.
func countArg(args *value.Record, fn, name string) (float64, error) {
	v := Arg(args, name)
	f := v.AsNumber()
	if v.Kind() != value.Number || f < 0 || f != math.Trunc(f) || math.IsInf(f, 0) {
		return 0, fail(fn + ": '" + name + "' must be a non-negative integer")
	}
	return f, nil
}

// needText refuses a string of n bytes (n may be huge) past the memory
// ceiling, and past 2^40 bytes in any case.
func needText(l Limits, n float64) error {
	if n > 1<<40 {
		return &value.SizeError{Bytes: int64(min(n, 1<<62))}
	}
	return need(l, int64(n))
}

func pad(l Limits, args *value.Record, fn string, start bool) (value.Value, error) {
	s, err := stringArg(args, fn, "in")
	if err != nil {
		return value.Value{}, err
	}
	target, err := countArg(args, fn, "len")
	if err != nil {
		return value.Value{}, err
	}
	with := " "
	if w := Arg(args, "with"); !w.IsNull() {
		if w.Kind() != value.String {
			return value.Value{}, fail(fn + ": 'with' must be a string")
		}
		with = w.AsString()
	}
	cur := float64(value.Len16(s))
	if target <= cur || with == "" {
		return Arg(args, "in"), nil
	}
	units := value.Len16(with)
	fill := target - cur
	whole := math.Floor(fill / float64(units))
	rest := int(fill - whole*float64(units))
	var part string
	if rest > 0 {
		part = value.FromUnits(value.Units(with)[:rest])
	}
	if err := needText(l, float64(len(s))+whole*float64(len(with))+float64(len(part))); err != nil {
		return value.Value{}, err
	}
	filler := strings.Repeat(with, int(whole)) + part
	if start {
		return value.Str(value.PairSurrogates(filler + s)), nil
	}
	return value.Str(value.PairSurrogates(s + filler)), nil
}

func fnStrRepeat(l Limits, args *value.Record) (value.Value, error) {
	s, err := stringArg(args, "str.repeat", "in")
	if err != nil {
		return value.Value{}, err
	}
	times, err := countArg(args, "str.repeat", "times")
	if err != nil {
		return value.Value{}, err
	}
	if s == "" || times == 0 {
		return value.EmptyStr, nil
	}
	if times == 1 {
		return Arg(args, "in"), nil
	}
	if err := needText(l, float64(len(s))*times); err != nil {
		return value.Value{}, err
	}
	return value.Str(value.PairSurrogates(strings.Repeat(s, int(times)))), nil
}
