// Package resolve binds the names of an A0 program, once, for both the
// checker and the compiler (spec/language.md §5).
//
// The model follows starlark-go's resolve package: one walk over the tree
// records every declaration as a [Binding] (kind, block, frame slot,
// function-table index) and the moment it becomes visible, every block as
// a [Scope] (one frame: its slots, in order, each with its binding), and
// the moment each statement starts. The walk visits exactly what the
// checker checks and the evaluator evaluates (the `cond`, `then` and `else`
// of `if { … }`, the `in` and `times` of `for`, `filter` and `loop`, never
// the other entries of those records), depth-first, in source order. The
// results are kept beside the tree, in an [Info], not in it: the tree stays
// immutable and may be resolved again.
//
// A0 needs two answers for a variable use, and the same scopes give both:
//
//   - The static binding ([Point.Var]): the declaration bound before the use
//     in the innermost enclosing block that has one. A use directly in a
//     statement sees what was visible where the statement starts
//     ([Scope.At]). The checker reports E_UNBOUND when there is none, and
//     suggests the names visible there ([Point.Names]).
//   - The run-time candidates ([Scope.Refs]). Every block body runs in a
//     fresh frame; closures capture frames by reference, so a `let` that
//     runs later in an enclosing block becomes visible to a function
//     declared before it (spec/language.md §5.3). A use therefore reads
//     every enclosing frame slot of its name, innermost first, and at run
//     time the first slot that has been set wins. Usually there is one.
//
// Each Scope is one frame: its slots are the block's implicit names
// (parameters, the `as` name, the arm or catch binding) first, in order,
// then every name a `let` or `-> name` binds directly in the block, in
// source order. Functions live in one program-wide table indexed by name
// (spec/language.md §5.4): each function name gets a table index
// ([Binding.ID], [Info.FnTable]) at its first declaration.
//
// A session (the REPL) keeps its top level across inputs in an [Env]; each
// input is resolved against it and [Info.Commit] adds the input's names
// once the input passed the checker.
package resolve

import (
	"github.com/a0lang/a0/lang/ast"
)

// Kind says what a name denotes.
type Kind uint8

// Binding kinds.
const (
	// Undefined: no binding (an unknown name).
	Undefined Kind = iota
	// Local is a variable bound by `let n = …` or `… -> n`.
	Local
	// Param is a function parameter.
	Param
	// Implicit is the `as` name of for, filter and loop, a match arm's
	// binding or a catch binding.
	Implicit
	// Input is `input`, bound by the program's input header.
	Input
	// Self is a function's own name inside its body: the checker accepts
	// it as a variable, but it has no slot, so a run that reads it fails
	// with E_UNBOUND unless an enclosing frame binds the name.
	Self
	// Outer is a name bound outside the program: by an earlier session
	// input, or listed in the checker's Config.Vars and Config.Fns.
	Outer
	// Function is a user function declared with `fn`.
	Function
)

