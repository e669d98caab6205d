package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/trace"
)

// traceFile is the trace sink behind `--trace FILE`
// (runtime.TraceFile); writeError is its write failure.
type (
	traceFile  = runtime.TraceFile
	writeError = runtime.TraceWriteError
)

var openTrace = runtime.OpenTraceFile

// fileErrorText renders a failure to write an output file in Node's
// words, naming the operation that failed: "open '<path>'" when the file
// could not be opened, else the write or close ("ENOSPC: no space left on
// device, write").
func fileErrorText(err error, path string) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op != "open" {
		return jscompat.NodeErrorText(err, pe.Op, "")
	}
	if path == "" {
		return jscompat.NodeErrorText(err, "close", "")
	}
	return jscompat.NodeErrorText(err, "open", path)
}

// withLaterFailures returns d with the failures that followed it in its
// details, as "also": [{code, message}, …], after the details it has (d
// is a run-time error's diagnostic, whose details are DetailsJSON, or a
// CLI one without details).
func withLaterFailures(d *diag.Diagnostic, later []*diag.Diagnostic) *diag.Diagnostic {
	var b strings.Builder
	b.WriteByte('[')
	for i, l := range later {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.JSON(diag.FormCLI))
	}
	b.WriteByte(']')
	c := *d
	if details := d.DetailsJSON; details == "" || details == "{}" {
		c.DetailsJSON = `{"also":` + b.String() + `}`
	} else {
		c.DetailsJSON = strings.TrimSuffix(details, "}") + `,"also":` + b.String() + `}`
	}
	return &c
}

func (c *cli) trace() int {
	asJSON := c.inv.Flags[optJSON]
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
