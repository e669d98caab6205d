package check

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/format"
	"github.com/a0lang/a0/lang/resolve"
)

// params returns the argument names of the function a call names: a
// visible user function's parameters (unknown for one of an earlier
// session input), else a stdlib function's.
func (c *checker) params(name string, at resolve.Point) ([]string, bool) {
	if b := at.Fn(name); b != nil {
		if ps, ok := b.Params(); ok {
			return ps, true
		}
	}
	if c.cfg.Params != nil && c.stdlibName(name) {
		return c.cfg.Params(name)
	}
	return nil, false
}

// callForm is `name { p: …, q: … }` with the function's real parameter
// names, or `name { … }` when they are not known. args, when given, fill
// the first parameters.
func (c *checker) callForm(name string, at resolve.Point, args ...string) string {
	ps, ok := c.params(name, at)
	if !ok {
		if len(args) > 0 {
			return name + " { name: " + args[0] + " }"
		}
		return name + " { … }"
	}
	if len(ps) == 0 {
		return name + " {}"
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

// trailingName is the name a statement ends with, the rightmost operand
// of its expression (a let's value, an expression statement without a
// target, a return's value), when that operand is a name or path.
func trailingName(st ast.Stmt) (*ast.IdentPath, bool) {
	var last ast.Expr
	switch s := st.(type) {
	case *ast.LetStmt:
		last = s.Value
	case *ast.ExprStmt:
		if s.Target == nil {
			last = s.X
		}
	case *ast.ReturnStmt:
		last = s.X
	}
	for {
		b, ok := last.(*ast.BinaryExpr)
		if !ok {
			break
		}
		last = b.R
	}
	id, ok := last.(*ast.IdentPath)
	return id, ok
}

// parenArgs finds `f(x)` written as statements: a statement ending in the
// name f followed, on the same line, by a parenthesised expression
// statement. It maps the name's node to the source form of x, so the
// E_UNBOUND hint can show `f { p: x }`.
func parenArgs(stmts []ast.Stmt, out map[*ast.IdentPath]string) {
	for i := 0; i+1 < len(stmts); i++ {
		next, ok := stmts[i+1].(*ast.ExprStmt)
		if !ok || next.Target != nil {
			continue
		}
		paren, ok := next.X.(*ast.ParenExpr)
		if !ok || next.Span.Start.Line != stmts[i].GetSpan().End.Line {
			continue
		}
		if id, ok := trailingName(stmts[i]); ok {
			out[id] = format.Expr(paren.X)
		}
	}
}

// unboundHint explains an unbound name: a function used as a value (often
// `f(x)`, which parses as the name followed by a parenthesised
// statement), a misspelt variable, or one not bound yet.
func (c *checker) unboundHint(e *ast.IdentPath, at resolve.Point) string {
	n := e.Parts[0]
	for k := len(e.Parts); k >= 1; k-- {
		name := strings.Join(e.Parts[:k], ".")
		if at.Fn(name) != nil || c.stdlibName(name) {
			var args []string
			if a, ok := c.parenArg[e]; ok && k == len(e.Parts) {
				args = []string{a}
			}
			return "'" + name + "' is a function, not a variable: call it with one record of named arguments, `" + c.callForm(name, at, args...) + "` (never with parentheses)."
		}
		if a := aliases[name]; a != "" && strings.Contains(name, ".") && at.Var(n) == nil {
			var args []string
			if x, ok := c.parenArg[e]; ok && k == len(e.Parts) {
				args = []string{x}
			}
			return "A0 calls it " + a + ": `" + c.callForm(a, at, args...) + "` (one record of named arguments, never parentheses)."
		}
	}
	if _, ok := c.cfg.tool(strings.Join(e.Parts, ".")); ok {
		return "'" + strings.Join(e.Parts, ".") + "' is a tool: call it as `call? " + strings.Join(e.Parts, ".") + " { … }` (or `do` for an effect)."
	}
	if n == "input" && len(e.Parts) > 1 {
		return "Inputs are declared in a header before the statements: add `input { " + e.Parts[1] + ": \"str\" }` (or another type) at the top, then pass it with a0 run --arg " + e.Parts[1] + "=… or --input '{…}'."
	}
	if h := numberTailHint(n); h != "" && len(e.Parts) == 1 {
		return h
	}
	if h, ok := c.innerQuote[e]; ok {
		return h
	}
	if lit, ok := c.prefixedString[e]; ok {
		return "A0 has no f-strings or prefixed strings: write `" + templateForm(lit) + "`."
	}
	switch n {
	case "console", "print", "println", "System", "fmt":
		return "A0 has no print: a program's value is what it returns (`return { … }`); `check { that: …, msg: … }` records evidence."
	case "undefined", "nil", "None":
		return "A0's empty value is null."
	case "True", "False":
		return "Booleans are lower-case: true and false."
	}
	names := at.Names(false)
	if diag.Suggest(n, names) == "" {
		if line := c.letLines[n]; line > 0 {
			return "'" + n + "' is bound at line " + strconv.Itoa(line) + ", which this use cannot see (after it, or inside another block or function): bind it before its first use, in this block or one around it."
		}
		var shown []string
		for _, v := range names {
			if v != "input" && at.Fn(v) == nil && !slices.Contains(shown, v) {
				shown = append(shown, v)
			}
		}
		if len(shown) > 0 && len(shown) <= 12 {
			sort.Strings(shown)
			return "Make sure the variable is defined with 'let' (or '-> name') before use. Bound here: " + strings.Join(shown, ", ") + "."
		}
	}
	return withSuggestion("Make sure the variable is defined with 'let' (or '-> name') before use.", n, names)
}

// collectLets records the line of the first binding of each name a let or
// a `-> name` target binds in stmts and in the bodies of the functions
// declared there.
func collectLets(stmts []ast.Stmt, out map[string]int) {
	for _, s := range stmts {
		name, line := "", 0
		switch s := s.(type) {
		case *ast.LetStmt:
			name, line = s.Name, s.Span.Start.Line
		case *ast.ExprStmt:
			if s.Target != nil && len(s.Target.Parts) > 0 {
				name, line = s.Target.Parts[0], s.Target.Span.Start.Line
			}
		case *ast.FnDecl:
			collectLets(s.Body.Stmts, out)
		}
		if name != "" && out[name] == 0 {
			out[name] = line
		}
	}
}

// aliases maps names from other languages to the A0 function that does
// the same.
var aliases = map[string]string{
	"length": "len", "size": "len", "count": "len", "push": "append", "split": "str.split",
	"replace": "str.replace", "startsWith": "str.starts", "endsWith": "str.ends",
	"includes": "contains", "has": "contains", "max": "math.max", "min": "math.min",
	"JSON.parse": "parse.json", "json.parse": "parse.json", "parseJSON": "parse.json",
	"format": "str.template", "template": "str.template", "Object.keys": "keys",
	"Object.values": "values", "Object.entries": "entries", "flatten": "flat",
	"uniq": "unique", "distinct": "unique", "equals": "eq", "fold": "reduce",
	"type": "typeof", "str.startsWith": "str.starts", "str.endsWith": "str.ends",
	"str.join": "join", "str.len": "len", "str.length": "len", "list.len": "len",
	"print": "", "console.log": "",
	"trim": "str.trim", "strip": "str.trim", "trimStart": "str.trimStart", "trimEnd": "str.trimEnd",
	"str.strip": "str.trim", "toLowerCase": "str.lower", "toUpperCase": "str.upper", "lower": "str.lower",
	"upper": "str.upper", "str.toLowerCase": "str.lower", "str.toUpperCase": "str.upper", "str.toLower": "str.lower",
	"str.toUpper": "str.upper", "str.lowercase": "str.lower", "str.uppercase": "str.upper",
	"JSON.stringify": "json.stringify", "stringify": "json.stringify", "json.dumps": "json.stringify",
	"toJSON": "json.stringify", "json.encode": "json.stringify", "str.json": "json.stringify",
	"parseInt": "parse.number", "parseFloat": "parse.number", "Number": "parse.number", "toNumber": "parse.number",
	"parse.int": "parse.number", "parse.float": "parse.number", "str.toNumber": "parse.number",
	"btoa": "base64.encode", "atob": "base64.decode", "re.match": "re.find", "re.search": "re.find",
	"re.exec": "re.find", "re.sub": "re.replace", "re.findall": "re.findAll", "re.matchAll": "re.findAll",
	"regex.test": "re.test", "regex.match": "re.find", "regex.replace": "re.replace", "RegExp": "re.test",
	"splitlines": "str.lines", "str.splitlines": "str.lines", "padStart": "str.padStart", "padEnd": "str.padEnd",
	"str.pad": "str.padStart", "str.padLeft": "str.padStart", "str.padRight": "str.padEnd",
	"str.contains": "contains", "str.includes": "contains", "str.has": "contains", "list.contains": "contains",
	"list.includes": "contains", "str.startswith": "str.starts", "str.endswith": "str.ends", "startswith": "str.starts",
	"endswith": "str.ends", "str.trimLeft": "str.trimStart", "str.trimRight": "str.trimEnd", "str.lstrip": "str.trimStart",
	"str.rstrip": "str.trimEnd", "str.replaceAll": "str.replace", "str.format": "str.template", "str.match": "re.find",
	"str.test": "re.test", "str.matches": "re.test", "list.append": "append", "list.push": "append",
	"Object.assign": "merge", "list.length": "len",
	"sum": "reduce", "math.sum": "reduce", "list.sort": "sort", "list.map": "map", "list.filter": "filter",
}

// unknownFnHint names the nearest known functions instead of all of them.
func (c *checker) unknownFnHint(name string, at resolve.Point) string {
	if name == "input" {
		return "An input header must come before the first statement: move 'input { name: \"type\", ... }' to the top, beside cap and budget."
	}
	if a, ok := aliases[name]; ok {
		if a == "" {
			return "A0 has no print: a program's value is what it returns (return { … }); `check { that: …, msg: … }` records evidence."
		}
		return "A0 calls it " + a + ": `" + c.callForm(a, at) + "`."
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 && !isNamespace(name[:i]) && (c.stdlibName(name[i+1:]) || aliases[name[i+1:]] != "") && c.receiverBound(name[:i], at) {
		fn := name[i+1:]
		if a := aliases[fn]; a != "" {
			fn = a
		}
		if ps, ok := c.params(fn, at); ok && len(ps) > 0 && ps[0] == "in" {
			form := "in: " + name[:i]
			for _, p := range ps[1:] {
				form += ", " + p + ": …"
			}
			return "A0 has no methods: call the function with the value as an argument, `" + fn + " { " + form + " }`."
		}
	}
	if _, ok := c.cfg.tool(name); ok {
		return "'" + name + "' is a tool, not a function: call it as `call? " + name + " { … }` (`do` for an effect) and declare its capability in cap { … }."
	}
	if d := c.fnDecls[name]; d != nil {
		return "'" + name + "' is declared at line " + strconv.Itoa(d.Span.Start.Line) + ", after this call or in a block the call cannot see: move `fn " + name + " { … }` to the top level, above its first use."
	}
	cands := append(at.Names(true), c.cfg.Stdlib...)
	near := nearestNames(name, cands, 3)
	tail := " User functions must be declared with fn before the call; `a0 help stdlib --index` lists the stdlib."
	if ns, _, ok := strings.Cut(name, "."); ok && (len(near) == 0 || !closeSpelling(name, near[0])) {
		// No close spelling in a namespace of the stdlib (str.capitalize,
		// math.abs): its functions are the valid choices, all of them.
		var members []string
		for _, f := range c.cfg.Stdlib {
			if strings.HasPrefix(f, ns+".") {
				members = append(members, f)
			}
		}
		if len(members) > 0 {
			sort.Strings(members)
			list := "its " + ns + " functions are " + strings.Join(members, ", ")
			if len(members) == 1 {
				list = "its only " + ns + " function is " + members[0]
			}
			return "The stdlib has no " + name + "; " + list + " (`a0 help stdlib` says what each does)."
		}
	}
	if len(near) == 0 {
		return "No known function is close to '" + name + "'." + tail
	}
	if len(near) == 1 {
		return "Did you mean '" + near[0] + "' (" + c.callForm(near[0], at) + ")?" + tail
	}
	return "Did you mean " + quoteJoin(near) + "?" + tail
}

// closeSpelling reports whether cand is within nearestNames' edit
// distance of name (not only in its namespace or sharing a prefix).
func closeSpelling(name, cand string) bool {
	return diag.EditDistance([]rune(name), []rune(cand)) <= min(1+len(name)/3, 3)
}

// nearestNames returns up to n candidates close to name: by edit distance,
// then those sharing its namespace (`str.`) or a prefix.
func nearestNames(name string, cands []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	var list []scored
	seen := map[string]bool{}
	ns, _, hasNS := strings.Cut(name, ".")
	for _, cand := range cands {
		if seen[cand] || cand == name {
			continue
		}
		seen[cand] = true
		d := diag.EditDistance([]rune(name), []rune(cand))
		limit := min(1+len(name)/3, 3)
		cns, _, cHasNS := strings.Cut(cand, ".")
		switch {
		case d <= limit:
		case hasNS && cHasNS && ns == cns:
			d = 10
		case len(name) >= 3 && (strings.HasPrefix(cand, name) || strings.HasPrefix(name, cand) && len(cand) >= 3):
			d = 11
		default:
			continue
		}
		list = append(list, scored{cand, d})
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].d != list[j].d {
			return list[i].d < list[j].d
		}
		return list[i].s < list[j].s
	})
	var out []string
	for i := 0; i < len(list) && i < n; i++ {
		if i > 0 && list[0].d < 10 && list[i].d >= 10 {
			break // close spellings found: the looser matches add noise
		}
		out = append(out, list[i].s)
	}
	return out
}

func quoteJoin(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	if len(q) == 2 {
		return q[0] + " or " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// isNamespace reports whether p prefixes stdlib names (str, math, parse,
// re, json, base64, hex).
func isNamespace(p string) bool {
	switch p {
	case "str", "math", "parse", "re", "json", "base64", "hex":
		return true
	}
	return false
}

// prefixedStrings finds `f"…"` written as statements: a name such as f,
// r or b directly followed by a string literal, which parse as the name
// and a string statement. It maps the name's node to the string.
func prefixedStrings(stmts []ast.Stmt, out map[*ast.IdentPath]*ast.Literal) {
	for i := 0; i+1 < len(stmts); i++ {
		next, ok := stmts[i+1].(*ast.ExprStmt)
		if !ok || next.Target != nil {
			continue
		}
		lit, ok := next.X.(*ast.Literal)
		if !ok || lit.Kind != ast.LitString {
			continue
		}
		id, ok := trailingName(stmts[i])
		if !ok || len(id.Parts) != 1 || id.Span.End != lit.Span.Start {
			continue
		}
		switch strings.ToLower(id.Parts[0]) {
		case "f", "r", "b", "u", "rf", "fr", "br", "rb", "s":
			out[id] = lit
		}
	}
}

// innerQuotes finds `"say "hi""`: a string literal that a quote inside it
// ended, so that the next word became a name right after it on the same
// line. It maps that name's node to the hint that says to escape the
// quotes.
func innerQuotes(stmts []ast.Stmt, out map[*ast.IdentPath]string) {
	for i := 0; i+1 < len(stmts); i++ {
		var lit *ast.Literal
		switch s := stmts[i].(type) {
		case *ast.LetStmt:
			lit, _ = s.Value.(*ast.Literal)
		case *ast.ExprStmt:
			if s.Target == nil {
				lit, _ = s.X.(*ast.Literal)
			}
		case *ast.ReturnStmt:
			lit, _ = s.X.(*ast.Literal)
		}
		next, ok := stmts[i+1].(*ast.ExprStmt)
		if lit == nil || lit.Kind != ast.LitString || !ok {
			continue
		}
		x := next.X
		for {
			b, ok := x.(*ast.BinaryExpr)
			if !ok {
				break
			}
			x = b.L
		}
		if id, ok := x.(*ast.IdentPath); ok && id.Span.Start == lit.Span.End {
			out[id] = quoteHint(lit.Str, strings.Join(id.Parts, "."))
		}
	}
}

// quoteHint says to escape the quotes around word inside a string that
// held before.
func quoteHint(before, word string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(before + "\"" + word + "\"")
	return "A \" inside a string ends it: write the inner quotes as \\\", `" + strings.TrimSuffix(b.String(), "\n") + "`, or use single quotes inside (\"say 'hi'\")."
}

// templateForm is the str.template call that does what an f-string does:
// its {name} placeholders become vars read from the names of the same
// spelling.
func templateForm(lit *ast.Literal) string {
	var vars []string
	seen := map[string]bool{}
	rest := lit.Str
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			break
		}
		name := strings.TrimSpace(rest[i+1 : i+j])
		rest = rest[i+j+1:]
		if name == "" || seen[name] || !isName(name) {
			continue
		}
		seen[name] = true
		vars = append(vars, name+": "+name)
	}
	form := "str.template { in: " + diag.QuoteJSON(lit.Str)
	if len(vars) > 0 {
		form += ", vars: { " + strings.Join(vars, ", ") + " }"
	} else {
		form += ", vars: { … }"
	}
	return form + " }"
}

func isName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// dupBindingHint names the fix for a name bound twice in one scope.
func dupBindingHint(name string) string {
	return "'" + name + "' is already bound in this scope and bindings are immutable: give the new value its own name, `let " + name + "2 = …`, and use " + name + "2 from there on."
}

// noReturnHint names the fix for a block or program without a return:
// the last statement, when it computes a value, is what to return.
func noReturnHint(stmts []ast.Stmt, generic string) string {
	if len(stmts) == 0 {
		return generic
	}
	switch s := stmts[len(stmts)-1].(type) {
	case *ast.LetStmt:
		return "Add `return " + s.Name + "` after the last let (or write `return` in place of `let " + s.Name + " =`)."
	case *ast.ExprStmt:
		if s.Target != nil {
			return "Add `return " + strings.Join(s.Target.Parts, ".") + "` as the last statement."
		}
		if _, ok := s.X.(*ast.IfBlock); ok {
			return "An if statement's returns end its own blocks only: write `return if (…) { … } else { … }` (or bind it, `let r = if …`, then `return r`)."
		}
		if x := format.Expr(s.X); len(x) <= 60 && !strings.Contains(x, "\n") {
			return "Write `return " + x + "`: the last statement must be a return."
		}
		return "Put `return` in front of the last statement: the last statement must be a return."
	}
	return generic
}

// budgetAliases and capAliases map names of other tools to the budget
// field or capability meant.
var budgetAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"timeout": "timeMs", "timeoutMs": "timeMs", "time": "timeMs", "maxTime": "timeMs", "maxTimeMs": "timeMs",
		"deadline": "timeMs", "ms": "timeMs", "timeLimit": "timeMs", "maxDurationMs": "timeMs", "durationMs": "timeMs",
		"toolCalls": "maxToolCalls", "maxCalls": "maxToolCalls", "maxTools": "maxToolCalls", "calls": "maxToolCalls",
		"maxBytes": "maxBytesWritten", "bytesWritten": "maxBytesWritten", "maxWriteBytes": "maxBytesWritten", "maxWrite": "maxBytesWritten",
		"maxIter": "maxIterations", "iterations": "maxIterations", "maxLoops": "maxIterations", "maxSteps": "maxIterations", "maxLoop": "maxIterations",
	}
})

var capAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"shell": "sh.exec", "sh": "sh.exec", "exec": "sh.exec", "sh.run": "sh.exec", "shell.exec": "sh.exec", "process": "sh.exec",
		"fs": "fs.read", "file.read": "fs.read", "fs.readFile": "fs.read", "fs.list": "fs.read", "fs.exists": "fs.read", "read": "fs.read",
		"file.write": "fs.write", "fs.writeFile": "fs.write", "write": "fs.write",
		"http": "http.get", "net": "http.get", "network": "http.get", "fetch": "http.get", "http.fetch": "http.get",
		"sh.start": "sh.exec", "sh.status": "sh.exec", "sh.wait": "sh.exec", "sh.kill": "sh.exec", "sh.tail": "sh.exec",
	}
})

// aliasOrSuggestion is hint followed by the valid name name stands for:
// the alias's when it has one, else the nearest by spelling.
func aliasOrSuggestion(hint, name string, aliases map[string]string, cands []string) string {
	if a := aliases[name]; a != "" && contains(cands, a) {
		return strings.TrimSuffix(hint, ".") + ". Did you mean '" + a + "'?"
	}
	return withSuggestion(hint, name, cands)
}

// collectFns records the first declaration of each function name in
// stmts and in the bodies of the functions declared there.
func collectFns(stmts []ast.Stmt, out map[string]*ast.FnDecl) {
	for _, s := range stmts {
		if d, ok := s.(*ast.FnDecl); ok {
			if out[d.Name] == nil {
				out[d.Name] = d
			}
			collectFns(d.Body.Stmts, out)
		}
	}
}

