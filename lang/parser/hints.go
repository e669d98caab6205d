package parser

import (
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

// Hints of E_PARSE diagnostics (spec/diagnostics.md "Hints for habits of
// other languages"). The code, message
// and span of a syntax error are the reference's; the hint is a0's own and
// names the fix for the mistakes that habits from other languages cause:
// assignment, const/var, arrow functions, `function`, calls with
// parentheses, blocks after a call, `===`, `else if`, `while`, quoted
// record keys, and unclosed brackets (with where they were opened).

// genericHint is the hint when no specific cause is recognised.
const genericHint = "Check the syntax near this location; `a0 help syntax` lists every form."

// Signatures looks up the argument names of a library function, which
// hints use to show a call's record form (`len { in: … }`); ok is false for
// a name it does not know. lang cannot import the library itself: the
// runtime passes stdlib.Params in [Options].Signatures. A nil Signatures
// knows no names (hints then show `name { name: value }`).
type Signatures func(name string) (params []string, ok bool)

// callForm returns `name { p1: …, p2: … }` with the function's real
// parameter names: a user function's from its `fn` declaration in toks, a
// stdlib function's from sigs. args, when given, are
// the source texts of positional arguments written in parentheses.
func callForm(toks []lexer.Token, name string, args []string, sigs Signatures) string {
	ps, ok := fnParams(toks, name)
	if !ok && sigs != nil {
		ps, ok = sigs(name)
	}
	if ok && len(ps) == 0 && len(args) == 0 {
		return name + " {}"
	}
	if !ok || len(ps) == 0 {
		if len(args) == 0 {
			return name + " { name: value }"
		}
		return name + " { name: " + args[0] + " }"
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		v := "…"
		if i < len(args) {
			v = args[i]
		}
		parts[i] = p + ": " + v
	}
	return name + " { " + strings.Join(parts, ", ") + " }"
}

// fnParams finds `fn name { p, … }` in toks.
func fnParams(toks []lexer.Token, name string) ([]string, bool) {
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].Type != lexer.Keyword || toks[i].Text != "fn" || toks[i+1].Text != name || toks[i+2].Text != "{" {
			continue
		}
		var ps []string
		for j := i + 3; j < len(toks) && toks[j].Text != "}"; j++ {
			if toks[j].Type == lexer.Ident {
				ps = append(ps, toks[j].Text)
			}
		}
		return ps, true
	}
	return nil, false
}

func at(t lexer.Token) string {
	return "line " + strconv.Itoa(t.Start.Line) + ", column " + strconv.Itoa(t.Start.Col)
}

func adjacent(a, b lexer.Token) bool { return a.End == b.Start }

var closerOf = map[string]string{"{": "}", "[": "]", "(": ")"}

// openers returns the indexes of the brackets still open before toks[idx].
func openers(toks []lexer.Token, idx int) []int {
	var st []int
	for i := 0; i < idx && i < len(toks); i++ {
		if toks[i].Type != lexer.Punct {
			continue
		}
		switch toks[i].Text {
		case "{", "[", "(":
			st = append(st, i)
		case "}", "]", ")":
			if len(st) > 0 {
				st = st[:len(st)-1]
			}
		}
	}
	return st
}

// pathStart returns the index of the first token of the identifier path
// that ends at toks[end] (`a.b.c`), or -1 when toks[end] ends none.
func pathStart(toks []lexer.Token, end int) int {
	if end < 0 || toks[end].Type != lexer.Ident && toks[end].Type != lexer.Keyword {
		return -1
	}
	i := end
	for i >= 2 && toks[i-1].Text == "." && (toks[i-2].Type == lexer.Ident || toks[i-2].Type == lexer.Keyword) {
		i -= 2
	}
	if toks[i].Type != lexer.Ident {
		return -1
	}
	return i
}

func text(toks []lexer.Token, from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		if i > from && !adjacent(toks[i-1], toks[i]) {
			b.WriteByte(' ')
		}
		b.WriteString(toks[i].Text)
	}
	return b.String()
}

// splitArgs returns the source texts of the comma-separated arguments
// between the parenthesis at open and its closer (nil when it is not
// closed).
func splitArgs(toks []lexer.Token, open int) []string {
	var out []string
	depth, start := 0, open+1
	for i := open; i < len(toks); i++ {
		switch toks[i].Text {
		case "{", "[", "(":
			depth++
		case "}", "]", ")":
			depth--
			if depth == 0 {
				if i > start {
					out = append(out, text(toks, start, i))
				}
				return out
			}
		case ",":
			if depth == 1 {
				out = append(out, text(toks, start, i))
				start = i + 1
			}
		}
	}
	return nil
}

// syntaxHint names the fix for the syntax error at toks[idx]; expected is
// the token the parser expected ("" when several were possible).
func syntaxHint(toks []lexer.Token, idx int, expected string, sigs Signatures) string {
	if h := hintAt(toks, idx, expected, sigs); h != "" {
		return h
	}
	if h := habitBefore(toks, idx); h != "" {
		return h
	}
	if expected != "" {
		if name := tokenText(expected); name != "" {
			return "Insert '" + name + "' here, or check the syntax just before it; `a0 help syntax` lists every form."
		}
	}
	return genericHint
}

// tokenText is the source text of the reference's token name.
func tokenText(name string) string {
	for _, t := range []string{"->", ">=", "<=", "==", "!=", "{", "}", "[", "]", "(", ")", ":", ",", "...", ".", "=", "else", "catch", "as"} {
		if lexer.TokenName(t) == name {
			return t
		}
	}
	return ""
}

