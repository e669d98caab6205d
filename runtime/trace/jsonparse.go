package trace

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/value"
)

// parseLine parses one trace line the way JavaScript's JSON.parse does:
// JSON whitespace (space, tab, CR, LF) around the value is allowed, a
// duplicate key keeps its first position and its last value, and \u escapes
// of lone surrogates are kept (as WTF-8). ok is false for anything that is
// not exactly one JSON value.
func parseLine(s string) (v value.Value, ok bool) {
	p := &lineParser{src: s}
	p.ws()
	v, ok = p.value(0)
	if !ok {
		return value.Value{}, false
	}
	p.ws()
	return v, p.pos == len(p.src)
}

// maxDepth bounds nesting; deeper lines are treated as unparsable.
const maxDepth = 10000

type lineParser struct {
	src string
	pos int
}

func (p *lineParser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *lineParser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *lineParser) value(depth int) (value.Value, bool) {
	if depth > maxDepth || p.pos >= len(p.src) {
		return value.Value{}, false
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		return value.Str(s), ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		word string
		v    value.Value
	}{{"true", value.True}, {"false", value.False}, {"null", value.NullValue}} {
		if strings.HasPrefix(p.src[p.pos:], lit.word) {
			p.pos += len(lit.word)
			return lit.v, true
		}
	}
	return value.Value{}, false
}

func (p *lineParser) digits() bool {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	return p.pos > start
}

func (p *lineParser) number() (value.Value, bool) {
	start := p.pos
	if p.peek() == '-' {
		p.pos++
	}
	if p.peek() == '0' {
		p.pos++
	} else if !p.digits() {
		return value.Value{}, false
	}
	if p.peek() == '.' {
		p.pos++
		if !p.digits() {
			return value.Value{}, false
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if !p.digits() {
			return value.Value{}, false
		}
	}
	f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil && !math.IsInf(f, 0) {
		return value.Value{}, false
	}
	return value.Num(f), true
}

func (p *lineParser) str() (string, bool) {
	p.pos++ // opening quote
	var b []byte
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			b = append(b, p.src[start:p.pos]...)
			p.pos++
			return string(b), true
		case c < 0x20:
			return "", false
		case c == '\\':
			b = append(b, p.src[start:p.pos]...)
			if !p.escape(&b) {
				return "", false
			}
			start = p.pos
		default:
			p.pos++
		}
	}
	return "", false
}

func (p *lineParser) escape(b *[]byte) bool {
	p.pos++ // backslash
	if p.pos >= len(p.src) {
		return false
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		*b = append(*b, c)
	case 'b':
		*b = append(*b, '\b')
	case 'f':
		*b = append(*b, '\f')
	case 'n':
		*b = append(*b, '\n')
	case 'r':
		*b = append(*b, '\r')
	case 't':
		*b = append(*b, '\t')
	case 'u':
		u, ok := p.hex4()
		if !ok {
			return false
		}
		if u >= 0xD800 && u <= 0xDBFF && strings.HasPrefix(p.src[p.pos:], `\u`) {
			save := p.pos
			p.pos += 2
			if lo, ok := p.hex4(); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				*b = utf8.AppendRune(*b, 0x10000+(rune(u)-0xD800)<<10+(rune(lo)-0xDC00))
				return true
			}
			p.pos = save
		}
		*b = value.AppendCodeUnit(*b, u)
	default:
		return false
	}
	return true
}

func (p *lineParser) hex4() (uint16, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 16)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return uint16(n), true
}

func (p *lineParser) array(depth int) (value.Value, bool) {
	p.pos++
	p.ws()
	var items []value.Value
	if p.peek() == ']' {
		p.pos++
		return value.ListOf(items), true
	}
	for {
		p.ws()
		v, ok := p.value(depth + 1)
		if !ok {
			return value.Value{}, false
		}
		items = append(items, v)
		p.ws()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return value.ListOf(items), true
		default:
			return value.Value{}, false
		}
	}
}

func (p *lineParser) object(depth int) (value.Value, bool) {
	p.pos++
	p.ws()
	r := value.NewRecord(0)
	if p.peek() == '}' {
		p.pos++
		return value.RecordOf(r), true
	}
	for {
		p.ws()
		if p.peek() != '"' {
			return value.Value{}, false
		}
		k, ok := p.str()
		if !ok {
			return value.Value{}, false
		}
		p.ws()
		if p.peek() != ':' {
			return value.Value{}, false
		}
		p.pos++
		p.ws()
		v, ok := p.value(depth + 1)
		if !ok {
			return value.Value{}, false
		}
		r.Set(k, v)
		p.ws()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return value.RecordOf(r), true
		default:
			return value.Value{}, false
		}
	}
}
