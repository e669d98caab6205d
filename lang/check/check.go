// Package check is the static validator of A0 (spec/language.md §5.5,
// spec/diagnostics.md "Static codes").
//
// It reports every static diagnostic in the reference's fixed order:
// duplicate budget headers, imports, the top-level return rules, cap
// entries, budget entries, the binding walk (depth-first, source order) and
// the tool walk. Names it must know but does not own — stdlib functions,
// tools, capabilities — come from a [Config] the caller passes in, so lang
// never imports stdlib or runtime.
package check

import (
	"sort"
	"strings"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/resolve"
)

// Tool describes a tool for the checker.
type Tool struct {
	Name   string
	Cap    string // capability that gates it
	Effect bool   // effect tools need `do`
	// Params lists the argument names of a tool that refuses others
	// (nil: any argument is accepted).
	Params []string
	// Args are the arguments whose literal values Strict checks against
	// their types (nil: none is checked).
	Args []Arg
	// Input, when known, is the JSON Schema of the argument record (an
	// MCP tool whose schema a server listed, or a0's schema cache holds):
	// under Config.ToolSchemas every call's literal argument names and
	// values are checked against it. Nil: nothing is known.
	Input *Schema
	// Output, when known, is the JSON Schema of the call's result: reads
	// of members it does not declare, on a variable bound to a call, are
	// reported. Nil: nothing is known.
	Output *Schema
	// Detail, when set, gives Params, Args, Input and Output instead of
	// the fields, the first time the checker meets a call of the tool: a
	// host with many tools pays for none a program does not name. It must
	// be safe for concurrent use and give the same answer every time.
	Detail func() ToolDetail
}

// ToolDetail is what Tool.Detail gives: the fields of a Tool the checker
// reads only at a call of it.
type ToolDetail struct {
	Params        []string
	Args          []Arg
	Input, Output *Schema
}

// Config holds the names the checker validates against.
type Config struct {
	// Stdlib lists every stdlib name known to the checker, including the
	// evaluator built-ins map and reduce, in the order the E_UNKNOWN_FN hint
	// lists them.
	Stdlib []string
	// Tools lists the known tools.
	Tools []Tool
	// Caps lists the valid capability ids, in hint order.
	Caps []string
	// BudgetFields lists the valid budget fields, in hint order.
	BudgetFields []string
	// Session checks one input of an interactive session (the REPL): the
	// program need not end with return, tool calls declare their
	// capability implicitly (no E_UNDECLARED_CAP), and the names below are
	// visible from an enclosing scope, so binding one again replaces it.
	Session bool
	// Vars and Fns are the names bound by earlier session inputs.
	Vars, Fns []string
	// Outer, when set, is used instead of Vars and Fns: it reports whether
	// an earlier session input bound name (as a function when fn), and
	// OuterNames lists those names (for suggestions). A session with many
	// bindings then checks an input in time that does not grow with them.
	Outer      func(name string, fn bool) bool
	OuterNames func(fn bool) []string
	// Env is a session's top level (slots and function table) that the
	// input is resolved against (see Resolve); nil for a program.
	Env *resolve.Env
	// Params returns the argument names a stdlib function takes (hints
	// show a call's record form with them; Strict checks against them).
	Params func(name string) ([]string, bool)
	// Strict adds E_UNKNOWN_ARG: a call of a stdlib or user function, or
	// of a tool with Params, that names an argument the callee does not
	// take; and E_TOOL_ARGS: a literal argument value of a tool with Args
	// that has the wrong type (`a0 check --strict`). Off, the output is
	// the reference's.
	Strict bool
	// LiteralArg, when set, checks a string literal s written as argument
	// arg of a call of the stdlib function fn, for the arguments whose
	// value the function can judge alone (a regex pattern). It returns
	// the message and hint of an E_FN diagnostic (the code the call would
	// fail with), or "" when s is fine. Only `a0 check` sets it.
	LiteralArg func(fn, arg, s string) (msg, hint string)
	// ToolSchemas judges the calls of tools whose Input or Output schema
	// is known (E_UNKNOWN_ARG, E_TOOL_ARGS, E_PATH; spec/mcp.md §8):
	// `a0 check`, `a0 run`, a0_check and a0_run set it. Off, a call's
	// arguments are judged when it is made.
	ToolSchemas bool
}

func (c *Config) tool(name string) (Tool, bool) {
	for _, t := range c.Tools {
		if t.Name == name {
			if t.Detail != nil {
				d := t.Detail()
				t.Params, t.Args, t.Input, t.Output = d.Params, d.Args, d.Input, d.Output
			}
			return t, true
		}
	}
	return Tool{}, false
}

