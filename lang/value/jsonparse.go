package value

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// MaxJSONDepth is the deepest nesting of lists and records ParseJSON
// accepts (for hosts, and for reading back trace files, whose lines wrap
// program values in a few levels). ParseJSONLimit, which parse.json uses,
// accepts MaxDepth. (The reference parser has no limit; this one keeps the
// Go stack bounded and reports deeper input with its own message.)
const MaxJSONDepth = 10000

// SizeError reports that building a value would take more memory than a
// limit allows; Bytes is the size asked for (at least).
type SizeError struct {
	Bytes int64
}

// Error implements error: the size asked for and that it is over the limit.
func (e *SizeError) Error() string {
	return "value of " + strconv.FormatInt(e.Bytes, 10) + " bytes is over the memory limit"
}

// JSONError is a JSON syntax error. Its message is exactly the one V8
// (Node 20) gives for JSON.parse, positions counted in UTF-16 code units.
// Problem, Offset and Key describe the same error for callers that word
// their own messages (the policy file reader does).
type JSONError struct {
	Msg string
	// Pos is the UTF-16 index the error refers to, or -1 for "Unexpected end
	// of JSON input".
	Pos int
	// Problem classifies the error.
	Problem JSONProblem
	// Offset is the byte offset of the offending place: the unexpected
	// character (the input's length at its end), the backslash of a bad
	// escape, the opening quote of a duplicate key.
	Offset int
	// Key is the repeated key of a JSONDuplicateKey error.
	Key string
}

// JSONProblem classifies a JSONError.
type JSONProblem uint8

// The problems a JSONError reports.
const (
	// JSONUnexpected is a character (or the end of the input) that cannot
	// come where it is.
	JSONUnexpected JSONProblem = iota
	// JSONUnterminatedString is a string that the input ends in (Offset is
	// the input's length).
	JSONUnterminatedString
	// JSONBadControl is a raw control character (below U+0020) in a string.
	JSONBadControl
	// JSONBadEscape is a backslash followed by a character that does not
	// make an escape.
	JSONBadEscape
	// JSONBadUnicode is a \u not followed by four hexadecimal digits.
	JSONBadUnicode
	// JSONTooDeep is nesting deeper than the parse accepts.
	JSONTooDeep
	// JSONDuplicateKey is a key that appears twice in one object, refused
	// under ParseOptions.RejectDuplicateKeys.
	JSONDuplicateKey
)

// Error implements error with Msg.
func (e *JSONError) Error() string { return e.Msg }

// ParseJSON parses s as strict JSON (RFC 8259, as JSON.parse does) into an
// A0 value. Record keys keep document order (index-like keys first, as in
// every record); a duplicate key keeps its first position and takes the last
// value. Numbers become doubles (1E400 is +Inf, -0 stays -0 as in
// JavaScript, which prints as 0). Strings are decoded to WTF-8: escaped
// surrogate pairs combine, lone surrogates are kept. On malformed input the
// error is a *JSONError whose text is V8's message.
func ParseJSON(s string) (Value, error) {
	return parseJSON(jsonParser{s: s, maxDepth: MaxJSONDepth, scalarDepth: math.MaxInt})
}

// ParseOptions adjust ParseJSONWith. The zero value parses as ParseJSON
// does.
type ParseOptions struct {
	// MaxDepth is the deepest nesting of lists and records accepted
	// (0: MaxJSONDepth).
	MaxDepth int
	// DepthCountsScalars makes a number, string, boolean or null nested
	// MaxDepth levels deep too deep as well: the lists and records at the
	// deepest level accepted must then be empty.
	DepthCountsScalars bool
	// RejectDuplicateKeys makes a key that appears twice in one object an
	// error (JSONDuplicateKey at the second one, checked before its colon)
	// instead of the last value winning.
	RejectDuplicateKeys bool
	// WholeWords reports a misspelt true, false or null, or one run
	// together with a following letter, digit or one of "_.$-", as
	// JSONUnexpected at the word's first character rather than where it
	// goes wrong.
	WholeWords bool
	// OnValue, when not nil, is called with the byte offset of every value
	// parsed, in document order (a list or record before its members).
	OnValue func(offset int)
	// OnKey, when not nil, is called with every object key and the byte
	// offset of its opening quote, in document order, after the key is
	// read and before its value.
	OnKey func(key string, offset int)
}