// immutableHint explains that name cannot be assigned.
func immutableHint(name string) string {
	if name == "" || strings.ContainsAny(name, " .") {
		name = "x"
	}
	return "Bindings are immutable (A0 has no assignment): bind a new name instead, `let " + name + "2 = …`, or `expr -> " + name + "2` after a statement."
}

// hintAt recognises the mistake from the failing token and its
// neighbours. The sections are tried in order; the first whose pattern
// matches decides, and when it has no hint (a stray '=' that none of the
// assignment habits explains) the open brackets are looked at instead.
func hintAt(toks []lexer.Token, idx int, expected string, sigs Signatures) string {
	s := newHintSite(toks, idx, expected, sigs)
	for _, section := range [...]func(hintSite) (string, bool){regexLiteralHint, indexingHint, literalMethodHint, assignmentHint, keywordHint, commentHint, keywordFormHint, parenCallHint, formHint} {
		if h, ok := section(s); ok {
			if h != "" {
				return h
			}
			break
		}
	}
	return bracketHint(toks, idx, expected, sigs)
}

// hintSite is a syntax error's failing token, its neighbours, and the
// token the parser expected there ("" when several were possible).
type hintSite struct {
	toks          []lexer.Token
	idx           int
	t, prev, next lexer.Token
	expected      string
	sigs          Signatures
}

func newHintSite(toks []lexer.Token, idx int, expected string, sigs Signatures) hintSite {
	s := hintSite{toks: toks, idx: idx, t: toks[idx], expected: expected, sigs: sigs}
	if idx > 0 {
		s.prev = toks[idx-1]
	}
	if idx+1 < len(toks) {
		s.next = toks[idx+1]
	}
	return s
}

// literalMethodHint: `[1, 2].length`, `"abc".toUpperCase()`, a method or
// property of another language on a literal or a bracketed expression
// (on a name, `xs.length` parses as a path and fails at run time with
// its own hint).
func literalMethodHint(s hintSite) (string, bool) {
	toks, idx, t, prev := s.toks, s.idx, s.t, s.prev
	if t.Text != "." || idx == 0 || s.next.Type != lexer.Ident || prev.End != t.Start {
		return "", false
	}
	fn, ok := methods[s.next.Text]
	if !ok {
		return "", false
	}
	start := idx - 1
	switch prev.Text {
	case "]", ")", "}":
		if start = matchingOpen(toks, idx-1); start < 0 {
			return "", false
		}
	default:
		if prev.Type != lexer.String && prev.Type != lexer.Int && prev.Type != lexer.Float {
			return "", false
		}
	}
	recv := text(toks, start, idx)
	return "A0 has no methods: call the function with the value as its `in` argument, `" + methodCallForm(toks, fn, s.next.Text, recv, nil, s.sigs) + "`.", true
}

// indexingHint: `xs[0]`, indexing written with brackets, and `xs.0`, a
// list position written as a path step.
func indexingHint(s hintSite) (string, bool) {
	toks, idx, t, prev := s.toks, s.idx, s.t, s.prev
	if t.Type == lexer.Int && prev.Text == "." && adjacent(prev, t) && idx > 1 && toks[idx-2].Type == lexer.Ident && adjacent(toks[idx-2], prev) {
		if p := pathStart(toks, idx-2); p >= 0 {
			path := text(toks, p, idx-1)
			return "A path step is a name, not a position: read item " + t.Text + " of a list with get { in: " + path + ", path: \"[" + t.Text + "]\" }.", true
		}
	}
	if t.Text != "[" || idx == 0 || prev.End.Line != t.Start.Line || !endsExpr(toks, idx-1) {
		return "", false
	}
	start := idx - 1
	if p := pathStart(toks, idx-1); p >= 0 {
		start = p
	} else if p := matchingOpen(toks, idx-1); p >= 0 && (prev.Text == "]" || prev.Text == ")" || prev.Text == "}") {
		start = p
	}
	end := matchingClose(toks, idx)
	if end < 0 {
		end = idx
	}
	return indexHint(toks, idx, end, text(toks, start, idx), start), true
}

// assignmentHint: `=>`, `===`, `+=`, `++` and assignment with `=`.
func assignmentHint(s hintSite) (string, bool) {
	toks, idx, t, prev, next := s.toks, s.idx, s.t, s.prev, s.next
	switch {
	case t.Text == "=" && next.Text == ">" && adjacent(t, next):
		return arrowHint, true
	case t.Text == "=" && (prev.Text == "==" || prev.Text == "!=") && adjacent(prev, t):
		return "A0 has no === or !==: `==` and `!=` already compare values deeply (as eq { a, b } does).", true
	case t.Text == "=" && idx > 0 && (prev.Text == "+" || prev.Text == "-" || prev.Text == "*" || prev.Text == "/" || prev.Text == "%") && adjacent(prev, t):
		return "A0 has no " + prev.Text + "=. " + immutableHint(text(toks, max(pathStart(toks, idx-2), 0), idx-1)), true
	case (t.Text == "+" || t.Text == "-") && prev.Text == t.Text && adjacent(prev, t):
		return "A0 has no " + t.Text + t.Text + ". " + immutableHint(text(toks, max(pathStart(toks, idx-2), 0), idx-1)), true
	case t.Text == "=":
		return equalsHint(s), true
	}
	return "", false
}

