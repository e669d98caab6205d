// Package lexer turns A0 source text into tokens.
//
// The rules follow the reference lexer exactly: token patterns are tried in
// a fixed order and the first that matches wins (longest match is not the
// rule); keywords fall back to identifiers when an identifier would be
// longer; every run of characters that no pattern matches becomes one E_LEX
// diagnostic. Columns and offsets count UTF-16 code units.
//
// The package also provides a participle lexer.Definition over the token
// slice (see participle.go), so the grammar in lang/parser consumes exactly
// these tokens.
package lexer

import (
	"strconv"

	"github.com/a0lang/a0/lang/diag"
)

// Type is a token type. Values match participle's convention: EOF is -1 and
// other types are negative too.
type Type int

// Token types.
const (
	EOF     Type = -1
	Ident   Type = -2
	Int     Type = -3
	Float   Type = -4
	String  Type = -5
	Keyword Type = -6 // every keyword except true/false/null
	Literal Type = -7 // true, false, null
	CallQ   Type = -8 // call?
	Punct   Type = -9
)

// Token is one lexed token.
type Token struct {
	Type  Type
	Text  string // source text
	Start diag.Pos
	End   diag.Pos // exclusive
}

// Keywords of A0 (all reserved).
var Keywords = map[string]bool{
	"cap": true, "budget": true, "import": true, "assert": true, "as": true,
	"let": true, "return": true, "do": true, "check": true, "match": true,
	"catch": true, "filter": true, "loop": true, "if": true, "else": true,
	"for": true, "fn": true, "try": true, "true": true, "false": true, "null": true,
}

// TokenName returns the reference's name of the token with text t (used in
// "Expected <Name> but found" messages).
func TokenName(t string) string {
	switch t {
	case "->":
		return "Arrow"
	case ">=":
		return "GtEq"
	case "<=":
		return "LtEq"
	case "==":
		return "EqEq"
	case "!=":
		return "BangEq"
	case "call?":
		return "CallQ"
	case "{":
		return "LBrace"
	case "}":
		return "RBrace"
	case "[":
		return "LBracket"
	case "]":
		return "RBracket"
	case "(":
		return "LParen"
	case ")":
		return "RParen"
	case ":":
		return "Colon"
	case ",":
		return "Comma"
	case "...":
		return "DotDotDot"
	case ".":
		return "Dot"
	case "=":
		return "Equals"
	case ">":
		return "Gt"
	case "<":
		return "Lt"
	case "+":
		return "Plus"
	case "-":
		return "Minus"
	case "*":
		return "Star"
	case "/":
		return "Slash"
	case "%":
		return "Percent"
	}
	if Keywords[t] {
		return string(t[0]-'a'+'A') + t[1:]
	}
	return t
}

// Comment is one `#` comment: its text runs from the `#` up to, not
// including, the line end. Comments are not tokens; [LexComments] returns
// them beside the token slice.
type Comment struct {
	Text  string
	Start diag.Pos
	End   diag.Pos // exclusive
	// Next is the index, in the token slice, of the first token after the
	// comment (the EOF token for a comment that ends the file).
	Next int
}

// MaxErrors bounds the lexical errors Lex collects: it stops after the
// first MaxErrors+1 (so a caller can tell that there were more).
const MaxErrors = 100

// Lex splits src into tokens. file labels the spans of diagnostics. The
// lexical errors are returned (at most MaxErrors+1); when there are any,
// the tokens must not be parsed. The final token is always EOF. Comments
// are skipped.
func Lex(file, src string) ([]Token, diag.List) {
	toks, _, errs := lex(file, src, false)
	return toks, errs
}

// LexComments is [Lex] that also returns the comments, in source order.
func LexComments(file, src string) ([]Token, []Comment, diag.List) {
	toks, comments, errs, _ := lexMax(file, src, true, 0)
	return toks, comments, errs
}

// LexCommentsMax is [LexComments] that stops after max+1 tokens (max > 0):
// over reports a source of more than max tokens, and toks[max] is then
// the first token past the limit (no EOF follows, and the errors and
// comments are those seen so far). It never stores more than max+1
// tokens, whatever the size of src.
func LexCommentsMax(file, src string, max int) (toks []Token, comments []Comment, errs diag.List, over bool) {
	return lexMax(file, src, true, max)
}

// LexCommentsMaxInto is [LexCommentsMax] that appends the tokens to
// buf[:0] when its capacity is enough for src, so that a caller parsing
// many small programs can reuse one token slice.
func LexCommentsMaxInto(buf []Token, file, src string, max int) (toks []Token, comments []Comment, errs diag.List, over bool) {
	return lexMaxInto(buf, file, src, true, max)
}

func lex(file, src string, keep bool) ([]Token, []Comment, diag.List) {
	toks, comments, errs, _ := lexMax(file, src, keep, 0)
	return toks, comments, errs
}

