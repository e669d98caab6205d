package runtime

import (
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// Error is a runtime error: an A0 code, a message, the span of the node
// that failed and optional details (a record). It is what `try/catch`
// binds and what `a0 run` prints as one JSON object.
type Error struct {
	// Code is the stable A0 error code (E_TYPE, E_CAP_DENIED, …).
	Code string
	// Message is the human-readable message.
	Message string
	// Span locates the failing node when HasSpan is true.
	Span    diag.Span
	HasSpan bool
	// Details is a record, or the zero Value when there are none.
	Details value.Value
	// Cause is the underlying Go error, if any.
	Cause error

	// Hint says how to fix the program. The text form (--pretty, the REPL)
	// shows it, and the JSON form adds it as "hint" after the reference's
	// members; try/catch does not bind it.
	Hint string

	uncatchable bool // host-level failure that try/catch must not swallow
}

// Error implements error.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// ExitCode returns the process exit code for the error.
func (e *Error) ExitCode() int { return diag.ExitCode(e.Code, false) }

// Diagnostic converts e to a diagnostic (runtime form).
func (e *Error) Diagnostic() *diag.Diagnostic {
	d := &diag.Diagnostic{Code: e.Code, Message: e.Message, Cause: e.Cause, Hint: e.Hint}
	if e.HasSpan {
		sp := e.Span
		d.Span = &sp
	}
	if e.Details.Kind() == value.RecordKind {
		d.DetailsJSON = value.JSON(e.Details)
	}
	return d
}

// catchRecord is the value bound by `catch { e }`.
func (e *Error) catchRecord() value.Value {
	r := value.NewRecord(3)
	r.Set("code", value.Str(e.Code))
	r.Set("message", value.Str(e.Message))
	if e.Details.Kind() == value.RecordKind {
		r.Set("details", e.Details)
	}
	return value.RecordOf(r)
}

func newErr(code string, sp diag.Span, msg string) *Error {
	return &Error{Code: code, Message: msg, Span: sp, HasSpan: true}
}

func newErrHint(code string, sp diag.Span, msg, hint string) *Error {
	return &Error{Code: code, Message: msg, Span: sp, HasSpan: true, Hint: hint}
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