// equalsHint explains an '=' where A0 has none: a declaration with
// const/var, a record field or a binding assigned; "" when it is none of
// these.
func equalsHint(s hintSite) string {
	toks, idx := s.toks, s.idx
	if st := openers(toks, idx); len(st) > 0 {
		if o := st[len(st)-1]; toks[o].Text == "{" && o > 1 && toks[o-2].Text == "fn" && s.prev.Type == lexer.Ident {
			p := s.prev.Text
			return "Parameters have no defaults: declare `fn " + toks[o-1].Text + " { " + p + " }` and give the default in the body, `let " + p + "2 = coalesce { in: " + p + ", default: … }` (an argument left out is null)."
		}
	}
	if p := pathStart(toks, idx-1); p > 0 && (toks[p-1].Text == "(" || toks[p-1].Text == ":") && startsOperand(s.next) {
		// `if (x = 1)`, `cond: x = 1`: a comparison written with one =.
		return "A0 compares with ==: write `" + text(toks, p, idx) + " == " + operandText(toks, idx+1) + "` (a single = never compares; let binds)."
	}
	if p := pathStart(toks, idx-1); p >= 0 {
		if p > 0 && toks[p-1].Type == lexer.Ident && (toks[p-1].Text == "const" || toks[p-1].Text == "var") {
			return "A0 declares with let: write `let " + text(toks, p, idx) + " = …` (every binding is immutable)."
		}
		if p == 0 || toks[p-1].Start.Line < toks[p].Start.Line || toks[p-1].Text == "{" || toks[p-1].Text == "}" {
			if idx-1 > p {
				rec := text(toks, p, idx-2)
				field := toks[idx-1].Text
				return "Records are immutable: build a changed copy, `let " + toks[p].Text + "2 = put { in: " + rec + ", path: \"" + field + "\", value: … }` (or merge { a: " + rec + ", b: { " + field + ": … } })."
			}
			if h := habitBefore(toks, idx); strings.HasPrefix(h, "A0 has no while") {
				return h + " " + immutableHint(text(toks, p, idx))
			}
			if inLoopBody(toks, idx) {
				return immutableHint(text(toks, p, idx)) + " To accumulate across passes, use `reduce { in: xs, fn: \"step\", init: 0 }` or `loop { in: init, times: n, as: \"acc\" } { return … }`."
			}
			return immutableHint(text(toks, p, idx))
		}
	}
	if s.prev.Text == ")" {
		return arrowHint
	}
	return ""
}

// keywordHint: `fn (`, `else if`, quoted record keys, and the mistakes
// around `let` (a reserved word, no name, a type annotation, a modifier).
func keywordHint(s hintSite) (string, bool) {
	toks, idx, t, prev, next := s.toks, s.idx, s.t, s.prev, s.next
	switch {
	case t.Type == lexer.Keyword && t.Text == "fn" && next.Text == "(":
		return arrowHint, true
	case t.Type == lexer.Keyword && t.Text == "if" && prev.Text == "else":
		return "A0 has no `else if`: nest the if inside the else block, `else { return if (c2) { … } else { … } }`, or use match.", true
	case t.Type == lexer.String && (prev.Text == "{" || prev.Text == ",") && next.Text == ":":
		return "Record keys are bare names, not strings: write { " + strings.Trim(t.Text, `"`) + ": … }.", true
	case prev.Type == lexer.Keyword && prev.Text == "let" && (t.Text == "{" || t.Text == "["):
		if t.Text == "{" {
			return "A0 has no destructuring: bind the record to one name and read its fields, `let r = …` then `let a = r.a`.", true
		}
		return "A0 has no destructuring: bind the list to one name and read its items, `let xs = …` then `let a = get { in: xs, path: \"[0]\" }`.", true
	case t.Type == lexer.Ident && (t.Text == "elif" || t.Text == "elsif" || t.Text == "elseif") && prev.Text == "}":
		return "A0 has no " + t.Text + ": nest the next if inside the else block, `else { return if (c2) { … } else { … } }`.", true
	case t.Type == lexer.Keyword && prev.Text == "let":
		return "'" + t.Text + "' is a reserved word: choose another name.", true
	case prev.Type == lexer.Keyword && prev.Text == "let" && t.Type != lexer.Ident:
		return "`let` needs a name: `let name = expr`.", true
	case idx > 1 && toks[idx-2].Text == "let" && prev.Type == lexer.Ident && t.Text == ":":
		return "A0 has no type annotations: write `let " + prev.Text + " = …`.", true
	case idx > 1 && toks[idx-2].Text == "let" && prev.Type == lexer.Ident && t.Type == lexer.Ident:
		return "`let` binds one name, with no modifier: write `let " + t.Text + " = …` (every binding is immutable).", true
	}
	return "", false
}

// commentHint: `//` and `/* … */` comments of other languages, and the
// operators A0 lacks: `<>`, `**`, `//` after an operand (floor division
// or a comment), `x in xs`.
func commentHint(s hintSite) (string, bool) {
	toks, idx, t, prev, next := s.toks, s.idx, s.t, s.prev, s.next
	switch {
	case t.Text == ">" && prev.Text == "<" && adjacent(prev, t):
		return "A0 writes 'not equal' as !=: `a != b`.", true
	case t.Text == "*" && prev.Text == "*" && adjacent(prev, t):
		return "A0 has no ** (power) operator: multiply, `x * x * x`.", true
	case t.Text == "/" && prev.Text == "/" && adjacent(prev, t) && idx > 1 && endsExpr(toks, idx-2) && toks[idx-2].End.Line == t.Start.Line &&
		startsOperand(next) && next.Start.Line == t.Start.Line && (idx+2 >= len(toks) || toks[idx+2].Start.Line != t.Start.Line || toks[idx+2].Type == lexer.EOF):
		// `a // b` with one operand after it: Python's floor division,
		// or a one-word comment.
		return "A0 comments start with #, not //. If this is floor division: A0 has none, write `(a - a % b) / b`.", true
	case t.Type == lexer.Ident && t.Text == "in" && idx > 0 && endsExpr(toks, idx-1):
		return "A0 has no `in` operator: write `contains { in: xs, value: x }` (a list, a string, or a record's keys).", true
	}
	if t.Text != "/" {
		return "", false
	}
	if (next.Text == "/" || next.Text == "*") && adjacent(t, next) || (prev.Text == "/" || prev.Text == "*") && adjacent(prev, t) {
		return "A0 comments start with # and run to the end of the line: write `# …` instead of `//` or `/* … */`.", true
	}
	return "", false
}