// returnNotLastHint names the fix for a statement after a return. On the
// return's own line it is the rest of the return's expression that the
// parser took for a new statement: `return len xs` is a call written
// without its record.
func (c *checker) returnNotLastHint(r *ast.ReturnStmt, next ast.Stmt) string {
	generic := "Move any statements after return before it, or remove them."
	if next.GetSpan().Start.Line != r.Span.End.Line {
		return generic
	}
	if lit, ok := r.X.(*ast.Literal); ok && lit.Kind == ast.LitString && next.GetSpan().Start == lit.Span.End {
		if e, ok := next.(*ast.ExprStmt); ok {
			if h, ok := e.X.(*ast.IdentPath); ok {
				return quoteHint(lit.Str, strings.Join(h.Parts, "."))
			}
		}
	}
	rest := ""
	if e, ok := next.(*ast.ExprStmt); ok && e.Target == nil {
		rest = format.Expr(e.X)
	}
	if id, ok := r.X.(*ast.IdentPath); ok && rest != "" && !strings.HasPrefix(rest, "(") {
		name := strings.Join(id.Parts, ".")
		var ps []string
		known := false
		if d := c.fnDecls[name]; d != nil {
			ps, known = d.Params, true
		} else if c.stdlibName(name) && c.cfg.Params != nil {
			ps, known = c.cfg.Params(name)
			known = known || c.stdlibName(name)
		}
		if known {
			arg := "name"
			if len(ps) > 0 {
				arg = ps[0]
			}
			return "A0 calls take one record of named arguments: write `return " + name + " { " + arg + ": " + rest + " }`."
		}
	}
	return "A return takes one expression and ends its block: the rest of this line is a separate statement. Join it to the expression with an operator, or move it before the return."
}

