package lexer

import (
	"strings"

	"github.com/a0lang/a0/lang/diag"
)

// Scanner lexes a text that grows by whole lines, as a REPL reads it, and
// keeps what deciding "is this input finished?" needs: the bracket depth,
// whether the text ends inside a string literal, the number of tokens and
// the last two of them. Each line is lexed once (an open string's scan
// resumes where it stopped), so feeding n bytes costs O(n) in all.
//
// Lines are joined with "\n". Since a newline ends every token but a
// string, and a string's scan is resumed, the tokens are exactly those
// Lex finds in the joined text.
type Scanner struct {
	b      strings.Builder
	l      lexState
	lines  int
	tokens int
	depth  int
	failed bool
	// An open string: the offset of its quote and where its scan resumes
	// (-1 when none).
	str, strQ  int
	prev, last Token
	limit      int // stop after this many tokens (0: no limit)
}

// TokenPast returns the token after the first max tokens of src when src
// has more than max, scanning without keeping tokens (so a huge source can
// be refused before Lex allocates its tokens). Like Lex it goes on after
// a lexical error (an unlexable character or a bad string is skipped a
// character at a time), so it counts at least the tokens Lex would store.
func TokenPast(src string, max int) (Token, bool) {
	s := scanText(src, max+1)
	return s.last, s.tokens > max
}

// EndsInString reports whether src's first lexical error is a string
// literal still open at the end of src (more text could close it).
func EndsInString(src string) bool {
	return scanText(src, 0).InString()
}

// scanText scans a whole text in place (without copying it).
func scanText(src string, limit int) *Scanner {
	s := &Scanner{l: lexState{src: src, line: 1, col: 1}, lines: 1, str: -1, limit: limit}
	s.scan()
	return s
}

// AddLine appends one line (without its line ending) to the text.
func (s *Scanner) AddLine(line string) {
	if s.lines == 0 {
		s.l = lexState{line: 1, col: 1}
		s.str = -1
	} else {
		s.b.WriteByte('\n')
	}
	s.lines++
	s.b.WriteString(line)
	s.l.src = s.b.String()
	s.scan()
}

// Text returns the text so far.
func (s *Scanner) Text() string { return s.b.String() }

// Len returns the length of the text in bytes.
func (s *Scanner) Len() int { return s.b.Len() }

// Tokens returns the number of tokens so far (an open string not counted).
func (s *Scanner) Tokens() int { return s.tokens }

// Depth returns the number of open braces, brackets and parentheses minus
// the closed ones.
func (s *Scanner) Depth() int { return s.depth }

// InString reports whether the text ends inside a string literal that
// more text could still close (an unterminated string, not a bad escape).
func (s *Scanner) InString() bool { return !s.Failed() && s.str >= 0 }

// Failed reports a lexical error before the end of the text (characters
// no token matches, or a string with an invalid escape): the text is
// wrong whatever follows. Lex reports the diagnostics.
// A carriage return ending the text counts as an error until a next line
// pairs it with its newline.
func (s *Scanner) Failed() bool {
	return s.failed || s.str < 0 && s.l.pos == len(s.l.src)-1 && s.l.src[s.l.pos] == '\r'
}

// Last returns the last two tokens (Type 0 where there are fewer).
func (s *Scanner) Last() (prev, last Token) { return s.prev, s.last }

func (s *Scanner) scan() {
	l := &s.l
	src := l.src
	for !s.failed && l.pos < len(src) && (s.limit == 0 || s.tokens < s.limit) {
		if s.str < 0 && src[l.pos] == '"' {
			s.str, s.strQ = l.pos, l.pos+1
		}
		if s.str >= 0 {
			end, q := scanString(src, s.strQ)
			switch {
			case end > 0:
				s.emit(String, end-l.pos)
				s.str = -1
			case s.limit > 0:
				// Counting: Lex skips the quote and lexes on.
				s.str = -1
				l.advance(1)
			case q < 0:
				s.failed = true
			default:
				s.strQ = q
				return
			}
			continue
		}
		if src[l.pos] == '\r' && l.pos == len(src)-1 && s.limit == 0 {
			return // a CR that the next line's "\n" may pair with
		}
		n, typ := l.match(l.pos)
		if n < 0 {
			if s.limit > 0 {
				// Counting: Lex goes on after an unlexable character.
				l.advance(runeLen(src, l.pos))
				continue
			}
			s.failed = true
			return
		}
		if typ == 0 {
			l.advance(n)
			continue
		}
		s.emit(typ, n)
	}
}

func (s *Scanner) emit(typ Type, n int) {
	l := &s.l
	start := diag.Pos{Line: l.line, Col: l.col}
	text := l.src[l.pos : l.pos+n]
	if typ == String {
		l.advanceString(n) // a lone CR inside ends a line, as in Lex
	} else {
		l.advance(n)
	}
	t := Token{Type: typ, Text: text, Start: start, End: diag.Pos{Line: l.line, Col: l.col}}
	s.prev, s.last = s.last, t
	s.tokens++
	if typ == Punct {
		switch text {
		case "{", "[", "(":
			s.depth++
		case "}", "]", ")":
			s.depth--
		}
	}
}

// scanString continues diag.StringLiteralLen's scan of a string literal at q (a
// point between escapes). It returns the end of the literal (after its
// closing quote) when it closes; else end is 0 and q is where the scan
// resumes once more text arrives, or -1 for an invalid escape.
func scanString(s string, q int) (end, next int) {
	for q < len(s) {
		switch s[q] {
		case '"':
			return q + 1, q
		case '\\':
			if q+1 >= len(s) {
				return 0, q
			}
			switch s[q+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				q += 2
			case 'u':
				for i := q + 2; i < q+6; i++ {
					if i >= len(s) {
						return 0, q // the escape may still be completed
					}
					if !isHex(s[i]) {
						return 0, -1
					}
				}
				q += 6
			default:
				return 0, -1
			}
		default:
			q++
		}
	}
	return 0, q
}
