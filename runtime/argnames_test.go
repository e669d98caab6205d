package runtime

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestSchemaArgs: what `a0 check --strict` learns from a tool's JSON
// Schema. Names only when additionalProperties is false (none at all
// when it lists no properties); types only from words JSON Schema has;
// element types only from one word; an unreadable schema gives nothing.
func TestSchemaArgs(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":["integer","null"]},"c":{}},"additionalProperties":false}`,
			`[b a c] [{b [string] } {a [integer null] }]`},
		{`{"type":"object","properties":{"xs":{"type":"array","items":{"type":"string"}},"m":{"type":"object","additionalProperties":{"type":"number"}}}}`,
			`[] [{xs [array] string} {m [object] number}]`},
		{`{"type":"object","properties":{"xs":{"type":"array","items":{"type":["string","number"]}},"q":{"type":"strnig"}}}`,
			`[] [{xs [array] }]`},
		{`{"type":"object","additionalProperties":false,"properties":{}}`, `[] []`},
		{`{"type":"object","additionalProperties":false}`, `[] []`},
		{`[1, 2]`, `[] []`},
		{`not json`, `[] []`},
	}
	for _, tc := range tests {
		names, args := schemaArgs(json.RawMessage(tc.schema))
		got := fmt.Sprint(names, " ", args)
		if got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.schema, got, tc.want)
		}
	}
	// A closed schema without properties takes no argument at all.
	for _, s := range []string{`{"type":"object","properties":{},"additionalProperties":false}`, `{"type":"object","additionalProperties":false}`} {
		if names, _ := schemaArgs(json.RawMessage(s)); names == nil {
			t.Errorf("%s: nil names (any argument accepted)", s)
		}
	}
	if names, _ := schemaArgs(json.RawMessage(`{"type":"object"}`)); names != nil {
		t.Errorf("open schema: names %v", names)
	}
}
