//go:build !linux

package proc

import "errors"

// Without pidfds the engine always uses chanSource.

func pollSupported() bool { return false }

func rawPipes(merge bool) (*pipes, error) { return nil, errors.New("raw pipes: Linux only") }

func closeRaw(fd int) {}

func newPollSource(p *Process, pp *pipes) source { return newChanSource(p, pp) }
