package mcptool

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/a0lang/a0/lang/value"
)

// jsCase is one schema and instances it must accept (ok) and refuse
// (bad).
type jsCase struct {
	schema  string
	ok, bad []string
}

var jsCases = []jsCase{
	{`{"type":"integer"}`, []string{`1`, `1.0`, `-3`}, []string{`1.5`, `"1"`, `null`}},
	{`{"type":"number"}`, []string{`1`, `1.5`}, []string{`"x"`, `true`}},
	{`{"type":["string","null"]}`, []string{`"a"`, `null`}, []string{`1`, `{}`}},
	{`{"enum":[1,"a",{"b":[1]}]}`, []string{`1`, `"a"`, `{"b":[1]}`}, []string{`2`, `{"b":[2]}`}},
	{`{"const":{"a":1,"b":2}}`, []string{`{"b":2,"a":1}`}, []string{`{"a":1}`}},
	{`{"multipleOf":0.25}`, []string{`0.75`, `1`, `"x"`}, []string{`0.3`}},
	{`{"minimum":1,"maximum":3}`, []string{`1`, `3`, `"x"`}, []string{`0`, `3.5`}},
	{`{"exclusiveMinimum":1,"exclusiveMaximum":3}`, []string{`2`}, []string{`1`, `3`}},
	{`{"minLength":2,"maxLength":3,"pattern":"^a"}`, []string{`"ab"`, `"aé"`, `"abc"`}, []string{`"a"`, `"abcd"`, `"ba"`}},
	{`{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":2,"uniqueItems":true}`,
		[]string{`["a"]`, `["a","b"]`}, []string{`[]`, `["a","a"]`, `["a","b","c"]`, `[1]`}},
	{`{"uniqueItems":true}`, []string{`[{"a":1,"b":2},{"a":2,"b":1}]`}, []string{`[{"a":1,"b":2},{"b":2,"a":1}]`, `[1,1.0]`}},
	{`{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}`, []string{`["a"]`, `["a",1]`}, []string{`[1]`, `["a",1,2]`}},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":{"type":"integer"}}`,
		[]string{`["a",1,2]`}, []string{`["a","b"]`, `[1]`}},
	{`{"contains":{"type":"integer"},"minContains":2,"maxContains":3}`, []string{`[1,2,"a"]`, `"x"`}, []string{`[1,"a"]`, `[1,2,3,4]`, `[]`}},
	{`{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x":{"type":"integer"}},"additionalProperties":{"type":"boolean"}}`,
		[]string{`{"a":"s","x1":1,"z":true}`}, []string{`{"a":1}`, `{"x1":"s"}`, `{"z":1}`}},
	{`{"propertyNames":{"maxLength":2},"minProperties":1,"maxProperties":2}`, []string{`{"ab":1}`}, []string{`{}`, `{"abc":1}`, `{"a":1,"b":2,"c":3}`}},
	{`{"required":["a","b"]}`, []string{`{"a":1,"b":2}`, `[]`}, []string{`{"a":1}`}},
	{`{"dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"required":["d"]}}}`, []string{`{"b":1}`, `{"a":1,"b":1}`, `{"c":1,"d":1}`}, []string{`{"a":1}`, `{"c":1}`}},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"],"c":{"required":["d"]}}}`, []string{`{"a":1,"b":1}`, `{"c":1,"d":1}`}, []string{`{"a":1}`, `{"c":1}`}},
	{`{"allOf":[{"type":"integer"},{"minimum":2}]}`, []string{`2`}, []string{`1`, `2.5`}},
	{`{"anyOf":[{"type":"integer"},{"type":"string"}]}`, []string{`1`, `"a"`}, []string{`1.5`, `null`}},
	{`{"oneOf":[{"type":"integer"},{"type":"number"}]}`, []string{`1.5`}, []string{`1`, `"a"`}},
	{`{"not":{"type":"string"}}`, []string{`1`}, []string{`"a"`}},
	{`{"if":{"type":"integer"},"then":{"minimum":10},"else":{"type":"string"}}`, []string{`10`, `"a"`}, []string{`5`, `1.5`}},
	{`{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}`, []string{`{"a":1}`}, []string{`{"a":"x"}`}},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/n","type":"string"}}}`,
		[]string{`{"a":1}`}, []string{`{"a":"x"}`}},
	{`{"$defs":{"t":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/t"}},"n":{"type":"integer"}}}},"$ref":"#/$defs/t"}`,
		[]string{`{"kids":[{"kids":[{"n":1}]}]}`}, []string{`{"kids":[{"kids":[{"n":"x"}]}]}`}},
	{`{"properties":{"a":true,"b":false}}`, []string{`{"a":1}`}, []string{`{"b":1}`}},
	{`{"properties":{"a/b":{"type":"string"},"c~d":{"type":"integer"}}}`, []string{`{"a/b":"x","c~d":1}`}, []string{`{"a/b":1}`, `{"c~d":"x"}`}},
	{`{"type":"string","format":"email"}`, []string{`"not an email"`}, nil},
}

