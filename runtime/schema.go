package runtime

import (
	"encoding/json"

	"github.com/a0lang/a0/lang/value"
)

// Schemer is implemented by tools that publish their own JSON Schema
// (draft 2020-12) for the argument record.
type Schemer interface {
	Schema() json.RawMessage
}

// ClosedArgs is implemented by tools that refuse argument keys they do not
// list in Params; their schemas then say additionalProperties: false.
type ClosedArgs interface {
	ClosedArgs() bool
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
	closed := false
	if c, ok := t.(ClosedArgs); ok {
		closed = c.ClosedArgs()
	}
	s.Set("additionalProperties", value.BoolOf(!closed))
	return json.RawMessage(value.JSON(value.RecordOf(s)))
}
