package runtime

import (
	"encoding/json"

	"github.com/a0lang/a0/lang/check"
)

// StaticSchemer is implemented by tools whose input and output JSON
// Schemas may be known before they run: an MCP tool whose server was
// listed in this process, or whose schemas a0's schema cache holds
// (spec/mcp.md §8). The checker then judges every call's literal
// arguments, and the fields read from a variable bound to a call's
// result. nil means unknown; nothing is started to learn them.
type StaticSchemer interface {
	StaticSchemas() (input, output json.RawMessage)
}

// staticSchemas returns the checker's view of t's schemas (nil, nil when
// t publishes none).
func staticSchemas(t Tool) (in, out *check.Schema) {
	s, ok := t.(StaticSchemer)
	if !ok {
		return nil, nil
	}
	rin, rout := s.StaticSchemas()
	if len(rin) > 0 {
		in = check.ParseSchema(rin)
	}
	if len(rout) > 0 {
		out = check.ParseSchema(rout)
	}
	return in, out
}