// TestJSONSchemaAgrees checks a0's validator against
// github.com/google/jsonschema-go, the library a0 used before (kept as a
// test dependency): the same verdict on every case.
func TestJSONSchemaAgrees(t *testing.T) {
	for _, tc := range jsCases {
		doc, err := value.ParseJSON(tc.schema)
		if err != nil {
			t.Fatal(err)
		}
		ours := compileJSONSchema(doc)
		if ours == nil {
			t.Errorf("%s: not compiled", tc.schema)
			continue
		}
		var ls jsonschema.Schema
		if err := json.Unmarshal([]byte(tc.schema), &ls); err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		rs, err := ls.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: library: %v", tc.schema, err)
		}
		for _, group := range []struct {
			insts []string
			valid bool
		}{{tc.ok, true}, {tc.bad, false}} {
			for _, in := range group.insts {
				v, err := value.ParseJSON(in)
				if err != nil {
					t.Fatal(err)
				}
				f := ours.validate(v)
				if (f == nil) != group.valid {
					t.Errorf("%s on %s: a0 says valid=%v (%v), want %v", tc.schema, in, f == nil, f, group.valid)
				}
				var inst any
				_ = json.Unmarshal([]byte(in), &inst)
				if lerr := rs.Validate(inst); (lerr == nil) != group.valid {
					t.Errorf("%s on %s: the library says valid=%v (%v): the case is wrong", tc.schema, in, lerr == nil, lerr)
				}
			}
		}
	}
}