// ParseJSONWith is ParseJSON adjusted by o.
func ParseJSONWith(s string, o ParseOptions) (Value, error) {
	p := jsonParser{s: s, maxDepth: o.MaxDepth, scalarDepth: math.MaxInt, rejectDup: o.RejectDuplicateKeys,
		wholeWords: o.WholeWords, onValue: o.OnValue, onKey: o.OnKey}
	if p.maxDepth <= 0 {
		p.maxDepth = MaxJSONDepth
	}
	if o.DepthCountsScalars {
		p.scalarDepth = p.maxDepth
	}
	return parseJSON(p)
}

// ErrStopped is the error of a parse that gave up because its stopped
// function reported true.
var ErrStopped = errors.New("stopped: the run was cancelled or ran out of time")

// ParseJSONLimit is ParseJSON that accepts at most MaxDepth levels of
// nesting and stops with a *SizeError, before building more, once the
// lists and records it has built (counted as in Value.Size, strings aside:
// they are never longer than s) would take more than maxBytes. maxBytes <= 0 is no limit. A non-nil stopped is polled
// every few thousand values; once it reports true the parse ends with
// ErrStopped.
func ParseJSONLimit(s string, maxBytes int64, stopped func() bool) (Value, error) {
	p := jsonParser{s: s, max: maxBytes, stopped: stopped, maxDepth: MaxDepth, scalarDepth: math.MaxInt}
	if maxBytes <= 0 && stopped != nil {
		p.max = maxSize // grow is then only the poll
	}
	return parseJSON(p)
}

func parseJSON(p jsonParser) (Value, error) {
	s := p.s
	v := p.value(0)
	if p.err.kind == errNone {
		p.skipWS()
		if p.i < len(s) {
			p.fail(errNonWhitespace, p.i)
		}
	}
	if p.err.kind != errNone {
		return Value{}, p.makeError()
	}
	return v, nil
}

type jsonErrKind uint8

const (
	errNone jsonErrKind = iota
	errEOS              // Unexpected end of JSON input
	errChar             // unexpected character: classified like V8's ReportUnexpectedCharacter
	errNonWhitespace
	errPropNameOrBrace
	errDoubleQuotedName
	errColon
	errCommaOrBracket
	errCommaOrBrace
	errUnterminatedString
	errBadEscape
	errBadControl
	errBadUnicode
	errUnexpectedNumber
	errNoNumberAfterMinus
	errUnterminatedFraction
	errExponent
	errTooDeep
	errTooBig
	errStopped
	errEscapeEOS   // the input ends after a backslash: errEOS for V8
	errEscapeToken // a non-Latin-1 character after a backslash: errChar for V8
	errDuplicateKey
)

var jsonMessages = [...]string{
	errPropNameOrBrace:      "Expected property name or '}'",
	errDoubleQuotedName:     "Expected double-quoted property name",
	errColon:                "Expected ':' after property name",
	errCommaOrBracket:       "Expected ',' or ']' after array element",
	errCommaOrBrace:         "Expected ',' or '}' after property value",
	errUnterminatedString:   "Unterminated string",
	errBadEscape:            "Bad escaped character",
	errBadControl:           "Bad control character in string literal",
	errBadUnicode:           "Bad Unicode escape",
	errUnexpectedNumber:     "Unexpected number",
	errNoNumberAfterMinus:   "No number after minus sign",
	errUnterminatedFraction: "Unterminated fractional number",
	errExponent:             "Exponent part is missing a number",
}

type jsonParser struct {
	s   string
	i   int
	err struct {
		kind jsonErrKind
		pos  int    // byte offset
		at   int    // byte offset of the escape's backslash or the duplicate key's quote
		key  string // the duplicate key
	}
	buf   []byte   // scratch for strings with escapes
	elems []Value  // pending list elements (all open lists)
	keys  []string // pending record keys (all open records)
	vals  []Value  // pending record values
	max   int64    // memory limit (0: none)
	used  int64    // memory of the lists and records built so far
	// stopped, when set, is polled every 64 calls of grow.
	stopped  func() bool
	grows    uint32
	maxDepth int // nesting accepted
	// scalarDepth is the depth from which any value is too deep
	// (math.MaxInt unless ParseOptions.DepthCountsScalars).
	scalarDepth int
	rejectDup   bool
	wholeWords  bool
	onValue     func(int)
	onKey       func(string, int)
}

