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
