package lexer

import (
	"strconv"

	"github.com/a0lang/a0/lang/value"
)

// DecodeString decodes the text of a string literal token (quotes included)
// with JSON string rules. A raw control character (U+0000–U+001F) is an
// error whose message gives its UTF-16 index in the literal text, as
// JSON.parse reports it.
func DecodeString(lit string) (string, error) {
	body := lit[1 : len(lit)-1]
	simple := true
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' || body[i] < 0x20 {
			simple = false
			break
		}
	}
	if simple {
		return body, nil
	}
	var units []uint16
	pos := 1 // UTF-16 index in lit
	out := make([]byte, 0, len(body))
	flush := func() {
		if len(units) > 0 {
			out = append(out, value.FromUnits(units)...)
			units = units[:0]
		}
	}
	for i := 0; i < len(body); {
		c := body[i]
		if c < 0x20 {
			return "", &ControlCharError{Pos: pos}
		}
		if c == '\\' {
			e := body[i+1]
			switch e {
			case 'u':
				n, _ := strconv.ParseUint(body[i+2:i+6], 16, 16)
				units = append(units, uint16(n))
				i += 6
				pos += 6
				continue
			case '"', '\\', '/':
				flush()
				out = append(out, e)
			case 'b':
				flush()
				out = append(out, '\b')
			case 'f':
				flush()
				out = append(out, '\f')
			case 'n':
				flush()
				out = append(out, '\n')
			case 'r':
				flush()
				out = append(out, '\r')
			case 't':
				flush()
				out = append(out, '\t')
			}
			i += 2
			pos += 2
			continue
		}
		flush()
		n := runeLen(body, i)
		out = append(out, body[i:i+n]...)
		if n == 4 {
			pos += 2
		} else {
			pos++
		}
		i += n
	}
	flush()
	return string(out), nil
}

// ControlCharError reports a raw control character inside a string literal.
type ControlCharError struct{ Pos int }

func (e *ControlCharError) Error() string {
	return "Bad control character in string literal in JSON at position " + strconv.Itoa(e.Pos)
}
