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

// interrupt is how the end of the session reaches a read or write that
// waits.
type interrupt struct {
	// stop interrupts a wait in progress and every later one.
	stop func()
	// prompt reports that stop makes a waiting call return at once, so
	// that its goroutine can be waited for.
	prompt bool
	// done undoes what the stream needed, once its goroutine has ended.
	done func()
}

// noInterrupt is the interrupt of a stream whose pending call cannot be
// ended: its goroutine ends when the call returns.
var noInterrupt = interrupt{stop: func() {}, done: func() {}}

// deadlineInterrupt is the interrupt of a stream that takes deadlines
// (set: SetReadDeadline or SetWriteDeadline): stop sets one in the past,
// done clears it, so the host gets the stream back without one.
func deadlineInterrupt(set func(time.Time) error) interrupt {
	var mu sync.Mutex
	ended := false
	return interrupt{
		stop: func() {
			mu.Lock()
			defer mu.Unlock()
			if !ended {
				set(time.Unix(1, 0))
			}
		},
		prompt: true,
		done: func() {
			mu.Lock()
			defer mu.Unlock()
			ended = true
			set(time.Time{})
		},
	}
}

// mcpInput is the session's input with the means to interrupt a read
// that waits for it.
type mcpInput struct {
	io.Reader
	interrupt
}

// newInput returns r as the session's input: a file is read after poll(2)
// says it is readable, which stop interrupts (unix); an input that takes a
// read deadline (a socket, a pollable file) gets one in the past at stop;
// any other reader cannot be interrupted, and the reading goroutine ends
// when its Read returns.
func newInput(r io.Reader) *mcpInput {
	if in := newPollInput(r); in != nil {
		return in
	}
	if d, ok := r.(interface{ SetReadDeadline(time.Time) error }); ok && d.SetReadDeadline(time.Time{}) == nil {
		return &mcpInput{r, deadlineInterrupt(d.SetReadDeadline)}
	}
	return &mcpInput{r, noInterrupt}
}

// mcpOutput is the session's output with the means to end a write that
// waits for a client that does not read.
type mcpOutput struct {
	io.Writer
	interrupt
}

// newOutput returns w as the session's output, as newInput does for the
// input: a file is written once poll(2) says it is writable (unix), an
// output that takes a write deadline gets one in the past at stop, and
// any other writer's pending Write cannot be ended.
func newOutput(w io.Writer) *mcpOutput {
	if out := newPollOutput(w); out != nil {
		return out
	}
	if d, ok := w.(interface{ SetWriteDeadline(time.Time) error }); ok && d.SetWriteDeadline(time.Time{}) == nil {
		return &mcpOutput{w, deadlineInterrupt(d.SetWriteDeadline)}
	}
	return &mcpOutput{w, noInterrupt}
}
