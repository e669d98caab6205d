package main

import (
	"io"
	"os"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/trace"
)

// traceFile is the trace sink behind `--trace FILE`
// (runtime.TraceFile); writeError is its write failure.
type (
	traceFile  = runtime.TraceFile
	writeError = runtime.TraceWriteError
)

func (c *cli) trace() int {
	asJSON := c.inv.Flags[optJSON]
	fail := func(d *diag.Diagnostic) int {
		if asJSON {
			io.WriteString(c.stderr, d.JSON(hintForm(d, diag.FormCLI))+"\n")
		} else {
			io.WriteString(c.stderr, d.Text("", diagStyle(c.stderr))+"\n")
		}
		return diag.ExitRuntime
	}
	file := c.inv.File
	readErr := func(err error) int {
		return fail(&diag.Diagnostic{Code: diag.EIO, Message: "Error reading trace file: " + runtime.ReadErrorText(err, file), Hint: runtime.PathHint(err, file, ".jsonl")})
	}
	f, err := os.Open(file)
	if err != nil {
		return readErr(err)
	}
	defer f.Close()
	// Read a line at a time: a trace of any size is summarised in the
	// memory of its longest line.
	s, err := trace.SummarizeReader(f)
	if err != nil {
		d, ok := err.(*diag.Diagnostic)
		if !ok {
			return readErr(err) // the file could not be read (a folder: EISDIR)
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
