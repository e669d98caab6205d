// Package parser parses A0 source into a lang/ast.Program.
//
// Lexing is done by lang/lexer (every E_LEX run is reported); the grammar is
// a participle grammar (grammar.go) whose unexported structs are lowered to
// lang/ast (lower.go). A recursive-descent twin of that grammar (fast.go)
// builds the same structs for valid programs about ten times faster than
// participle's reflective parser; whenever it meets a token it does not
// expect it gives up and participle parses the tokens again (from the
// failing top-level element on), so every diagnostic, and the answer on
// anything the twin does not accept, comes from participle. Tests and a
// fuzz target hold the two to the same AST and the same diagnostics.
// Parse errors are built from participle's typed errors (expect.go) in
// the reference's three message shapes: "Expected <Token> but found
// '<text>'.", "Unexpected token '<text>'." and "Syntax error near '<text>'.".
// Nesting depth is bounded before participle runs, so deeply nested input
// is an E_PARSE diagnostic, never a stack overflow.
package parser

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/value"
)

// MaxNesting is the deepest nesting of brackets, braces, parentheses and
// unary minus signs accepted by the parser.
const MaxNesting = 400

// buildGrammar builds a participle parser for T with the settings every
// grammar here shares: a0's own lexer and no lookahead beyond one token.
func buildGrammar[T any]() *participle.Parser[T] {
	p, err := participle.Build[T](
		participle.Lexer(lexer.Definition{}),
		participle.UseLookahead(0),
	)
	if err != nil {
		panic("a0: building the grammar: " + err.Error())
	}
	return p
}

// theParser is the program grammar; stmtsParser a program past its
// headers (see parseRest). Both are built on first use.
var (
	theParser   = sync.OnceValue(buildGrammar[gProgram])
	stmtsParser = sync.OnceValue(buildGrammar[gStmtsOnly])
)

// gStmtsOnly is a program past its headers (see parseRest).
type gStmtsOnly struct {
	Stmts []*gStmt `parser:"@@*"`
}

// parseRest runs participle on toks from at.elem on, as the rest of a
// program (after its headers when at.stmts), and returns its error.
func parseRest(file string, toks []lexer.Token, at resume) error {
	pl, _ := plexer.Upgrade(lexer.NewStreamFrom(file, toks, at.elem))
	if !at.stmts {
		_, err := theParser().ParseFromLexer(pl)
		return err
	}
	_, err := stmtsParser().ParseFromLexer(pl)
	return err
}

// EBNF returns the grammar in participle's EBNF notation.
func EBNF() string { return theParser().String() }

// Options controls parsing.
type Options struct {
	// DebugParse keeps the parser generator's raw error text in E_PARSE
	// messages instead of the normalised one.
	DebugParse bool
	// Signatures gives the hints of E_PARSE diagnostics the argument names
	// of library functions (nil: none; the runtime passes stdlib.Params).
	Signatures Signatures

	// participleOnly skips the fast parser (tests compare the two).
	participleOnly bool
}

// Parse parses src (already decoded from bytes) labelled file. On failure
// it returns the diagnostics (all E_LEX, or one E_PARSE/E_AST) and a nil
// program.
//
// src is text: bytes that are not UTF-8 are read as U+FFFD, as a0 reads a
// file, so a host passing arbitrary bytes gets the same result as the CLI.
// Its size is bounded (MaxSourceBytes, MaxTokens: E_PARSE beyond), which
// bounds what parsing, checking and compiling it may use.
func Parse(file, src string, opts Options) (*ast.Program, diag.List) {
	prog, ds, _ := parse(file, src, opts)
	return prog, ds
}

