// Package diag defines positions, spans and diagnostics shared by every phase of a0.
//
// It is a leaf package: it imports nothing from the project. A [Diagnostic]
// carries a stable code (E_PARSE, E_TYPE, ...), a message, an optional
// [Span], an optional hint and optional details; it implements error.
// Renderers for the JSON forms agents read and the text form people read live
// in render.go; quote.go quotes strings as JSON.stringify does (the one
// piece of JavaScript emulation here, listed with the others in package
// lang/jscompat).
package diag

import (
	"sort"
	"strconv"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// UTF-16 code units, as the reference implementation does.
type Pos struct {
	Line int
	Col  int
}

// Span is a half-open source range: End is the position just after the last
// character.
type Span struct {
	File  string
	Start Pos
	End   Pos
}

// IsZero reports whether s is the zero span (no location).
func (s Span) IsZero() bool { return s.Start.Line == 0 }

// Join returns the smallest span covering s and t (both in the same file).
func (s Span) Join(t Span) Span {
	if s.IsZero() {
		return t
	}
	if t.IsZero() {
		return s
	}
	out := s
	if less(t.Start, s.Start) {
		out.Start = t.Start
	}
	if less(s.End, t.End) {
		out.End = t.End
	}
	return out
}

func less(a, b Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// Diagnostic is one problem found in a program, by any phase.
type Diagnostic struct {
	Code    Code
	Message string
	Span    *Span
	Hint    string
	// DetailsJSON, when not empty, is the compact JSON object the runtime
	// form shows as "details". A run-time error keeps its details as an A0
	// record (runtime.Error embeds a Diagnostic and renders them here).
	DetailsJSON string
	// Cause is the underlying error, if any.
	Cause error
}

// Error implements error.
func (d *Diagnostic) Error() string {
	s := string(d.Code) + ": " + d.Message
	if d.Span != nil {
		s = d.Span.String() + ": " + s
	}
	return s
}

// Unwrap returns the cause.
func (d *Diagnostic) Unwrap() error { return d.Cause }

// String renders a span as file:line:col.
func (s Span) String() string {
	return s.File + ":" + strconv.Itoa(s.Start.Line) + ":" + strconv.Itoa(s.Start.Col)
}

// New returns a diagnostic with a span.
func New(code Code, span Span, msg, hint string) *Diagnostic {
	sp := span
	return &Diagnostic{Code: code, Message: msg, Span: &sp, Hint: hint}
}

// List is a list of diagnostics in reporting order.
type List []*Diagnostic

// Err returns nil when the list is empty, else the list as an error.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error implements error with the first diagnostic.
func (l List) Error() string {
	if len(l) == 0 {
		return "no errors"
	}
	s := l[0].Error()
	if len(l) > 1 {
		s += " (and " + strconv.Itoa(len(l)-1) + " more)"
	}
	return s
}

// SortByPos sorts the list by position, keeping the order of equal positions.
func (l List) SortByPos() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Span, l[j].Span
		if a == nil || b == nil {
			return a != nil && b == nil
		}
		return less(a.Start, b.Start)
	})
}