func lexMax(file, src string, keep bool, max int) ([]Token, []Comment, diag.List, bool) {
	return lexMaxInto(nil, file, src, keep, max)
}

func lexMaxInto(buf []Token, file, src string, keep bool, max int) ([]Token, []Comment, diag.List, bool) {
	l := lexState{src: src, line: 1, col: 1}
	var comments []Comment
	// About one token per three bytes in dense code; a sparser source
	// over-reserves a little, a denser one grows once.
	reserve := len(src) / 3
	if max > 0 {
		reserve = min(reserve, max)
	}
	toks := buf[:0]
	if cap(buf) < reserve+16 {
		toks = make([]Token, 0, reserve+16)
	}
	var errs diag.List
	for l.pos < len(src) {
		n, typ := l.match(l.pos)
		if n < 0 {
			// Unlexable run: extend until some pattern matches.
			startPos, startLine, startCol, startOff := l.pos, l.line, l.col, l.off
			for l.pos < len(src) {
				l.advance(runeLen(src, l.pos))
				if l.pos >= len(src) {
					break
				}
				if m, _ := l.match(l.pos); m >= 0 {
					break
				}
			}
			first := firstUnit(src[startPos:])
			msg := "unexpected character: ->" + first + "<- at offset: " + strconv.Itoa(startOff) +
				", skipped " + strconv.Itoa(l.off-startOff) + " characters."
			sp := diag.Span{File: file, Start: diag.Pos{Line: startLine, Col: startCol}, End: diag.Pos{Line: l.line, Col: l.col}}
			if l.line != startLine {
				sp.End = diag.Pos{Line: startLine, Col: startCol + (l.off - startOff)}
			}
			errs = append(errs, diag.New(diag.ELex, sp, msg, HintFor(first)))
			if len(errs) > MaxErrors {
				break // a source of garbage: enough said
			}
			continue
		}
		start := diag.Pos{Line: l.line, Col: l.col}
		text := src[l.pos : l.pos+n]
		if typ == String {
			l.advanceString(n)
		} else {
			l.advance(n)
		}
		if typ == 0 { // whitespace, newline, comment
			if keep && text[0] == '#' {
				comments = append(comments, Comment{Text: text, Start: start, End: diag.Pos{Line: l.line, Col: l.col}, Next: len(toks)})
			}
			continue
		}
		toks = append(toks, Token{Type: typ, Text: text, Start: start, End: diag.Pos{Line: l.line, Col: l.col}})
		if max > 0 && len(toks) > max {
			return toks, comments, errs, true
		}
	}
	toks = append(toks, Token{Type: EOF, Text: "", Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2}})
	return toks, comments, errs, false
}

type lexState struct {
	src       string
	pos       int // byte offset
	off       int // UTF-16 offset
	line, col int
}

// advance moves over n bytes, tracking lines and UTF-16 columns.
func (l *lexState) advance(n int) {
	end := l.pos + n
	for l.pos < end {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.col = 1
			l.off++
			l.pos++
		case c < 0x80:
			l.col++
			l.off++
			l.pos++
		default:
			size := runeLen(l.src, l.pos)
			u := 1
			if size == 4 {
				u = 2
			}
			l.col += u
			l.off += u
			l.pos += size
		}
	}
}

// advanceString is [lexState.advance] over a string literal token, where
// a carriage return not followed by a line feed also ends a line: the
// reference's lexer counts line ends inside a multi-line token with the
// pattern \n|\r\n?, so a raw lone CR inside a literal moves every later
// token to the next line. (Between tokens a lone CR is an E_LEX run, which
// advances the column only.)
func (l *lexState) advanceString(n int) {
	end := l.pos + n
	for l.pos < end {
		if l.src[l.pos] == '\r' && (l.pos+1 >= end || l.src[l.pos+1] != '\n') {
			l.line++
			l.col = 1
			l.off++
			l.pos++
			continue
		}
		next := l.pos + 1
		if l.src[l.pos] >= 0x80 {
			next = l.pos + runeLen(l.src, l.pos)
		}
		l.advance(next - l.pos)
	}
}

func runeLen(s string, i int) int {
	c := s[i]
	switch {
	case c < 0x80:
		return 1
	case c < 0xE0:
		return min(2, len(s)-i)
	case c < 0xF0:
		return min(3, len(s)-i)
	}
	return min(4, len(s)-i)
}

