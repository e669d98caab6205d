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
		{`{"q":"a","x":1,"y":2}`, `x: additionalProperties: the schema allows no such argument; the tool takes limit, o, q, tags; y: additionalProperties: the schema allows no such argument`},
		{`{"qq":"a","limt":2}`, `limt: additionalProperties: the schema allows no such argument; the tool takes limit, o, q, tags (did you mean 'limit'?); qq: additionalProperties: the schema allows no such argument`},
		{`{"q":"a","tags":["x",2]}`, `tags[1]: type: 2 has type "integer", want "string"`},
		{`{"q":"a","o":{"x":"s","y":1}}`, `o.x: type: "s" has type "string", want "number"`},
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
	testPlainMessages(t)
	for _, s := range []string{`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`, `{"$ref":"https://example.com/s.json"}`, `not json`} {
		if compileSchema([]byte(s)) != nil {
			t.Errorf("compiled %s", s)
		}
	}
}

func TestConvert(t *testing.T) {
	for _, tc := range []struct{ res, want string }{
		{`{"content":[{"type":"text","text":"hi"}],"structuredContent":{"b":1,"a":2}}`, `{"b":1,"a":2}`},
		{`{"content":[{"type":"text","text":"hi"}],"structuredContent":null}`, `"hi"`},
		{`{"content":[{"type":"text","text":"hi"}],"structuredContent":[1,2]}`, `[1,2]`},
		{`{"content":[]}`, `null`},
		{`{}`, `null`},
		{`{"content":[{"type":"image","data":"QQ==","mimeType":"image/png"}]}`, `{"type":"image","mimeType":"image/png","data":"QQ=="}`},
		{`{"content":[{"type":"audio","data":"QQ==","_meta":{"x":1}}]}`, `{"type":"audio","mimeType":null,"data":"QQ=="}`},
		{`{"content":[{"type":"text","text":"a"},{"type":"resource_link","uri":"file:///x","name":"x"}]}`, `["a",{"type":"resource_link","uri":"file:///x","name":"x","mimeType":null,"description":null}]`},
		{`{"content":[{"type":"resource_link","uri":"u:1","name":"n","title":"T","description":"d","mimeType":"text/plain","size":3,"annotations":{"priority":0.5}}]}`,
			`{"type":"resource_link","uri":"u:1","name":"n","mimeType":"text/plain","description":"d","title":"T","size":3,"annotations":{"priority":0.5}}`},
		{`{"content":[{"type":"text","text":"a","annotations":{"audience":["user"]}}]}`, `{"type":"text","text":"a","annotations":{"audience":["user"]}}`},
		{`{"content":[{"type":"text","text":"a","annotations":null}]}`, `"a"`},
		{`{"content":[{"type":"resource","resource":{"uri":"u:t","mimeType":"text/plain","text":"hi"}},{"type":"resource","resource":{"uri":"u:b","blob":"AAE="},"annotations":{"priority":1}}]}`,
			`[{"type":"resource","uri":"u:t","mimeType":"text/plain","text":"hi"},{"type":"resource","uri":"u:b","mimeType":null,"blob":"AAE=","annotations":{"priority":1}}]`},
		{`{"content":[{"type":"hologram","uri":"x:1"}]}`, `{"type":"hologram","uri":"x:1"}`},
		{`{"content":[{"type":"text","text":"bad"},{"type":"text","text":"worse"}],"isError":true,"structuredContent":{"x":1}}`, `error: "bad\nworse"`},
		{`{"content":[],"isError":true}`, `error: "the tool reported an error without a message"`},
	} {
		v, err := value.ParseJSON(tc.res)
		if err != nil {
			t.Fatal(err)
		}
		out, isErr := Convert(v.AsRecord())
		got := value.JSON(out)
		if isErr {
			got = "error: " + got
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.res, got, tc.want)
		}
	}
}

// testPlainMessages: values are written as JSON, never with Go's %v, and
// list paths carry the index, also through $ref and nested lists.
func testPlainMessages(t *testing.T) {
	schema := `{"type":"object","$defs":{"E":{"type":"object","properties":{"name":{"type":"string","minLength":2},
"entityType":{"enum":["person","place"]},"kind":{"const":"x"},"tags":{"type":"array","items":{"type":"string"}}},"required":["name"]}},
"properties":{"entities":{"type":"array","items":{"$ref":"#/$defs/E"}},"cities":{"type":"array","items":{"type":"string"}},
"grid":{"type":"array","items":{"type":"array","items":{"type":"integer"}}},"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]},
"n":{"anyOf":[{"type":"string"},{"type":"integer"}]},"m":{"oneOf":[{"type":"integer"},{"type":"number"}]},"opt":{"type":["string","null"]},
"dep":{"type":"object","dependentRequired":{"a":["b","c"]}}}}`
	a := compileSchema([]byte(schema))
	if a == nil {
		t.Fatal("schema not compiled")
	}
	for _, tc := range []struct{ args, want string }{
		{`{"entities":[{"name":"ab"},{"name":"cd"},{"name":3}]}`, `entities[2].name: type: 3 has type "integer", want "string"`},
		{`{"entities":[{"name":"ab","entityType":{"entityType":"t","z":[1]}}]}`, `entities[0].entityType: enum: {"entityType":"t","z":[1]} is not one of ["person","place"]`},
		{`{"entities":[{"name":"ab","kind":"y"}]}`, `entities[0].kind: const: "y" is not "x"`},
		{`{"entities":[{"name":"ab"},{"name":"a"}]}`, `entities[1].name: minLength: "a" contains 1 Unicode code points, fewer than 2`},
		{`{"entities":[{"name":"ab"},{"name":"cd","tags":["x","y",["z"]]}]}`, `entities[1].tags[2]: type: ["z"] has type "array", want "string"`},
		{`{"entities":[{"name":"ab"},{}]}`, `entities[1].name: required: the argument is missing`},
		{`{"cities":"New York"}`, `cities: type: "New York" has type "string", want "array"`},
		{`{"cities":["Boston",["New York","Chicago"]]}`, `cities[1]: type: ["New York","Chicago"] has type "array", want "string"`},
		{`{"grid":[[1,2],[3,"x"]]}`, `grid[1][1]: type: "x" has type "string", want "integer"`},
		{`{"pair":["a","b"]}`, `pair[1]: type: "b" has type "string", want "integer"`},
		{`{"n":[1,2]}`, `n: anyOf: [1,2] matches none of the 2 allowed schemas (want "string" or "integer")`},
		{`{"m":3}`, `m: oneOf: 3 matches more than one of the allowed schemas`},
		{`{"opt":{"a":1}}`, `opt: type: {"a":1} has type "object", want "string" or "null"`},
		{`{"dep":{"a":1}}`, `dep: dependentRequired["a"]: missing properties ["b","c"]`},
	} {
		v, err := value.ParseJSON(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(a.check(v.AsRecord()), "; ")
		if got != tc.want {
			t.Errorf("%s: got %q\nwant %q", tc.args, got, tc.want)
		}
		if strings.Contains(got, "map[") {
			t.Errorf("%s: Go value in %q", tc.args, got)
		}
	}
	// A long list: the failing index is found by a binary search.
	items := make([]string, 5000)
	for i := range items {
		items[i] = `"c"`
	}
	items[4321] = "7"
	v, _ := value.ParseJSON(`{"cities":[` + strings.Join(items, ",") + `]}`)
	if got := strings.Join(a.check(v.AsRecord()), "; "); got != `cities[4321]: type: 7 has type "integer", want "string"` {
		t.Errorf("long list: %q", got)
	}
}
