package jscompat

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// InspectString renders s as Node's util.inspect shows a string: in single
// quotes (double quotes when s holds a single quote and no double quote,
// backquotes when it holds both but no backquote or "${"), with the
// backslash, the chosen quote, C0 controls, DEL and C1 controls escaped
// (\n, \t, \b, \f, \r by name, the others as \xHH in upper case).
func InspectString(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		switch {
		case strings.IndexByte(s, '"') < 0:
			quote = '"'
		case strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${"):
			quote = '`'
		}
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 {
			// A lone UTF-16 surrogate, carried as WTF-8.
			fmt.Fprintf(&b, `\u%x`, 0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F))
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			b.WriteByte(s[i])
			i++
			continue
		}
		i += n
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			fmt.Fprintf(&b, `\x%02X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// NullBytePathText is Node's message for a file path that holds a NUL
// character (ERR_INVALID_ARG_VALUE), which no file system call is made for:
// the inspected path is cut after 128 UTF-16 units, then "..." follows.
func NullBytePathText(path string) string {
	shown := InspectString(path)
	if u := utf16.Encode([]rune(shown)); len(u) > 128 {
		shown = string(utf16.Decode(u[:128])) + "..."
	}
	return "The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received " + shown
}