// numberTailHint explains a name that is the tail of a number literal of
// another language: `1_000` lexes as 1 and _000, `0xff` as 0 and xff.
func numberTailHint(n string) string {
	if len(n) > 1 && n[0] == '_' && strings.Trim(n, "_0123456789") == "" {
		return "A0 numbers have no digit separators: write the digits together (1000, not 1_000)."
	}
	if len(n) < 2 {
		return ""
	}
	base := map[byte]int{'x': 16, 'X': 16, 'b': 2, 'B': 2, 'o': 8, 'O': 8}[n[0]]
	if base == 0 {
		return ""
	}
	v, err := strconv.ParseUint(n[1:], base, 53)
	if err != nil {
		return ""
	}
	return "A0 numbers are decimal: if you wrote 0" + n + ", write " + strconv.FormatUint(v, 10) + "."
}

// receiverBound reports whether the receiver of `recv.method { … }` is a
// name the program binds (`xs.sort {}`), so the call is a method of
// another language; a misspelt namespace (`strs.lower`) is not.
func (c *checker) receiverBound(recv string, at resolve.Point) bool {
	first, _, _ := strings.Cut(recv, ".")
	return at.Var(first) != nil || first == "input"
}

// budgetTypeHint names the integer to write for a budget field given
// another value: the digits of a quoted number, a whole number of
// milliseconds for "5s".
func budgetTypeHint(key string, v ast.Expr) string {
	example := map[string]string{"timeMs": "5000", "maxToolCalls": "10", "maxBytesWritten": "1000000", "maxIterations": "1000"}[key]
	if example == "" {
		example = "100"
	}
	if lit, ok := v.(*ast.Literal); ok {
		switch lit.Kind {
		case ast.LitString:
			t := strings.TrimSpace(lit.Str)
			if _, err := strconv.ParseUint(t, 10, 53); err == nil {
				example = t
			} else if key == "timeMs" {
				for suffix, mul := range map[string]float64{"ms": 1, "s": 1000, "m": 60000} {
					if n, err := strconv.ParseFloat(strings.TrimSuffix(t, suffix), 64); err == nil && strings.HasSuffix(t, suffix) && !(suffix == "s" && strings.HasSuffix(t, "ms")) {
						example = strconv.FormatFloat(n*mul, 'f', 0, 64)
						break
					}
				}
			}
		case ast.LitFloat, ast.LitInt:
			if lit.Num >= 0 {
				example = strconv.FormatFloat(lit.Num, 'f', 0, 64)
			}
		}
	}
	lead := "Write an integer without quotes"
	switch e := v.(type) {
	case *ast.Literal:
		switch e.Kind {
		case ast.LitFloat:
			lead = "Write a whole number, without a fraction"
		case ast.LitBool, ast.LitNull:
			lead = "Write an integer"
		}
	case *ast.UnaryExpr:
		lead = "A budget limit is 0 or more, never negative (leave the field out for no limit)"
	default:
		lead = "Write the number itself, a literal (a budget is fixed before the program runs, so it takes no name or expression)"
	}
	return lead + ": budget { " + key + ": " + example + " }" + map[bool]string{true: " (milliseconds).", false: "."}[key == "timeMs"]
}
