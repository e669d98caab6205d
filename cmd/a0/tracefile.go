package main

import (
	"bufio"
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// traceFile writes trace events as JSONL to a file, one flushed line per
// event.
type traceFile struct {
	f      *os.File
	w      *bufio.Writer
	runID  string
	closed bool
}

func openTrace(path string) (*traceFile, *diag.Diagnostic) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, &diag.Diagnostic{Code: diag.EIO, Message: "Error opening trace file: " + runtime.NodeErrorText(err, "open", path)}
	}
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	id := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	return &traceFile{f: f, w: bufio.NewWriter(f), runID: id}, nil
}

// Event implements runtime.TraceSink.
func (t *traceFile) Event(ev runtime.TraceEvent) error {
	var b strings.Builder
	b.WriteString(`{"ts":"`)
	b.WriteString(time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	b.WriteString(`","runId":"`)
	b.WriteString(t.runID)
	b.WriteString(`","event":`)
	diag.AppendQuoted(&b, ev.Event)
	b.WriteString(`,"span":`)
	diag.AppendSpanJSON(&b, ev.Span)
	if !ev.Data.IsUndefined() {
		b.WriteString(`,"data":`)
		value.AppendJSON(&b, ev.Data, "", 0)
	}
	b.WriteString("}\n")
	if _, err := t.w.WriteString(b.String()); err != nil {
		return err
	}
	if err := t.w.Flush(); err != nil {
		return writeErr(err)
	}
	return nil
}

type nodeWriteErr struct{ err error }

func (e nodeWriteErr) Error() string { return runtime.NodeErrorText(e.err, "write", "") }

func writeErr(err error) error { return nodeWriteErr{err} }

// Close flushes and closes the file (idempotent).
func (t *traceFile) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if err := t.w.Flush(); err != nil {
		t.f.Close()
		return err
	}
	return t.f.Close()
}

func (c *cli) trace() int {
	io := c.stderr
	fmt.Fprintln(io, "a0 trace: not yet available")
	return diag.ExitRuntime
}