// grow counts n bytes of built containers plus the pending elements, and
// fails once they pass the limit.
func (p *jsonParser) grow(n int64) bool {
	p.used += n
	if p.max <= 0 {
		return true
	}
	if p.grows++; p.stopped != nil && p.grows%64 == 0 && p.stopped() {
		p.fail(errStopped, p.i)
		return false
	}
	if t := p.used + int64(len(p.elems)+len(p.vals))*(SlotBytes+KeyBytes); t > p.max {
		p.used = t
		p.fail(errTooBig, p.i)
		return false
	}
	return true
}

func (p *jsonParser) fail(k jsonErrKind, pos int) {
	p.failAt(k, pos, pos)
}

// failAt records a failure at pos whose offending token starts at at.
func (p *jsonParser) failAt(k jsonErrKind, pos, at int) {
	if p.err.kind == errNone {
		p.err.kind = k
		p.err.pos = pos
		p.err.at = at
	}
}

// failChar reports the token at pos without a specific message, as V8's
// ReportUnexpectedCharacter does: end of input, a number, a string, or an
// unexpected character (classified when the message is built).
func (p *jsonParser) failChar(pos int) {
	if pos >= len(p.s) {
		p.fail(errEOS, pos)
		return
	}
	p.fail(errChar, pos)
}

func (p *jsonParser) skipWS() {
	s := p.s
	i := p.i
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	p.i = i
}

// value parses one value starting at p.i (leading whitespace allowed).
// On error it records the first failure and returns a zero Value.
func (p *jsonParser) value(depth int) Value {
	p.skipWS()
	s := p.s
	if depth >= p.scalarDepth {
		p.fail(errTooDeep, p.i)
		return Value{}
	}
	if p.i >= len(s) {
		p.fail(errEOS, p.i)
		return Value{}
	}
	if p.onValue != nil {
		p.onValue(p.i)
	}
	switch c := s[p.i]; c {
	case '"':
		p.i++
		str, ok := p.str()
		if !ok {
			return Value{}
		}
		return Str(str)
	case '{':
		if depth >= p.maxDepth {
			p.fail(errTooDeep, p.i)
			return Value{}
		}
		p.i++
		return p.object(depth + 1)
	case '[':
		if depth >= p.maxDepth {
			p.fail(errTooDeep, p.i)
			return Value{}
		}
		p.i++
		return p.array(depth + 1)
	case 't':
		if p.literal("true") {
			return True
		}
		return Value{}
	case 'f':
		if p.literal("false") {
			return False
		}
		return Value{}
	case 'n':
		if p.literal("null") {
			return NullValue
		}
		return Value{}
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return p.number()
		}
		p.failChar(p.i)
		return Value{}
	}
}

// literal scans the keyword lit whose first character is at p.i.
func (p *jsonParser) literal(lit string) bool {
	s := p.s
	if len(s)-p.i >= len(lit) && s[p.i:p.i+len(lit)] == lit {
		if p.wholeWords && p.i+len(lit) < len(s) && isWordByte(s[p.i+len(lit)]) {
			p.fail(errChar, p.i)
			return false
		}
		p.i += len(lit)
		return true
	}
	if p.wholeWords {
		p.fail(errChar, p.i)
		return false
	}
	i := p.i + 1
	for k := 1; k < len(lit); k++ {
		if i >= len(s) {
			p.fail(errEOS, i)
			return false
		}
		if s[i] != lit[k] {
			p.failChar(i)
			return false
		}
		i++
	}
	return false // unreachable
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordByte reports whether c continues a word for ParseOptions.WholeWords.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '.' || c == '$' || c == '-'
}

