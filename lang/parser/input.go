package parser

import (
	"errors"
	"strconv"

	"github.com/alecthomas/participle/v2"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

// Compile-time bounds (spec/language.md, spec/security.md). Every way a0
// reads a program — a0 run, check and fmt, the REPL, each MCP tool, the
// embedding API — parses it here, so these bound the memory and time of
// parsing, checking and compiling one program: tokens, syntax tree and
// compiled code all grow with the token count.
const (
	// MaxSourceBytes is the largest program source accepted, in bytes.
	MaxSourceBytes = 4 << 20
	// MaxTokens is the largest number of tokens a program may have.
	MaxTokens = 100_000
	// maxParticipleTokens bounds the input given to participle (which
	// needs about 1 KiB and 5 µs per token) to build a syntax error's
	// diagnostic; past it the fast parser's own position is reported.
	maxParticipleTokens = 20_000
)

// capLexErrors keeps the first lexer.MaxErrors diagnostics; the last one
// kept says that more follow.
func capLexErrors(ds diag.List) diag.List {
	if len(ds) <= lexer.MaxErrors {
		return ds
	}
	out := append(diag.List(nil), ds[:lexer.MaxErrors]...)
	last := *out[lexer.MaxErrors-1]
	last.Hint += " (More lexical errors follow; they are not shown.)"
	out[lexer.MaxErrors-1] = &last
	return out
}

const sizeHint = "Keep programs small: read large data at run time (fs.read, parse.json) instead of writing it into the source, or split the work into several programs."

func checkSourceSize(file, src string) *diag.Diagnostic {
	if len(src) <= MaxSourceBytes {
		return nil
	}
	return TooLarge(file, int64(len(src)))
}

// TooLarge is the E_PARSE of a source of n bytes, more than
// MaxSourceBytes: what Parse reports for it. A reader that stops reading
// past the limit (so that a huge file never sits in memory) reports it
// itself with the size it found.
func TooLarge(file string, n int64) *diag.Diagnostic {
	sp := diag.Span{File: file, Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2}}
	return diag.New(diag.EParse, sp,
		"Program too large: "+strconv.FormatInt(n, 10)+" bytes, more than the limit of "+strconv.Itoa(MaxSourceBytes)+" bytes.", sizeHint)
}

// tooManyTokens is the E_PARSE of a source of more than MaxTokens
// tokens; t is the first token past the limit. The lexer stops there
// (lexer.LexCommentsMax), so no more than MaxTokens+1 tokens are ever
// stored, and a source under the limit is lexed once.
func tooManyTokens(file string, t lexer.Token) *diag.Diagnostic {
	sp := diag.Span{File: file, Start: t.Start, End: t.End}
	return diag.New(diag.EParse, sp,
		"Program too large: more than the limit of "+strconv.Itoa(MaxTokens)+" tokens.", sizeHint)
}

// fastError is the diagnostic of a syntax error found by the fast parser
// at toks[i], for inputs too large for participle's error path. It has
// the shape of participle's diagnostics for an unexpected token.
func fastError(file string, toks []lexer.Token, i int) *diag.Diagnostic {
	if i < 0 || i >= len(toks) {
		i = len(toks) - 1
	}
	t := toks[i]
	found := t.Text
	if t.Type == lexer.EOF {
		found = "<EOF>"
	}
	sp := diag.Span{File: file, Start: t.Start, End: t.End}
	return diag.New(diag.EParse, sp, "Unexpected token '"+found+"'.", "Check syntax near this location.")
}

// errAtEOF reports whether participle's error is at the final EOF token.
func errAtEOF(toks []lexer.Token, err error) bool {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return false
	}
	i := perr.Position().Offset
	return i < 0 || i >= len(toks)-1
}

// ParseInput parses one input of a session as Parse does, and reports
// whether the text is incomplete: its first error is at its very end (an
// open brace, bracket or parenthesis, an operator or keyword waiting for
// what follows), so more lines may complete it. An unterminated string is
// not incomplete: a string literal cannot hold a raw line break, so no
// further line can complete it.
func ParseInput(file, src string, opts Options) (prog *ast.Program, ds diag.List, incomplete bool) {
	return parse(file, src, opts)
}

// MayEnd reports whether a program can end with the token last (prev
// being the one before it): an identifier, a literal, a closing bracket,
// or a keyword used as a path component (`x.do`). A text whose brackets
// are balanced and whose last token may end a program must be parsed to
// know whether it is complete; any other text is incomplete or wrong.
func MayEnd(prev, last lexer.Token) bool {
	switch last.Type {
	case lexer.Ident, lexer.Int, lexer.Float, lexer.String, lexer.Literal:
		return true
	case lexer.Keyword:
		return prev.Type == lexer.Punct && prev.Text == "."
	case lexer.Punct:
		return last.Text == "}" || last.Text == "]" || last.Text == ")"
	case 0:
		return true // no token at all: an empty program
	}
	return false
}
