package mcptool

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// Input schemas are checked with github.com/google/jsonschema-go (draft-07
// and draft 2020-12), the library the MCP SDK itself uses, rather than
// with runtime/hosttool's validator: the CLI links this package, and that
// validator's package initialisation alone costs several milliseconds per
// a0 invocation.

// argSchema is a tool's compiled input schema.
type argSchema struct {
	rs  *jsonschema.Resolved
	doc value.Value // the schema as a value, to quote its enum and const
}

// compileSchema returns nil for a schema that cannot be used (a version
// the library does not know, a remote $ref): the server then checks.
func compileSchema(raw json.RawMessage) *argSchema {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil
	}
	// A schema the validator cannot apply is not held against the caller.
	if err := rs.Validate(map[string]any{}); err != nil && strings.Contains(err.Error(), "cannot validate version") {
		return nil
	}
	doc, _ := value.ParseJSON(string(raw))
	return &argSchema{rs: rs, doc: doc}
}

var (
	ratio     = lazyRegexp(`\b(-?\d+)/1\b`)
	trailZero = lazyRegexp(`\b(\d+)\.0+\b`)
	quoted    = lazyRegexp(`"(?:[^"\\]|\\.)*"`)
)

// check validates an argument record and returns the E_TOOL_ARGS issues
// ("<key>: <rule>: <problem>"; the validator reports the first failing
// rule), or nil.
func (a *argSchema) check(args *value.Record) []string {
	inst, _ := value.ToGo(value.RecordOf(args)).(map[string]any)
	err := a.rs.Validate(inst)
	if err == nil {
		return nil
	}
	loc := a.locate(inst, err.Error())
	key := "args"
	if len(loc.segs) > 0 {
		key = pathText(loc.segs)
	}
	got, ok := valueAt(args, loc.segs)
	sch, haveSch := schemaAt(a.doc, loc.schema)
	msg := plainRule(loc.rule, got, ok, sch, haveSch)
	msg = trailZero().ReplaceAllString(ratio().ReplaceAllString(msg, "$1"), "$1")
	// Name the missing or unexpected key itself.
	for _, f := range []struct{ prefix, text string }{
		{"required: missing properties: ", "required: the argument is missing"},
		{"unexpected additional properties ", "additionalProperties: the schema allows no such argument"},
	} {
		if rest, ok := strings.CutPrefix(msg, f.prefix); ok {
			var names []string // the library writes the list with %q
			for _, q := range quoted().FindAllString(rest, -1) {
				if n, err := strconv.Unquote(q); err == nil {
					names = append(names, n)
				}
			}
			sort.Strings(names) // the library's order is a map's
			if len(names) > 0 {
				var issues []string
				for _, n := range names {
					k := n
					text := f.text
					if key != "args" {
						k = key + "." + n
					} else if f.prefix == "unexpected additional properties " && len(issues) == 0 {
						text += a.takes(n)
					}
					issues = append(issues, k+": "+text)
				}
				return issues
			}
		}
	}
	return []string{key + ": " + msg}
}

// takes names the top-level arguments the schema takes, and the nearest
// to name: what an unknown argument should have been.
func (a *argSchema) takes(name string) string {
	root := a.rs.Schema()
	if root == nil || len(root.Properties) == 0 {
		return ""
	}
	props := make([]string, 0, len(root.Properties))
	for p := range root.Properties {
		props = append(props, p)
	}
	sort.Strings(props)
	out := "; the tool takes " + strings.Join(props, ", ")
	if s := diag.Suggest(name, props); s != "" && len(name) >= 3 {
		out += " (did you mean '" + s + "'?)"
	}
	return out
}

// lazyRegexp compiles expr on first use rather than at start-up, which
// every command of the binary would pay for.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