// parse is Parse that also reports whether src failed only because it
// ended too early (the first error is at its end).
//
// The frames of parse and of the lowerer's recursion (expr, operand,
// arith) are kept small, their rare forms in functions of their own: a
// small program then parses within the 8 KiB stack a host's goroutine
// usually has, and a fresh process's first compile copies no stack (a
// copy unwinds every frame with cold stack maps and faults in fresh
// stack pages: half of a first compile of a two-line program).
func parse(file, src string, opts Options) (*ast.Program, diag.List, bool) {
	if d := checkSourceSize(file, src); d != nil {
		return nil, diag.List{d}, false
	}
	if !utf8.ValidString(src) {
		src = value.DecodeBytes([]byte(src))
	}
	bp := spareTokens.Swap(nil)
	if bp == nil {
		bp = new([]lexer.Token)
	}
	toks, comments, lexErrs, over := lexer.LexCommentsMaxInto(*bp, file, src, MaxTokens)
	defer releaseTokens(bp, toks)
	if over {
		return nil, diag.List{tooManyTokens(file, toks[MaxTokens])}, false
	}
	if len(lexErrs) > 0 {
		lexErrs = capLexErrors(lexErrs)
		lexHints(src, lexErrs)
		return nil, lexErrs, false
	}
	if d := checkNesting(file, toks); d != nil {
		return nil, diag.List{d}, false
	}
	if !opts.participleOnly {
		prog, d, ok, at := fastParse(&lowerer{file: file, toks: toks, comments: comments})
		if ok {
			if d != nil {
				return nil, diag.List{d}, false
			}
			if d := indexSyntax(file, toks); d != nil {
				return nil, diag.List{d}, false
			}
			return prog, nil, false
		}
		return parseSlow(file, toks, comments, opts, &at)
	}
	return parseSlow(file, toks, comments, opts, nil)
}

// parseSlow is parse where the fast parser gave up (at: where) or was
// skipped (at nil): participle parses, or reports the error. It is a
// function of its own so that parse's frame, on the stack of every
// program's recursive descent, stays small.
//
//go:noinline
func parseSlow(file string, toks []lexer.Token, comments []lexer.Comment, opts Options, atp *resume) (*ast.Program, diag.List, bool) {
	if atp != nil {
		at := *atp
		// Where the fast parser gave up (it may have taken the token
		// it gave up on).
		atEOF := at.tok >= len(toks)-1
		if len(toks)-at.elem > maxParticipleTokens || at.whole && len(toks) > maxParticipleTokens {
			// Too much for participle's memory-hungry error path: the
			// fast parser's own position makes the diagnostic.
			return nil, diag.List{fastError(file, toks, at.tok)}, atEOF
		}
		if !at.whole {
			// Everything before the failing top-level element parsed,
			// and participle would parse it the same way: its error comes
			// from that element on, so only the rest is given to it
			// (large programs with a late mistake stay cheap). Should the
			// rest parse, the whole program is parsed below.
			if err := parseRest(file, toks, at); err != nil {
				d, eof := parseError(file, toks, err, opts), errAtEOF(toks, err)
				return nil, diag.List{d}, eof
			}
			if len(toks) > maxParticipleTokens {
				return nil, diag.List{fastError(file, toks, at.tok)}, atEOF
			}
		}
	}
	g, err := theParser().ParseFromLexer(participleLexer(file, toks).peeking())
	if err != nil {
		return nil, diag.List{parseError(file, toks, err, opts)}, errAtEOF(toks, err)
	}
	lw := lowerer{file: file, toks: toks, comments: comments}
	prog, d := lw.program(g)
	if d == nil {
		d = indexSyntax(file, toks)
	}
	if d != nil {
		return nil, diag.List{d}, false
	}
	return prog, nil, false
}

// spareTokens keeps one token slice between parses: nothing of a parse
// keeps its tokens (the tree and the diagnostics copy what they need), so
// a small program's tokens need no allocation (concurrent parses make
// their own).
var spareTokens atomic.Pointer[[]lexer.Token]

// maxSpareTokens bounds the token slice kept in spareTokens.
const maxSpareTokens = 512

