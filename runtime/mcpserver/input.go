package mcpserver

// The session's input and output, read and written so that the end of
// the session ends the reading and writing goroutines too: after Serve
// returns, nothing reads the host's stdin or waits to write its stdout
// (spec/embedding.md §10).

import (
	"errors"
	"io"
	"sync"
	"time"
)

// errInputStopped ends a read interrupted by the end of the session.
var errInputStopped = errors.New("mcpserver: the session has ended")

// mcpInput is the session's input with the means to interrupt a read
// that waits for it.
type mcpInput struct {
	io.Reader
	// stop interrupts a Read in progress and every later one.
	stop func()
	// prompt reports that stop makes a waiting Read return at once, so
	// that the reading goroutine can be waited for.
	prompt bool
	// done undoes what the input needed, once the reading goroutine has
	// ended.
	done func()
}

// deadliner is an input whose reads take a deadline (a socket, a
// pollable file).
type deadliner interface {
	SetReadDeadline(t time.Time) error
}

// newInput returns r as the session's input: a file is read after poll(2)
// says it is readable, which stop interrupts (unix); an input that takes a
// read deadline gets one in the past at stop; any other reader cannot be
// interrupted, and the reading goroutine ends when its Read returns.
func newInput(r io.Reader) *mcpInput {
	if in := newPollInput(r); in != nil {
		return in
	}
	if d, ok := r.(deadliner); ok && d.SetReadDeadline(time.Time{}) == nil {
		var mu sync.Mutex
		ended := false
		return &mcpInput{
			Reader: r,
			stop: func() {
				mu.Lock()
				defer mu.Unlock()
				if !ended {
					d.SetReadDeadline(time.Unix(1, 0))
				}
			},
			prompt: true,
			// The host gets its input back without a deadline.
			done: func() {
				mu.Lock()
				defer mu.Unlock()
				ended = true
				d.SetReadDeadline(time.Time{})
			},
		}
	}
	return &mcpInput{Reader: r, stop: func() {}, done: func() {}}
}

// mcpOutput is the session's output with the means to end a write that
// waits for a client that does not read.
type mcpOutput struct {
	io.Writer
	stop   func()
	prompt bool
	done   func()
}

// writeDeadliner is an output whose writes take a deadline.
type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

// newOutput returns w as the session's output, as newInput does for the
// input: a file is written once poll(2) says it is writable (unix), an
// output that takes a write deadline gets one in the past at stop, and
// any other writer's pending Write cannot be ended.
func newOutput(w io.Writer) *mcpOutput {
	if out := newPollOutput(w); out != nil {
		return out
	}
	if d, ok := w.(writeDeadliner); ok && d.SetWriteDeadline(time.Time{}) == nil {
		var mu sync.Mutex
		ended := false
		return &mcpOutput{
			Writer: w,
			stop: func() {
				mu.Lock()
				defer mu.Unlock()
				if !ended {
					d.SetWriteDeadline(time.Unix(1, 0))
				}
			},
			prompt: true,
			done: func() {
				mu.Lock()
				defer mu.Unlock()
				ended = true
				d.SetWriteDeadline(time.Time{})
			},
		}
	}
	return &mcpOutput{Writer: w, stop: func() {}, done: func() {}}
}
