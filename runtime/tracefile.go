package runtime

import (
	"os"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/trace"
)

// TraceFile is the TraceSink behind a0's `--trace FILE`: every event is
// one JSONL line (runtime/trace) written, and so flushed, as it happens.
type TraceFile struct {
	f      *os.File
	w      *trace.Writer
	closed bool
}

// OpenTraceFile creates (or truncates) the trace file path for the run
// runID (a new id when ""); an E_IO diagnostic in Node's words when it
// cannot.
func OpenTraceFile(path, runID string) (*TraceFile, *diag.Diagnostic) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, &diag.Diagnostic{Code: diag.EIO, Message: "Error opening trace file: " + jscompat.NodeErrorText(err, "open", path), Hint: OutputPathHint(err, path, "trace.jsonl")}
	}
	if runID == "" {
		runID = trace.NewRunID()
	}
	return &TraceFile{f: f, w: trace.NewWriter(f, runID, nil)}, nil
}

// Event implements TraceSink. A write failure is a TraceWriteError.
func (t *TraceFile) Event(ev TraceEvent) error {
	var span strings.Builder
	diag.AppendSpanJSON(&span, ev.Span)
	data := ""
	if !ev.Data.IsUndefined() {
		data = value.JSON(ev.Data)
	}
	if err := t.w.Emit(ev.Event, span.String(), data); err != nil {
		return TraceWriteError{err}
	}
	return nil
}

// TraceWriteError is a trace write failure; its text is in Node's words
// ("ENOSPC: no space left on device, write").
type TraceWriteError struct{ err error }

// Error implements error.
func (e TraceWriteError) Error() string { return jscompat.NodeErrorText(e.err, "write", "") }

// Close closes the file (idempotent).
func (t *TraceFile) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	return t.f.Close()
}
