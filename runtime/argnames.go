package runtime

import (
	"encoding/json"

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
	e.Details = details("fn", fn, "unknown", value.StrList(unknown), "expected", value.StrList(params))
	return e
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
// (ClosedArgs) takes, or nil when it accepts any. Every built-in tool is
// closed; a tool with rules of its own (ArgChecker) has them checked
// after its names.
func toolArgNames(t Tool) []string {
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

// unknownToolArgs is the E_TOOL_ARGS error of a call of a closed tool
// with argument names it does not take, or nil. It names the unknown
// keys and the valid ones, and its hint the likely rename (timeout_ms to
// timeoutMs); details add the first unknown key as field, all of them as
// unknown, and the valid ones as expected.
func unknownToolArgs(t Tool, name string, sp diag.Span, args *value.Record) *Error {
	names := toolArgNames(t)
	if names == nil {
		return nil
	}
	unknown := check.UnknownArgs(names, args.Keys())
	if len(unknown) == 0 {
		return nil
	}
	issue, hint := check.ToolArgNamesMessage(name, names, args.Keys())
	e := newErrHint(diag.EToolArgs, sp, "Invalid arguments for tool '"+name+"': "+issue, hint)
	e.Details = details("tool", name, "reason", "invalid_args", "field", unknown[0],
		"unknown", value.StrList(unknown), "expected", value.StrList(names))
	return e
}

// toolCheckArgs returns what `a0 check --strict` checks of a call of t:
// the argument names it takes when it refuses others (nil: any), and the
// arguments whose literal values must have a type. They come from its
// parameter list, or from its published JSON Schema (a host tool: names
// when additionalProperties is false). A tool that learns its schema
// when first called (an MCP tool: Preparer) has neither, so checking a
// program starts nothing.
func toolCheckArgs(t Tool) (names []string, args []check.Arg) {
	if _, ok := t.(Preparer); ok {
		return nil, nil
	}
	if s, ok := t.(Schemer); ok {
		names, args = schemaArgs(s.Schema())
		if n := toolArgNames(t); n != nil {
			names = n
		}
		return names, args
	}
	ps := t.Params()
	for _, p := range ps {
		a := check.Arg{Name: p.Name}
		switch p.Type {
		case TypeString:
			a.Types = []string{"string"}
		case TypeNumber:
			a.Types = []string{"number"}
		case TypeBool:
			a.Types = []string{"boolean"}
		case TypeRecord:
			a.Types = []string{"object"}
		case TypeList:
			a.Types = []string{"array"}
		case TypeStringMap:
			a.Types, a.Elem = []string{"object"}, "string"
		case TypeStringList:
			a.Types, a.Elem = []string{"array"}, "string"
		default:
			continue
		}
		args = append(args, a)
	}
	if c, ok := t.(ClosedArgs); ok && c.ClosedArgs() {
		names = make([]string, len(ps))
		for i, p := range ps {
			names[i] = p.Name
		}
	}
	return names, args
}

// schemaArgs reads the top level of a tool's JSON Schema: its property
// names in order when additionalProperties is false (else nil), and each
// property's type (a word or a list of words) with, for a list or a
// record, the single type of its items or additional properties. A
// schema it cannot read gives neither.
func schemaArgs(raw json.RawMessage) (names []string, args []check.Arg) {
	sv, err := value.ParseJSON(string(raw))
	if err != nil || sv.AsRecord() == nil {
		return nil, nil
	}
	s := sv.AsRecord()
	closed := false
	if ap, ok := s.Get("additionalProperties"); ok && ap.Kind() == value.Bool && !ap.AsBool() {
		closed = true
	}
	props := s.GetOrNull("properties").AsRecord()
	if props == nil {
		props = value.NewRecord(0)
	}
	for i, name := range props.Keys() {
		if closed {
			names = append(names, name)
		}
		p := props.At(i).AsRecord()
		if p == nil {
			continue
		}
		a := check.Arg{Name: name, Types: schemaTypes(p.GetOrNull("type"))}
		if len(a.Types) == 0 {
			continue
		}
		if len(a.Types) == 1 {
			sub := p.GetOrNull("items")
			if a.Types[0] == "object" {
				sub = p.GetOrNull("additionalProperties")
			}
			if r := sub.AsRecord(); r != nil {
				if ts := schemaTypes(r.GetOrNull("type")); len(ts) == 1 {
					a.Elem = ts[0]
				}
			}
		}
		args = append(args, a)
	}
	if closed && names == nil {
		names = []string{}
	}
	return names, args
}

// schemaTypes reads a JSON Schema "type": one word or a list of them;
// nil (any value) when it is absent or holds a word that is not a JSON
// Schema type.
func schemaTypes(v value.Value) []string {
	items := []value.Value{v}
	if v.Kind() == value.ListKind {
		items = v.AsList()
	}
	var out []string
	for _, x := range items {
		switch w := x.AsString(); w {
		case "string", "number", "integer", "boolean", "object", "array", "null":
			out = append(out, w)
		default:
			return nil
		}
	}
	return out
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
