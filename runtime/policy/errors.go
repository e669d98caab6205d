package policy

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
)

// Error is an invalid policy file. It is reported with code E_POLICY (exit
// 3): `a0 run` stops before any statement, nothing is granted, and
// `a0 policy` prints it instead of the report.
type Error struct {
	// Path is the policy file as resolution named it.
	Path string
	// Key is the dotted path of the offending member ("allow",
	// "exec.maxJobs", "allow[2]"); empty for file-level problems.
	Key string
	// Problem describes what is wrong, without the file or the position.
	Problem string
	// Offset is the 0-based byte offset in the file of the offending
	// character, or -1 when the problem has no position (unreadable file).
	Offset int
	// Line and Col are the 1-based line and column (in characters) of
	// Offset; 0 when Offset is -1.
	Line, Col int
	// Cause is the underlying I/O error, if any.
	Cause error
	// Hint, when set, names the fix (file-level problems: a file that is
	// not a regular file, too large or unreadable).
	Hint string
}

// Error returns the message shown to users:
//
//	Invalid policy file '<path>': "<key>" <problem> (line L, column C, byte offset O).
//
// File-level problems have no key; an unreadable file has no position.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("Invalid policy file '")
	b.WriteString(e.Path)
	b.WriteString("': ")
	if e.Key != "" {
		b.WriteString(diagQuote(e.Key))
		b.WriteString(" ")
	}
	b.WriteString(e.Problem)
	if e.Offset >= 0 {
		b.WriteString(" (line ")
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteString(", column ")
		b.WriteString(strconv.Itoa(e.Col))
		b.WriteString(", byte offset ")
		b.WriteString(strconv.Itoa(e.Offset))
		b.WriteString(")")
	}
	b.WriteString(".")
	return b.String()
}

// Unwrap returns the I/O cause.
func (e *Error) Unwrap() error { return e.Cause }

// Code returns diag.EPolicy.
func (e *Error) Code() diag.Code { return diag.EPolicy }

// Diagnostic returns the error as a span-less E_POLICY diagnostic.
func (e *Error) Diagnostic() *diag.Diagnostic {
	return &diag.Diagnostic{Code: diag.EPolicy, Message: e.Error(), Hint: e.Hint, Cause: e}
}

// ExitCode is the process exit code of an E_POLICY error.
const ExitCode = diag.ExitCap

// TextError renders err the way `a0 policy` (and `a0 run --pretty`) print
// it: "error[E_POLICY]: <message>␤  --> <unknown>␤". A non-policy error is
// rendered with its own code when it is a diagnostic, else as E_POLICY.
func TextError(err error) string {
	return toDiag(err).Text("", diag.Style{}) + "\n"
}

// JSONError renders err as the compact CLI object {"code","message"}
// followed by a newline (`a0 policy --json`, `a0 run` without --pretty).
func JSONError(err error) string {
	d := toDiag(err)
	if d.Hint != "" {
		return d.JSON(diag.FormRuntime) + "\n" // {code, message, hint}
	}
	return d.JSON(diag.FormCLI) + "\n"
}

func toDiag(err error) *diag.Diagnostic {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Diagnostic()
	}
	var d *diag.Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return &diag.Diagnostic{Code: diag.EPolicy, Message: err.Error(), Cause: err}
}

func diagQuote(s string) string { return diag.QuoteJSON(s) }

// newError builds an Error at byte offset off of src (off < 0: no position).
func newError(path, src, key string, off int, problem string) *Error {
	e := &Error{Path: path, Key: key, Problem: problem, Offset: off}
	if off >= 0 {
		e.Line, e.Col = lineCol(src, off)
	}
	return e
}

// lineCol returns the 1-based line and column (counted in characters) of
// byte offset off in src.
func lineCol(src string, off int) (int, int) {
	if off > len(src) {
		off = len(src)
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCountInString(src[start:off]) + 1
}

// nodeMessage renders an I/O error the way Node.js words it:
// "<ERRNO>: <description>, <syscall> '<path>'" (a read has no path).
func nodeMessage(err error) string {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	path := pe.Path
	if pe.Op == "read" {
		path = "" // Node names no path for a failed read
	}
	return jscompat.NodeErrorText(pe.Err, pe.Op, path)
}