// keywordFormHint: the forms around A0's keywords written the way other
// languages write them: `assert(c)`, `catch (e)`, a match arm `ok(v)`, a
// match with one arm, `if c {` without parentheses, `return` with no value,
// `x is None`, `typeof x` (a function called without its record) and a
// field read straight off a call's result.
func keywordFormHint(s hintSite) (string, bool) {
	toks, idx, t, prev, next := s.toks, s.idx, s.t, s.prev, s.next
	switch {
	case idx > 1 && prev.End.Line < t.Start.Line && isBinaryOp(prev.Text) && prev.Type != lexer.String && endsExpr(toks, idx-2):
		return "Line " + strconv.Itoa(prev.Start.Line) + " ends with '" + prev.Text + "', which needs a right-hand operand: finish the expression there, or remove the '" + prev.Text + "'.", true
	case t.Text == "." && s.expected == "LBrace" && idx > 1 && toks[idx-2].Text == "fn" && prev.Type == lexer.Ident:
		name := prev.Text
		if next.Type == lexer.Ident {
			name += "_" + next.Text
		}
		return "A function's name is one word: write `fn " + name + " { … } { … }` (dotted names belong to the stdlib).", true
	case t.Text == "(" && (prev.Text == "assert" || prev.Text == "check"):
		cond := "cond"
		if a := splitArgs(toks, idx); len(a) > 0 {
			cond = a[0]
		}
		return prev.Text + " takes a record, not parentheses: write `" + prev.Text + " { that: " + cond + ", msg: \"…\" }`.", true
	case t.Text == "(" && prev.Text == "catch":
		name := "e"
		if a := splitArgs(toks, idx); len(a) == 1 {
			name = a[0]
		}
		return "The caught error is bound in braces, not parentheses: write `catch { " + name + " } { … return … }` (" + name + " is { code, message, details? }).", true
	case t.Type == lexer.Keyword && idx > 0 && ((t.Text == "cap" || t.Text == "budget") && next.Text == "{" || t.Text == "import" && next.Type == lexer.String):
		// A header after a statement, or inside a block.
		form := map[string]string{"cap": "cap { … }", "budget": "budget { … }", "import": "import \"…\" as name"}[t.Text]
		return "Headers come first: move `" + form + "` to the top of the program, above the first statement (headers never go inside a block).", true
	case (prev.Text == "cap" || prev.Text == "budget") && prev.Type == lexer.Keyword && t.Text != "{":
		if prev.Text == "cap" {
			return "cap takes a record of capabilities set to true: `cap { fs.read: true, sh.exec: true }`.", true
		}
		return "budget takes a record of integer limits: `budget { timeMs: 5000, maxToolCalls: 10 }`.", true
	case s.expected == "Colon" && (t.Text == "}" || t.Text == ",") && prev.Type == lexer.Ident && inHeader(toks, idx) == "cap":
		return "Set each capability to true: `cap { " + capName(toks, idx-1) + ": true }`.", true
	case s.expected == "Ident" && prev.Text == "{" && idx > 1 && toks[idx-2].Text == "catch":
		if t.Type == lexer.Keyword && next.Text == "}" {
			return "'" + t.Text + "' is a reserved word: bind the error to another name, `catch { e } { … return … }`.", true
		}
		return "catch binds the error to a name: write `catch { e } { … return … }` (e is { code, message, details? }).", true
	case t.Text == "..." && innermost(toks, idx) == "[":
		return "Lists have no spread (records do): join lists with concat { a: xs, b: [ … ] }, add one item with append { in: xs, value: … }.", true
	case t.Text == "(" && (prev.Text == "ok" || prev.Text == "err") && inMatch(toks, idx):
		name := map[string]string{"ok": "v", "err": "e"}[prev.Text]
		if a := splitArgs(toks, idx); len(a) == 1 {
			name = a[0]
		}
		return "A match arm binds its value in braces, not parentheses: write `" + prev.Text + " { " + name + " } { … return … }`; match needs both arms, `match r { ok { v } { … } err { e } { … } }`.", true
	case s.expected == "Ident" && t.Text == "}" && prev.Text == "{" && inMatch(toks, idx) && idx > 1 && toks[idx-2].Type == lexer.Ident && idx > 2 && toks[idx-3].Text == "match":
		return "match takes a name, not a call: bind the result first, `let r = " + toks[idx-2].Text + " { … }`, then `match r { ok { v } { … } err { e } { … } }`.", true
	case s.expected == "Ident" && t.Text == "}" && prev.Text == "}" && inMatch(toks, idx):
		return "match needs both arms, ok and err: `match r { ok { v } { … return … } err { e } { … return … } }`.", true
	case t.Type == lexer.Keyword && t.Text == "if" && next.Text != "(" && next.Text != "{" && next.Type != lexer.EOF:
		cond := "cond"
		for j := idx + 1; j < len(toks) && toks[j].Start.Line == t.Start.Line; j++ {
			if toks[j].Text == "{" {
				cond = text(toks, idx+1, j)
				break
			}
		}
		return "Put the condition in parentheses: `if (" + cond + ") { … } else { … }`, or use the expression form `if { cond: " + cond + ", then: x, else: y }`.", true
	case prev.Type == lexer.Keyword && prev.Text == "return" && (t.Text == "}" || t.Type == lexer.EOF || t.Start.Line > prev.End.Line):
		return "`return` needs a value: write `return null` when there is nothing to give back, or `return { … }` with the results.", true
	case t.Type == lexer.Ident && t.Text == "is":
		return "A0 has no `is`: compare values with == and != (`x == null`, `x != null`).", true
	case prev.Type == lexer.Ident && prev.End.Line == t.Start.Line && startsOperand(t) && pathStart(toks, idx-1) >= 0 && knownFn(toks, text(toks, pathStart(toks, idx-1), idx), s.sigs):
		name := text(toks, pathStart(toks, idx-1), idx)
		return "A0 calls take one record of named arguments: write `" + callForm(toks, name, []string{operandText(toks, idx)}, s.sigs) + "`.", true
	case t.Text == "." && prev.Text == ")" && next.Type == lexer.Ident && adjacent(prev, t):
		if open := matchingOpen(toks, idx-1); open >= 0 && open+1 < idx-1 {
			inner := text(toks, open+1, idx-1)
			if pathStart(toks, idx-2) == open+1 {
				return "Drop the parentheses: write `" + inner + "." + next.Text + "`.", true
			}
			if len(inner) > 50 {
				inner = "…"
			}
			return "A value in parentheses cannot be read with a path: bind it first, `let r = " + inner + "` and then `r." + next.Text + "`, or write `get { in: " + inner + ", path: \"" + next.Text + "\" }`.", true
		}
	case t.Text == "." && prev.Text == "}" && next.Type == lexer.Ident && adjacent(prev, t):
		if open := matchingOpen(toks, idx-1); open > 0 && pathStart(toks, open-1) >= 0 {
			call := text(toks, pathStart(toks, open-1), idx)
			return "A call's result cannot be read with a path: bind it first, `let r = " + call + "` and then `r." + next.Text + "`, or write `get { in: " + call + ", path: \"" + next.Text + "\" }`.", true
		}
	}
	return "", false
}

