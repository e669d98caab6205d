package runtime

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
)

// Schemer is implemented by tools that publish their own JSON Schema
// (draft 2020-12) for the argument record.
type Schemer interface {
	Schema() json.RawMessage
}

// ToolSchema returns the JSON Schema (draft 2020-12) of a tool's argument
// record: the tool's own (Schemer), or one derived from its Params.
func ToolSchema(t Tool) json.RawMessage {
	if s, ok := t.(Schemer); ok {
		return s.Schema()
	}
	props := value.NewRecord(len(t.Params()))
	var required []value.Value
	for _, p := range t.Params() {
		d := value.NewRecord(3)
		switch p.Type {
		case TypeString:
			d.Set("type", value.Str("string"))
		case TypeNumber:
			d.Set("type", value.Str("number"))
		case TypeBool:
			d.Set("type", value.Str("boolean"))
		case TypeRecord:
			d.Set("type", value.Str("object"))
		case TypeList:
			d.Set("type", value.Str("array"))
		case TypeStringMap:
			d.Set("type", value.Str("object"))
			d.Set("additionalProperties", value.MustFromGo(map[string]any{"type": "string"}))
		case TypeStringList:
			d.Set("type", value.Str("array"))
			d.Set("items", value.MustFromGo(map[string]any{"type": "string"}))
		}
		if p.Doc != "" {
			d.Set("description", value.Str(p.Doc))
		}
		props.Set(p.Name, value.RecordOf(d))
		if p.Required {
			required = append(required, value.Str(p.Name))
		}
	}
	s := value.NewRecord(5)
	s.Set("$schema", value.Str("https://json-schema.org/draft/2020-12/schema"))
	s.Set("type", value.Str("object"))
	s.Set("properties", value.RecordOf(props))
	if len(required) > 0 {
		s.Set("required", value.ListOf(required))
	}
	s.Set("additionalProperties", value.True)
	return json.RawMessage(value.JSON(value.RecordOf(s)))
}

// ToolDef defines a host tool for NewTool.
type ToolDef struct {
	// Name is the tool's name as A0 programs write it (e.g. "kv.get").
	Name string
	// Capability gates the tool; a host may define new capability ids.
	Capability string
	// Mode is ModeRead (call? or do) or ModeEffect (do only).
	Mode Mode
	// Description is shown to agents (MCP, help).
	Description string
	// Schema is the JSON Schema (draft 2020-12) of the argument record;
	// nil accepts any record.
	Schema json.RawMessage
	// Func runs the tool. Its error becomes E_TOOL ("Tool '<name>'
	// failed: <error>"); return a *ToolError for a reason and details.
	Func func(c *Call) (value.Value, error)
}

// NewTool builds a Tool from a definition, compiling its schema.
func NewTool(d ToolDef) (Tool, error) {
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
	def    ToolDef
	schema *jsonschema.Schema
}

func (t *hostTool) Name() string       { return t.def.Name }
func (t *hostTool) Capability() string { return t.def.Capability }
func (t *hostTool) Mode() Mode         { return t.def.Mode }
func (t *hostTool) Params() []Param    { return nil }
func (t *hostTool) Call(c *Call) (value.Value, error) {
	return t.def.Func(c)
}

// Description returns the tool's description.
func (t *hostTool) Description() string { return t.def.Description }

// Schema implements Schemer.
func (t *hostTool) Schema() json.RawMessage {
	if len(t.def.Schema) == 0 {
		return json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`)
	}
	return t.def.Schema
}

var printer = message.NewPrinter(language.English)

// CheckArgs implements ArgChecker by validating against the schema.
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
