package value

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A0 strings are sequences of UTF-16 code units. They are stored as WTF-8
// Go strings; the helpers below give UTF-16 semantics on them.

// Len16 returns the length of s in UTF-16 code units.
func Len16(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < 0x80:
			i++
			n++
		case c < 0xE0:
			i += 2
			n++
		case c < 0xF0:
			i += 3
			n++
		default:
			i += 4
			n += 2
		}
	}
	return n
}

// Units returns the UTF-16 code units of s.
func Units(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		r, size := decodeWTF8(s[i:])
		i += size
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			out = append(out, uint16(r1), uint16(r2))
		} else {
			out = append(out, uint16(r))
		}
	}
	return out
}

// FromUnits builds a WTF-8 string from UTF-16 code units: valid pairs
// become one character, lone surrogates are kept as WTF-8.
func FromUnits(u []uint16) string {
	buf := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if c >= 0xD800 && c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000 {
			r := utf16.DecodeRune(c, rune(u[i+1]))
			buf = utf8.AppendRune(buf, r)
			i++
			continue
		}
		buf = appendWTF8(buf, c)
	}
	return string(buf)
}

// PairSurrogates returns s with every WTF-8 lone high surrogate that is directly
// followed by a lone low surrogate merged into one astral character, as
// concatenating UTF-16 strings would. A string built from pieces (a join, a
// replacement, a repetition) goes through it once; Concat16 joins two
// strings that are each already paired without scanning them.
func PairSurrogates(s string) string {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], 0xED)
		if j < 0 {
			return s
		}
		i += j
		if i+5 < len(s) && s[i+1] >= 0xA0 && s[i+1] < 0xB0 && s[i+3] == 0xED && s[i+4] >= 0xB0 {
			return FromUnits(Units(s))
		}
		i++
	}
}

// Concat16 returns the string of a's code units followed by b's. When a ends
// with a lone high surrogate and b starts with a lone low surrogate, the two
// units meet as a pair and become one character, as they do in a UTF-16
// string (so "\ud83d" + "\ude00" equals "😀").
func Concat16(a, b string) string {
	n := len(a)
	if n < 3 || len(b) < 3 || a[n-3] != 0xED || a[n-2] < 0xA0 || a[n-2] > 0xAF || b[0] != 0xED || b[1] < 0xB0 {
		return a + b
	}
	hi := rune(a[n-2]&0x0F)<<6 | rune(a[n-1]&0x3F) | 0xD800
	lo := rune(b[1]&0x0F)<<6 | rune(b[2]&0x3F) | 0xDC00
	buf := make([]byte, 0, n+len(b)-2)
	buf = append(buf, a[:n-3]...)
	buf = utf8.AppendRune(buf, utf16.DecodeRune(hi, lo))
	buf = append(buf, b[3:]...)
	return string(buf)
}

// appendWTF8 appends code point r, writing surrogates as 3-byte sequences.
func appendWTF8(buf []byte, r rune) []byte {
	if r >= 0xD800 && r < 0xE000 {
		return append(buf, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(buf, r)
}

// AppendCodeUnit appends one UTF-16 code unit (possibly a lone surrogate)
// to buf as WTF-8.
func AppendCodeUnit(buf []byte, u uint16) []byte { return appendWTF8(buf, rune(u)) }

// decodeWTF8 decodes one code point from s, accepting encoded surrogates.
func decodeWTF8(s string) (rune, int) {
	c := s[0]
	if c < 0x80 {
		return rune(c), 1
	}
	if c == 0xED && len(s) >= 3 && s[1] >= 0xA0 {
		return rune(c&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	r, size := utf8.DecodeRuneInString(s)
	return r, size
}

// Compare16 compares a and b by UTF-16 code units (as JavaScript's < does).
func Compare16(a, b string) int {
	// Fast path: byte order equals code-point order, which equals UTF-16
	// order except when comparing a BMP character >= U+E000 with an astral
	// character. Find the first difference and decide there.
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		switch {
		case len(a) < len(b):
			return -1
		case len(a) > len(b):
			return 1
		}
		return 0
	}
	// Back up to the start of the code point containing the difference.
	for i > 0 && (a[i]&0xC0) == 0x80 {
		i--
	}
	ra, _ := decodeWTF8(a[i:])
	rb, _ := decodeWTF8(b[i:])
	ua, ub := firstUnit(ra), firstUnit(rb)
	switch {
	case ua < ub:
		return -1
	case ua > ub:
		return 1
	}
	// Same lead unit (both astral with same high surrogate): compare code points.
	switch {
	case ra < rb:
		return -1
	case ra > rb:
		return 1
	}
	return 0
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		r1, _ := utf16.EncodeRune(r)
		return r1
	}
	return r
}

// DecodeBytes decodes UTF-8 bytes with the WHATWG rule: each maximal invalid
// subsequence becomes one U+FFFD. The result is valid UTF-8.
func DecodeBytes(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			out = append(out, b[i:i+size]...)
			i += size
			continue
		}
		// Maximal subpart per WHATWG: determine how many bytes form a valid prefix.
		n := maximalSubpart(b[i:])
		out = append(out, "\uFFFD"...)
		i += n
	}
	return string(out)
}

// maximalSubpart returns the length of the maximal prefix of an ill-formed
// sequence that could start a valid one (at least 1).
func maximalSubpart(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(b); i++ {
		x := b[i]
		if x < lo || x > hi {
			return i
		}
		lo, hi = 0x80, 0xBF
	}
	return i
}
