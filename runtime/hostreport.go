package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sync"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// ErrorOf is a run's error as the *Error a host reports, with the JSON
// form it is printed in: the CLI form for a host-level failure without a
// span (trace I/O, internal error), else the runtime form. An error that
// is not an *Error (nor wraps one) becomes an E_RUNTIME with its text, and
// an *Error without a code is reported as E_RUNTIME. A nil err gives nil.
func ErrorOf(err error) (*Error, diag.Form) {
	if err == nil {
		return nil, diag.FormRuntime
	}
	var e *Error
	if !errors.As(err, &e) || e == nil {
		e = &Error{Diagnostic: diag.Diagnostic{Code: diag.ERuntime, Message: errorText(err), Cause: err}}
	} else if e.Code == "" {
		c := *e
		c.Code = diag.ERuntime
		if c.Message == "" {
			c.Message = "error without a code"
		}
		e = &c
	}
	if e.Span == nil && (e.Code == diag.EIO || e.Code == diag.ERuntime) {
		return e, diag.FormCLI
	}
	return e, diag.FormRuntime
}

// InputDiag is an E_INPUT a host finds before the program is consulted
// (in the text of a flag or a request); name is the input concerned, or
// "", and reason a short word (json, file, arg, stdin) in its details.
func InputDiag(name, reason, msg, hint string) *diag.Diagnostic {
	d := &diag.Diagnostic{Code: diag.EInput, Message: msg, Hint: hint}
	det := value.NewRecord(2)
	det.Set("input", value.Str(name))
	det.Set("reason", value.Str(reason))
	d.DetailsJSON = value.JSON(value.RecordOf(det))
	return d
}

// InputObject parses text as a JSON object of inputs for
// RunOptions.Input (what says where it came from: "--input",
// "--input-file in.json", "input") and stores its members into into,
// replacing earlier values of the same keys.
func InputObject(text, what string, into map[string]any) *diag.Diagnostic {
	v, err := value.ParseJSON(text)
	if err != nil {
		problem := err.Error()
		if namesSecret(text) {
			// The parser's problem quotes the text around the error,
			// which may be a secret's value.
			problem = "the text is not shown, since it names a secret input"
		}
		return InputDiag("", "json", what+" is not valid JSON: "+problem,
			"Give the inputs as one JSON object, for example --input '{\"repo\": \".\", \"limit\": 10}' (single quotes keep the shell out of it).")
	}
	if v.Kind() != value.RecordKind {
		return InputDiag("", "json", what+" must be a JSON object, got "+v.TypeName()+".",
			"Give the inputs as one JSON object of name: value members, for example {\"repo\": \".\"}.")
	}
	r := v.AsRecord()
	for i := 0; i < r.Len(); i++ {
		into[r.Key(i)] = r.At(i)
	}
	return nil
}

// secretKey finds the quoted member names of a JSON-like text. It is
// compiled at first use: package initialisation is paid by every run and
// every embedding host's start.
var secretKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"((?:[^"\\]|\\.)+)"\s*:`)
})

// namesSecret reports whether text has a member whose name the default
// input mask treats as a secret (API_TOKEN, db_password).
func namesSecret(text string) bool {
	for _, m := range secretKey().FindAllStringSubmatch(text, 1000) {
		if masked(DefaultInputMask, m[1]) {
			return true
		}
	}
	return false
}

// errorText is err.Error(), or a description of err when its Error method
// panics (a nil pointer of a type whose Error does not expect one).
func errorText(err error) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("%T error", err)
		}
	}()
	return err.Error()
}

// isNilError reports whether err is a non-nil interface holding a nil
// pointer (a "typed nil"): a function declared to return a concrete error
// type that returned its nil.
func isNilError(err error) bool {
	if err == nil {
		return false
	}
	v := reflect.ValueOf(err)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}
