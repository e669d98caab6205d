package runtime

import "github.com/a0lang/a0/lang/value"

// A stdlib function reads its arguments from a record and never keeps it
// (see stdlib.Func), so a call whose argument names are fixed at compile
// time fills one record of the run over and over instead of allocating
// one per call. The record is taken out of the run while it is in use, so
// a call that re-enters the same node (through a user function among its
// arguments) builds its own; its values are cleared after the call, so it
// keeps nothing alive.

// maxReusedArgs is the most entries a reused argument record has (the
// values are first evaluated into a buffer of this size on the stack).
const maxReusedArgs = 8

// noArgReuse turns the reuse off in programs compiled while it is set
// (tests compare the two).
var noArgReuse bool

// argRec is a reusable argument record and its value slots.
type argRec struct {
	owner *recordNode // the literal it was made for: its keys
	rec   *value.Record
	vals  []value.Value
	list  *value.List // the lent list (see stdCallNode.lent), or nil
}

// lentLists names, per stdlib function, the argument whose list it only
// reads and never hands back: a list literal there is built in a list the
// run reuses (str.concat { parts: [...] }, the usual way to build text).
var lentLists = map[string]string{"str.concat": "parts", "join": "in"}

// lentEntry returns the entry of args that is a list literal lent to the
// stdlib function name, or -1.
func lentEntry(name string, args *recordNode) int {
	key, ok := lentLists[name]
	if !ok {
		return -1
	}
	for i := range args.entries {
		if _, isList := args.entries[i].x.(*listNode); isList && args.entries[i].key == key {
			return i
		}
	}
	return -1
}

// buildReused evaluates the entries of n (a shaped literal of at most
// maxReusedArgs entries) into the run's argument record idx, as build
// would: the same poll first, the entries in order. Entry lent (or -1) is
// a list literal built into the record's reused list.
func (n *recordNode) buildReused(r *run, f *frame, idx, lent int) (argRec, error) {
	if err := r.poll(n.pollSpan); err != nil {
		return argRec{}, err
	}
	var buf [maxReusedArgs]value.Value
	vals := buf[:len(n.entries)]
	var list *value.List
	for i := range n.entries {
		if i == lent {
			var err error
			if list, vals[i], err = n.lentList(r, f, idx, n.entries[i].x.(*listNode)); err != nil {
				return argRec{}, err
			}
			continue
		}
		v, err := n.entries[i].x.eval(r, f)
		if err != nil {
			return argRec{}, err
		}
		vals[i] = v
	}
	var a argRec
	if idx < len(r.args) && r.args[idx].owner == n {
		a = r.args[idx]
		r.args[idx] = argRec{}
	} else {
		// The first call of this node in the run, or the node is in use
		// (re-entered), or it belongs to another program of a session
		// whose indices this run does not hold.
		a.owner = n
		a.rec, a.vals = value.NewShaped(n.shape)
	}
	copy(a.vals, vals)
	a.rec.Seal()
	if list != nil {
		a.list = list
	}
	return a, nil
}

// lentList evaluates the list literal ln as listNode.eval does (poll,
// elements in order, the ceiling on its size) into the list of the run's
// argument record idx, taken out of it meanwhile.
func (n *recordNode) lentList(r *run, f *frame, idx int, ln *listNode) (*value.List, value.Value, error) {
	if err := r.poll(ln.span); err != nil {
		return nil, value.Value{}, err
	}
	var l *value.List
	if idx < len(r.args) && r.args[idx].owner == n && r.args[idx].list != nil {
		l = r.args[idx].list
		r.args[idx].list = nil
	} else {
		l = value.NewListN(len(ln.elems))
	}
	for i, e := range ln.elems {
		v, err := e.eval(r, f)
		if err != nil {
			return nil, value.Value{}, err
		}
		l.Items[i] = v
	}
	v := value.SealList(l)
	if r.tooBig(v) {
		return nil, value.Value{}, r.valueError(ln.span, v)
	}
	return l, v, nil
}

// giveBack clears the values of a and keeps it as the run's argument
// record idx.
func (r *run) giveBack(idx int, a argRec) {
	clear(a.vals)
	if a.list != nil {
		clear(a.list.Items)
	}
	if idx >= len(r.args) {
		if idx >= r.prog.nargs {
			return
		}
		if r.args == nil {
			r.args = make([]argRec, r.prog.nargs)
		}
	}
	r.args[idx] = a
}