// TestJSONSchemaLeftToServer: what a0 does not apply, it does not
// refuse.
func TestJSONSchemaLeftToServer(t *testing.T) {
	for _, s := range []string{
		`{"$schema":"http://json-schema.org/draft-04/schema#"}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema"}`,
		`{"$ref":"https://example.com/s.json"}`,
		`{"$ref":"#anchor"}`,
		`{"$ref":"#/$defs/missing"}`,
		`{"unevaluatedProperties":false}`,
		`{"properties":{"a":{"$dynamicRef":"#x"}}}`,
		`[1]`,
	} {
		doc, err := value.ParseJSON(s)
		if err != nil {
			t.Fatal(err)
		}
		if compileJSONSchema(doc) != nil {
			t.Errorf("%s was compiled", s)
		}
	}
	// A pattern RE2 cannot compile is skipped, not held against the value.
	doc, _ := value.ParseJSON(`{"type":"string","pattern":"^(?=a)"}`)
	s := compileJSONSchema(doc)
	if s == nil || s.validate(value.Str("b")) != nil {
		t.Errorf("a lookahead pattern: %v", s)
	}
	// multipleOf allows for binary fractions: 0.3 is a multiple of 0.1
	// (the library refused it, comparing the floats' exact values).
	doc, _ = value.ParseJSON(`{"multipleOf":0.1}`)
	if f := compileJSONSchema(doc).validate(value.Num(0.3)); f != nil {
		t.Errorf("0.3 is not a multiple of 0.1: %v", f)
	}
	// A $ref loop that reaches no property or item ends.
	doc, _ = value.ParseJSON(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`)
	if s := compileJSONSchema(doc); s == nil || s.validate(value.Num(1)) != nil {
		t.Errorf("a $ref loop: not compiled, or refused a value (%v)", s)
	}
}

// TestJSONSchemaMessages pins the messages of the rules TestArgIssues
// does not reach.
func TestJSONSchemaMessages(t *testing.T) {
	for _, tc := range []struct{ schema, args, want string }{
		{`{"properties":{"n":{"multipleOf":0.5}}}`, `{"n":0.7}`, `n: multipleOf: 0.7 is not a multiple of 0.5`},
		{`{"properties":{"n":{"maximum":3}}}`, `{"n":4}`, `n: maximum: 4 is greater than 3`},
		{`{"properties":{"n":{"exclusiveMinimum":0}}}`, `{"n":0}`, `n: exclusiveMinimum: 0 is less than or equal to 0`},
		{`{"properties":{"s":{"pattern":"^a+$"}}}`, `{"s":"b"}`, `s: pattern: "b" does not match regular expression "^a+$"`},
		{`{"properties":{"s":{"maxLength":1}}}`, `{"s":"ab"}`, `s: maxLength: "ab" contains 2 Unicode code points, more than 1`},
		{`{"properties":{"l":{"minItems":2}}}`, `{"l":[1]}`, `l: minItems: array length 1 is less than 2`},
		{`{"properties":{"l":{"uniqueItems":true}}}`, `{"l":[1,2,1]}`, `l: uniqueItems: array items 0 and 2 are equal`},
		{`{"properties":{"l":{"contains":{"type":"string"}}}}`, `{"l":[1]}`, `l: contains: no item matches the schema of contains`},
		{`{"properties":{"o":{"maxProperties":1}}}`, `{"o":{"a":1,"b":2}}`, `o: maxProperties: object has 2 properties, greater than 1`},
		{`{"properties":{"o":{"propertyNames":{"pattern":"^[a-z]+$"}}}}`, `{"o":{"A":1}}`, `o: propertyNames: "A": pattern: "A" does not match regular expression "^[a-z]+$"`},
		{`{"properties":{"x":{"not":{"type":"integer"}}}}`, `{"x":1}`, `x: not: 1 matches a schema it must not match`},
		{`{"properties":{"x":false}}`, `{"x":1}`, `x: false: the schema allows no value here`},
		{`{"properties":{"x":{"oneOf":[{"type":"string"},{"type":"boolean"}]}}}`, `{"x":1}`, `x: oneOf: 1 matches none of the 2 allowed schemas (want "string" or "boolean")`},
		{`{"properties":{"x":{"anyOf":[{"type":"string"},{"minimum":5}]}}}`, `{"x":1}`, `x: anyOf: 1 matches none of the 2 allowed schemas`},
		{`{"properties":{"o":{"additionalProperties":false,"properties":{"a":{}}}}}`, `{"o":{"b":1,"c":2}}`,
			`o.b: additionalProperties: the schema allows no such argument; o.c: additionalProperties: the schema allows no such argument`},
	} {
		a := compileSchema([]byte(tc.schema))
		if a == nil {
			t.Fatalf("%s: not compiled", tc.schema)
		}
		v, err := value.ParseJSON(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(a.check(v.AsRecord()), "; "); got != tc.want {
			t.Errorf("%s with %s:\n got %q\nwant %q", tc.schema, tc.args, got, tc.want)
		}
	}
}

// rsch returns a random schema, nested up to three levels.
func rsch(r *rand.Rand, d int) string {
	types := []string{"string", "integer", "number", "boolean", "null", "array", "object"}
	if d > 2 || r.Intn(6) == 0 {
		switch r.Intn(3) {
		case 0:
			return `{"type":"` + types[r.Intn(len(types))] + `"}`
		case 1:
			return []string{"true", "false", "{}"}[r.Intn(3)]
		}
		return `{"enum":[1,"a",null,[1]]}`
	}
	var parts []string
	n := 1 + r.Intn(3)
	for i := 0; i < n; i++ {
		switch r.Intn(22) {
		case 0:
			parts = append(parts, `"type":"`+types[r.Intn(len(types))]+`"`)
		case 1:
			parts = append(parts, `"type":["`+types[r.Intn(len(types))]+`","`+types[r.Intn(len(types))]+`"]`)
		case 2:
			parts = append(parts, fmt.Sprintf(`"minimum":%d`, r.Intn(5)-2))
		case 3:
			parts = append(parts, fmt.Sprintf(`"exclusiveMaximum":%d`, r.Intn(5)))
		case 4:
			parts = append(parts, fmt.Sprintf(`"minLength":%d`, r.Intn(3)))
		case 5:
			parts = append(parts, `"pattern":"^[ab]"`)
		case 6:
			parts = append(parts, `"items":`+rsch(r, d+1))
		case 7:
			parts = append(parts, `"prefixItems":[`+rsch(r, d+1)+`,`+rsch(r, d+1)+`]`)
		case 8:
			parts = append(parts, `"properties":{"a":`+rsch(r, d+1)+`,"b":`+rsch(r, d+1)+`}`)
		case 9:
			parts = append(parts, `"required":["a"]`)
		case 10:
			parts = append(parts, `"additionalProperties":`+rsch(r, d+1))
		case 11:
			parts = append(parts, `"anyOf":[`+rsch(r, d+1)+`,`+rsch(r, d+1)+`]`)
		case 12:
			parts = append(parts, `"oneOf":[`+rsch(r, d+1)+`,`+rsch(r, d+1)+`]`)
		case 13:
			parts = append(parts, `"allOf":[`+rsch(r, d+1)+`]`)
		case 14:
			parts = append(parts, `"not":`+rsch(r, d+1))
		case 15:
			parts = append(parts, `"if":`+rsch(r, d+1)+`,"then":`+rsch(r, d+1)+`,"else":`+rsch(r, d+1))
		case 16:
			parts = append(parts, `"contains":`+rsch(r, d+1))
		case 17:
			parts = append(parts, fmt.Sprintf(`"maxItems":%d`, r.Intn(3)))
		case 18:
			parts = append(parts, `"uniqueItems":true`)
		case 19:
			parts = append(parts, `"patternProperties":{"^a":`+rsch(r, d+1)+`}`)
		case 20:
			parts = append(parts, `"dependentRequired":{"a":["b"]}`)
		case 21:
			parts = append(parts, `"const":[1,{"a":null}]`)
		}
	}
	seen := map[string]bool{}
	var uniq []string
	for _, p := range parts {
		k := p[:strings.Index(p, ":")]
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, p)
		}
	}
	return "{" + strings.Join(uniq, ",") + "}"
}

// rinst returns a random JSON value.
func rinst(r *rand.Rand, d int) string {
	k := r.Intn(9)
	if d > 2 && k >= 6 {
		k = r.Intn(6)
	}
	switch k {
	case 0:
		return "null"
	case 1:
		return []string{"true", "false"}[r.Intn(2)]
	case 2:
		return fmt.Sprint(r.Intn(7) - 3)
	case 3:
		return []string{"1.5", "0.5", "-2.25", "2.0"}[r.Intn(4)]
	case 4:
		return []string{`""`, `"a"`, `"ab"`, `"ba"`, `"é"`}[r.Intn(5)]
	case 5:
		return `[1,{"a":null}]`
	case 6, 7:
		n := r.Intn(4)
		var xs []string
		for i := 0; i < n; i++ {
			xs = append(xs, rinst(r, d+1))
		}
		return "[" + strings.Join(xs, ",") + "]"
	}
	var ms []string
	for _, name := range []string{"a", "b", "c"} {
		if r.Intn(2) == 0 {
			ms = append(ms, `"`+name+`":`+rinst(r, d+1))
		}
	}
	return "{" + strings.Join(ms, ",") + "}"
}

// TestJSONSchemaRandomAgrees compares the verdicts of a0's validator and
// the library on random schemas and values (200,000 pairs agreed when it
// was written; the test runs a few thousand).
func TestJSONSchemaRandomAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	bad := 0
	for i := 0; i < 5000 && bad < 15; i++ {
		s := rsch(r, 0)
		in := `{"x":` + rinst(r, 0) + `}`
		s = `{"properties":{"x":` + s + `}}`
		doc, err := value.ParseJSON(s)
		if err != nil {
			t.Fatal(s, err)
		}
		ours := compileJSONSchema(doc)
		var ls jsonschema.Schema
		if err := json.Unmarshal([]byte(s), &ls); err != nil {
			continue
		}
		rs, err := ls.Resolve(nil)
		if err != nil {
			continue
		}
		v, _ := value.ParseJSON(in)
		var inst any
		json.Unmarshal([]byte(in), &inst)
		lerr := rs.Validate(inst)
		of := ours.validate(v)
		if (of == nil) != (lerr == nil) {
			bad++
			t.Errorf("%s on %s: ours %v, lib %v", s, in, of, lerr)
		}
	}
}