// inHeader is "cap" or "budget" when toks[idx] is inside that header's
// record, else "".
func inHeader(toks []lexer.Token, idx int) string {
	st := openers(toks, idx)
	if len(st) == 0 {
		return ""
	}
	if o := st[0]; toks[o].Text == "{" && o > 0 && toks[o-1].Type == lexer.Keyword && (toks[o-1].Text == "cap" || toks[o-1].Text == "budget") {
		return toks[o-1].Text
	}
	return ""
}

// capName is the dotted name that ends at toks[end] (`fs.read`).
func capName(toks []lexer.Token, end int) string {
	i := end
	for i >= 2 && toks[i-1].Text == "." && toks[i-2].Type == lexer.Ident {
		i -= 2
	}
	return text(toks, i, end+1)
}

// innermost is the text of the innermost bracket open at toks[idx], or "".
func innermost(toks []lexer.Token, idx int) string {
	if st := openers(toks, idx); len(st) > 0 {
		return toks[st[len(st)-1]].Text
	}
	return ""
}

// inMatch reports whether toks[idx] is inside the arms of a match, the
// braces right after `match subject`.
func inMatch(toks []lexer.Token, idx int) bool {
	st := openers(toks, idx)
	for k := len(st) - 1; k >= 0; k-- {
		o := st[k]
		if toks[o].Text != "{" {
			continue
		}
		p := pathStart(toks, o-1)
		if p <= 0 {
			return false
		}
		return toks[p-1].Text == "match"
	}
	return false
}

// startsOperand reports whether t can begin a simple operand (a name, a
// number, a string).
func startsOperand(t lexer.Token) bool {
	switch t.Type {
	case lexer.Ident, lexer.Int, lexer.Float, lexer.String:
		return true
	}
	return false
}

// operandText is the source text of the operand starting at toks[idx]: a
// dotted path or a single literal.
func operandText(toks []lexer.Token, idx int) string {
	j := idx + 1
	if toks[idx].Type == lexer.Ident {
		for j+1 < len(toks) && toks[j].Text == "." && adjacent(toks[j-1], toks[j]) && toks[j+1].Type == lexer.Ident {
			j += 2
		}
	}
	return text(toks, idx, j)
}

// knownFn reports whether name is a library function (sigs knows it) or
// a function declared with fn in toks.
func knownFn(toks []lexer.Token, name string, sigs Signatures) bool {
	if _, ok := fnParams(toks, name); ok {
		return true
	}
	if sigs == nil {
		return false
	}
	_, ok := sigs(name)
	return ok
}

// parenCallHint: parameters or arguments written in parentheses.
func parenCallHint(s hintSite) (string, bool) {
	toks, idx, t, prev := s.toks, s.idx, s.t, s.prev
	switch {
	case t.Text == "(" && prev.Type == lexer.Ident && idx > 1 && toks[idx-2].Text == "fn":
		ps := "{ " + strings.Join(splitArgs(toks, idx), ", ") + " }"
		if ps == "{  }" {
			ps = "{}"
		}
		return "Parameters go in braces, not parentheses: `fn " + prev.Text + " " + ps + " { … return … }`.", true
	case t.Text == "(" && idx > 0 && prev.End.Line == t.Start.Line && pathStart(toks, idx-1) >= 0:
		name := text(toks, pathStart(toks, idx-1), idx)
		args := splitArgs(toks, idx)
		if h := methodHint(toks, name, args, s.sigs); h != "" {
			return h, true
		}
		return "A0 calls take one record of named arguments, not parentheses: write `" + callForm(toks, name, args, s.sigs) + "`.", true
	}
	return "", false
}