var kindNames = [...]string{"undefined", "local", "param", "implicit", "input", "self", "outer", "function"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Binding is one declared name. Every use of a variable that the same
// declaration binds shares the Binding (a second `let` of a name in one
// block, an error, shares the first one's); every `fn` statement has its
// own.
type Binding struct {
	Name string
	Kind Kind
	seq  int32 // walk step at which the name became visible
	// Scope is the block that binds the name; nil for a name an earlier
	// session input bound (Options.Outer).
	Scope *Scope
	// Slot is the index of the name's slot in Scope's frame, or -1 (Self,
	// Outer, Function).
	Slot int
	// Fn is the declaration of a Function binding (nil for an Outer one).
	Fn *ast.FnDecl
	// ID is a Function's index in the program-wide function table (also
	// set for a session's Outer function), else -1.
	ID int

	prev *Binding // the earlier function of the same name in the scope
}

// Params returns the parameters of a Function binding and whether they
// are known (not for a function of an earlier session input).
func (b *Binding) Params() ([]string, bool) {
	if b == nil || b.Fn == nil {
		return nil, false
	}
	return b.Fn.Params, true
}

// Ref addresses a frame slot Hops frames up from the current one.
type Ref struct {
	Hops int
	Slot int
}

// Scope is one block (or the top level): one frame at run time.
type Scope struct {
	// Parent is the enclosing block's scope (nil at the top level).
	Parent *Scope
	// Node is the *ast.Block or *ast.Program the scope belongs to.
	Node ast.Node
	// HasFn reports that a function is declared in the block or in a block
	// nested in it, so a closure may capture its frames.
	HasFn bool

	top bool
	// outer is the pseudo-scope of names bound outside the program; it
	// has no frame.
	outer bool
	// binds holds one binding per own slot, in slot order, Kind
	// Undefined until the walk reaches the statement that binds it.
	binds []Binding
	slots map[string]int // name -> index in binds, once there are many
	self  *Binding       // a function body's own name (Kind Self)
	at    []int32        // the walk step at which each statement starts
	fns   *table         // functions declared so far (latest first)
	*edge                // the top level's and the outer scope's extras
}

// edge holds what only the top level and the outer pseudo-scope have.
type edge struct {
	// base is the number of slots an Env already holds (session top).
	base int
	env  *Env
	// rebound holds the bindings of names an earlier session input bound
	// that this input binds again (their slots are the Env's).
	rebound  map[string]*Binding
	ext      func(name string, fn bool) bool
	extNames func(fn bool) []string
}

// fnTable returns the scope's function table, nil when it has none.
func (s *Scope) fnTable() *table {
	if s.fns == nil {
		return &noFns
	}
	return s.fns
}

var noFns table

// Bound returns the binding a statement of the scope's block creates: the
// variable of a `let` or of an expression statement with a target, the
// function of an `fn` statement; nil for anything else.
func (s *Scope) Bound(st ast.Stmt) *Binding {
	switch st := st.(type) {
	case *ast.LetStmt:
		return s.bound(st.Name)
	case *ast.ExprStmt:
		if st.Target != nil {
			return s.bound(st.Target.Parts[0])
		}
	case *ast.FnDecl:
		for b := s.fnTable().get(st.Name); b != nil; b = b.prev {
			if b.Fn == st {
				return b
			}
		}
	}
	return nil
}

// base0 is the slot of the scope's first own name.
func (s *Scope) base0() int {
	if s.edge != nil {
		return s.base
	}
	return 0
}

// Len returns the number of slots of the scope's frame.
func (s *Scope) Len() int {
	if s.edge != nil {
		return s.base + len(s.binds)
	}
	return len(s.binds)
}

// Names returns the names of the frame's slots in slot order; for a
// session input's top level, only those the input adds to its Env's.
func (s *Scope) Names() []string {
	out := make([]string, len(s.binds))
	for i := range s.binds {
		out[i] = s.binds[i].Name
	}
	return out
}

// Top reports whether s is the program's top level.
func (s *Scope) Top() bool { return s.top }

// slot returns the frame slot of name, if the block binds it.
func (s *Scope) slot(name string) (int, bool) {
	i, ok := s.own(name)
	if s.edge == nil {
		return i, ok
	}
	if ok {
		return s.base + i, true
	}
	if s.env != nil {
		return s.env.Slot(name)
	}
	return 0, false
}

// own returns the index of name among the scope's own slots.
func (s *Scope) own(name string) (int, bool) {
	if s.slots != nil {
		i, ok := s.slots[name]
		return i, ok
	}
	for i := range s.binds {
		if s.binds[i].Name == name {
			return i, true
		}
	}
	return 0, false
}

// bound returns the variable binding of name in s, once the walk bound
// it (nil otherwise).
func (s *Scope) bound(name string) *Binding {
	if i, ok := s.own(name); ok && i < len(s.binds) && s.binds[i].Kind != Undefined {
		return &s.binds[i]
	}
	if s.self != nil && s.self.Name == name {
		return s.self
	}
	if s.edge != nil && s.rebound != nil {
		return s.rebound[name]
	}
	return nil
}

// Slot returns the frame slot of name in s, or -1.
func (s *Scope) Slot(name string) int {
	if i, ok := s.slot(name); ok {
		return i
	}
	return -1
}

func (s *Scope) declare(name string) {
	if _, ok := s.slot(name); ok {
		return
	}
	if s.slots != nil {
		s.slots[name] = len(s.binds)
	} else if len(s.binds) == smallTable {
		s.slots = make(map[string]int, 2*smallTable)
		for i := range s.binds {
			s.slots[s.binds[i].Name] = i
		}
		s.slots[name] = len(s.binds)
	}
	// Every name is declared before the walk binds any (and so hands
	// out pointers into binds).
	s.binds = append(s.binds, Binding{Name: name, Slot: -1, ID: -1})
}

// smallTable is the size up to which a scope's names are searched in a
// list rather than hashed: most blocks bind a handful.
const smallTable = 8

// table maps names to bindings: a short list, a map once it grows.
type table struct {
	list []*Binding
	m    map[string]*Binding
}

func (t *table) get(name string) *Binding {
	if t.m != nil {
		return t.m[name]
	}
	for _, b := range t.list {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// set adds b, replacing the binding of the same name.
func (t *table) set(b *Binding) {
	if t.m != nil {
		t.m[b.Name] = b
		return
	}
	for i, x := range t.list {
		if x.Name == b.Name {
			t.list[i] = b
			return
		}
	}
	t.list = append(t.list, b)
	if len(t.list) > smallTable {
		t.m = make(map[string]*Binding, 2*len(t.list))
		for _, x := range t.list {
			t.m[x.Name] = x
		}
		t.list = nil
	}
}

func (t *table) each(f func(*Binding)) {
	if t.m != nil {
		for _, b := range t.m {
			f(b)
		}
		return
	}
	for _, b := range t.list {
		f(b)
	}
}

// At returns the point where statement i of the scope's block (or
// program) starts; i may be the number of statements (the end). Every use
// and call directly in a statement (not in a nested block) sees what is
// visible there: nothing is bound in an enclosing scope while a statement
// runs, but the statement's own `let`, target or `fn` after it.
func (s *Scope) At(i int) Point {
	var seq int32
	if i < len(s.at) {
		seq = s.at[i]
	}
	return Point{s, seq}
}

// Refs returns the run-time candidates of a use of name in the block of
// s: every enclosing frame slot that holds the name, innermost first. At
// run time the first of them that is set holds the value (none set:
// E_UNBOUND). Usually there is one.
func (s *Scope) Refs(name string) []Ref {
	var out []Ref
	hops := 0
	for sc := s; sc != nil && !sc.outer; sc = sc.Parent {
		if i, ok := sc.slot(name); ok {
			out = append(out, Ref{hops, i})
		}
		hops++
	}
	return out
}

// Point is a place in the walk: a scope and a moment. It answers what was
// visible there under the static rule.
type Point struct {
	scope *Scope
	seq   int32
}

// Var returns the variable binding visible at p under the static rule, or
// nil.
func (p Point) Var(name string) *Binding {
	for s := p.scope; s != nil; s = s.Parent {
		if b := s.bound(name); b != nil && b.seq <= p.seq {
			return b
		}
		if s.edge != nil && s.ext != nil && s.ext(name, false) {
			return &Binding{Name: name, Kind: Outer, Slot: -1, ID: -1}
		}
	}
	return nil
}

// Fn returns the user function visible at p (the last declared in the
// innermost block that declares one before p), or nil.
func (p Point) Fn(name string) *Binding {
	for s := p.scope; s != nil; s = s.Parent {
		for b := s.fnTable().get(name); b != nil; b = b.prev {
			if b.seq <= p.seq {
				return b
			}
		}
		if s.edge != nil && s.ext != nil && s.ext(name, true) {
			id := -1
			if s.env != nil {
				if i, ok := s.env.fnIDs[name]; ok {
					id = i
				}
			}
			return &Binding{Name: name, Kind: Outer, Slot: -1, ID: id}
		}
	}
	return nil
}

// Names lists the variables (or, with fns, the user functions) visible at
// p, in no particular order, for did-you-mean hints.
func (p Point) Names(fns bool) []string {
	var out []string
	for s := p.scope; s != nil; s = s.Parent {
		if fns {
			s.fnTable().each(func(b *Binding) {
				for x := b; x != nil; x = x.prev {
					if x.seq <= p.seq {
						out = append(out, b.Name)
						break
					}
				}
			})
		} else {
			for i := range s.binds {
				if b := &s.binds[i]; b.Kind != Undefined && b.seq <= p.seq {
					out = append(out, b.Name)
				}
			}
			if s.self != nil && s.bound(s.self.Name) == s.self {
				out = append(out, s.self.Name)
			}
			if s.edge != nil {
				for n, b := range s.rebound {
					if b.seq <= p.seq {
						out = append(out, n)
					}
				}
			}
		}
		if s.edge != nil && s.extNames != nil {
			out = append(out, s.extNames(fns)...)
		}
	}
	return out
}

// Options says what the program is resolved against.
type Options struct {
	// Input binds `input` at the top level (slot 0): the program has an
	// input header.
	Input bool
	// Env is the top level of a session: earlier inputs' slots and
	// function table. Nil for a program.
	Env *Env
	// Outer reports whether a name is bound outside the program (by an
	// earlier session input), as a function when fn; OuterNames lists
	// them. They are visible everywhere and never duplicates.
	Outer      func(name string, fn bool) bool
	OuterNames func(fn bool) []string
	// Vars and Fns are names bound outside the program, without slots
	// (check-only use; ignored when Outer is set).
	Vars, Fns []string
}

// Info is the resolution of one program.
type Info struct {
	// Top is the top-level scope.
	Top *Scope

	blocks    map[*ast.Block]*Scope
	redecl    map[ast.Stmt]bool
	dupParams map[*ast.FnDecl][]string
	fnIDs     map[string]int // this program's new function names
	env       *Env
}

// Block returns the scope of a block body, or nil if the walk did not
// reach it.
func (i *Info) Block(b *ast.Block) *Scope { return i.blocks[b] }

// Redeclared reports that a `let`, a target or an `fn` statement binds a
// name its block (for `fn` in a nested block: its visible functions)
// already has (E_DUP_BINDING, E_FN_DUP).
func (i *Info) Redeclared(s ast.Stmt) bool { return i.redecl[s] }

// DupParams returns each repeated parameter of a declaration, once per
// repetition, in order.
func (i *Info) DupParams(d *ast.FnDecl) []string { return i.dupParams[d] }

// FnTable returns the function table: the index of every function name
// and the table size. For a session input it is the session's table,
// complete once Commit ran.
func (i *Info) FnTable() (map[string]int, int) {
	if i.env != nil {
		return i.env.fnIDs, len(i.env.fnIDs)
	}
	return i.fnIDs, len(i.fnIDs)
}

// Commit adds a session input's top-level names and function names to
// its Env. Call it once the input passed the checker.
func (i *Info) Commit() {
	if i.env == nil {
		return
	}
	for k := range i.Top.binds {
		i.env.Declare(i.Top.binds[k].Name)
	}
	for n, id := range i.fnIDs {
		i.env.fnIDs[n] = id
	}
}

// Env is the top level a session keeps across inputs: a slot for every
// name bound there, and the function table.
type Env struct {
	slots map[string]int
	names []string
	fnIDs map[string]int
}

// NewEnv returns an empty session top level.
func NewEnv() *Env {
	return &Env{slots: map[string]int{}, fnIDs: map[string]int{}}
}

// Declare returns the slot of name, adding one if needed (a host binding
// a session variable).
func (e *Env) Declare(name string) int {
	if i, ok := e.slots[name]; ok {
		return i
	}
	i := len(e.names)
	e.slots[name] = i
	e.names = append(e.names, name)
	return i
}

// Slot returns the slot of name.
func (e *Env) Slot(name string) (int, bool) {
	i, ok := e.slots[name]
	return i, ok
}

// Len returns the number of slots.
func (e *Env) Len() int { return len(e.names) }

// Names returns the slot names in slot order.
func (e *Env) Names() []string { return e.names }

// FnID returns the function table index of a function name.
func (e *Env) FnID(name string) (int, bool) {
	i, ok := e.fnIDs[name]
	return i, ok
}

// FnNames returns the function names that have a table index.
func (e *Env) FnNames() map[string]int { return e.fnIDs }

type resolver struct {
	info *Info
	opts *Options
	cur  *Scope
	seq  int32
	nfn  int // size of the function table so far
	// Chunks that small objects are carved from (a program has many small
	// blocks; one allocation serves many): binds for the Bindings of
	// functions and of function names in their bodies, slots for the
	// blocks' slot bindings, scopes for the Scopes, at for the statement
	// steps.
	binds  []Binding
	slots  []Binding
	scopes []Scope
	at     []int32
}

const (
	bindingChunk = 32
	scopeChunk   = 32
	slotChunk    = 64
	atChunk      = 256
)

func (r *resolver) newScope() *Scope {
	if len(r.scopes) == cap(r.scopes) {
		r.scopes = make([]Scope, 0, scopeChunk)
	}
	r.scopes = r.scopes[:len(r.scopes)+1]
	return &r.scopes[len(r.scopes)-1]
}

// carve returns an empty slice with room for exactly n slot bindings.
func (r *resolver) carveSlots(n int) []Binding {
	if n > slotChunk/4 {
		return make([]Binding, 0, n)
	}
	if cap(r.slots)-len(r.slots) < n {
		r.slots = make([]Binding, 0, min(max(2*cap(r.slots), 4*n, 8), slotChunk))
	}
	k := len(r.slots)
	r.slots = r.slots[:k+n]
	return r.slots[k : k : k+n]
}

// carveAt returns a slice of n statement steps.
func (r *resolver) carveAt(n int) []int32 {
	if n > atChunk/4 {
		return make([]int32, n)
	}
	if cap(r.at)-len(r.at) < n {
		// Chunks grow from a small first one, so a small program's
		// resolve allocates tens of bytes here, not a whole chunk.
		r.at = make([]int32, 0, min(max(2*cap(r.at), 4*n, 16), atChunk))
	}
	k := len(r.at)
	r.at = r.at[:k+n]
	return r.at[k : k+n : k+n]
}

func (r *resolver) newBinding() *Binding {
	if len(r.binds) == cap(r.binds) {
		r.binds = make([]Binding, 0, bindingChunk)
	}
	r.binds = r.binds[:len(r.binds)+1]
	return &r.binds[len(r.binds)-1]
}

// Program resolves p.
func Program(p *ast.Program, opts *Options) *Info {
	info := &Info{
		blocks: map[*ast.Block]*Scope{},
		fnIDs:  map[string]int{},
		env:    opts.Env,
	}
	r := &resolver{info: info, opts: opts, seq: 1}
	var outer *Scope
	switch {
	case opts.Outer != nil:
		outer = &Scope{outer: true, edge: &edge{ext: opts.Outer, extNames: opts.OuterNames, env: opts.Env}}
	case len(opts.Vars) > 0 || len(opts.Fns) > 0:
		outer = &Scope{outer: true, edge: &edge{}, fns: &table{}}
		for _, n := range opts.Vars {
			outer.declare(n)
		}
		for i := range outer.binds {
			outer.binds[i].Kind, outer.binds[i].Scope = Outer, outer
		}
		for _, n := range opts.Fns {
			outer.fns.set(&Binding{Name: n, Kind: Outer, Scope: outer, Slot: -1, ID: -1})
		}
	}
	top := &Scope{Parent: outer, Node: p, top: true, edge: &edge{}}
	if opts.Env != nil {
		top.env, top.base = opts.Env, opts.Env.Len()
		r.nfn = len(opts.Env.fnIDs)
	}
	info.Top = top
	r.cur = top
	if opts.Input {
		top.declare("input")
	}
	predeclare(top, p.Stmts)
	if opts.Input {
		r.bindVar("input", Input)
	}
	r.stmts(top, p.Stmts)
	return info
}

// binders counts the statements of a block that bind a variable.
func binders(stmts []ast.Stmt) int {
	n := 0
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.LetStmt:
			n++
		case *ast.ExprStmt:
			if st.Target != nil {
				n++
			}
		}
	}
	return n
}

// predeclare gives a slot to every name bound directly in stmts.
func predeclare(s *Scope, stmts []ast.Stmt) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.LetStmt:
			s.declare(st.Name)
		case *ast.ExprStmt:
			if st.Target != nil {
				s.declare(st.Target.Parts[0])
			}
		}
	}
}

