package parser

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/ebnf"

	"github.com/a0lang/a0/lang/lexer"
)

// What participle expected where a parse failed, read from its typed
// error. participle's UnexpectedTokenError carries the unexpected token and
// the rest of the sequence it was parsing (in its own EBNF notation); the
// message a user reads depends only on the first term of that sequence,
// which ebnf.Parse reads as a tree. A production (a grammar struct) is
// named there after its Go type; headTokens turns it into a token name
// through a table keyed by the type itself, so renaming a grammar struct
// cannot change a diagnostic.

// expectation is what participle expected at a syntax error.
type expectation struct {
	// has is whether participle named what it expected. It does not when
	// input remains after a complete program, or when no alternative of a
	// choice matched its first token.
	has bool
	// text is the expected rest of the sequence in participle's EBNF
	// (shown by --debug-parse).
	text string
	// head is the first term of text; nil when text does not read as EBNF.
	head *ebnf.Term
}

// expectationOf reads what ute expected.
func expectationOf(ute *participle.UnexpectedTokenError) expectation {
	text := ute.Expect
	if text == "" {
		// participle keeps the expected node unexported and spells it only
		// in Message(): "unexpected token <q> (expected <EBNF>)".
		rest := strings.TrimPrefix(ute.Message(), fmt.Sprintf("unexpected token %q", ute.Unexpected))
		if !strings.HasPrefix(rest, " (expected ") || !strings.HasSuffix(rest, ")") {
			return expectation{}
		}
		text = rest[len(" (expected ") : len(rest)-1]
	}
	return expectation{has: true, text: text, head: firstTerm(text)}
}

// firstTerm returns the first term of the EBNF sequence text, or nil.
func firstTerm(text string) *ebnf.Term {
	g, err := ebnf.ParseString("X = " + text + " .")
	if err != nil || len(g.Productions) != 1 {
		return nil
	}
	alts := g.Productions[0].Expression.Alternatives
	if len(alts) == 0 || alts[0].Terms == nil || len(alts[0].Terms) == 0 {
		return nil
	}
	return alts[0].Terms[0]
}

// token returns the name of the one token the expectation starts with
// ("Ident", "LBrace", …), or "" when it may start with several.
func (e expectation) token() string {
	t := e.head
	if t == nil || t.Negation {
		return ""
	}
	switch {
	case t.Literal != "":
		s, err := strconv.Unquote(t.Literal)
		if err != nil {
			return ""
		}
		return lexer.TokenName(s)
	case t.Token != "":
		return tokenClassNames[t.Token]
	case t.Name != "":
		return headTokens()[t.Name]
	}
	return ""
}

// choice reports whether the expectation starts with a choice of
// alternatives (a parenthesised group).
func (e expectation) choice() bool {
	return e.head != nil && !e.head.Negation && e.head.Group != nil
}

// tokenClassNames names the token classes (participle's <ident>, …) whose
// expectation is reported as one token.
var tokenClassNames = map[string]string{
	"ident":  "Ident",
	"string": "StringLit",
}

// productionHeads maps each grammar struct that may be expected to the
// one token it starts with, "" when it may start with several (the
// message is then "Unexpected token"). A test checks that every
// production participle can name as expected is here, and that each
// token is the first of its production.
var productionHeads = map[reflect.Type]string{
	reflect.TypeFor[gBlock]():     "LBrace",
	reflect.TypeFor[gRecord]():    "LBrace",
	reflect.TypeFor[gList]():      "LBracket",
	reflect.TypeFor[gArm]():       "Ident",
	reflect.TypeFor[gIdentPath](): "Ident",
	reflect.TypeFor[gImport]():    "StringLit",
	reflect.TypeFor[gEntry]():     "",
	reflect.TypeFor[gExpr]():      "",
	reflect.TypeFor[gArith]():     "",
	reflect.TypeFor[gOperand]():   "",
}

// productionName is the name participle gives the production of type t in
// its EBNF: the type's name with its first letter upper-cased.
func productionName(t reflect.Type) string {
	n := t.Name()
	return strings.ToUpper(n[:1]) + n[1:]
}

// headTokens is productionHeads keyed by production name.
var headTokens = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(productionHeads))
	for t, tok := range productionHeads {
		m[productionName(t)] = tok
	}
	return m
})
