package mcptool

import (
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

func TestArgIssues(t *testing.T) {
	schema := `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","minimum":1},
"tags":{"type":"array","items":{"type":"string"}},"o":{"type":"object","properties":{"x":{"type":"number"}},"required":["y"]}},
"required":["q"],"additionalProperties":false}`
	a := compileSchema([]byte(schema))
	if a == nil {
		t.Fatal("schema not compiled")
	}
	for _, tc := range []struct{ args, want string }{
		{`{"q":"a"}`, ""},
		{`{"q":3}`, `q: type: 3 has type "integer", want "string"`},
		{`{"q":"a","limit":1.5}`, `limit: type: 1.5 has type "number", want "integer"`},
		{`{"q":"a","limit":0}`, `limit: minimum: 0 is less than 1`},
		{`{}`, `q: required: the argument is missing`},
		{`{"q":"a","x":1,"y":2}`, `x: additionalProperties: the schema allows no such argument; y: additionalProperties: the schema allows no such argument`},
		{`{"q":"a","tags":["x",2]}`, `tags[]: type: 2 has type "integer", want "string"`},
		{`{"q":"a","o":{"x":"s","y":1}}`, `o.x: type: s has type "string", want "number"`},
		{`{"q":"a","o":{}}`, `o.y: required: the argument is missing`},
	} {
		v, err := value.ParseJSON(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(a.check(v.AsRecord()), "; "); got != tc.want {
			t.Errorf("%s: got %q\nwant %q", tc.args, got, tc.want)
		}
	}
	// Schemas the validator cannot apply are left to the server.
	for _, s := range []string{`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`, `{"$ref":"https://example.com/s.json"}`, `not json`} {
		if compileSchema([]byte(s)) != nil {
			t.Errorf("compiled %s", s)
		}
	}
}