func (p *jsonParser) number() Value {
	s := p.s
	start := p.i
	i := p.i
	neg := false
	if s[i] == '-' {
		neg = true
		i++
	}
	simple := true
	var n uint64
	if i < len(s) && s[i] == '0' {
		i++
		if i < len(s) && isDigit(s[i]) {
			p.fail(errUnexpectedNumber, i)
			return Value{}
		}
	} else {
		ds := i
		for i < len(s) && isDigit(s[i]) {
			n = n*10 + uint64(s[i]-'0')
			i++
		}
		if i == ds {
			p.fail(errNoNumberAfterMinus, i)
			return Value{}
		}
		if i-ds > 15 {
			simple = false
		}
	}
	if i < len(s) && s[i] == '.' {
		simple = false
		i++
		if i >= len(s) || !isDigit(s[i]) {
			p.fail(errUnterminatedFraction, i)
			return Value{}
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		simple = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			p.fail(errExponent, i)
			return Value{}
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	p.i = i
	if simple {
		f := float64(n)
		if neg {
			f = -f
		}
		return Num(f)
	}
	f, _ := strconv.ParseFloat(s[start:i], 64) // syntax already checked; ±Inf on overflow
	return Num(f)
}

// str scans a string body after its opening quote and returns the decoded
// text.
func (p *jsonParser) str() (string, bool) {
	s := p.s
	start := p.i
	i := start
	for i < len(s) {
		c := s[i]
		if c == '"' {
			p.i = i + 1
			return s[start:i], true
		}
		if c == '\\' || c < 0x20 {
			break
		}
		i++
	}
	if i >= len(s) {
		p.fail(errUnterminatedString, len(s))
		return "", false
	}
	buf := append(p.buf[:0], s[start:i]...)
	for {
		if i >= len(s) {
			p.fail(errUnterminatedString, len(s))
			p.buf = buf
			return "", false
		}
		c := s[i]
		switch {
		case c == '"':
			p.i = i + 1
			p.buf = buf
			return string(buf), true
		case c == '\\':
			esc := i
			i++
			if i >= len(s) {
				p.fail(errEscapeEOS, i)
				p.buf = buf
				return "", false
			}
			e := s[i]
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				var u uint16
				for k := 0; k < 4; k++ {
					i++
					if i >= len(s) {
						p.failAt(errBadUnicode, i, esc)
						p.buf = buf
						return "", false
					}
					h := hexVal(s[i])
					if h < 0 {
						p.failAt(errBadUnicode, i, esc)
						p.buf = buf
						return "", false
					}
					u = u<<4 | uint16(h)
				}
				buf = appendUnitJoin(buf, u)
			default:
				if e >= 0x80 {
					// V8 reports a non-Latin-1 escaped character as an
					// unexpected token; Latin-1 ones are bad escapes.
					r, _ := decodeWTF8(s[i:])
					if r > 0xFF {
						p.failAt(errEscapeToken, i, esc)
						p.buf = buf
						return "", false
					}
				}
				p.failAt(errBadEscape, i, esc)
				p.buf = buf
				return "", false
			}
			i++
		case c < 0x20:
			p.fail(errBadControl, i)
			p.buf = buf
			return "", false
		default:
			j := i
			if c == 0xED && i+2 < len(s) && s[i+1] >= 0xB0 && s[i+1] <= 0xBF {
				// A raw lone low surrogate right after an escaped high
				// surrogate forms a pair.
				buf = appendUnitJoin(buf, uint16(0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F)))
				i += 3
				j = i
			}
			for j < len(s) {
				c := s[j]
				if c == '"' || c == '\\' || c < 0x20 {
					break
				}
				j++
			}
			buf = append(buf, s[i:j]...)
			i = j
		}
	}
}

// appendUnitJoin appends UTF-16 unit u as WTF-8, joining a low surrogate
// with a lone high surrogate that ends buf.
func appendUnitJoin(buf []byte, u uint16) []byte {
	if u >= 0xDC00 && u < 0xE000 {
		n := len(buf)
		if n >= 3 && buf[n-3] == 0xED && buf[n-2] >= 0xA0 && buf[n-2] <= 0xAF {
			hi := rune(0xD000) | rune(buf[n-2]&0x3F)<<6 | rune(buf[n-1]&0x3F)
			r := (hi-0xD800)<<10 + (rune(u) - 0xDC00) + 0x10000
			return utf8.AppendRune(buf[:n-3], r)
		}
	}
	return appendWTF8(buf, rune(u))
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (p *jsonParser) array(depth int) Value {
	p.skipWS()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return NewList(nil)
	}
	base := len(p.elems)
	for {
		v := p.value(depth)
		if p.err.kind != errNone {
			p.elems = p.elems[:base]
			return Value{}
		}
		p.elems = append(p.elems, v)
		if p.max > 0 && len(p.elems)%64 == 0 && !p.grow(0) {
			p.elems = p.elems[:base]
			return Value{}
		}
		p.skipWS()
		if p.i < len(p.s) {
			switch p.s[p.i] {
			case ',':
				p.i++
				continue
			case ']':
				p.i++
				n := len(p.elems) - base
				if !p.grow(ListBytes + int64(n)*SlotBytes) {
					p.elems = p.elems[:base]
					return Value{}
				}
				items := make([]Value, n)
				copy(items, p.elems[base:])
				clear(p.elems[base:])
				p.elems = p.elems[:base]
				return ListOf(items)
			}
		}
		p.fail(errCommaOrBracket, p.i)
		p.elems = p.elems[:base]
		return Value{}
	}
}