func (r *resolver) point() Point { return Point{r.cur, r.seq} }

// bindVar makes a variable of the current scope visible from now on.
func (r *resolver) bindVar(name string, k Kind) *Binding {
	s := r.cur
	r.seq++
	if k == Self {
		b := r.newBinding()
		*b = Binding{Name: name, Kind: Self, Scope: s, Slot: -1, ID: -1, seq: r.seq}
		s.self = b
		return b
	}
	var b *Binding
	slot := -1
	if i, ok := s.own(name); ok {
		b, slot = &s.binds[i], s.base0()+i
	} else {
		// Every variable a block binds has a slot of its own, but for a
		// session input's top level rebinding an earlier input's name.
		slot, _ = s.slot(name)
		if s.rebound == nil {
			s.rebound = map[string]*Binding{}
		}
		if b = s.rebound[name]; b == nil {
			b = r.newBinding()
			s.rebound[name] = b
		}
	}
	if b.Kind != Undefined {
		return b // bound twice: the checker reports it
	}
	*b = Binding{Name: name, Kind: k, Scope: s, Slot: slot, ID: -1, seq: r.seq}
	if s.self != nil && s.self.Name == name {
		// The name was visible (as the function's own) since the body
		// began.
		b.seq = s.self.seq
	}
	return b
}

