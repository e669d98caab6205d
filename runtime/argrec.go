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
}

// buildReused evaluates the entries of n (a shaped literal of at most
// maxReusedArgs entries) into the run's argument record idx, as build
// would: the same poll first, the entries in order.
func (n *recordNode) buildReused(r *run, f *frame, idx int) (argRec, error) {
	if err := r.poll(n.span); err != nil {
		return argRec{}, err
	}
	var buf [maxReusedArgs]value.Value
	vals := buf[:len(n.entries)]
	for i := range n.entries {
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
	return a, nil
}

// giveBack clears the values of a and keeps it as the run's argument
// record idx.
func (r *run) giveBack(idx int, a argRec) {
	clear(a.vals)
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