// releaseTokens clears toks (so that the spare holds no source text) and
// keeps it in bp as the spare, when it is small enough.
func releaseTokens(bp *[]lexer.Token, toks []lexer.Token) {
	if cap(toks) > maxSpareTokens {
		return
	}
	clear(toks)
	*bp = toks[:0]
	spareTokens.Store(bp)
}

func checkNesting(file string, toks []lexer.Token) *diag.Diagnostic {
	depth := 0
	for i := range toks {
		t := &toks[i]
		if t.Type != lexer.Punct {
			continue
		}
		switch t.Text {
		case "{", "[", "(":
			depth++
		case "}", "]", ")":
			depth--
			continue
		case "-":
			// A run of unary minus signs nests as deep as its length.
			run := 1
			for j := i - 1; j >= 0 && toks[j].Type == lexer.Punct && toks[j].Text == "-"; j-- {
				run++
			}
			if depth+run <= MaxNesting {
				continue
			}
		default:
			continue
		}
		if depth > MaxNesting || t.Text == "-" {
			sp := diag.Span{File: file, Start: t.Start, End: t.End}
			return diag.New(diag.EParse, sp,
				"Nesting too deep: more than "+strconv.Itoa(MaxNesting)+" levels of brackets, braces, parentheses or unary minus.",
				"Split the expression into several let statements.")
		}
	}
	return nil
}

func participleLexer(file string, toks []lexer.Token) *lexerAdapter {
	return &lexerAdapter{s: lexer.NewStream(file, toks)}
}

// parseError converts a participle error into an E_PARSE diagnostic. Its
// position, found text and message come from participle's typed error and
// the token stream; what participle expected is read by expectationOf.
func parseError(file string, toks []lexer.Token, err error, opts Options) *diag.Diagnostic {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return &diag.Diagnostic{Code: diag.EParse, Message: err.Error(), Hint: genericHint}
	}
	if os.Getenv("A0_PARSE_TRACE") != "" {
		fmt.Fprintln(os.Stderr, "participle:", err)
	}
	idx := perr.Position().Offset
	if idx < 0 || idx >= len(toks) {
		idx = len(toks) - 1
	}
	var exp expectation
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		exp = expectationOf(ute)
	}
	if exp.choice() && idx > 0 && toks[idx-1].Type == lexer.Keyword && toks[idx-1].Text == "if" {
		// `if` followed by neither `(` nor `{`: the reference reports no
		// viable alternative at the `if` itself.
		idx--
	}
	tok := toks[idx]
	found := tok.Text
	if tok.Type == lexer.EOF {
		found = "<EOF>"
	}
	sp := diag.Span{File: file, Start: tok.Start, End: tok.End}
	expected := exp.token()
	var msg string
	switch {
	case opts.DebugParse:
		msg = debugMessage(ute, exp, tok)
	case ute == nil:
		msg = "Unexpected token '" + found + "'."
	case !exp.has:
		msg = "Syntax error near '" + found + "'."
	case expected != "":
		msg = "Expected " + expected + " but found '" + found + "'."
	default:
		msg = "Unexpected token '" + found + "'."
	}
	return diag.New(diag.EParse, sp, msg, syntaxHint(toks, idx, expected, opts.Signatures))
}

// debugMessage is the --debug-parse message: participle's view of the
// error in the reference's raw wording.
func debugMessage(ute *participle.UnexpectedTokenError, exp expectation, tok lexer.Token) string {
	text := tok.Text
	if ute != nil && !exp.has {
		return "Redundant input, expecting EOF but found: " + text
	}
	if expected := exp.token(); expected != "" {
		return "Expecting token of type --> " + expected + " <-- but found --> '" + text + "' <--"
	}
	return "Expecting: one of these possible Token sequences:\n  1. " + exp.text + "\nbut found: '" + text + "'"
}

type lexerAdapter struct{ s *lexer.Stream }

func (a *lexerAdapter) peeking() *plexer.PeekingLexer {
	pl, _ := plexer.Upgrade(a.s)
	return pl
}