// dupVar reports whether a `let` of name would bind it twice in the
// current scope.
func (r *resolver) dupVar(name string) bool {
	return r.cur.bound(name) != nil || r.cur.fnTable().get(name) != nil
}

func (r *resolver) redeclared(s ast.Stmt) {
	if r.info.redecl == nil {
		r.info.redecl = map[ast.Stmt]bool{}
	}
	r.info.redecl[s] = true
}

// stmts resolves the statements of scope sc, noting the moment each
// starts (Scope.At).
func (r *resolver) stmts(sc *Scope, list []ast.Stmt) {
	sc.at = r.carveAt(len(list) + 1)
	for i, s := range list {
		sc.at[i] = r.seq
		r.stmt(s)
	}
	sc.at[len(list)] = r.seq
}

func (r *resolver) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.LetStmt:
		if r.dupVar(s.Name) {
			r.redeclared(s)
		}
		r.expr(s.Value)
		r.bindVar(s.Name, Local)
	case *ast.ExprStmt:
		r.expr(s.X)
		if s.Target != nil {
			n := s.Target.Parts[0]
			if r.dupVar(n) {
				r.redeclared(s)
			}
			r.bindVar(n, Local)
		}
	case *ast.ReturnStmt:
		r.expr(s.X)
	case *ast.FnDecl:
		r.fnDecl(s)
	}
}

