//go:build !unix

package mcpserver

import "io"

// newPollInput is unix only: elsewhere a file is read as any reader.
func newPollInput(io.Reader) *mcpInput { return nil }

// newPollOutput is unix only: elsewhere a file is written as any writer.
func newPollOutput(io.Writer) *mcpOutput { return nil }