func (p *jsonParser) object(depth int) Value {
	s := p.s
	p.skipWS()
	if p.i < len(s) && s[p.i] == '}' {
		p.i++
		return RecordOf(NewRecord(0))
	}
	base := len(p.keys)
	first := true
	var seen map[string]struct{} // keys of this object, under rejectDup
	for {
		// Property name.
		if p.i >= len(s) || s[p.i] != '"' {
			if first {
				p.fail(errPropNameOrBrace, p.i)
			} else {
				p.fail(errDoubleQuotedName, p.i)
			}
			break
		}
		koff := p.i
		p.i++
		k, ok := p.str()
		if !ok {
			break
		}
		if p.rejectDup && p.isDuplicate(k, base, &seen) {
			p.fail(errDuplicateKey, koff)
			p.err.key = k
			break
		}
		if p.onKey != nil {
			p.onKey(k, koff)
		}
		// Colon. V8 words a missing colon after the first name only; later
		// ones are reported as an unexpected token.
		p.skipWS()
		if p.i >= len(s) || s[p.i] != ':' {
			if first {
				p.fail(errColon, p.i)
			} else {
				p.failChar(p.i)
			}
			break
		}
		p.i++
		v := p.value(depth)
		if p.err.kind != errNone {
			break
		}
		p.keys = append(p.keys, k)
		p.vals = append(p.vals, v)
		if p.max > 0 && len(p.vals)%64 == 0 && !p.grow(0) {
			break
		}
		first = false
		p.skipWS()
		if p.i < len(s) {
			if s[p.i] == ',' {
				p.i++
				p.skipWS()
				continue
			}
			if s[p.i] == '}' {
				p.i++
				if !p.grow(RecordBytes + int64(len(p.keys)-base)*(SlotBytes+KeyBytes)) {
					break
				}
				r := buildRecord(p.keys[base:], p.vals[base:])
				clear(p.keys[base:])
				clear(p.vals[base:])
				p.keys = p.keys[:base]
				p.vals = p.vals[:base]
				return RecordOf(r)
			}
		}
		p.fail(errCommaOrBrace, p.i)
		break
	}
	p.keys = p.keys[:base]
	p.vals = p.vals[:base]
	return Value{}
}

// isDuplicate reports whether k is among the keys of the object being
// parsed, whose first key is p.keys[base]. Past a few keys it looks them
// up in seen, which it keeps up to date (the keys are distinct, so seen
// holds the first len(seen) of them).
func (p *jsonParser) isDuplicate(k string, base int, seen *map[string]struct{}) bool {
	keys := p.keys[base:]
	if len(keys) <= 16 {
		for _, x := range keys {
			if x == k {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]struct{}, 2*len(keys))
	}
	for _, x := range keys[len(*seen):] {
		(*seen)[x] = struct{}{}
	}
	_, dup := (*seen)[k]
	return dup
}

// buildRecord makes a record from parsed keys and values (document order,
// duplicates: last value at first position, index-like keys first).
func buildRecord(keys []string, vals []Value) *Record {
	n := len(keys)
	if n <= indexThreshold {
		r := NewRecord(n)
		for i, k := range keys {
			r.Set(k, vals[i])
		}
		return r
	}
	pos := make(map[string]int, n)
	rk := make([]string, 0, n)
	rv := make([]Value, 0, n)
	nIdx := 0
	for i, k := range keys {
		if j, ok := pos[k]; ok {
			rv[j] = vals[i]
			continue
		}
		pos[k] = len(rk)
		rk = append(rk, k)
		rv = append(rv, vals[i])
		if IsArrayIndex(k) {
			nIdx++
		}
	}
	r := &Record{keys: rk, vals: rv, nIdx: nIdx}
	r.recount()
	if nIdx > 0 {
		// Move index-like keys to the front in numeric order; the others
		// keep document order.
		order := make([]int, len(rk))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			ka, kb := rk[order[a]], rk[order[b]]
			ia, ib := IsArrayIndex(ka), IsArrayIndex(kb)
			if ia != ib {
				return ia
			}
			if ia {
				return arrayIndexValue(ka) < arrayIndexValue(kb)
			}
			return false
		})
		nk := make([]string, len(rk))
		nv := make([]Value, len(rv))
		for i, o := range order {
			nk[i] = rk[o]
			nv[i] = rv[o]
		}
		r.keys, r.vals = nk, nv
	}
	if len(r.keys) > indexThreshold {
		r.buildIndex()
	}
	return r
}

