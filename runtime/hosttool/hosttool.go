// Package hosttool turns Go functions into A0 tools for hosts that embed
// the interpreter: a name, a mode, the capability that gates the tool, a
// JSON Schema (draft 2020-12) for its argument record, and the function.
//
// Argument records are validated with github.com/santhosh-tekuri/jsonschema
// (full draft 2020-12 keyword coverage, precise instance locations). It is a
// package of its own so that programs that register no host tools, such as
// the a0 CLI, do not pay that library's start-up cost.
package hosttool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// Def defines a host tool for New.
type Def struct {
	// Name is the tool's name as A0 programs write it (e.g. "kv.get").
	Name string
	// Capability gates the tool; a host may define new capability ids.
	Capability string
	// Mode is ModeRead (call? or do) or ModeEffect (do only).
	Mode runtime.Mode
	// Description is shown to agents (MCP, help).
	Description string
	// Schema is the JSON Schema (draft 2020-12) of the argument record;
	// nil accepts any record.
	Schema json.RawMessage
	// Func runs the tool. Its error becomes E_TOOL ("Tool '<name>'
	// failed: <error>"); return a *runtime.ToolError for a reason and details.
	Func func(c *runtime.Call) (value.Value, error)
}

// New builds a runtime.Tool from a definition, compiling its schema.
func New(d Def) (runtime.Tool, error) {
	if d.Name == "" || d.Capability == "" || d.Func == nil {
		return nil, fmt.Errorf("a0: tool definition needs Name, Capability and Func")
	}
	t := &hostTool{def: d}
	if len(d.Schema) > 0 {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(d.Schema))
		if err != nil {
			return nil, fmt.Errorf("a0: tool %s: schema: %w", d.Name, err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		url := "mem:///" + d.Name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("a0: tool %s: schema: %w", d.Name, err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("a0: tool %s: schema: %w", d.Name, err)
		}
		t.schema = sch
	}
	return t, nil
}

type hostTool struct {
	def    Def
	schema *jsonschema.Schema
}

func (t *hostTool) Name() string            { return t.def.Name }
func (t *hostTool) Capability() string      { return t.def.Capability }
func (t *hostTool) Mode() runtime.Mode      { return t.def.Mode }
func (t *hostTool) Params() []runtime.Param { return nil }
func (t *hostTool) Call(c *runtime.Call) (value.Value, error) {
	return t.def.Func(c)
}

// Description returns the tool's description.
func (t *hostTool) Description() string { return t.def.Description }

// Schema implements runtime.Schemer.
func (t *hostTool) Schema() json.RawMessage {
	if len(t.def.Schema) == 0 {
		return json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`)
	}
	return t.def.Schema
}

var printer = message.NewPrinter(language.English)

// CheckArgs implements runtime.ArgChecker by validating against the schema.
func (t *hostTool) CheckArgs(args *value.Record) []string {
	if t.schema == nil {
		return nil
	}
	err := t.schema.Validate(value.ToGo(value.RecordOf(args)))
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []string{"args: " + err.Error()}
	}
	var issues []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := strings.Join(e.InstanceLocation, ".")
			if loc == "" {
				loc = "args"
			}
			issues = append(issues, loc+": "+e.ErrorKind.LocalizedString(printer))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(issues)
	return issues
}
