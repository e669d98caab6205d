package runtime

import (
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// rangeNode is a call of range. Evaluated as an expression it builds the
// list like any stdlib call; a consumer that only iterates it (for,
// filter with a body, map, filter and reduce with fn:) asks for its bounds
// instead, and no list is built. The checks and errors are the same:
// range's own argument checks and memory check, the poll after the call,
// and the ceiling on the list's size.
type rangeNode struct {
	stdCallNode
}

// bounds evaluates the arguments of range and returns its first element
// and length, failing exactly where building the list would fail.
func (n *rangeNode) bounds(r *run, f *frame) (seq, error) {
	var from float64
	var cnt int
	var ferr error
	if n.reuse >= 0 {
		a, err := n.args.buildReused(r, f, n.reuse, -1)
		if err != nil {
			return seq{}, err
		}
		from, cnt, ferr = stdlib.RangeBounds(r, a.rec)
		r.giveBack(n.reuse, a)
	} else {
		args, err := n.args.build(r, f)
		if err != nil {
			return seq{}, err
		}
		from, cnt, ferr = stdlib.RangeBounds(r, args)
	}
	if ferr != nil {
		if err := r.libError(n.span, ferr); err != nil {
			return seq{}, err
		}
		return seq{}, fnError(n.span, n.name, ferr)
	}
	if err := r.poll(n.span); err != nil {
		return seq{}, err
	}
	if size := value.NumberListSize(cnt); r.env.memLimit > 0 && size > r.env.memLimit {
		return seq{}, r.memoryError(n.span, size)
	}
	return seq{from: from, n: cnt, lazy: true}, nil
}

// seq is what a loop iterates: a list's items, or a range not built.
type seq struct {
	items []value.Value
	from  float64
	n     int
	lazy  bool
}

func listSeq(items []value.Value) seq { return seq{items: items, n: len(items)} }

// list builds the list (as range would have).
func (s *seq) list() value.Value {
	if !s.lazy {
		return value.ListOf(s.items)
	}
	out := make([]value.Value, s.n)
	for i := range out {
		out[i] = s.at(i)
	}
	return value.ListOf(out)
}

// at returns element i.
func (s *seq) at(i int) value.Value {
	if s.lazy {
		return value.Num(s.from + float64(i))
	}
	return s.items[i]
}

// hofLazyIn returns the position of the `in` entry of a map, filter or
// reduce call whose list can be iterated without building it: no spread,
// one `in` entry and it is a range call, and (filter) the fn form, whose
// list is not handed to the stdlib. -1 otherwise.
func hofLazyIn(kind hofKind, args *recordNode) int {
	if args.hasSpread {
		return -1
	}
	idx, hasFn := -1, false
	for i := range args.entries {
		switch args.entries[i].key {
		case "in":
			if idx >= 0 {
				return -1
			}
			if _, ok := args.entries[i].x.(*rangeNode); !ok {
				return -1
			}
			idx = i
		case "fn":
			hasFn = true
		case "by":
			if kind == hofFilter {
				return -1
			}
		}
	}
	if kind == hofFilter && !hasFn {
		return -1
	}
	return idx
}

// buildLazy builds the arguments of a hof call like recordNode.build,
// except that the range at entry inIdx is not built: the record gets an
// empty list in its place and the returned seq iterates the range.
func (n *hofNode) buildLazy(r *run, f *frame) (*value.Record, seq, error) {
	a := n.args
	if err := r.poll(a.pollSpan); err != nil {
		return nil, seq{}, err
	}
	var s seq
	rec := value.NewRecord(len(a.entries))
	for i := range a.entries {
		e := &a.entries[i]
		if i == n.inIdx {
			var err error
			if s, err = e.x.(*rangeNode).bounds(r, f); err != nil {
				return nil, seq{}, err
			}
			rec.Set(e.key, value.EmptyList)
			continue
		}
		v, err := e.x.eval(r, f)
		if err != nil {
			return nil, seq{}, err
		}
		rec.Set(e.key, v)
	}
	return rec, s, nil
}
