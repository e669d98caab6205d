package runtime

import (
	"sort"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// enterCall counts one level of user-function nesting and refuses
// runaway recursion with a diagnostic (never a Go stack overflow).
func (r *run) enterCall(sp diag.Span) error {
	r.depth++
	if r.depth > r.env.maxDepth {
		r.depth--
		return newErrHint(diag.ERuntime, sp, "Maximum call depth of "+strconv.Itoa(r.env.maxDepth)+" exceeded (runaway recursion?).",
			"Give the recursion a case that returns without calling itself; for long runs use loop, for or reduce.")
	}
	return nil
}

// callBody runs a user function's body in f (parameters already bound)
// and leaves the call level entered by enterCall.
func (r *run) callBody(body *blockCode, f *frame) (value.Value, error) {
	out, err := r.runBody(body, f)
	r.release(f, body)
	r.depth--
	return out, err
}

// runBody runs a user function's body in f and keeps f.
func (r *run) runBody(body *blockCode, f *frame) (value.Value, error) {
	if body.ret != nil && r.tr == nil {
		// A body that is one return statement, untraced: the statement's
		// flag check, then its expression, without the statement layer.
		if r.flag.Load() != 0 {
			if err := r.interrupted(body.ret.span); err != nil {
				return value.Value{}, err
			}
		}
		return body.ret.x.eval(r, f)
	}
	var out value.Value
	var err error
	for _, s := range body.stmts {
		var ret bool
		out, ret, err = r.execStmt(s, f)
		if err != nil || ret {
			break
		}
	}
	return out, err
}

func (n *userCallNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	c := r.fns[n.id]
	if c.fn == nil {
		return value.Value{}, newErr(diag.EUnknownFn, n.span, "Unknown function '"+n.name+"'.")
	}
	if r.tr != nil {
		if err := r.emit("fn_call_start", n.span, details("fn", n.name)); err != nil {
			return value.Value{}, err
		}
	}
	params := c.fn.params
	body := c.fn.body
	var out value.Value
	var err error
	if n.args.hasSpread {
		rec, err := n.args.build(r, f)
		if err != nil {
			return value.Value{}, err
		}
		if keys := recordKeys(n.args); check.UnknownArgs(params, keys) != nil {
			return value.Value{}, argNamesErr(n.span, n.name, params, keys, check.UnknownArgs(params, keys))
		}
		if err := r.enterCall(n.span); err != nil {
			return value.Value{}, err
		}
		nf := r.acquire(c.frame, body)
		for i, p := range params {
			nf.slots[i] = rec.GetOrNull(p)
		}
		out, err = r.callBody(body, nf)
		if err != nil {
			return out, err
		}
	} else {
		bc := n.cache.Load()
		if bc == nil || bc.fn != c.fn {
			bc = newBindCache(c.fn, n.args)
			n.cache.Store(bc)
		}
		if bc.unknown == nil {
			// Every argument binds a parameter: the arguments are
			// evaluated, in order, straight into the callee's frame.
			nf := r.acquire(c.frame, body)
			for j := range n.args.entries {
				v, err := n.args.entries[j].x.eval(r, f)
				if err != nil {
					r.release(nf, body)
					return value.Value{}, err
				}
				if i := bc.slot[j]; i >= 0 {
					nf.slots[i] = v
				}
			}
			for _, i := range bc.absent {
				nf.slots[i] = value.NullValue
			}
			if err := r.enterCall(n.span); err != nil {
				r.release(nf, body)
				return value.Value{}, err
			}
			if out, err = r.callBody(body, nf); err != nil {
				return out, err
			}
			if r.tr != nil {
				if err := r.emit("fn_call_end", n.span, details("fn", n.name)); err != nil {
					return value.Value{}, err
				}
			}
			return out, nil
		}
		m := bc.m
		var buf [8]value.Value
		vals := buf[:0]
		if len(n.args.entries) > len(buf) {
			vals = make([]value.Value, 0, len(n.args.entries))
		}
		for i := range n.args.entries {
			v, err := n.args.entries[i].x.eval(r, f)
			if err != nil {
				return value.Value{}, err
			}
			vals = append(vals, v)
		}
		if bc.unknown != nil {
			return value.Value{}, argNamesErr(n.span, n.name, params, recordKeys(n.args), bc.unknown)
		}
		if err := r.enterCall(n.span); err != nil {
			return value.Value{}, err
		}
		nf := r.acquire(c.frame, body)
		for i, j := range m {
			if j < 0 {
				nf.slots[i] = value.NullValue
			} else {
				nf.slots[i] = vals[j]
			}
		}
		out, err = r.callBody(body, nf)
		if err != nil {
			return out, err
		}
	}
	if r.tr != nil {
		if err := r.emit("fn_call_end", n.span, details("fn", n.name)); err != nil {
			return value.Value{}, err
		}
	}
	return out, nil
}

// newBindCache works out how the arguments of a call bind the parameters
// of fn.
func newBindCache(fn *fnCode, args *recordNode) *bindCache {
	bc := &bindCache{fn: fn, m: bindingMap(fn.params, args), unknown: check.UnknownArgs(fn.params, recordKeys(args))}
	bc.slot = make([]int, len(args.entries))
	for j := range bc.slot {
		bc.slot[j] = -1
	}
	for i, j := range bc.m {
		if j < 0 {
			bc.absent = append(bc.absent, i)
		} else {
			bc.slot[j] = i
		}
	}
	return bc
}

// bindingMap maps each parameter to the last argument entry with its name.
func bindingMap(params []string, args *recordNode) []int {
	m := make([]int, len(params))
	for i, p := range params {
		m[i] = -1
		for j := len(args.entries) - 1; j >= 0; j-- {
			if args.entries[j].key == p {
				m[i] = j
				break
			}
		}
	}
	return m
}

func (n *unknownFnNode) eval(r *run, f *frame) (value.Value, error) {
	return value.Value{}, newErr(diag.EUnknownFn, n.nameSpan, "Unknown function '"+n.name+"'.")
}

func (n *stdCallNode) eval(r *run, f *frame) (value.Value, error) {
	var args *value.Record
	var err error
	if n.reuse >= 0 {
		var a argRec
		if a, err = n.args.buildReused(r, f, n.reuse, n.lent); err != nil {
			return value.Value{}, err
		}
		v, ferr := n.fn(r, a.rec)
		r.giveBack(n.reuse, a)
		return n.done(r, v, ferr)
	}
	if args, err = n.args.build(r, f); err != nil {
		return value.Value{}, err
	}
	v, ferr := n.fn(r, args)
	return n.done(r, v, ferr)
}

// done checks the result of a stdlib call.
func (n *stdCallNode) done(r *run, v value.Value, ferr error) (value.Value, error) {
	if ferr != nil {
		if err := r.libError(n.span, ferr); err != nil {
			return value.Value{}, err
		}
		return value.Value{}, fnError(n.span, n.name, ferr)
	}
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	if r.tooBig(v) {
		return value.Value{}, r.valueError(n.span, v)
	}
	return v, nil
}

func fnError(sp diag.Span, name string, err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	e := newErrHint(diag.EFn, sp, "Function '"+name+"' failed: "+err.Error(), fnFailHint(name, err))
	e.Details = details("fn", name)
	return e
}

// hofType names an argument's type for map/filter/reduce messages:
// undefined when absent, null, or JavaScript's typeof.
func hofType(v value.Value, present bool) string {
	if !present {
		return "undefined"
	}
	if v.Kind() == value.Null {
		return "null"
	}
	return v.JSType()
}

func (n *hofNode) eval(r *run, f *frame) (value.Value, error) {
	var args *value.Record
	var items seq
	var err error
	if n.inIdx >= 0 {
		args, items, err = n.buildLazy(r, f)
	} else {
		args, err = n.args.build(r, f)
	}
	if err != nil {
		return value.Value{}, err
	}
	fnv, hasFn := args.Get("fn")
	if n.kind == hofFilter {
		by := args.GetOrNull("by")
		if !hasFn || fnv.IsNull() {
			if n.inIdx >= 0 {
				// fn: null hands the list to the stdlib after all.
				args.Set("in", items.list())
			}
			v, ferr := n.std(r, args)
			if ferr != nil {
				if err := r.libError(n.span, ferr); err != nil {
					return value.Value{}, err
				}
				return value.Value{}, fnError(n.span, string(hofFilter), ferr)
			}
			return v, nil
		}
		if !by.IsNull() {
			e := newErrHint(diag.EFn, n.span, "filter requires exactly one of 'by' or 'fn', not both.",
				"Keep one of the two: by: \"key\" keeps the records whose key is truthy, fn: \"name\" keeps the items your function returns true for (or a filter block, filter { in: xs, as: \"x\" } { return … }).")
			e.Details = details("fn", string(hofFilter))
			return value.Value{}, e
		}
	}
	in, hasIn := args.Get("in")
	if in.Kind() != value.ListKind {
		return value.Value{}, newErrHint(diag.EType, n.span, string(n.kind)+" 'in' must be a list, got "+hofType(in, hasIn)+".", hofInHint(string(n.kind), in, hasIn))
	}
	if fnv.Kind() != value.String {
		return value.Value{}, newErrHint(diag.EType, n.span, string(n.kind)+" 'fn' must be a string, got "+hofType(fnv, hasFn)+".",
			"Pass the function's name as a string: "+string(n.kind)+" { in: xs, fn: \"name\" }, with fn name { … } { return … } declared above.")
	}
	name := fnv.AsString()
	var c closure
	if id, ok := r.prog.fnIDs[name]; ok {
		c = r.fns[id]
	}
	if c.fn == nil {
		return value.Value{}, newErrHint(diag.EUnknownFn, n.span, "Unknown function '"+name+"'.", r.callbackHint(string(n.kind), name))
	}
	if n.inIdx < 0 {
		items = listSeq(in.AsList())
	}
	params := c.fn.params
	if n.kind == hofReduce {
		return n.reduce(r, c, name, items, args)
	}
	if r.tr != nil && n.kind == hofMap {
		if err := r.event("map_start", n.span, details("fn", name, "listLength", items.n)); err != nil {
			return value.Value{}, err
		}
	}
	out := make([]value.Value, 0, items.n)
	var size int64
	// A callback that cannot capture its frame gets one frame for every
	// iteration, cleared as a fresh one would be.
	var keep *frame
	if !c.fn.body.mayCapture {
		keep = r.acquire(c.frame, c.fn.body)
		defer r.release(keep, c.fn.body)
	}
	entered := false
	defer func() {
		if entered {
			r.depth--
		}
	}()
	for i := 0; i < items.n; i++ {
		it := items.at(i)
		if err := r.countIteration(n.span); err != nil {
			return value.Value{}, err
		}
		// fn_call_start comes before the item is checked, as in the
		// reference's trace.
		if r.tr != nil {
			if err := r.emit("fn_call_start", n.span, details("fn", name)); err != nil {
				return value.Value{}, err
			}
		}
		var rec *value.Record
		if len(params) != 1 {
			rec = it.AsRecord()
			if rec == nil {
				return value.Value{}, newErrHint(diag.EType, n.span, string(n.kind)+" item must be a record when function '"+name+
					"' expects "+strconv.Itoa(len(params))+" parameters; got "+it.ShapeName()+".",
					"A callback of several parameters reads them from each item's fields; for items that are not records declare it with one parameter, fn "+name+" { x } { … }.")
			}
		}
		if !entered {
			// As in reduce: the depth check of the first iteration
			// holds for all of them.
			if err := r.enterCall(n.span); err != nil {
				return value.Value{}, err
			}
			entered = true
		}
		nf := keep
		if nf == nil {
			nf = r.acquire(c.frame, c.fn.body)
		}
		if rec == nil {
			nf.slots[0] = it
		} else {
			for i, p := range params {
				nf.slots[i] = rec.GetOrNull(p)
			}
		}
		if keep != nil && len(nf.slots) > len(params) {
			clear(nf.slots[len(params):])
		}
		v, err := r.runBody(c.fn.body, nf)
		if keep == nil {
			r.release(nf, c.fn.body)
		}
		if err != nil {
			return v, err
		}
		if r.tr != nil {
			if err := r.emit("fn_call_end", n.span, details("fn", name)); err != nil {
				return value.Value{}, err
			}
		}
		if n.kind == hofMap {
			out = append(out, v)
			// The results so far: stop as soon as they pass the ceiling.
			if size += v.Size(); r.env.memLimit > 0 && size > r.env.memLimit {
				return value.Value{}, r.memoryError(n.span, size)
			}
		} else if predicate(v) {
			out = append(out, it)
		}
	}
	res := value.ListOf(out)
	if r.tooBig(res) {
		return value.Value{}, r.valueError(n.span, res)
	}
	if r.tr != nil && n.kind == hofMap {
		if err := r.event("map_end", n.span, details("fn", name, "iterations", items.n)); err != nil {
			return value.Value{}, err
		}
	}
	return res, nil
}

func (n *hofNode) reduce(r *run, c closure, name string, items seq, args *value.Record) (value.Value, error) {
	if len(c.fn.params) != 2 {
		return value.Value{}, newErrHint(diag.EType, n.span, "reduce callback '"+name+"' must accept exactly 2 parameters (accumulator, item), got "+strconv.Itoa(len(c.fn.params))+".",
			"Declare it with the accumulator first and the item second: fn "+name+" { acc, x } { return … }, called as reduce { in: xs, fn: \""+name+"\", init: … }.")
	}
	acc := args.GetOrNull("init")
	if r.tr != nil {
		if err := r.emit("reduce_start", n.span, details("fn", name, "listLength", items.n)); err != nil {
			return value.Value{}, err
		}
	}
	// As in map: one frame for every iteration when the callback cannot
	// capture it.
	var keep *frame
	if !c.fn.body.mayCapture {
		keep = r.acquire(c.frame, c.fn.body)
		defer r.release(keep, c.fn.body)
	}
	// Every iteration enters the callback one level deeper than the
	// reduce and leaves it again, so the depth check gives the same answer
	// each time: it is made at the first iteration (where a fresh entry
	// would fail) and the level is kept until the loop ends.
	entered := false
	defer func() {
		if entered {
			r.depth--
		}
	}()
	for i := 0; i < items.n; i++ {
		it := items.at(i)
		if err := r.countIteration(n.span); err != nil {
			return value.Value{}, err
		}
		if r.tr != nil {
			if err := r.emit("fn_call_start", n.span, details("fn", name)); err != nil {
				return value.Value{}, err
			}
		}
		if !entered {
			if err := r.enterCall(n.span); err != nil {
				return value.Value{}, err
			}
			entered = true
		}
		var v value.Value
		var err error
		if keep != nil {
			// The callback cannot capture its frame: one frame serves
			// every iteration, its locals cleared as a fresh one's are.
			keep.slots[0] = acc
			keep.slots[1] = it
			if len(keep.slots) > 2 {
				clear(keep.slots[2:])
			}
			v, err = r.runBody(c.fn.body, keep)
		} else {
			nf := r.acquire(c.frame, c.fn.body)
			nf.slots[0] = acc
			nf.slots[1] = it
			v, err = r.runBody(c.fn.body, nf)
			r.release(nf, c.fn.body)
		}
		if err != nil {
			return v, err
		}
		acc = v
		if r.tr != nil {
			if err := r.emit("fn_call_end", n.span, details("fn", name)); err != nil {
				return value.Value{}, err
			}
		}
	}
	if r.tr != nil {
		if err := r.emit("reduce_end", n.span, details("fn", name, "iterations", items.n)); err != nil {
			return value.Value{}, err
		}
	}
	return acc, nil
}

// hofInHint names the fix for a map, filter or reduce whose in is no list.
func hofInHint(kind string, in value.Value, has bool) string {
	switch {
	case !has:
		return "Add the list: " + kind + " { in: xs, fn: \"name\" }."
	case in.Kind() == value.RecordKind:
		return "A record is no list: pass keys { in: r }, values { in: r } or entries { in: r }."
	case in.Kind() == value.String:
		return "A string is no list: split it first, str.split { in: s, sep: \"\\n\" } (or str.lines)."
	}
	return "Pass a list as in: typeof { in: x } shows what the value is."
}

// callbackHint names the fix for a map/filter/reduce callback name that
// names no function declared so far: a close name among the declared
// ones, else the list of them.
func (r *run) callbackHint(kind, name string) string {
	var names []string
	for fn, id := range r.prog.fnIDs {
		if id < len(r.fns) && r.fns[id].fn != nil {
			names = append(names, fn)
		}
	}
	sort.Strings(names)
	base := kind + " calls a function the program declares with fn, by its name: fn: \"name\""
	if s := diag.Suggest(name, names); s != "" {
		return base + ". Did you mean '" + s + "'?"
	}
	if len(names) == 0 {
		return base + "; this program declares none yet (a fn declaration runs before the call that uses it)."
	}
	return base + "; declared here: " + strings.Join(names, ", ") + "."
}
