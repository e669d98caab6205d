package mcptool

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// argSchema is a tool's compiled input schema (jsonschema.go).
type argSchema struct {
	root *jsSchema
}

// compileSchema returns nil for a schema that a0 leaves to the server
// (another draft, a remote $ref, …; see jsonschema.go).
func compileSchema(raw json.RawMessage) *argSchema {
	doc, err := value.ParseJSON(string(raw))
	if err != nil {
		return nil
	}
	root := compileJSONSchema(doc)
	if root == nil {
		return nil
	}
	return &argSchema{root: root}
}

// check validates an argument record and returns the E_TOOL_ARGS issues
// ("<path>: <rule>: <problem>", the path with list indices, values written
// as JSON; the first rule that fails), or nil.
func (a *argSchema) check(args *value.Record) []string {
	f := a.root.validate(value.RecordOf(args))
	if f == nil {
		return nil
	}
	key := "args"
	if len(f.segs) > 0 {
		key = pathText(f.segs)
	}
	if f.kind == "" {
		return []string{key + ": " + f.rule}
	}
	// Name each missing or unexpected member itself.
	names := append([]string(nil), f.names...)
	sort.Strings(names)
	issues := make([]string, 0, len(names))
	for _, n := range names {
		k, text := n, f.rule
		if key != "args" {
			k = key + "." + n
		} else if f.kind == "additionalProperties" && len(issues) == 0 {
			text += a.takes(n)
		}
		issues = append(issues, k+": "+text)
	}
	return issues
}

// takes names the top-level arguments the schema takes, and the nearest
// to name: what an unknown argument should have been.
func (a *argSchema) takes(name string) string {
	if len(a.root.props) == 0 {
		return ""
	}
	props := make([]string, 0, len(a.root.props))
	for _, p := range a.root.props {
		props = append(props, p.name)
	}
	sort.Strings(props)
	out := "; the tool takes " + strings.Join(props, ", ")
	if s := diag.Suggest(name, props); s != "" && len(name) >= 3 {
		out += " (did you mean '" + s + "'?)"
	}
	return out
}
