package mcpserver

// The session's input, read so that the end of the session ends the
// reading goroutine too: after Serve returns, nothing reads the host's
// stdin (spec/embedding.md §10.5).

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
