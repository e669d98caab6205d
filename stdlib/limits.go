package stdlib

import (
	"strconv"

	"github.com/a0lang/a0/lang/value"
)

// Limits is what the evaluator lends one library call: the memory ceiling
// a value it builds must stay under, and whether the run must stop. A call
// computes the size of what it is about to build and refuses, with a
// *value.SizeError, before allocating past MaxBytes; a call that loops over
// many elements polls Stopped every few thousand steps and gives up with
// ErrStopped (spec/language.md §9.2).
type Limits interface {
	// MaxBytes is the largest value.Size a value the call builds may
	// have; 0 is no limit.
	MaxBytes() int64
	// Stopped reports whether the run was cancelled, ran out of time or
	// passed the memory ceiling.
	Stopped() bool
}

// ErrStopped is the error of a call that gave up because Limits.Stopped
// reported true; the evaluator replaces it with the reason. (It is
// value.ErrStopped, which parse.json's parser gives.)
var ErrStopped = value.ErrStopped

// DepthError is the error of a call whose result would be nested deeper
// than value.MaxDepth.
type DepthError struct {
	Depth int // the depth asked for (at least)
}

func (e *DepthError) Error() string {
	return "value nested " + strconv.Itoa(e.Depth) + " levels deep (limit " + strconv.Itoa(value.MaxDepth) + ")"
}

// NoLimits lets a call build anything and never stops it (tests, tools).
var NoLimits Limits = noLimits{}

type noLimits struct{}

func (noLimits) MaxBytes() int64 { return 0 }
func (noLimits) Stopped() bool   { return false }

// need refuses to build n bytes past the limit.
func need(l Limits, n int64) error {
	if m := l.MaxBytes(); m > 0 && n > m {
		return &value.SizeError{Bytes: n}
	}
	return nil
}

// slots is the memory of a list of n items (with its own slot), for need.
func slots(n int) int64 {
	return value.SlotBytes + value.ListBytes + int64(n)*value.SlotBytes
}

// pollEvery is how many steps of a long loop pass between two polls of
// Limits.Stopped.
const pollEvery = 1024

// ticker counts the steps of a long loop and polls Stopped every
// pollEvery steps.
type ticker struct {
	l Limits
	n uint32
}

func (t *ticker) tick() error {
	t.n++
	if t.n%pollEvery == 0 && t.l.Stopped() {
		return ErrStopped
	}
	return nil
}
