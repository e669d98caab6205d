package parser

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/ebnf"

	"github.com/a0lang/a0/lang/lexer"
)

// grammarEBNF is the program grammar read back as a tree.
func grammarEBNF(t *testing.T) map[string]*ebnf.Expression {
	t.Helper()
	g, err := ebnf.ParseString(EBNF())
	if err != nil {
		t.Fatalf("participle's EBNF of the grammar does not read back: %v", err)
	}
	prods := map[string]*ebnf.Expression{}
	for _, p := range g.Productions {
		prods[p.Production] = p.Expression
	}
	return prods
}

// expectableNames collects the productions that participle can name as
// the head of what it expected: those in a sequence after its first term
// (a sequence failing on its first term is not an error of its own) and
// not optional (a term under * or ? matches nothing rather than fail).
func expectableNames(e *ebnf.Expression, into map[string]bool) {
	for _, seq := range e.Alternatives {
		for i, term := range seq.Terms {
			if term.Name != "" && i > 0 && term.Repetition != "*" && term.Repetition != "?" {
				into[term.Name] = true
			}
			if term.Group != nil {
				expectableNames(term.Group.Expr, into)
			}
		}
	}
}

// Every production participle can report as expected has an entry in
// productionHeads, so what a user reads never depends on a grammar
// struct's name.
func TestProductionHeadsCoverGrammar(t *testing.T) {
	prods := grammarEBNF(t)
	names := map[string]bool{}
	for _, e := range prods {
		expectableNames(e, names)
	}
	if len(names) < 5 {
		t.Fatalf("only %d expectable productions found: %v", len(names), names)
	}
	heads := headTokens()
	for n := range names {
		if _, ok := heads[n]; !ok {
			t.Errorf("production %s can be expected but has no entry in productionHeads", n)
		}
	}
	for n := range heads {
		if prods[n] == nil {
			t.Errorf("productionHeads names %s, which is not a production of the grammar", n)
		}
	}
}

// Each token in productionHeads is the one token its production starts
// with.
func TestProductionHeadsAreFirstTokens(t *testing.T) {
	prods := grammarEBNF(t)
	for typ, want := range productionHeads {
		e := prods[productionName(typ)]
		if e == nil || want == "" {
			continue
		}
		if len(e.Alternatives) != 1 {
			t.Errorf("%s: %d alternatives, so no single first token (table says %s)", typ.Name(), len(e.Alternatives), want)
			continue
		}
		first := e.Alternatives[0].Terms[0]
		got := ""
		switch {
		case first.Literal != "":
			s, _ := strconv.Unquote(first.Literal)
			got = lexer.TokenName(s)
		case first.Token != "":
			got = tokenClassNames[first.Token]
		}
		if first.Repetition != "" || got != want {
			t.Errorf("%s starts with %s, table says %s", typ.Name(), first, want)
		}
	}
}

// The name a production has in participle's EBNF follows from its Go type
// (productionName), for every grammar struct in productionHeads.
func TestProductionNameMatchesParticiple(t *testing.T) {
	prods := grammarEBNF(t)
	for typ := range productionHeads {
		if prods[productionName(typ)] == nil {
			t.Errorf("type %s: participle has no production %s", typ, productionName(typ))
		}
	}
	if got := productionName(reflect.TypeFor[gBlock]()); got != "GBlock" {
		t.Errorf("productionName(gBlock) = %q", got)
	}
}

// expectationOf reads participle's typed error: what it expected, its
// first token, and whether it expected anything at all.
func TestExpectationOf(t *testing.T) {
	tests := []struct {
		src, text, token string
		has, choice      bool
	}{
		{src: "let x", text: `"=" GExpr`, token: "Equals", has: true},
		{src: "let = 1", text: `<ident> "=" GExpr`, token: "Ident", has: true},
		{src: "for x", token: "LBrace", has: true},
		{src: "import lib", text: `GImport`, token: "StringLit", has: true},
		{src: "if x", has: true, choice: true},
		{src: "let x = 1 + ", has: true, choice: true},
		{src: "return { a: 1 } }", has: false},
	}
	for _, tc := range tests {
		toks, _ := lexer.Lex("t.a0", tc.src)
		_, err := theParser().ParseFromLexer(participleLexer("t.a0", toks).peeking())
		var ute *participle.UnexpectedTokenError
		if !errors.As(err, &ute) {
			t.Errorf("%q: error %v is not an UnexpectedTokenError", tc.src, err)
			continue
		}
		e := expectationOf(ute)
		if e.has != tc.has || e.choice() != tc.choice || e.token() != tc.token || (tc.text != "" && e.text != tc.text) {
			t.Errorf("%q: expectation %+v (token %q, choice %v), want has %v text %q token %q choice %v",
				tc.src, e, e.token(), e.choice(), tc.has, tc.text, tc.token, tc.choice)
		}
		if e.has && e.head == (term{}) {
			t.Errorf("%q: expected text %q has no first term", tc.src, e.text)
		}
	}
}

// firstTerm reads the first term of every rest of a sequence participle
// can report (each sequence of the grammar from its second term on) as
// participle's own EBNF reader does.
func TestFirstTermAgreesWithEBNF(t *testing.T) {
	prods := grammarEBNF(t)
	n := 0
	var walk func(e *ebnf.Expression)
	walk = func(e *ebnf.Expression) {
		for _, seq := range e.Alternatives {
			for i, tm := range seq.Terms {
				if tm.Group != nil {
					walk(tm.Group.Expr)
				}
				if i == 0 {
					continue
				}
				parts := make([]string, 0, len(seq.Terms)-i)
				for _, r := range seq.Terms[i:] {
					parts = append(parts, r.String())
				}
				rest := strings.Join(parts, " ")
				var want term
				want.negated = tm.Negation
				switch {
				case tm.Literal != "":
					want.literal, _ = strconv.Unquote(tm.Literal)
				case tm.Token != "":
					want.class = tm.Token
				case tm.Name != "":
					want.name = tm.Name
				case tm.Group != nil:
					want.group = true
				}
				if got := firstTerm(rest); got != want {
					t.Errorf("firstTerm(%q) = %+v, want %+v", rest, got, want)
				}
				n++
			}
		}
	}
	for _, e := range prods {
		walk(e)
	}
	if n < 30 {
		t.Errorf("only %d sequence rests checked", n)
	}
	for _, bad := range []string{"", "<ident", `"unclosed`, "+"} {
		if got := firstTerm(bad); got != (term{}) {
			t.Errorf("firstTerm(%q) = %+v, want none", bad, got)
		}
	}
}