// firstUnit returns the first UTF-16 unit of s as a string (a lone high
// surrogate, WTF-8 encoded, for an astral character).
func firstUnit(s string) string {
	n := runeLen(s, 0)
	if n == 4 {
		r := rune(s[0]&0x07)<<18 | rune(s[1]&0x3F)<<12 | rune(s[2]&0x3F)<<6 | rune(s[3]&0x3F)
		hi := 0xD800 + ((r - 0x10000) >> 10)
		return string([]byte{0xED, byte(0x80 | (hi>>6)&0x3F), byte(0x80 | hi&0x3F)})
	}
	return s[:n]
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// match returns the length and type of the token at byte offset p, type 0
// for skipped text, or -1 when nothing matches.
func (l *lexState) match(p int) (int, Type) {
	s := l.src
	c := s[p]
	switch c {
	case ' ', '\t':
		q := p + 1
		for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
			q++
		}
		return q - p, 0
	case '\n':
		return 1, 0
	case '\r':
		if p+1 < len(s) && s[p+1] == '\n' {
			return 2, 0
		}
		return -1, 0
	case '#':
		q := p + 1
		for q < len(s) && s[q] != '\n' && s[q] != '\r' {
			q++
		}
		return q - p, 0
	case '"':
		return diag.StringLiteralLen(s, p), String
	}
	if c == '-' && p+1 < len(s) && s[p+1] == '>' {
		return 2, Punct
	}
	if (c == '>' || c == '<' || c == '=' || c == '!') && p+1 < len(s) && s[p+1] == '=' {
		return 2, Punct
	}
	if c == 'c' && len(s)-p >= 5 && s[p:p+5] == "call?" {
		return 5, CallQ
	}
	if isLetter(c) {
		q := p + 1
		for q < len(s) && (isLetter(s[q]) || isDigit(s[q])) {
			q++
		}
		w := s[p:q]
		if Keywords[w] {
			if w == "true" || w == "false" || w == "null" {
				return q - p, Literal
			}
			return q - p, Keyword
		}
		return q - p, Ident
	}
	if isDigit(c) {
		return matchNumber(s, p)
	}
	switch c {
	case '.':
		if len(s)-p >= 3 && s[p+1] == '.' && s[p+2] == '.' {
			return 3, Punct
		}
		return 1, Punct
	case '{', '}', '[', ']', '(', ')', ':', ',', '=', '>', '<', '+', '-', '*', '/', '%':
		return 1, Punct
	}
	return -1, 0
}

func matchNumber(s string, p int) (int, Type) {
	q := p
	if s[q] == '0' {
		q++
	} else {
		for q < len(s) && isDigit(s[q]) {
			q++
		}
	}
	intEnd := q
	// FloatLit
	if q < len(s) && s[q] == '.' && q+1 < len(s) && isDigit(s[q+1]) {
		q += 2
		for q < len(s) && isDigit(s[q]) {
			q++
		}
		if q < len(s) && (s[q] == 'e' || s[q] == 'E') {
			r := q + 1
			if r < len(s) && (s[r] == '+' || s[r] == '-') {
				r++
			}
			if r < len(s) && isDigit(s[r]) {
				for r < len(s) && isDigit(s[r]) {
					r++
				}
				q = r
			}
		}
		return q - p, Float
	}
	// IntLit: not followed by '.', a digit, 'e' or 'E'.
	if intEnd < len(s) {
		n := s[intEnd]
		if n == '.' || isDigit(n) || n == 'e' || n == 'E' {
			return -1, 0
		}
	}
	return intEnd - p, Int
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// HintFor returns the hint of an E_LEX run that starts with first: the
// reference's generic hint, or a specific one for the common causes (a
// byte order mark, an unclosed string or bad escape, a lone carriage
// return, single quotes).
func HintFor(first string) string {
	switch first {
	case "\uFEFF":
		return "The file starts with a byte order mark (U+FEFF): save it as UTF-8 without one."
	case "\"":
		return "The string opened here is never closed: add the closing \" (or fix an invalid escape: only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX are allowed)."
	case "\r":
		return "A lone carriage return is not a line break: use \\n or \\r\\n line endings."
	case "'":
		return "Strings use double quotes: write \"...\"."
	case "&":
		return "A0 has no && operator: write and { a: x, b: y } (both truthy)."
	case "|":
		return "A0 has no || operator: write or { a: x, b: y } (either truthy)."
	case "!":
		return "A0 has no ! operator: write not { in: x } (and != for inequality)."
	case "?":
		return "A0 has no ?: operator: write if (cond) { return a } else { return b }, or if { cond: c, then: a, else: b }."
	case ";":
		return "A0 needs no semicolons: end each statement at the end of its line."
	case "`":
		return "A0 has no backtick strings: write str.template { in: \"Hi {name}\", vars: { name: n } }."
	case "$":
		return "A0 has no ${…} interpolation: write str.template { in: \"Hi {name}\", vars: { name: n } }."
	case "@":
		return "A0 has no decorators or @ operator: names are plain, and a function is declared with fn name { … } { … }."
	case "^":
		return "A0 has no ^ operator (xor or power): multiply for a power, `x * x`; compare booleans with != for xor."
	case "~":
		return "A0 has no ~ operator: for text matching use re.test { in: s, pattern: \"…\" }."
	case "\\":
		return "A backslash only escapes inside a string: write \"a\\\\b\" for a literal backslash."
	}
	return "Check for invalid characters or unclosed strings."
}