// formHint: chained comparisons, an if without else, and for/loop
// written without their record.
func formHint(s hintSite) (string, bool) {
	toks, idx, t, prev := s.toks, s.idx, s.t, s.prev
	switch {
	case isCmp(t.Text) && len(openers(toks, idx)) == 0 && cmpBefore(toks, lineStart(toks, idx)-1, idx):
		return "Comparisons do not chain: write `and { a: x < y, b: y < z }`.", true
	case s.expected == "Else":
		return "`if (cond) { … }` needs an else block: `if (cond) { return a } else { return b }`, or the expression form `if { cond: c, then: a, else: b }`.", true
	case prev.Type == lexer.Keyword && (prev.Text == "for" || prev.Text == "loop") && t.Text != "{":
		if prev.Text == "for" {
			return "Write the loop as `for { in: list, as: \"x\" } { … return … }` (the loop's value is the list of what each pass returns).", true
		}
		return "Write `loop { in: init, times: n, as: \"acc\" } { … return … }`.", true
	}
	return "", false
}

const arrowHint = "A0 has no arrow functions or lambdas: declare `fn name { x } { return … }` and call `name { x: … }`, or pass its name to `map { in: xs, fn: \"name\" }`."

// bracketHint explains an error inside brackets: one never closed, a call
// written with parentheses, a block after a call, a missing comma.
func bracketHint(toks []lexer.Token, idx int, expected string, sigs Signatures) string {
	st := openers(toks, idx)
	t := toks[idx]
	if len(st) == 0 {
		return ""
	}
	open := st[len(st)-1]
	o := toks[open]
	kind := openerKind(toks, open)
	if t.Type == lexer.EOF || matchingClose(toks, open) < 0 {
		return "The " + kind + " opened at " + at(o) + " is never closed: add '" + closerOf[o.Text] + "'."
	}
	if h := parenArgsHint(toks, open, sigs); h != "" {
		return h
	}
	if h := blockAfterCallHint(toks, open); h != "" {
		return h
	}
	if isCmp(t.Text) && cmpBefore(toks, open, idx) {
		return "Comparisons do not chain: write `and { a: x < y, b: y < z }`."
	}
	prevText := toks[idx-1].Text
	if arg := open + 1; o.Text == "{" && open > 0 && (idx == arg || idx == arg+1 && (t.Text == "}" || t.Text == ",")) && startsOperand(toks[arg]) {
		// `f { 1 }`, `len { xs }`: a positional argument in a call's record.
		if p := pathStart(toks, open-1); p >= 0 && (p == 0 || toks[p-1].Text != "fn") && knownFn(toks, text(toks, p, open), sigs) {
			name := text(toks, p, open)
			return "A0 calls take named arguments, not positional ones: write `" + callForm(toks, name, []string{operandText(toks, arg)}, sigs) + "`."
		}
	}
	if o.Text == "{" && (prevText == "{" || prevText == ",") && (t.Type == lexer.Literal || t.Type == lexer.Int || t.Type == lexer.Float) {
		return "'" + t.Text + "' cannot be a record key: keys are names (true, false and null are reserved words)."
	}
	return separatorHint(toks, idx, open, kind, expected)
}

// openerKind names the bracket at open as a user reads it: a brace after
// an operator, a name or a keyword that takes a record opens a record,
// any other a block.
func openerKind(toks []lexer.Token, open int) string {
	o := toks[open]
	kind := map[string]string{"{": "block '{'", "[": "list '['", "(": "'('"}[o.Text]
	if o.Text == "{" && open > 0 {
		switch p := toks[open-1]; {
		case p.Text == "=" || p.Text == ":" || p.Text == "," || p.Text == "[" || p.Text == "(" || p.Text == "return" || p.Text == "...",
			p.Type == lexer.Ident, p.Text == "cap", p.Text == "budget", p.Text == "for", p.Text == "loop", p.Text == "filter", p.Text == "assert", p.Text == "check":
			kind = "record '{'"
		}
	}
	return kind
}

// parenArgsHint: f(a, b), a function called with parentheses (the
// parenthesis at open follows a name on its line).
func parenArgsHint(toks []lexer.Token, open int, sigs Signatures) string {
	if toks[open].Text != "(" || open == 0 {
		return ""
	}
	s := pathStart(toks, open-1)
	if s < 0 || toks[s].Start.Line != toks[open].Start.Line || s > 0 && toks[s-1].Text == "fn" {
		return ""
	}
	name := text(toks, s, open)
	args := splitArgs(toks, open)
	if h := methodHint(toks, name, args, sigs); h != "" {
		return h
	}
	return "A0 calls take one record of named arguments, not parentheses: write `" + callForm(toks, name, args, sigs) + "`."
}

// blockAfterCallHint: name { args } { block }, a call followed by a block
// (the brace at open follows a call's record).
func blockAfterCallHint(toks []lexer.Token, open int) string {
	if toks[open].Text != "{" || open == 0 || toks[open-1].Text != "}" {
		return ""
	}
	prevOpen := matchingOpen(toks, open-1)
	if prevOpen <= 0 {
		return ""
	}
	s := pathStart(toks, prevOpen-1)
	if s < 0 || s > 0 && toks[s-1].Text == "fn" {
		return ""
	}
	name := text(toks, s, prevOpen)
	switch name {
	case "map", "reduce":
		return name + " takes no block: write `for { in: xs, as: \"x\" } { … return … }`, or declare `fn f { x } { return … }` and call `" + name + " { in: xs, fn: \"f\" }`."
	}
	return "A function call takes no block after its arguments: `" + name + " { … }` is the whole call. For a loop write `for { in: xs, as: \"x\" } { … }`."
}

