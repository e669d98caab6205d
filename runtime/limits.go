package runtime

import (
	"errors"
	"strconv"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// A run lends itself to library calls as their stdlib.Limits: the memory
// ceiling bounds what one call may build, and the run's flag (set on
// cancellation, at the timeMs deadline and past the memory ceiling) stops
// a call's long loops.

// MaxBytes is the memory ceiling (stdlib.Limits).
func (r *run) MaxBytes() int64 { return r.env.memLimit }

// Stopped reports whether the run must stop (stdlib.Limits).
func (r *run) Stopped() bool { return r.flag.Load() != 0 }

// libError turns the limit errors a library call (or the value package)
// gives back into the run's own: E_BUDGET memory or depth, or the reason
// the run was stopped. It returns nil for any other error.
func (r *run) libError(sp diag.Span, err error) error {
	var se *value.SizeError
	if errors.As(err, &se) {
		return r.memoryError(sp, se.Bytes)
	}
	var de *stdlib.DepthError
	if errors.As(err, &de) {
		return r.depthError(sp, int64(de.Depth))
	}
	if errors.Is(err, stdlib.ErrStopped) {
		if e := r.interrupted(sp); e != nil {
			return e
		}
		return newErr(diag.ECancelled, sp, r.cancelMessage())
	}
	return nil
}

// tooBig reports whether a value just built is nested deeper than
// value.MaxDepth or has a size past the memory ceiling (valueError then
// says which). Both are noted in the value when it is built, so this is
// O(1).
func (r *run) tooBig(v value.Value) bool {
	return v.Depth() > value.MaxDepth || (r.env.memLimit > 0 && v.Size() > r.env.memLimit)
}

// valueError is the error of a value tooBig refused.
func (r *run) valueError(sp diag.Span, v value.Value) error {
	if d := v.Depth(); d > value.MaxDepth {
		return r.depthError(sp, int64(d))
	}
	return r.memoryError(sp, v.Size())
}

// depthError is the E_BUDGET (budget "depth") of a value nested deeper
// than value.MaxDepth. Like the memory ceiling, it is not catchable.
func (r *run) depthError(sp diag.Span, actual int64) error {
	err := r.budgetError(sp, "depth", value.MaxDepth, actual,
		"Budget exceeded: values may be nested at most "+strconv.Itoa(value.MaxDepth)+" levels deep ("+strconv.FormatInt(actual, 10)+" levels).")
	if e, ok := err.(*Error); ok {
		e.uncatchable = true
		e.Hint = "Keep lists and records at most " + strconv.Itoa(value.MaxDepth) + " levels deep: build a flat list instead of wrapping a value in itself."
	}
	return err
}
