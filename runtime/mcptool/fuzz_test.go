package mcptool

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
)

// fanOutSchema is a schema whose references fan out without looping:
// $defs d0 applies d1 twice, d1 applies d2 twice, … dN is an integer. It
// has no loop, so schemaProblem accepts it, yet naive validation applies
// 2^n schemas.
func fanOutSchema(n int) string {
	var defs []string
	for i := 0; i < n; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"integer"}`, n))
	return `{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

// TestSchemaFanOutEnds is the regression test of the exponential
// validation: an MCP server's input schema whose references fan out (2^40
// schema applications) hung a0 when it checked a call's arguments. The
// validation now stops after maxJSSteps applications and leaves the
// arguments to the server; a small fan-out is still checked.
func TestSchemaFanOutEnds(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		args    string
		refused bool // a0 itself refuses the arguments
	}{
		{"fan-out 40, good value: left to the server", fanOutSchema(40), `{"x":1}`, false},
		{"fan-out 40, bad value: the first path finds it", fanOutSchema(40), `{"x":"s"}`, true},
		{"fan-out 4, bad value: refused", fanOutSchema(4), `{"x":"s"}`, true},
		{"fan-out 4, good value", fanOutSchema(4), `{"x":1}`, false},
		{"self fan-out under allOf", `{"allOf":[{"$ref":"#"},{"$ref":"#"}]}`, `{"x":1}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := compileSchema([]byte(tc.schema))
			if s == nil {
				t.Fatal("not compiled")
			}
			args, _ := value.ParseJSON(tc.args)
			start := time.Now()
			issues := s.check(args.AsRecord())
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("validation took %v", d)
			}
			if (len(issues) > 0) != tc.refused {
				t.Errorf("issues %q, want refused=%v", issues, tc.refused)
			}
		})
	}
}

// FuzzJSONSchema: a tool's input schema comes from an MCP server (not
// trusted) and the instance from a program. For any schema and instance,
// schemaProblem, compileJSONSchema and validation never panic and end
// promptly (the step and depth bounds), validation is deterministic, and
// the failure path of a refused instance renders. Seeds are the schemas
// and instances of jsCases.
func FuzzJSONSchema(f *testing.F) {
	for _, tc := range jsCases {
		for _, in := range append(append([]string{}, tc.ok...), tc.bad...) {
			f.Add(tc.schema, in)
		}
	}
	f.Add(fanOutSchema(3), `{"x":1}`)
	f.Add(`{"allOf":[{"$ref":"#"},{"$ref":"#"}]}`, `1`)
	f.Add(`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, `{}`)
	f.Fuzz(func(t *testing.T, schema, instance string) {
		start := time.Now()
		problem, unsure := schemaProblem([]byte(schema))
		doc, err := value.ParseJSON(schema)
		if err != nil {
			if compileSchema([]byte(schema)) != nil {
				t.Fatal("a schema that is not JSON compiled")
			}
			return
		}
		root := compileJSONSchema(doc)
		if root == nil {
			return
		}
		inst, err := value.ParseJSON(instance)
		if err != nil {
			inst = value.Str(instance)
		}
		f1 := root.validate(inst)
		f2 := root.validate(inst)
		if (f1 == nil) != (f2 == nil) || f1 != nil && (f1.rule != f2.rule || pathText(f1.segs) != pathText(f2.segs)) {
			t.Fatalf("validation is not deterministic: %v vs %v", f1, f2)
		}
		if f1 != nil {
			_ = pathText(f1.segs)
		}
		// What a0 does for a tool call: only a schema schemaProblem accepts
		// is compiled, and arguments are a record.
		if problem == "" && !unsure {
			if a := compileSchema([]byte(schema)); a != nil && inst.Kind() == value.RecordKind {
				_ = a.check(inst.AsRecord())
			}
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("schema and instance took %v", d)
		}
	})
}

// FuzzSanitizeToolsList: a server's tools/list result is taken apart by
// a0's own JSON scanner (skipValue, objectMembers, arrayItems) when it is
// nested deep. For any bytes it never panics; a result that is JSON stays
// JSON, and one it rewrote holds nothing nested deeper than a tool's
// input schema may be, every refused tool having its schema replaced.
// Seeds are tools/list results with deep schemas, as a server sends them.
func FuzzSanitizeToolsList(f *testing.F) {
	deep := func(n int) string {
		return strings.Repeat(`{"type":"object","properties":{"a":`, n) + `{}` + strings.Repeat(`}}`, n)
	}
	f.Add([]byte(`{"tools":[{"name":"ok","inputSchema":{"type":"object"}},{"name":"deep","description":"d","inputSchema":` + deep(40) +
		`,"annotations":{"readOnlyHint":true}},{"name":"out","inputSchema":{},"outputSchema":` + deep(40) + `}],"nextCursor":"c"}`))
	f.Add([]byte(`{"tools":[{"name":"s\"q\\","inputSchema":` + deep(34) + `}],"_meta":` + deep(34) + `}`))
	f.Add([]byte(`{"tools":[` + strings.Repeat("[", 80) + strings.Repeat("]", 80) + `, 1, "x", null]}`))
	f.Add([]byte(`{"tools":[{"name":"ok","inputSchema":{"type":"object"}}]}`))
	f.Fuzz(func(t *testing.T, result []byte) {
		out, refused := sanitizeToolsList(result)
		if !json.Valid(result) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("valid JSON became invalid: %s", out)
		}
		if string(out) == string(result) {
			if len(refused) > 0 {
				t.Fatalf("refused %v but left the result as is", refused)
			}
			return
		}
		if d := value.JSONTextDepth(out); d > maxSchemaDepth+3 {
			t.Fatalf("rewritten result still nested %d deep: %s", d, out)
		}
	})
}
