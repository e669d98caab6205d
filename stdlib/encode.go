package stdlib

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/value"
)

// JSON text, base64 and hex, and numbers from text (spec/stdlib.md
// "Encodings").

func init() {
	register("json.stringify", fnJSONStringify)
	register("base64.encode", func(l Limits, args *value.Record) (value.Value, error) {
		return encode(l, args, "base64.encode", "base64")
	})
	register("hex.encode", func(l Limits, args *value.Record) (value.Value, error) { return encode(l, args, "hex.encode", "hex") })
	register("base64.decode", fnBase64Decode)
	register("hex.decode", fnHexDecode)
	register("parse.number", fnParseNumber)
}

const indentMsg = ": 'indent' must be a number of spaces from 0 to 10, or a string of at most 10 characters"

func fnJSONStringify(l Limits, args *value.Record) (value.Value, error) {
	v := Arg(args, "in")
	indent := ""
	switch iv := Arg(args, "indent"); iv.Kind() {
	case value.Null, value.Undefined:
	case value.Number:
		f := iv.AsNumber()
		if f < 0 || f > 10 || f != math.Trunc(f) {
			return value.Value{}, fail("json.stringify" + indentMsg)
		}
		indent = strings.Repeat(" ", int(f))
	case value.String:
		indent = iv.AsString()
		if value.Len16(indent) > 10 {
			return value.Value{}, fail("json.stringify" + indentMsg)
		}
	default:
		return value.Value{}, fail("json.stringify" + indentMsg)
	}
	t := ticker{l: l}
	n, err := jsonLen(v, int64(len(indent)), 0, &t)
	if err != nil {
		return value.Value{}, err
	}
	if err := need(l, n); err != nil {
		return value.Value{}, err
	}
	var b strings.Builder
	b.Grow(int(n))
	value.AppendJSON(&b, v, indent, 0)
	return value.Str(b.String()), nil
}

// jsonLen is the length of value.AppendJSON's text of v with the given
// indentation at depth (saturating at 2^62).
func jsonLen(v value.Value, indent, depth int64, t *ticker) (int64, error) {
	if err := t.tick(); err != nil {
		return 0, err
	}
	nl := func(d int64) int64 {
		if indent == 0 {
			return 0
		}
		return 1 + indent*d
	}
	switch v.Kind() {
	case value.Bool:
		if v.AsBool() {
			return 4, nil
		}
		return 5, nil
	case value.Number:
		f := v.AsNumber()
		if math.IsInf(f, 0) || f != f {
			return 4, nil
		}
		var buf [32]byte
		return int64(len(value.AppendNumber(buf[:0], f))), nil
	case value.String:
		return quotedLen(v.AsString()), nil
	case value.ListKind:
		items := v.AsList()
		if len(items) == 0 {
			return 2, nil
		}
		n := 2 + int64(len(items)-1) + nl(depth)
		for _, it := range items {
			m, err := jsonLen(it, indent, depth+1, t)
			if err != nil {
				return 0, err
			}
			n = satAdd(n, satAdd(m, nl(depth+1)))
		}
		return n, nil
	case value.RecordKind:
		r := v.AsRecord()
		if r.Len() == 0 {
			return 2, nil
		}
		n := 2 + int64(r.Len()-1) + nl(depth)
		for i := 0; i < r.Len(); i++ {
			m, err := jsonLen(r.At(i), indent, depth+1, t)
			if err != nil {
				return 0, err
			}
			m += quotedLen(r.Key(i)) + 1 + nl(depth+1)
			if indent > 0 {
				m++
			}
			n = satAdd(n, m)
		}
		return n, nil
	}
	return 4, nil // null
}

func satAdd(a, b int64) int64 {
	if a > 1<<62-b {
		return 1 << 62
	}
	return a + b
}

// quotedLen is the length of diag.AppendQuoted's JSON string for s.
func quotedLen(s string) int64 {
	n := int64(2)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			n += 2
			i++
		case c < 0x20:
			n += 6
			i++
		case c < utf8.RuneSelf:
			n++
			i++
		case c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF:
			n += 6 // \udxxx
			i += 3
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				n += 3 // U+FFFD
			} else {
				n += int64(size)
			}
			i += size
		}
	}
	return n
}

// utf8Bytes is the UTF-8 encoding of text: a lone surrogate becomes
// U+FFFD (as a TextEncoder does), which takes the same three bytes.
func utf8Bytes(s string) []byte {
	if hasLoneSurrogate(s) {
		s = surrogatesToFFFD(s)
	}
	return []byte(s)
}

func encode(l Limits, args *value.Record, fn, enc string) (value.Value, error) {
	s, err := stringArg(args, fn, "in")
	if err != nil {
		return value.Value{}, err
	}
	b := utf8Bytes(s)
	n := int64(base64.StdEncoding.EncodedLen(len(b)))
	if enc == "hex" {
		n = int64(hex.EncodedLen(len(b)))
	}
	if err := need(l, n); err != nil {
		return value.Value{}, err
	}
	if enc == "hex" {
		return value.Str(hex.EncodeToString(b)), nil
	}
	return value.Str(base64.StdEncoding.EncodeToString(b)), nil
}