func (r *resolver) fnDecl(d *ast.FnDecl) {
	sc := r.cur
	var dup bool
	if sc.top {
		dup = sc.fnTable().get(d.Name) != nil || sc.bound(d.Name) != nil
	} else {
		dup = r.point().Fn(d.Name) != nil || sc.bound(d.Name) != nil
	}
	if dup {
		r.redeclared(d)
	}
	seen := map[string]bool{}
	for _, p := range d.Params {
		if seen[p] {
			if r.info.dupParams == nil {
				r.info.dupParams = map[*ast.FnDecl][]string{}
			}
			r.info.dupParams[d] = append(r.info.dupParams[d], p)
		}
		seen[p] = true
	}
	for s := sc; s != nil && !s.HasFn; s = s.Parent {
		s.HasFn = true
	}
	id, ok := r.fnID(d.Name)
	if !ok {
		id = r.nfn
		r.nfn++
		r.info.fnIDs[d.Name] = id
	}
	r.seq++
	b := r.newBinding()
	*b = Binding{Name: d.Name, Kind: Function, Scope: sc, Slot: -1, Fn: d, ID: id, seq: r.seq}
	if sc.fns == nil {
		sc.fns = &table{}
	}
	b.prev = sc.fns.get(d.Name)
	sc.fns.set(b)
	r.block(d.Body, func() {
		r.bindVar(d.Name, Self)
		for _, p := range d.Params {
			r.bindVar(p, Param)
		}
	}, d.Params...)
}

