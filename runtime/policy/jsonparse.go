package policy

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/value"
)

// A policy file is parsed into a small tree of nodes that remember the byte
// offset where each value (and each object key) starts, so that validation
// errors can point at the offending place. The parser is lang/value's
// strict RFC 8259 one (JSON.parse's grammar); on top of that a duplicate
// key in any object is an error (JSON.parse would silently keep the last
// one, and a policy must never be ambiguous), and syntax errors are worded
// here, at byte offsets.

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

// maxDepth bounds nesting so that a hostile file cannot exhaust the stack:
// no value may sit inside more than maxDepth arrays and objects.
const maxDepth = 512

// parseJSON parses src (which must be valid UTF-8) as one JSON value
// surrounded by optional JSON whitespace.
func parseJSON(src string) (*jnode, *syntaxError) {
	var b treeBuilder
	v, err := value.ParseJSONWith(src, value.ParseOptions{
		MaxDepth:            maxDepth + 1,
		DepthCountsScalars:  true,
		RejectDuplicateKeys: true,
		WholeWords:          true,
		OnValue:             func(off int) { b.valueOffs = append(b.valueOffs, off) },
		OnKey:               func(k string, off int) { b.keys = append(b.keys, jmember{name: k, off: off}) },
	})
	if err != nil {
		var je *value.JSONError
		if !errors.As(err, &je) {
			return nil, &syntaxError{off: 0, msg: err.Error()} // not reached: no limits are set
		}
		return nil, wordSyntaxError(src, je)
	}
	return b.node(v), nil
}

// treeBuilder makes the node tree of a parsed value from the offsets the
// parser reported, both in document order.
type treeBuilder struct {
	valueOffs []int
	keys      []jmember // names and offsets; val unset
}

func (b *treeBuilder) node(v value.Value) *jnode {
	n := &jnode{off: b.valueOffs[0]}
	b.valueOffs = b.valueOffs[1:]
	switch v.Kind() {
	case value.Bool:
		n.kind, n.b = jBool, v.AsBool()
	case value.Number:
		n.kind, n.n = jNum, v.AsNumber()
	case value.String:
		n.kind, n.s = jStr, v.AsString()
	case value.ListKind:
		n.kind = jArr
		n.items = make([]*jnode, 0, len(v.AsList()))
		for _, it := range v.AsList() {
			n.items = append(n.items, b.node(it))
		}
	case value.RecordKind:
		n.kind = jObj
		r := v.AsRecord()
		for range r.Len() {
			m := b.keys[0]
			b.keys = b.keys[1:]
			m.val = b.node(r.GetOrNull(m.name))
			n.keys = append(n.keys, m)
		}
	}
	return n
}

// wordSyntaxError words a syntax error the way policy errors read.
func wordSyntaxError(src string, e *value.JSONError) *syntaxError {
	off := e.Offset
	switch e.Problem {
	case value.JSONUnterminatedString:
		return &syntaxError{off: off, msg: "unterminated string"}
	case value.JSONBadControl:
		return &syntaxError{off: off, msg: "control character " + describeRune(rune(src[off])) + " in string (write it as an escape)"}
	case value.JSONBadEscape:
		return &syntaxError{off: off, msg: "invalid escape \\" + string(rune(src[off+1]))}
	case value.JSONBadUnicode:
		return &syntaxError{off: off, msg: "invalid \\u escape"}
	case value.JSONTooDeep:
		return &syntaxError{off: off, msg: "nesting deeper than " + strconv.Itoa(maxDepth) + " levels"}
	case value.JSONDuplicateKey:
		return &syntaxError{off: off, msg: "duplicate key " + diagQuote(e.Key) + " (a key may appear only once in an object)", dup: true}
	}
	return &syntaxError{off: off, msg: unexpected(src, off)}
}

// unexpected words the character at off (or the end of the input): a word
// starting with a letter whole, anything else as one character.
func unexpected(src string, off int) string {
	if off >= len(src) {
		return "unexpected end of input"
	}
	if c := src[off]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		end := off
		for end < len(src) && end-off < 40 && isWordByte(src[end]) {
			end++
		}
		return "unexpected token " + diagQuote(src[off:end])
	}
	r, _ := utf8.DecodeRuneInString(src[off:])
	return "unexpected character " + describeRune(r)
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
