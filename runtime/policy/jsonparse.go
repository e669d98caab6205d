package policy

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/value"
)

// A policy file is parsed into a small tree of nodes that remember the byte
// offset where each value (and each object key) starts, so that validation
// errors can point at the offending place. The grammar is strict RFC 8259
// JSON, as JavaScript's JSON.parse accepts it; on top of that a duplicate
// key in any object is an error (JSON.parse would silently keep the last
// one, and a policy must never be ambiguous).

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// kindName names a JSON kind in messages.
func (k jkind) String() string {
	switch k {
	case jNull:
		return "null"
	case jBool:
		return "a boolean"
	case jNum:
		return "a number"
	case jStr:
		return "a string"
	case jArr:
		return "an array"
	}
	return "an object"
}

type jnode struct {
	kind  jkind
	off   int // byte offset of the value's first character
	b     bool
	n     float64
	s     string   // WTF-8 (lone surrogates from \u escapes are kept)
	items []*jnode // arrays
	keys  []jmember
}

type jmember struct {
	name string
	off  int // byte offset of the key's opening quote
	val  *jnode
}

// get returns the member named name.
func (n *jnode) get(name string) (jmember, bool) {
	for _, m := range n.keys {
		if m.name == name {
			return m, true
		}
	}
	return jmember{}, false
}

// toValue converts a node to an A0 value (records keep document order, with
// index-like keys first as in JavaScript objects).
func (n *jnode) toValue() value.Value {
	switch n.kind {
	case jBool:
		return value.BoolOf(n.b)
	case jNum:
		return value.Num(n.n)
	case jStr:
		return value.Str(n.s)
	case jArr:
		items := make([]value.Value, len(n.items))
		for i, it := range n.items {
			items[i] = it.toValue()
		}
		return value.ListOf(items)
	case jObj:
		r := value.NewRecord(len(n.keys))
		for _, m := range n.keys {
			r.Set(m.name, m.val.toValue())
		}
		return value.RecordOf(r)
	}
	return value.NullValue
}

// syntaxError is a JSON syntax error at a byte offset.
type syntaxError struct {
	off int
	msg string
	dup bool // a duplicate key: valid JSON, but refused in a policy
}

// maxDepth bounds nesting so that a hostile file cannot exhaust the stack.
const maxDepth = 512

type jparser struct {
	src string
	pos int
	err *syntaxError
}

// parseJSON parses src (which must be valid UTF-8) as one JSON value
// surrounded by optional JSON whitespace.
func parseJSON(src string) (*jnode, *syntaxError) {
	p := &jparser{src: src}
	p.ws()
	n := p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	p.ws()
	if p.pos < len(p.src) {
		p.unexpected()
		return nil, p.err
	}
	return n, nil
}

func (p *jparser) fail(off int, msg string) {
	if p.err == nil {
		p.err = &syntaxError{off: off, msg: msg}
	}
}

// unexpected reports the character at the current position (or the end of
// the input).
func (p *jparser) unexpected() {
	if p.pos >= len(p.src) {
		p.fail(p.pos, "unexpected end of input")
		return
	}
	if c := p.src[p.pos]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		end := p.pos
		for end < len(p.src) && end-p.pos < 40 && isWordByte(p.src[end]) {
			end++
		}
		p.fail(p.pos, "unexpected token "+diagQuote(p.src[p.pos:end]))
		return
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	p.fail(p.pos, "unexpected character "+describeRune(r))
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$' || c == '-'
}

func describeRune(r rune) string {
	if r < 0x20 || r == 0x7f {
		return "U+" + strings.ToUpper(strconv.FormatInt(int64(r)|0x10000, 16)[1:])
	}
	return strconv.QuoteRune(r)
}

func (p *jparser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) value(depth int) *jnode {
	if depth > maxDepth {
		p.fail(p.pos, "nesting deeper than "+strconv.Itoa(maxDepth)+" levels")
		return nil
	}
	if p.pos >= len(p.src) {
		p.unexpected()
		return nil
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil
		}
		return &jnode{kind: jStr, off: start, s: s}
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", &jnode{kind: jBool, off: start, b: true})
	case c == 'f':
		return p.literal("false", &jnode{kind: jBool, off: start})
	case c == 'n':
		return p.literal("null", &jnode{kind: jNull, off: start})
	}
	p.unexpected()
	return nil
}

func (p *jparser) literal(word string, n *jnode) *jnode {
	if !strings.HasPrefix(p.src[p.pos:], word) || p.pos+len(word) < len(p.src) && isWordByte(p.src[p.pos+len(word)]) {
		p.unexpected()
		return nil
	}
	p.pos += len(word)
	return n
}

func (p *jparser) number() *jnode {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	if !p.digit() {
		p.unexpected()
		return nil
	}
	if p.src[p.pos] == '0' {
		p.pos++
	} else {
		for p.digit() {
			p.pos++
		}
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if !p.digit() {
			p.unexpected()
			return nil
		}
		for p.digit() {
			p.pos++
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if !p.digit() {
			p.unexpected()
			return nil
		}
		for p.digit() {
			p.pos++
		}
	}
	f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil && !math.IsInf(f, 0) {
		p.fail(start, "invalid number")
		return nil
	}
	return &jnode{kind: jNum, off: start, n: f}
}

func (p *jparser) digit() bool {
	return p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9'
}

// str parses a string literal at p.pos (which holds '"').
func (p *jparser) str() (string, bool) {
	p.pos++
	var b []byte
	start := p.pos
	for {
		if p.pos >= len(p.src) {
			p.fail(p.pos, "unterminated string")
			return "", false
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			b = append(b, p.src[start:p.pos]...)
			p.pos++
			return string(b), true
		case c < 0x20:
			p.fail(p.pos, "control character "+describeRune(rune(c))+" in string (write it as an escape)")
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
}

func (p *jparser) escape(b *[]byte) bool {
	at := p.pos
	p.pos++ // backslash
	if p.pos >= len(p.src) {
		p.fail(p.pos, "unterminated string")
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
			p.fail(at, "invalid \\u escape")
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
		p.fail(at, "invalid escape \\"+string(rune(c)))
		return false
	}
	return true
}

func (p *jparser) hex4() (uint16, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	var u uint16
	for i := 0; i < 4; i++ {
		c := p.src[p.pos+i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		u = u<<4 | uint16(d)
	}
	p.pos += 4
	return u, true
}

func (p *jparser) array(depth int) *jnode {
	n := &jnode{kind: jArr, off: p.pos}
	p.pos++
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		n.items = []*jnode{}
		return n
	}
	for {
		p.ws()
		it := p.value(depth + 1)
		if it == nil {
			return nil
		}
		n.items = append(n.items, it)
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			return n
		}
		p.unexpected()
		return nil
	}
}

func (p *jparser) object(depth int) *jnode {
	n := &jnode{kind: jObj, off: p.pos}
	p.pos++
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return n
	}
	for {
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			p.unexpected()
			return nil
		}
		koff := p.pos
		k, ok := p.str()
		if !ok {
			return nil
		}
		if _, dup := n.get(k); dup {
			p.fail(koff, "duplicate key "+diagQuote(k)+" (a key may appear only once in an object)")
			p.err.dup = true
			return nil
		}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			p.unexpected()
			return nil
		}
		p.pos++
		p.ws()
		v := p.value(depth + 1)
		if v == nil {
			return nil
		}
		n.keys = append(n.keys, jmember{name: k, off: koff, val: v})
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return n
		}
		p.unexpected()
		return nil
	}
}