func (r *resolver) fnID(name string) (int, bool) {
	if id, ok := r.info.fnIDs[name]; ok {
		return id, true
	}
	if r.opts.Env != nil {
		return r.opts.Env.FnID(name)
	}
	return 0, false
}

// block resolves a block body in a new scope whose first slots are the
// implicit names; bind makes them visible.
func (r *resolver) block(b *ast.Block, bind func(), implicit ...string) {
	sc := r.newScope()
	sc.Parent, sc.Node = r.cur, b
	if n := len(implicit) + binders(b.Stmts); n > 0 {
		// Every declare of the block fits: the bindings never move.
		sc.binds = r.carveSlots(n)
	}
	for _, n := range implicit {
		sc.declare(n)
	}
	predeclare(sc, b.Stmts)
	r.info.blocks[b] = sc
	saved := r.cur
	r.cur = sc
	if bind != nil {
		bind()
	}
	r.stmts(sc, b.Stmts)
	r.cur = saved
}

// implicitBlock resolves a block with one implicit variable.
func (r *resolver) implicitBlock(b *ast.Block, name string) {
	r.block(b, func() { r.bindVar(name, Implicit) }, name)
}

func (r *resolver) record(rec *ast.RecordExpr) {
	if rec == nil {
		return
	}
	for _, e := range rec.Entries {
		r.expr(e.Value)
	}
}

