package runtime

import (
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// Error is a runtime error: a [diag.Diagnostic] plus the A0 record of its
// details. It is what `try/catch` binds (code, message, details) and what
// `a0 run` prints as one JSON object.
//
// From the embedded Diagnostic: Code is the stable A0 code (E_TYPE,
// E_CAP_DENIED, …); Span locates the node that failed (nil when nothing
// does); Hint says how to fix the program — the text form (--pretty, the
// REPL) shows it, the JSON form adds it as "hint" after the reference's
// members, try/catch does not bind it; Cause is the underlying Go error.
// The Diagnostic does not carry the details (lang/diag knows no A0 values):
// [Error.Report] is the diagnostic with them, and [Error.JSON] renders it.
//
// A tool builds one as
//
//	&runtime.Error{Diagnostic: *diag.New(code, c.Span, msg, hint), Details: rec}
type Error struct {
	diag.Diagnostic

	// Details is a record, or the zero Value when there are none.
	Details value.Value

	uncatchable bool // host-level failure that try/catch must not swallow
}

// Error implements error: the code and the message, without the span.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// ExitCode returns the process exit code for the error.
func (e *Error) ExitCode() int { return diag.ExitCode(e.Code, false) }

// Report returns the diagnostic a0 reports for e: the embedded Diagnostic
// with the details record rendered into DetailsJSON.
func (e *Error) Report() *diag.Diagnostic {
	d := e.Diagnostic
	if e.Details.Kind() == value.RecordKind {
		d.DetailsJSON = value.JSON(e.Details)
	}
	return &d
}

// AppendJSON writes e in the given form, details included.
func (e *Error) AppendJSON(b *strings.Builder, form diag.Form) { e.Report().AppendJSON(b, form) }

// JSON returns e rendered in the given form, details included.
func (e *Error) JSON(form diag.Form) string { return e.Report().JSON(form) }

// catchRecord is the value bound by `catch { e }`.
func (e *Error) catchRecord() value.Value {
	r := value.NewRecord(3)
	r.Set("code", value.Str(string(e.Code)))
	r.Set("message", value.Str(e.Message))
	if e.Details.Kind() == value.RecordKind {
		r.Set("details", e.Details)
	}
	return value.RecordOf(r)
}

func newErr(code diag.Code, sp diag.Span, msg string) *Error {
	return &Error{Diagnostic: *diag.New(code, sp, msg, "")}
}

func newErrHint(code diag.Code, sp diag.Span, msg, hint string) *Error {
	return &Error{Diagnostic: *diag.New(code, sp, msg, hint)}
}

// details builds a details record from alternating keys and values.
func details(kv ...any) value.Value {
	r := value.NewRecord(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		switch v := kv[i+1].(type) {
		case string:
			r.Set(k, value.Str(v))
		case int:
			r.Set(k, value.Int(v))
		case int64:
			r.Set(k, value.Num(float64(v)))
		case float64:
			r.Set(k, value.Num(v))
		case value.Value:
			r.Set(k, v)
		}
	}
	return value.RecordOf(r)
}
