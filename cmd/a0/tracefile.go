package main

import (
	"io"
	"os"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/trace"
)

// traceFile is the runtime.TraceSink behind `--trace FILE`: every event is
// one JSONL line written (and so flushed) as it happens.
type traceFile struct {
	f      *os.File
	w      *trace.Writer
	closed bool
}

func openTrace(path, runID string) (*traceFile, *diag.Diagnostic) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, &diag.Diagnostic{Code: diag.EIO, Message: "Error opening trace file: " + runtime.NodeErrorText(err, "open", path)}
	}
	if runID == "" {
		runID = trace.NewRunID()
	}
	return &traceFile{f: f, w: trace.NewWriter(f, runID, nil)}, nil
}

// Event implements runtime.TraceSink.
func (t *traceFile) Event(ev runtime.TraceEvent) error {
	var span strings.Builder
	diag.AppendSpanJSON(&span, ev.Span)
	data := ""
	if !ev.Data.IsUndefined() {
		data = value.JSON(ev.Data)
	}
	if err := t.w.Emit(ev.Event, span.String(), data); err != nil {
		return writeError{err}
	}
	return nil
}

// writeError renders a trace write failure in Node's words
// ("ENOSPC: no space left on device, write").
type writeError struct{ err error }

func (e writeError) Error() string { return runtime.NodeErrorText(e.err, "write", "") }

// Close closes the file (idempotent).
func (t *traceFile) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	return t.f.Close()
}

func (c *cli) trace() int {
	asJSON := c.inv.Flags["json"]
	fail := func(d *diag.Diagnostic) int {
		if asJSON {
			io.WriteString(c.stderr, d.JSON(diag.FormCLI)+"\n")
		} else {
			io.WriteString(c.stderr, d.Text("", diagStyle(c.stderr))+"\n")
		}
		return diag.ExitRuntime
	}
	file := c.inv.File
	b, err := os.ReadFile(file)
	if err != nil {
		return fail(&diag.Diagnostic{Code: diag.EIO, Message: "Error reading trace file: " + readErrorText(err, file)})
	}
	s, err := trace.Summarize(b)
	if err != nil {
		d, ok := err.(*diag.Diagnostic)
		if !ok {
			d = &diag.Diagnostic{Code: diag.ETrace, Message: err.Error()}
		}
		return fail(d)
	}
	if asJSON {
		io.WriteString(c.stdout, s.JSON())
	} else {
		io.WriteString(c.stdout, s.Text())
	}
	return diag.ExitOK
}