// decoded returns bytes decoded by fn in the form `as` asks: text (the
// default; the bytes must be UTF-8), "base64" or "hex".
func decoded(l Limits, args *value.Record, fn string, b []byte) (value.Value, error) {
	as := "text"
	if v := Arg(args, "as"); !v.IsNull() {
		if v.Kind() != value.String {
			return value.Value{}, fail(fn + `: 'as' must be "text", "base64" or "hex"`)
		}
		as = v.AsString()
	}
	switch as {
	case "text":
		if !utf8.Valid(b) {
			at := 0
			for at < len(b) {
				r, size := utf8.DecodeRune(b[at:])
				if r == utf8.RuneError && size == 1 {
					break
				}
				at += size
			}
			return value.Value{}, fail(fn + ": the decoded bytes are not UTF-8 text (invalid byte at offset " + strconv.Itoa(at) +
				`); pass as: "base64" or as: "hex" to get them back encoded`)
		}
		return value.Str(string(b)), nil
	case "base64":
		if err := need(l, int64(base64.StdEncoding.EncodedLen(len(b)))); err != nil {
			return value.Value{}, err
		}
		return value.Str(base64.StdEncoding.EncodeToString(b)), nil
	case "hex":
		if err := need(l, int64(hex.EncodedLen(len(b)))); err != nil {
			return value.Value{}, err
		}
		return value.Str(hex.EncodeToString(b)), nil
	}
	return value.Value{}, fail(fn + `: 'as' must be "text", "base64" or "hex"`)
}

func fnBase64Decode(l Limits, args *value.Record) (value.Value, error) {
	s, err := stringArg(args, "base64.decode", "in")
	if err != nil {
		return value.Value{}, err
	}
	// White space (line breaks of MIME text) is skipped; positions in
	// messages are those of the text as given.
	orig := s
	if strings.ContainsAny(s, " \t\r\n") {
		s = strings.Map(func(r rune) rune {
			switch r {
			case ' ', '\t', '\r', '\n':
				return -1
			}
			return r
		}, s)
	}
	where := func(i int) int {
		// The position in orig of the i-th byte that is not white space.
		for j := 0; j < len(orig); j++ {
			switch orig[j] {
			case ' ', '\t', '\r', '\n':
				continue
			}
			if i == 0 {
				return value.Len16(orig[:j])
			}
			i--
		}
		return value.Len16(orig)
	}
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	if err := need(l, int64(enc.DecodedLen(len(s)))); err != nil {
		return value.Value{}, err
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		at := 0
		if ce, ok := err.(base64.CorruptInputError); ok {
			at = where(int(ce))
		}
		return value.Value{}, fail("base64.decode: 'in' is not valid base64 (at position " + strconv.Itoa(at) + ")")
	}
	return decoded(l, args, "base64.decode", b)
}

func fnHexDecode(l Limits, args *value.Record) (value.Value, error) {
	s, err := stringArg(args, "hex.decode", "in")
	if err != nil {
		return value.Value{}, err
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			_, size := decodeRune(s[i:])
			return value.Value{}, fail("hex.decode: 'in' is not hex: unexpected " + quotePattern(s[i:i+size]) + " at position " +
				strconv.Itoa(value.Len16(s[:i])) + " (only 0-9, a-f and A-F, two per byte)")
		}
	}
	if len(s)%2 != 0 {
		return value.Value{}, fail("hex.decode: 'in' has an odd number of digits (" + strconv.Itoa(len(s)) + "); each byte takes two")
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return value.Value{}, fail("hex.decode: 'in' is not hex")
	}
	return decoded(l, args, "hex.decode", b)
}

func fnParseNumber(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() == value.Number {
		return in, nil
	}
	if in.Kind() != value.String {
		return value.Value{}, fail("parse.number: 'in' must be a string")
	}
	s := in.AsString()
	t := strings.TrimFunc(s, isJSSpace)
	if !numberText(t) {
		why := " (write digits with an optional sign, fraction and exponent, like -12.5e3)"
		if t == "" {
			why = " (the text is empty)"
		} else if strings.HasPrefix(strings.TrimLeft(t, "+-"), "0x") || strings.HasPrefix(strings.TrimLeft(t, "+-"), "0X") {
			why = " (only decimal numbers are read)"
		}
		return value.Value{}, fail("parse.number: " + quotePattern(s) + " is not a number" + why)
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !math.IsInf(f, 0) {
		return value.Value{}, fail("parse.number: " + quotePattern(s) + " is not a number")
	}
	return value.Num(f), nil
}

// numberText reports whether s is a decimal number: an optional sign,
// digits with an optional fraction (or a fraction alone), an optional
// exponent.
func numberText(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