func (c *Config) toolNames() []string {
	out := make([]string, len(c.Tools))
	for i, t := range c.Tools {
		out[i] = t.Name
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Program validates p and returns its diagnostics (nil when valid).
func Program(p *ast.Program, cfg *Config) diag.List {
	_, ds := Resolve(p, cfg)
	return ds
}

// Resolve validates p like Program and also returns the resolution of its
// names that the binding diagnostics were computed from. The compiler
// allocates its frame slots from that same resolution, so the checker and
// the evaluator cannot disagree about what a name denotes.
func Resolve(p *ast.Program, cfg *Config) (*resolve.Info, diag.List) {
	c := &checker{cfg: cfg, file: p.Span.File}
	c.fnDecls = map[string]*ast.FnDecl{}
	collectFns(p.Stmts, c.fnDecls)
	c.letLines = map[string]int{}
	collectLets(p.Stmts, c.letLines)
	c.headers(p)
	if !cfg.Session {
		c.topReturn(p)
	}
	c.capsAndBudgets(p)
	c.inputHeaders(p)
	c.bindings(p)
	c.tools(p)
	if cfg.ToolSchemas {
		c.resultFields(p)
	}
	c.literals(p)
	return c.info, c.out
}

// literals reports the string literals of stdlib calls that the called
// function refuses whatever its other arguments (Config.LiteralArg), with
// the span of the literal.
func (c *checker) literals(p *ast.Program) {
	if c.cfg.LiteralArg == nil {
		return
	}
	for _, s := range p.Stmts {
		walkStmt(s, func(e ast.Expr) {
			call, ok := e.(*ast.CallExpr)
			if !ok || !c.stdlibName(call.Name) {
				return
			}
			for _, en := range call.Args.Entries {
				lit, ok := en.Value.(*ast.Literal)
				if en.Spread || !ok || lit.Kind != ast.LitString {
					continue
				}
				if msg, hint := c.cfg.LiteralArg(call.Name, en.Key, lit.Str); msg != "" {
					c.add(diag.EFn, &lit.Span, msg, hint)
				}
			}
		})
	}
}

type checker struct {
	cfg      *Config
	file     string
	out      diag.List
	declared map[string]bool // declared capabilities
	stdlib   map[string]bool
	parenArg map[*ast.IdentPath]string // `f(x)` written as two statements (hints.go)
	// prefixedString maps the f of `f"…"`, parsed as a name and a string
	// statement, to the string (hints.go).
	prefixedString map[*ast.IdentPath]*ast.Literal
	// innerQuote maps the word after a string that an unescaped quote
	// ended (`"say "hi""`) to the hint (innerQuotes).
	innerQuote map[*ast.IdentPath]string
	info       *resolve.Info // the names' resolution (bind.go)
	// inputs holds the names the input header declares (nil without a
	// header); inputOrder lists them in source order.
	inputs     map[string]bool
	inputOrder []string
	// fnDecls maps the name of every function the program declares, at
	// any depth, to its first declaration (hints.go).
	fnDecls map[string]*ast.FnDecl
	// letLines maps each name a let or a `-> name` binds at the top level
	// or in a function body to the line of its first binding (hints.go).
	letLines map[string]int
}

func (c *checker) add(code diag.Code, sp *diag.Span, msg, hint string) {
	d := &diag.Diagnostic{Code: code, Message: msg, Hint: hint}
	if sp != nil {
		s := *sp
		d.Span = &s
	}
	c.out = append(c.out, d)
}

// unknownToolHint lists the valid tools and suggests the one meant: a
// close spelling in the same namespace, or for a bare name (read) the
// tool of that short name (fs.read).
func unknownToolHint(name string, names []string) string {
	hint := "Valid tools: " + strings.Join(names, ", ")
	cands := sameNamespace(name, names)
	if !strings.Contains(name, ".") && len(cands) == 1 {
		return hint + ". Did you mean '" + cands[0] + "'?"
	}
	return withSuggestion(hint, name, cands)
}

// sameNamespace keeps the tool names whose namespace (before the first
// '.') is the one of name or a close spelling of it: git.status is not a
// misspelt sh.status (it is most often an MCP server's tool), but
// fss.read is fs.read.
func sameNamespace(name string, names []string) []string {
	ns, _, dotted := strings.Cut(name, ".")
	var out []string
	if !dotted {
		// A bare name (read, exec) is the tool of that short name.
		for _, n := range names {
			if _, short, _ := strings.Cut(n, "."); short == name {
				return []string{n}
			}
		}
	}
	for _, n := range names {
		nns, _, _ := strings.Cut(n, ".")
		if nns == ns || diag.Suggest(ns, []string{nns}) == nns {
			out = append(out, n)
		}
	}
	return out
}

func withSuggestion(hint, name string, candidates []string) string {
	if s := diag.Suggest(name, candidates); s != "" {
		if !strings.HasSuffix(hint, ".") {
			hint += "."
		}
		return hint + " Did you mean '" + s + "'?"
	}
	return hint
}

func (c *checker) headers(p *ast.Program) {
	budgets := 0
	for _, h := range p.Headers {
		if h.Kind == ast.BudgetHeader {
			budgets++
			if budgets > 1 {
				c.add(diag.EDupBudget, &h.Span, "Only one budget header is allowed.", "Combine all budget fields into a single 'budget { ... }' header.")
			}
		}
	}
	for _, h := range p.Headers {
		if h.Kind == ast.ImportHeader {
			c.add(diag.EImportUnsupported, &h.Span, "Import declarations are not supported yet.", "Remove 'import ... as ...' for now.")
		}
	}
}

func (c *checker) topReturn(p *ast.Program) {
	has := false
	for _, s := range p.Stmts {
		if _, ok := s.(*ast.ReturnStmt); ok {
			has = true
		}
	}
	if !has {
		sp := p.Span
		hint := noReturnHint(p.Stmts, "Add a 'return <expr>' statement at the end of your program.")
		if len(p.Stmts) == 0 && len(p.Headers) == 0 {
			hint = "The program is empty or holds only comments: a program ends with `return <expr>`, for example `return \"hello\"`."
			if sp.File == "-" {
				hint = "Nothing but blank lines or comments came in on stdin: pipe the program in (a0 run - < prog.a0), and end it with `return <expr>`."
			}
		}
		c.add(diag.ENoReturn, &sp, "Program must end with a return statement.", hint)
	}
	for i, s := range p.Stmts {
		if r, ok := s.(*ast.ReturnStmt); ok && i != len(p.Stmts)-1 {
			c.add(diag.EReturnNotLast, &r.Span, "Return statement must be the last statement in the program.", c.returnNotLastHint(r, p.Stmts[i+1]))
		}
	}
}

func (c *checker) capsAndBudgets(p *ast.Program) {
	c.declared = nil // made at the first cap header: most programs have none
	for _, h := range p.Headers {
		if h.Kind != ast.CapHeader {
			continue
		}
		if c.declared == nil {
			c.declared = map[string]bool{}
		}
		for _, e := range h.Rec.Entries {
			if e.Spread {
				c.add(diag.ESpreadNotAllowed, &e.Span, "A spread is not allowed in a cap header.", "List each capability as 'name: true'.")
				continue
			}
			if !contains(c.cfg.Caps, e.Key) {
				c.add(diag.EUnknownCap, &e.Span, "Unknown capability '"+e.Key+"'.",
					aliasOrSuggestion("Valid capabilities: "+strings.Join(c.cfg.Caps, ", "), e.Key, capAliases(), c.cfg.Caps))
			}
			lit, ok := e.Value.(*ast.Literal)
			if !ok || lit.Kind != ast.LitBool || !lit.Bool {
				sp := e.Value.GetSpan()
				c.add(diag.ECapValue, &sp, "Capability '"+e.Key+"' must be set to true.", "Write '"+e.Key+": true' (a capability is only ever declared true; leave out the ones the program does not use).")
				continue
			}
			c.declared[e.Key] = true
		}
	}
	for _, h := range p.Headers {
		if h.Kind != ast.BudgetHeader {
			continue
		}
		for _, e := range h.Rec.Entries {
			if e.Spread {
				c.add(diag.ESpreadNotAllowed, &e.Span, "A spread is not allowed in a budget header.", "Write each budget field as 'name: <integer>'.")
				continue
			}
			if !contains(c.cfg.BudgetFields, e.Key) {
				c.add(diag.EUnknownBudget, &e.Span, "Unknown budget field '"+e.Key+"'.",
					aliasOrSuggestion("Valid budget fields: "+strings.Join(c.cfg.BudgetFields, ", "), e.Key, budgetAliases(), c.cfg.BudgetFields))
				continue
			}
			if lit, ok := e.Value.(*ast.Literal); !ok || lit.Kind != ast.LitInt {
				sp := e.Value.GetSpan()
				c.add(diag.EBudgetType, &sp, "Budget field '"+e.Key+"' must be an integer literal.", budgetTypeHint(e.Key, e.Value))
			}
		}
	}
}

// DeclaredCaps returns the capabilities declared `true` in the program's cap
// headers, in header order without duplicates.
func DeclaredCaps(p *ast.Program) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range p.Headers {
		if h.Kind != ast.CapHeader {
			continue
		}
		for _, e := range h.Rec.Entries {
			if e.Spread || seen[e.Key] {
				continue
			}
			if lit, ok := e.Value.(*ast.Literal); ok && lit.Kind == ast.LitBool && lit.Bool {
				seen[e.Key] = true
				out = append(out, e.Key)
			}
		}
	}
	return out
}

// ---- tool walk ----

func (c *checker) tools(p *ast.Program) {
	for _, s := range p.Stmts {
		walkStmt(s, func(e ast.Expr) {
			t, ok := e.(*ast.ToolCall)
			if !ok {
				return
			}
			info, known := c.cfg.tool(t.Tool)
			if !known {
				names := c.cfg.toolNames()
				c.add(diag.EUnknownTool, &t.ToolSpan, "Unknown tool '"+t.Tool+"'.",
					unknownToolHint(t.Tool, names))
				return
			}
			if !c.declared[info.Cap] && !c.cfg.Session {
				c.add(diag.EUndeclaredCap, &t.ToolSpan, "Tool '"+t.Tool+"' is used but its capability is not declared in a 'cap { ... }' header.",
					"Add '"+info.Cap+": true' to your cap { ... } declaration.")
			}
			if !t.Do && info.Effect {
				c.add(diag.ECallEffect, &t.Span, "Cannot use 'call?' with effectful tool '"+t.Tool+"'. Use 'do' instead.",
					"Replace 'call? "+t.Tool+"' with 'do "+t.Tool+"'.")
			}
			if c.cfg.Strict && info.Params != nil {
				c.toolArgNames(t.Tool, info.Params, t.Args, t.Args.Span)
			}
			if c.cfg.Strict && info.Args != nil {
				c.argTypes(t.Tool, info.Args, t.Args)
			}
			if info.Input != nil && c.cfg.ToolSchemas {
				c.schemaArgs(t, info.Input)
			}
		})
	}
}

// UsedTools returns the names of the tools a program calls, sorted.
func UsedTools(p *ast.Program) []string {
	seen := map[string]bool{}
	for _, s := range p.Stmts {
		walkStmt(s, func(e ast.Expr) {
			if t, ok := e.(*ast.ToolCall); ok {
				seen[t.Tool] = true
			}
		})
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// walkStmt calls f on every expression under s in pre-order, source order,
// visiting only the parts the binding walk visits.
func walkStmt(s ast.Stmt, f func(ast.Expr)) {
	switch s := s.(type) {
	case *ast.LetStmt:
		walkExpr(s.Value, f)
	case *ast.ExprStmt:
		walkExpr(s.X, f)
	case *ast.ReturnStmt:
		walkExpr(s.X, f)
	case *ast.FnDecl:
		walkBlock(s.Body, f)
	}
}

func walkBlock(b *ast.Block, f func(ast.Expr)) {
	for _, s := range b.Stmts {
		walkStmt(s, f)
	}
}

func walkRecord(r *ast.RecordExpr, f func(ast.Expr)) {
	for _, e := range r.Entries {
		walkExpr(e.Value, f)
	}
}

func walkExpr(e ast.Expr, f func(ast.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case *ast.RecordExpr:
		walkRecord(e, f)
	case *ast.ListExpr:
		for _, x := range e.Elems {
			walkExpr(x, f)
		}
	case *ast.CallExpr:
		walkRecord(e.Args, f)
	case *ast.ToolCall:
		walkRecord(e.Args, f)
	case *ast.AssertExpr:
		walkRecord(e.Args, f)
	case *ast.IfBlock:
		walkExpr(e.Cond, f)
		walkBlock(e.Then, f)
		walkBlock(e.Else, f)
	case *ast.IfRecord:
		walkExpr(e.Cond, f)
		walkExpr(e.Then, f)
		walkExpr(e.Else, f)
	case *ast.ForExpr:
		walkExpr(e.In, f)
		walkBlock(e.Body, f)
	case *ast.FilterBlock:
		walkExpr(e.In, f)
		walkBlock(e.Body, f)
	case *ast.LoopExpr:
		walkExpr(e.In, f)
		walkExpr(e.Times, f)
		walkBlock(e.Body, f)
	case *ast.MatchExpr:
		walkExpr(e.Subject, f)
		walkBlock(e.Ok.Body, f)
		walkBlock(e.Err.Body, f)
	case *ast.TryExpr:
		walkBlock(e.Body, f)
		walkBlock(e.Catch, f)
	case *ast.BinaryExpr:
		walkExpr(e.L, f)
		walkExpr(e.R, f)
	case *ast.UnaryExpr:
		walkExpr(e.X, f)
	case *ast.ParenExpr:
		walkExpr(e.X, f)
	}
}
