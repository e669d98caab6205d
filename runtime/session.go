package runtime

import (
	"context"
	"sort"
	"strconv"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/resolve"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// Session evaluates a sequence of inputs (the REPL) in one persistent
// top-level scope: bindings and functions of earlier inputs stay visible,
// and binding a name again replaces it. An input is any sequence of
// statements, with or without a final return; its value is the value of a
// final return or of a final bare expression statement.
//
// A Session is not safe for concurrent use: evaluate one input at a time.
type Session struct {
	env *Env
	// turn serialises the session's inputs and its other methods: one
	// token, taken by a send. Eval waits for it under its context.
	turn chan struct{}
	// top is the session's top level: the slot of every name bound there
	// and the function table, resolved against by each input.
	top   *resolve.Env
	frame *frame
	fns   []closure
	res   *runResources
	// bound is set once Bind bound `input`: each input's run_start then
	// records it (masked), as a program's run_start records its inputs.
	inputBound bool
}

// Resource returns the resource a tool opened in the session under key
// (see Call.Resource), or nil.
func (s *Session) Resource(key string) Resource {
	s.res.mu.Lock()
	defer s.res.mu.Unlock()
	return s.res.byKey[key]
}

// Close ends the session: every resource its tools keep (background jobs)
// is stopped. Hosts and the REPL must call it.
func (s *Session) Close() {
	_ = s.res.close("run_end") // a panicking Close does not escape; the others are closed
}

// NewSession starts an empty session.
func (e *Env) NewSession() *Session {
	return &Session{env: e.ready(), turn: make(chan struct{}, 1), top: resolve.NewEnv(), frame: newFrame(nil, 0), res: &runResources{}}
}

// Vars returns the names bound in the session with their current values,
// sorted by name.
func (s *Session) Vars() []Binding {
	s.lock()
	defer s.unlock()
	return s.vars()
}

// Fns returns the names of the functions declared in the session, sorted.
func (s *Session) Fns() []string {
	s.lock()
	defer s.unlock()
	return s.declaredFns()
}

// vars is Vars with the session's turn held.
func (s *Session) vars() []Binding {
	var out []Binding
	for i, n := range s.top.Names() {
		if i < len(s.frame.slots) && !s.frame.slots[i].IsUndefined() {
			out = append(out, Binding{Name: n, Value: s.frame.slots[i]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// bound reports whether an earlier input bound name as a variable (or, with
// fn, declared it as a function); the session's turn held.
func (s *Session) bound(name string, fn bool) bool {
	if fn {
		id, ok := s.top.FnID(name)
		return ok && id < len(s.fns) && s.fns[id].fn != nil
	}
	i, ok := s.top.Slot(name)
	return ok && i < len(s.frame.slots) && !s.frame.slots[i].IsUndefined()
}

// declaredFns is Fns with the session's turn held.
func (s *Session) declaredFns() []string {
	var out []string
	for n, id := range s.top.FnNames() {
		if id < len(s.fns) && s.fns[id].fn != nil {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Bind binds name to v in the session's top-level scope, replacing an
// earlier binding, as if an input had run `let name = v`. The REPL's
// `:input { … }` binds `input` this way; a record bound to `input` is
// then recorded (masked) in the run_start of every later input. v is checked against the value
// bounds (value.MaxDepth, the Env's memory limit); an invalid name or a
// value past them is E_INPUT.
func (s *Session) Bind(name string, v value.Value) error {
	if !validIdent(name) {
		return inputError(nil, name, "name", "'"+name+"' is not a variable name.", "Use a name made of letters, digits and _, not starting with a digit, and not a keyword.")
	}
	if v.Depth() > value.MaxDepth {
		return inputError(nil, name, "depth", "Input '"+name+"' is nested more than "+strconv.Itoa(value.MaxDepth)+" levels deep.", "Keep lists and records at most "+strconv.Itoa(value.MaxDepth)+" levels deep.")
	}
	if s.env.memLimit > 0 && v.Size() > s.env.memLimit {
		return inputError(nil, name, "size", "Input '"+name+"' is too large: "+strconv.FormatInt(v.Size(), 10)+" bytes, more than the memory limit of "+strconv.FormatInt(s.env.memLimit, 10)+" bytes.", "Pass a path and read large data at run time (fs.read) instead.")
	}
	s.lock()
	defer s.unlock()
	i := s.top.Declare(name)
	if n := s.top.Len(); n > len(s.frame.slots) {
		s.frame.slots = append(s.frame.slots, make([]value.Value, n-len(s.frame.slots))...)
	}
	s.frame.slots[i] = v
	if name == "input" {
		s.inputBound = true
	}
	return nil
}

// boundInput is the record Bind bound to `input`, if `input` still holds
// a record; the session's turn held.
func (s *Session) boundInput() (value.Value, bool) {
	if !s.inputBound {
		return value.Value{}, false
	}
	i, ok := s.top.Slot("input")
	if !ok || i >= len(s.frame.slots) || s.frame.slots[i].Kind() != value.RecordKind {
		return value.Value{}, false
	}
	return s.frame.slots[i], true
}

// validIdent reports whether name is an A0 identifier that is not a
// keyword.
func validIdent(name string) bool {
	if name == "" || lexer.Keywords[name] {
		return false
	}
	for i, r := range name {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// Binding is a session variable.
type Binding struct {
	Name  string
	Value value.Value
}

// ParseInput parses one session input; it reports whether the input is
// incomplete (more lines should be read; there is no diagnostic then).
func ParseInput(file, src string) (*ast.Program, diag.List, bool) {
	return parser.ParseInput(file, src, parser.Options{Signatures: stdlib.Params})
}

// Eval checks, compiles and runs one input. Static problems are returned
// as diagnostics (nothing runs); a runtime failure as an error.
//
// A session runs one input at a time: Eval waits for the input before it,
// and ends with E_CANCELLED if ctx ends first. Called from a tool of the
// session's own running input (with a context derived from its Call.Ctx)
// it would wait for itself: it returns E_RUNTIME at once instead. A nil
// ctx is context.Background().
func (s *Session) Eval(ctx context.Context, file, src string, opts RunOptions) (*Result, diag.List, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if ctx.Value(sessionKey{}) == s {
		return &Result{}, nil, &Error{Diagnostic: diag.Diagnostic{Code: diag.ERuntime,
			Message: "Session.Eval was called from a tool call of the same session's running input; the session runs one input at a time, so it would wait for itself.",
			Hint:    "Run the nested program with Env.Compile and Program.Run, or in another Session."}}
	}
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return &Result{}, nil, &Error{Diagnostic: diag.Diagnostic{Code: diag.ECancelled, Message: "Run cancelled."}}
	}
	defer s.unlock()
	p, ds := parser.Parse(file, src, parser.Options{Signatures: stdlib.Params})
	if len(ds) > 0 {
		return nil, ds, nil
	}
	cfg := *s.env.checkCfg
	cfg.Session = true
	// The checker asks about the names it meets, so an input costs the
	// same however many bindings the session holds.
	cfg.Outer = s.bound
	cfg.OuterNames = func(fns bool) []string {
		if fns {
			return s.declaredFns()
		}
		var out []string
		for _, b := range s.vars() {
			out = append(out, b.Name)
		}
		return out
	}
	cfg.Env = s.top
	info, ds := check.Resolve(p, &cfg)
	if len(ds) > 0 {
		return nil, ds, nil
	}
	info.Commit()
	if n := s.top.Len(); n > len(s.frame.slots) {
		s.frame.slots = append(s.frame.slots, make([]value.Value, n-len(s.frame.slots))...)
	}
	res, err := newCompiler(info).program(s.env, p).execute(ctx, opts, s)
	return res, nil, err
}

// sessionKey is the context key under which a session input's run
// context names its session (see Eval).
type sessionKey struct{}

// lock takes the session's turn; unlock gives it back.
func (s *Session) lock()   { s.turn <- struct{}{} }
func (s *Session) unlock() { <-s.turn }

// execSession runs a session input's statements in the persistent frame.
// The value is that of a final return, or of a final bare expression.
func (r *run) execSession(b *blockCode, f *frame) (value.Value, bool, error) {
	for i, st := range b.stmts {
		v, ret, err := r.execStmt(st, f)
		if err != nil {
			return v, false, err
		}
		if ret {
			return v, true, nil
		}
		if es, ok := st.(*exprStmtNode); ok && es.slot < 0 && i == len(b.stmts)-1 {
			return v, true, nil
		}
	}
	return value.Value{}, false, nil
}