// separatorHint: where a closer or a comma was expected inside the
// bracket at open, a missing comma between entries or elements, or the
// closer itself.
func separatorHint(toks []lexer.Token, idx, open int, kind, expected string) string {
	t, o := toks[idx], toks[open]
	switch expected {
	case "RBrace", "RBracket", "RParen", "Comma":
		if o.Text == "{" && (t.Type == lexer.Ident || t.Type == lexer.Keyword) && idx+1 < len(toks) && toks[idx+1].Text == ":" {
			return "Separate record entries with ',': add one before '" + t.Text + "' (the record opened at " + at(o) + ")."
		}
		if o.Text == "[" && (t.Start.Line != toks[idx-1].End.Line || t.Type != lexer.Punct) {
			return "Separate list elements with ',' (the list opened at " + at(o) + "), or close it with ']'."
		}
		return "Expected '" + closerOf[o.Text] + "' to close the " + kind + " opened at " + at(o) + "."
	}
	return ""
}

// matchingClose returns the index of the bracket that closes the opener
// at open, or -1.
func matchingClose(toks []lexer.Token, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i].Text {
		case "{", "[", "(":
			depth++
		case "}", "]", ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// matchingOpen returns the index of the bracket that the closer at close
// closes, or -1.
func matchingOpen(toks []lexer.Token, close int) int {
	depth := 0
	for i := close; i >= 0; i-- {
		switch toks[i].Text {
		case "}", "]", ")":
			depth++
		case "{", "[", "(":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// habitBefore looks back from the failing token for a construct of
// another language that parsed as something else before the error showed
// (`function f(x) {`, `while (c) {`, `const x`).
func habitBefore(toks []lexer.Token, idx int) string {
	for j := idx; j >= 0 && j >= idx-64; j-- {
		t := toks[j]
		if t.Type != lexer.Ident || j+1 >= len(toks) {
			continue
		}
		n := toks[j+1]
		if j > 0 && toks[j-1].Text == "." {
			continue
		}
		switch t.Text {
		case "function", "def", "func", "lambda":
			if n.Text == "(" {
				return arrowHint
			}
			if n.Type == lexer.Ident {
				args := []string{"x"}
				if j+2 < len(toks) && toks[j+2].Text == "(" {
					if a := splitArgs(toks, j+2); a != nil {
						args = a
					}
				}
				return "Declare functions with fn and a record of parameters: `fn " + n.Text + " { " + strings.Join(args, ", ") + " } { … return … }`, called as `" + n.Text + " { " + args[0] + ": … }`."
			}
		case "const", "var":
			if n.Type == lexer.Ident {
				return "A0 declares with let: write `let " + n.Text + " = …` (every binding is immutable)."
			}
		case "while":
			if n.Text == "(" {
				return "A0 has no while: use `loop { in: init, times: n, as: \"acc\" } { … return … }` or `for { in: list, as: \"x\" } { … }`."
			}
		}
	}
	return ""
}

// lexHints sharpens the hints of E_LEX runs whose cause shows only in the
// text around them: `call ?` written with a space, and a quote that opens
// a string never closed (no other quote on its line) rather than one with
// a bad escape.
func lexHints(src string, ds diag.List) {
	for _, d := range ds {
		if d.Span == nil {
			continue
		}
		line := diag.SourceLine(src, d.Span.Start.Line)
		col := d.Span.Start.Col - 1
		if col < 0 || col > len(line) || !isASCII(line[:col]) {
			continue
		}
		if h := regexHintAt(line, col); h != "" && strings.HasPrefix(d.Message, "unexpected character: ") {
			d.Hint = h
			continue
		}
		switch {
		case strings.HasPrefix(d.Message, "unexpected character: ->?<-"):
			if before := strings.TrimRight(line[:col], " \t"); strings.HasSuffix(before, "call") && len(before) < col {
				d.Hint = "Write call? with no space before the '?': `call? tool { … }`."
			}
		case strings.HasPrefix(d.Message, "unexpected character: ->\"<-") && col < len(line):
			if strings.Contains(line[col+1:], `"`) {
				d.Hint = "This string has an invalid escape: only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX are allowed (write \\\\ for a backslash)."
			} else {
				d.Hint = "The string opened at line " + strconv.Itoa(d.Span.Start.Line) + ", column " + strconv.Itoa(d.Span.Start.Col) +
					" is never closed: add the closing \" on the same line (a string cannot span lines; write \\n for a line break)."
			}
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// methods maps method names of other languages to the A0 function that
// takes the receiver as its `in` argument.
var methods = map[string]string{
	"length": "len", "size": "len", "count": "len", "len": "len", "push": "append", "append": "append",
	"includes": "contains", "contains": "contains", "join": "join", "split": "str.split",
	"startsWith": "str.starts", "endsWith": "str.ends", "replace": "str.replace", "replaceAll": "str.replace",
	"map": "map", "filter": "filter", "reduce": "reduce", "sort": "sort", "keys": "keys", "values": "values",
	"concat": "concat", "find": "find", "flat": "flat",
	"trim": "str.trim", "strip": "str.trim", "trimStart": "str.trimStart", "trimLeft": "str.trimStart", "lstrip": "str.trimStart",
	"trimEnd": "str.trimEnd", "trimRight": "str.trimEnd", "rstrip": "str.trimEnd",
	"toLowerCase": "str.lower", "toLocaleLowerCase": "str.lower", "lower": "str.lower",
	"toUpperCase": "str.upper", "toLocaleUpperCase": "str.upper", "upper": "str.upper",
	"padStart": "str.padStart", "padEnd": "str.padEnd", "repeat": "str.repeat", "splitlines": "str.lines",
	"match": "re.find", "matchAll": "re.findAll", "search": "re.find", "test": "re.test", "exec": "re.find",
}

// receiverIsPattern lists the methods whose receiver is the pattern
// (`pattern.test(s)`), not the text.
var receiverIsPattern = map[string]bool{"test": true, "exec": true}

// methodCallForm is the call form of fn for the method m on recv with
// the given arguments.
func methodCallForm(toks []lexer.Token, fn, m, recv string, args []string, sigs Signatures) string {
	if receiverIsPattern[m] {
		in := "…"
		if len(args) > 0 {
			in = args[0]
		}
		return fn + " { in: " + in + ", pattern: " + recv + " }"
	}
	return callForm(toks, fn, append([]string{recv}, args...), sigs)
}

// MethodForm is the call form of the A0 function that does what the
// method m of another language does, on recv: `append { in: xs, value: … }`
// for push (the argument names from sigs); "" when m is not such a method.
func MethodForm(recv, m string, sigs Signatures) string {
	fn, ok := methods[m]
	if !ok {
		return ""
	}
	return methodCallForm(nil, fn, m, recv, nil, sigs)
}

// MethodHint is the hint for the method m of another language used on
// recv (`s.trim`, `pattern.test`), naming the A0 function that does the
// same; "" when m is not such a method.
func MethodHint(recv, m string, sigs Signatures) string {
	form := MethodForm(recv, m, sigs)
	switch {
	case form == "":
		return ""
	case receiverIsPattern[m]:
		return "A0 has no methods: pass the text and the pattern (a string, RE2 syntax) to the function, `" + form + "`."
	}
	return "A0 has no methods: call the function with the value as its `in` argument, `" + form + "`."
}

// methodHint explains `recv.method(args)` and `print(…)`/`console.log(…)`;
// "" when name is neither.
func methodHint(toks []lexer.Token, name string, args []string, sigs Signatures) string {
	switch name {
	case "print", "console.log", "println", "puts", "echo":
		return "A0 has no print: a program's value is what it returns (`return { … }`); `check { that: …, msg: … }` records evidence."
	}
	if h := pythonRegexHint(name, args); h != "" {
		return h
	}
	i := strings.LastIndexByte(name, '.')
	if i <= 0 {
		return ""
	}
	recv, m := name[:i], name[i+1:]
	fn, ok := methods[m]
	if !ok || isNamespace(recv) {
		return ""
	}
	if receiverIsPattern[m] {
		return "A0 has no methods: pass the text and the pattern (a string, RE2 syntax) to the function, `" + methodCallForm(toks, fn, m, recv, args, sigs) + "`."
	}
	return "A0 has no methods: call the function with the value as its `in` argument, `" + callForm(toks, fn, append([]string{recv}, args...), sigs) + "`."
}

// pythonRegexHint explains Python's re module called with parentheses:
// re.sub(p, r, s), re.search(p, s), re.findall(p, s) … take the pattern
// first; "" when name is none of these.
func pythonRegexHint(name string, args []string) string {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return "…"
	}
	var form string
	switch name {
	case "re.sub":
		form = "re.replace { in: " + arg(2) + ", pattern: " + arg(0) + ", to: " + arg(1) + " }"
	case "re.search", "re.match", "re.fullmatch":
		form = "re.find { in: " + arg(1) + ", pattern: " + arg(0) + " }"
	case "re.findall", "re.finditer":
		form = "re.findAll { in: " + arg(1) + ", pattern: " + arg(0) + " }"
	case "re.split":
		form = "re.split { in: " + arg(1) + ", pattern: " + arg(0) + " }"
	default:
		return ""
	}
	return "A0 calls take one record of named arguments, not parentheses: write `" + form + "` (the pattern is a string in RE2 syntax)."
}

// isNamespace reports whether p prefixes stdlib names (str.trim, re.test).
func isNamespace(p string) bool {
	switch p {
	case "str", "math", "parse", "re", "json", "base64", "hex":
		return true
	}
	return false
}

// inLoopBody reports whether toks[idx] is inside the block of a for, loop
// or filter.
func inLoopBody(toks []lexer.Token, idx int) bool {
	for _, o := range openers(toks, idx) {
		if toks[o].Text != "{" || o == 0 || toks[o-1].Text != "}" {
			continue
		}
		if rec := matchingOpen(toks, o-1); rec > 0 {
			switch toks[rec-1].Text {
			case "for", "loop", "filter":
				return true
			}
		}
	}
	return false
}

func isCmp(t string) bool {
	switch t {
	case "<", ">", "<=", ">=", "==", "!=":
		return true
	}
	return false
}

// cmpBefore reports whether a comparison operator stands between the
// bracket at open and toks[idx], at the same nesting level.
func cmpBefore(toks []lexer.Token, open, idx int) bool {
	depth := 0
	for i := idx - 1; i > open; i-- {
		switch toks[i].Text {
		case "}", "]", ")":
			depth++
		case "{", "[", "(":
			depth--
		case ",", ":":
			if depth == 0 {
				return false
			}
		}
		if depth == 0 && isCmp(toks[i].Text) {
			return true
		}
	}
	return false
}

// lineStart is the index of the first token on toks[idx]'s line.
func lineStart(toks []lexer.Token, idx int) int {
	i := idx
	for i > 0 && toks[i-1].Start.Line == toks[idx].Start.Line {
		i--
	}
	return i
}

// isBinaryOp reports whether t is the text of a binary operator.
func isBinaryOp(t string) bool {
	switch t {
	case "+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=":
		return true
	}
	return false
}
