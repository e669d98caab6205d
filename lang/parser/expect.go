package parser

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"

	"github.com/a0lang/a0/lang/lexer"
)

// What participle expected where a parse failed, read from its typed
// error. participle's UnexpectedTokenError carries the unexpected token and
// the rest of the sequence it was parsing, in its own EBNF notation; the
// message a user reads depends only on the first term of that sequence
// (firstTerm). A production (a grammar struct) is named there after its Go
// type; productionHeads turns it into a token name through a table keyed
// by the type itself, so renaming a grammar struct cannot change a
// diagnostic.

// expectation is what participle expected at a syntax error.
type expectation struct {
	// has is whether participle named what it expected. It does not when
	// input remains after a complete program, or when no alternative of a
	// choice matched its first token.
	has bool
	// text is the expected rest of the sequence in participle's EBNF
	// (shown by --debug-parse).
	text string
	// head is the first term of text.
	head term
}

// term is one term of participle's EBNF: a literal token ("{"), a token
// class (<ident>), a production (GBlock) or a parenthesised group, any of
// them negated (~).
type term struct {
	negated bool
	literal string // unquoted
	class   string // "ident" for <ident>
	name    string // production name
	group   bool
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

// firstTerm reads the first term of an EBNF sequence as participle writes
// it (literals Go-quoted, token classes in angle brackets, productions by
// name, groups in parentheses); the zero term when text starts with none.
func firstTerm(text string) term {
	var t term
	if rest, ok := strings.CutPrefix(text, "~"); ok {
		t.negated, text = true, rest
	}
	switch {
	case text == "":
		return term{}
	case text[0] == '"':
		q, err := strconv.QuotedPrefix(text)
		if err != nil {
			return term{}
		}
		t.literal, _ = strconv.Unquote(q)
	case text[0] == '<':
		j := strings.IndexByte(text, '>')
		if j < 0 {
			return term{}
		}
		t.class = text[1:j]
	case text[0] == '(':
		t.group = true
	default:
		j := 0
		for j < len(text) && (text[j] == '_' || 'a' <= text[j] && text[j] <= 'z' || 'A' <= text[j] && text[j] <= 'Z' || '0' <= text[j] && text[j] <= '9') {
			j++
		}
		if j == 0 {
			return term{}
		}
		t.name = text[:j]
	}
	return t
}

// token returns the name of the one token the expectation starts with
// ("Ident", "LBrace", …), or "" when it may start with several.
func (e expectation) token() string {
	t := e.head
	switch {
	case t.negated:
		return ""
	case t.literal != "":
		return lexer.TokenName(t.literal)
	case t.class != "":
		return tokenClassNames[t.class]
	case t.name != "":
		return headTokens()[t.name]
	}
	return ""
}

// choice reports whether the expectation starts with a choice of
// alternatives (a parenthesised group).
func (e expectation) choice() bool { return e.head.group && !e.head.negated }

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