// makeError builds the V8 message for the recorded failure.
func (p *jsonParser) makeError() error {
	switch p.err.kind {
	case errStopped:
		return ErrStopped
	case errTooBig:
		return &SizeError{Bytes: p.used}
	}
	e := &JSONError{Offset: min(p.err.at, len(p.s)), Problem: jsonProblems[p.err.kind], Key: p.err.key}
	e.Msg, e.Pos = p.message()
	return e
}

// jsonProblems classifies the failures; those not named are JSONUnexpected.
var jsonProblems = [...]JSONProblem{
	errUnterminatedString: JSONUnterminatedString,
	errEscapeEOS:          JSONUnterminatedString,
	errBadControl:         JSONBadControl,
	errBadEscape:          JSONBadEscape,
	errEscapeToken:        JSONBadEscape,
	errBadUnicode:         JSONBadUnicode,
	errTooDeep:            JSONTooDeep,
	errDuplicateKey:       JSONDuplicateKey, // the last kind: sizes the array
}

// message words the recorded failure as V8 does and returns its UTF-16
// position (-1 for the end of the input).
func (p *jsonParser) message() (string, int) {
	s := p.s
	bpos := min(p.err.pos, len(s))
	kind := p.err.kind
	if kind == errEOS || kind == errEscapeEOS {
		return "Unexpected end of JSON input", -1
	}
	pos := Len16(s[:bpos])
	at := " in JSON at position " + strconv.Itoa(pos)
	if kind == errChar || kind == errEscapeToken {
		c := s[bpos]
		switch {
		case c == '-' || isDigit(c):
			kind = errUnexpectedNumber
		case c == '"':
			return "Unexpected string" + at, pos
		default:
			return unexpectedToken(s, bpos, pos), pos
		}
	}
	switch kind {
	case errNonWhitespace:
		return "Unexpected non-whitespace character after JSON at position " + strconv.Itoa(pos), pos
	case errTooDeep:
		return "JSON is nested too deeply (more than " + strconv.Itoa(p.maxDepth) + " levels) at position " + strconv.Itoa(pos), pos
	case errDuplicateKey:
		return "Duplicate key " + strconv.Quote(p.err.key) + at, pos
	}
	return jsonMessages[kind] + at, pos
}

// unexpectedToken words V8's "Unexpected token" message for the character
// at byte offset bpos (UTF-16 index pos).
func unexpectedToken(s string, bpos, pos int) string {
	switch s {
	case "[object Object]", "undefined", "Infinity", "NaN":
		return `"` + s + `" is not valid JSON`
	}
	r, _ := decodeWTF8(s[bpos:])
	var tok []byte
	if r >= 0x10000 {
		tok = appendWTF8(nil, 0xD800+(r-0x10000)>>10) // the high surrogate
	} else if r == utf8.RuneError && s[bpos] >= 0x80 {
		tok = []byte(s[bpos : bpos+1])
	} else {
		tok = appendWTF8(nil, r)
	}
	msg := "Unexpected token '" + string(tok) + "', "
	const ctx = 10
	n := Len16(s)
	if n <= 2*ctx {
		return msg + `"` + s + `" is not valid JSON`
	}
	u := Units(s)
	n = len(u)
	switch {
	case pos < ctx:
		return msg + `"` + FromUnits(u[:pos+ctx]) + `"... is not valid JSON`
	case pos < n-ctx:
		return msg + `..."` + FromUnits(u[pos-ctx:pos+ctx]) + `"... is not valid JSON`
	default:
		return msg + `..."` + FromUnits(u[pos-ctx:]) + `" is not valid JSON`
	}
}
