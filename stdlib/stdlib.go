// Package stdlib holds A0's pure standard-library functions (spec/stdlib.md).
//
// Functions take their named arguments as a record and return a value or
// an error whose text is the "<inner>" message; the evaluator wraps it as
// E_FN "Function '<name>' failed: <inner>". Nothing here does I/O. The
// evaluator built-ins map, reduce and filter-with-fn live in runtime.
//
// stdlib imports only lang/value and lang/diag.
package stdlib

import (
	"errors"

	"github.com/a0lang/a0/lang/value"
)

// Func is a stdlib function. l bounds what it may build and how long it
// may run (see [Limits]). args is never nil; a missing argument reads
// as null (use [Arg]). args belongs to the caller and is only lent for
// the call: a Func must neither change it nor keep it, in its result or
// anywhere else (the evaluator reuses it for the next call); the values
// in it may be kept.
type Func func(l Limits, args *value.Record) (value.Value, error)

var registry = map[string]Func{}

func register(name string, f Func) { registry[name] = f }

// Lookup returns the function registered under name.
func Lookup(name string) (Func, bool) {
	f, ok := registry[name]
	return f, ok
}

// Names returns the 54 registered names: the reference's 34 in its
// registry order, then a0's own additions (spec/stdlib.md "Registry
// order").
func Names() []string {
	return []string{"parse.json", "get", "put", "patch", "eq", "contains", "not", "and", "or", "len", "append",
		"concat", "sort", "filter", "find", "range", "join", "str.concat", "str.split", "str.starts", "str.ends", "str.replace",
		"str.template", "keys", "values", "merge", "entries", "math.max", "math.min", "unique", "pluck", "flat", "coalesce", "typeof",
		"re.test", "re.find", "re.findAll", "re.replace", "re.split", "str.trim", "str.trimStart", "str.trimEnd",
		"str.lower", "str.upper", "str.lines", "str.padStart", "str.padEnd", "str.repeat", "json.stringify",
		"base64.encode", "base64.decode", "hex.encode", "hex.decode", "parse.number"}
}

// CheckerNames returns the 56 names the static checker knows (the registry
// plus map and reduce), in the order the E_UNKNOWN_FN hint lists them: the
// reference's 36, then a0's additions.
func CheckerNames() []string {
	return []string{"parse.json", "get", "put", "patch", "eq", "contains", "not", "and", "or", "len", "map", "append",
		"concat", "sort", "filter", "find", "range", "join", "str.concat", "str.split", "str.starts", "str.replace", "keys",
		"values", "merge", "math.max", "math.min", "str.ends", "unique", "reduce", "coalesce", "typeof", "pluck", "flat",
		"entries", "str.template",
		"re.test", "re.find", "re.findAll", "re.replace", "re.split", "str.trim", "str.trimStart", "str.trimEnd",
		"str.lower", "str.upper", "str.lines", "str.padStart", "str.padEnd", "str.repeat", "json.stringify",
		"base64.encode", "base64.decode", "hex.encode", "hex.decode", "parse.number"}
}

// Arg returns the named argument, or null when it is absent.
func Arg(args *value.Record, name string) value.Value {
	v, ok := args.Get(name)
	if !ok {
		return value.NullValue
	}
	return v
}

// fail returns an error with the given inner message.
func fail(msg string) error { return errors.New(msg) }