func (r *resolver) expr(e ast.Expr) {
	switch e := e.(type) {
	case *ast.RecordExpr:
		r.record(e)
	case *ast.ListExpr:
		for _, x := range e.Elems {
			r.expr(x)
		}
	case *ast.CallExpr:
		r.record(e.Args)
	case *ast.ToolCall:
		r.record(e.Args)
	case *ast.AssertExpr:
		r.record(e.Args)
	case *ast.IfBlock:
		r.expr(e.Cond)
		r.block(e.Then, nil)
		r.block(e.Else, nil)
	case *ast.IfRecord:
		r.expr(e.Cond)
		r.expr(e.Then)
		r.expr(e.Else)
	case *ast.ForExpr:
		r.expr(e.In)
		r.implicitBlock(e.Body, e.As)
	case *ast.FilterBlock:
		r.expr(e.In)
		r.implicitBlock(e.Body, e.As)
	case *ast.LoopExpr:
		r.expr(e.In)
		r.expr(e.Times)
		r.implicitBlock(e.Body, e.As)
	case *ast.MatchExpr:
		r.expr(e.Subject)
		r.implicitBlock(e.Ok.Body, e.Ok.Binding)
		r.implicitBlock(e.Err.Body, e.Err.Binding)
	case *ast.TryExpr:
		r.block(e.Body, nil)
		r.implicitBlock(e.Catch, e.CatchName)
	case *ast.BinaryExpr:
		r.expr(e.L)
		r.expr(e.R)
	case *ast.UnaryExpr:
		r.expr(e.X)
	case *ast.ParenExpr:
		r.expr(e.X)
	}
}
