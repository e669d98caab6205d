package runtime

import (
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// Argument names (spec/language.md §5.2): a call that names an argument
// its function or tool does not take fails with an error that names the
// unknown key and the expected ones, instead of a later failure on its
// consequence (a null parameter, "'value' must be a string"). Only the
// explicit keys of the call's record count; what a spread brings is
// passed as before.

// recordKeys returns the explicit keys of a compiled argument record.
func recordKeys(r *recordNode) []string {
	var out []string
	for i := range r.entries {
		if !r.entries[i].spread {
			out = append(out, r.entries[i].key)
		}
	}
	return out
}

// argNamesErr is the E_FN error of a call to fn, which takes params, with
// the explicit argument names given, of which unknown are not params.
func argNamesErr(sp diag.Span, fn string, params, given, unknown []string) *Error {
	msg, hint := check.ArgNamesMessage(fn, params, given)
	e := newErrHint(diag.EFn, sp, msg, hint)
	e.Details = details("fn", fn, "unknown", strList(unknown), "expected", strList(params))
	return e
}

func strList(ss []string) value.Value {
	out := make([]value.Value, len(ss))
	for i, s := range ss {
		out[i] = value.Str(s)
	}
	return value.ListOf(out)
}

// badArgsNode is a stdlib or built-in call whose explicit argument names
// include one the function does not take: it evaluates the arguments (as
// any call does first) and raises the error.
type badArgsNode struct {
	err  *Error
	args *recordNode
}

func (n *badArgsNode) eval(r *run, f *frame) (value.Value, error) {
	if _, err := n.args.build(r, f); err != nil {
		return value.Value{}, err
	}
	if err := r.poll(*n.err.Span); err != nil {
		return value.Value{}, err
	}
	e := *n.err
	return value.Value{}, &e
}

// checkStdArgs returns a badArgsNode for a stdlib or built-in call with
// unknown argument names, else nil.
func checkStdArgs(sp diag.Span, name string, args *recordNode) exprNode {
	ps, ok := stdlib.Params(name)
	if !ok {
		return nil
	}
	keys := recordKeys(args)
	if unknown := check.UnknownArgs(ps, keys); len(unknown) > 0 {
		return &badArgsNode{err: argNamesErr(sp, name, ps, keys, unknown), args: args}
	}
	return nil
}

// toolArgNames returns the names a tool that refuses other arguments
// takes, or nil when it accepts any.
func toolArgNames(t Tool) []string {
	if _, own := t.(ArgChecker); own {
		return nil // it reports unknown arguments itself
	}
	c, ok := t.(ClosedArgs)
	if !ok || !c.ClosedArgs() {
		return nil
	}
	ps := t.Params()
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

// unknownToolArgs is the E_TOOL_ARGS issue of a call of a closed tool
// with argument names it does not take, and the first such name ("" when
// there are none).
func unknownToolArgs(t Tool, args *value.Record) (issue, hint, field string) {
	names := toolArgNames(t)
	if names == nil {
		return "", "", ""
	}
	unknown := check.UnknownArgs(names, args.Keys())
	if len(unknown) == 0 {
		return "", "", ""
	}
	issue, hint = check.ArgNamesMessage(t.Name(), names, args.Keys())
	return issue, hint, unknown[0]
}

// pathHint names the fix for a field access on a value that is not a
// record: `xs.length` is len, a list item is read with get, and a field of
// a JSON string needs parse.json first.
func pathHint(name string, path []string, seg string, v value.Value) string {
	subject := name
	for _, p := range path {
		if p == seg {
			break
		}
		subject += "." + p
	}
	switch seg {
	case "length", "size", "count", "len":
		return "A0 has no ." + seg + ": write len { in: " + subject + " }."
	}
	if h := parser.MethodHint(subject, seg, stdlib.Params); h != "" && v.Kind() != value.Null {
		return h
	}
	switch v.Kind() {
	case value.ListKind:
		return "'" + subject + "' is a list: read an item with get { in: " + subject + ", path: \"[0]\" }, its length with len { in: " + subject + " }."
	case value.String:
		return "'" + subject + "' is a string: if it holds JSON, parse it first with parse.json { in: " + subject + " }."
	case value.Null:
		return "'" + subject + "' is null (a missing field or argument reads as null); check it with coalesce { in: " + subject + ", default: … } or if."
	}
	return "Only records have fields; '" + subject + "' is a " + v.ShapeName() + "."
}
