package check_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/check"
)

// notesIn is the input schema of the table's tool notes.search.
const notesIn = `{"type":"object","properties":{
  "q":{"type":"string","minLength":1},
  "limit":{"type":"integer","minimum":1,"maximum":50},
  "sort":{"enum":["date","score"]},
  "tags":{"type":"array","items":{"type":"string"}},
  "opts":{"type":"object","properties":{"exact":{"type":"boolean"}},"additionalProperties":false},
  "when":{"$ref":"#/$defs/day"},
  "maybe":{"anyOf":[{"type":"string"},{"type":"null"}]}
 },
 "required":["q"],
 "$defs":{"day":{"type":"string","enum":["mon","tue"]}}}`

// countIn allows members it does not declare.
const countIn = `{"type":"object","properties":{"count":{"type":"integer"},"label":{"type":"string"}}}`

// patIn lets names matching a pattern through, and has a long enum.
const patIn = `{"type":"object","properties":{"count":{"type":"integer"},
  "day":{"enum":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]}},
  "patternProperties":{"^x-":{}},"additionalProperties":false}`

// notesOut is the output schema of notes.search.
const notesOut = `{"type":"object","properties":{"hits":{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"}}}},"total":{"type":"integer"},
  "page":{"type":"object","properties":{"next":{"type":"string"}}}}}`

func schemaConfig() *check.Config {
	cfg := config()
	cfg.Tools = append(cfg.Tools,
		check.Tool{Name: "notes.search", Cap: "notes.search", Input: check.ParseSchema([]byte(notesIn)), Output: check.ParseSchema([]byte(notesOut))},
		check.Tool{Name: "notes.count", Cap: "notes.count", Effect: true, Input: check.ParseSchema([]byte(countIn))},
		check.Tool{Name: "notes.any", Cap: "notes.any"}, // nothing known
		check.Tool{Name: "notes.closed", Cap: "notes.closed", Output: check.ParseSchema([]byte(`{"type":"object","properties":{"total":{}},"additionalProperties":false}`))},
		check.Tool{Name: "notes.pat", Cap: "notes.pat", Input: check.ParseSchema([]byte(patIn)), Output: check.ParseSchema([]byte(`{"type":"object","properties":{"total":{}},"additionalProperties":true}`))},
	)
	cfg.Caps = append(cfg.Caps, "notes.search", "notes.count", "notes.any", "notes.pat", "notes.closed")
	cfg.ToolSchemas = true
	return cfg
}

// want is one expected diagnostic: code, start line:col, and text the
// message and the hint must contain.
type want struct {
	code, at, msg, hint string
}

func TestToolSchemaArgs(t *testing.T) {
	head := "cap { notes.search: true, notes.count: true, notes.any: true, notes.pat: true, notes.closed: true }\n"
	cases := []struct {
		name, src string
		want      []want
	}{
		{"fine", `let r = call? notes.search { q: "x", limit: 5, sort: "date", tags: ["a"], opts: { exact: true }, when: "mon", maybe: null }
return r`, nil},
		{"not literal", `let n = 0
let r = call? notes.search { q: n, limit: n }
return r`, nil},
		{"unknown closed nested", `return call? notes.search { q: "x", opts: { exakt: true } }`,
			[]want{{"E_UNKNOWN_ARG", "2:45", "notes.search opts takes { exact }; got exakt.", "Rename 'exakt' to 'exact'"}}},
		{"misspelt open", `return do notes.count { cont: 9 }`,
			[]want{{"E_UNKNOWN_ARG", "2:25", "notes.count takes { count, label }; got cont.", "Rename 'cont' to 'count': notes.count { count: … }. The schema accepts other arguments"}}},
		{"extra open", `return do notes.count { count: 1, colour: "red" }`, nil},
		{"misspelt top, did-you-mean", `return call? notes.search { q: "x", limt: 5 }`,
			[]want{{"E_UNKNOWN_ARG", "2:37", "got limt.", "Rename 'limt' to 'limit'"}}},
		{"wrong type", `return call? notes.search { q: 3 }`,
			[]want{{"E_TOOL_ARGS", "2:32", "Invalid arguments for tool 'notes.search': q: Expected string, received number", `quote it, "3"`}}},
		{"integer", `return call? notes.search { q: "x", limit: 2.5 }`,
			[]want{{"E_TOOL_ARGS", "2:44", "limit: Expected integer, received 2.5", "whole number"}}},
		{"string number", `return call? notes.search { q: "x", limit: "5" }`,
			[]want{{"E_TOOL_ARGS", "2:44", "limit: Expected integer, received string", "write 5 without quotes"}}},
		{"enum", `return call? notes.search { q: "x", sort: "dat" }`,
			[]want{{"E_TOOL_ARGS", "2:43", `sort: "dat" is not one of "date", "score"`, `Valid choices for 'sort': "date", "score". Did you mean "date"?`}}},
		{"enum by ref", `return call? notes.search { q: "x", when: "wed" }`,
			[]want{{"E_TOOL_ARGS", "2:43", `when: "wed" is not one of "mon", "tue"`, `Valid choices for 'when'`}}},
		{"range", `return call? notes.search { q: "x", limit: 0 }`,
			[]want{{"E_TOOL_ARGS", "2:44", "limit: 0 is less than the minimum 1", "'limit' must be at least 1."}}},
		{"range max", `return call? notes.search { q: "x", limit: 99 }`,
			[]want{{"E_TOOL_ARGS", "2:44", "limit: 99 is greater than the maximum 50", "at most 50"}}},
		{"range negative", `return call? notes.search { q: "x", limit: -3 }`,
			[]want{{"E_TOOL_ARGS", "2:44", "limit: -3 is less than the minimum 1", "at least 1"}}},
		{"minLength", `return call? notes.search { q: "" }`,
			[]want{{"E_TOOL_ARGS", "2:32", "q: the string has 0 characters, fewer than the minLength 1", "at least 1 character."}}},
		{"missing required", `return call? notes.search { limit: 5 }`,
			[]want{{"E_TOOL_ARGS", "2:27", "q: required argument is missing.", "Add 'q: …' (a string) to the record: notes.search { limit: …, q: … }."}}},
		{"list items with index", `return call? notes.search { q: "x", tags: ["a", 2, "c", true] }`,
			[]want{{"E_TOOL_ARGS", "2:49", "tags[1]: Expected string, received number", ""},
				{"E_TOOL_ARGS", "2:57", "tags[3]: Expected string, received boolean", ""}}},
		{"nullable", `return call? notes.search { q: "x", maybe: 4 }`,
			[]want{{"E_TOOL_ARGS", "2:44", "maybe: Expected string or null, received number", ""}}},
		{"all in one pass", `let a = call? notes.search { qq: "x", limit: "many", sort: "size", tags: [1] }
let b = do notes.count { cont: 1, label: 7 }
return [a, b]`,
			[]want{
				{"E_UNKNOWN_ARG", "2:30", "got qq.", "Rename 'qq' to 'q'"},
				{"E_TOOL_ARGS", "2:46", "limit: Expected integer, received string", ""},
				{"E_TOOL_ARGS", "2:60", `sort: "size" is not one of`, ""},
				{"E_TOOL_ARGS", "2:75", "tags[0]: Expected string", ""},
				{"E_TOOL_ARGS", "2:28", "q: required argument is missing.", "notes.search { limit: …, sort: …, tags: …, q: … }"},
				{"E_UNKNOWN_ARG", "3:26", "got cont.", "'count'"},
				{"E_TOOL_ARGS", "3:42", "label: Expected string, received number", ""},
			}},
		{"patternProperties let names through", `return call? notes.pat { cont: 1, x_a: 2 }`, nil},
		{"long enum", `return call? notes.pat { day: 26 }`,
			[]want{{"E_TOOL_ARGS", "2:31", "day: 26 is not one of 1, 2, 3, ", "18, 19, 20, … (5 more)."}}},
		{"open output: close spellings only", `let r = call? notes.pat {}
return [r.totl, r.other]`,
			[]want{{"E_PATH", "3:9", "'r' has no field 'totl'", "Did you mean 'total'?"}}},
		{"output without additionalProperties: close spellings only", `let r = call? notes.search { q: "x" }
return [r.total, r.extra, r.page.whatever]`, nil},
		{"closed output: every undeclared name", `let r = call? notes.closed {}
return [r.total, r.extra]`,
			[]want{{"E_PATH", "3:18", "'r' has no field 'extra'", "declares total for r."}}},
		{"list items in a loop", `let r = call? notes.search { q: "x" }
let ts = for { in: r.hits, as: "h" } {
  return h.titel
}
let fs = filter { in: r.hits, as: "h" } {
  return h.title
}
return [ts, fs]`,
			[]want{{"E_PATH", "4:10", "'h' has no field 'titel'", "Did you mean 'title'?"}}},
		{"unknown schema is silent", `return call? notes.any { whatever: 1 }`, nil},
		{"result field", `let r = call? notes.search { q: "x" }
let t = r.totl
let n = r.page.nxt
let ok = r.page.next
return [t, n, ok, r.hits]`,
			[]want{{"E_PATH", "3:9", "'r' has no field 'totl'", "declares hits, page, total for r. Did you mean 'total'?"},
				{"E_PATH", "4:9", "'r.page' has no field 'nxt'", "Did you mean 'next'?"}}},
		{"result via target, shadowed in fn", `call? notes.search { q: "x" } -> r
fn f { r } {
  return r.anything
}
return { a: r.totals, b: f { r: 1 } }`,
			[]want{{"E_PATH", "6:13", "'r' has no field 'totals'", "Did you mean 'total'?"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := parse(t, "t.a0", head+tc.src)
			got := check.Program(p, schemaConfig())
			if len(got) != len(tc.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tc.want), got.JSONArray())
			}
			for i, w := range tc.want {
				d := got[i]
				at := ""
				if d.Span != nil {
					at = strconv.Itoa(d.Span.Start.Line) + ":" + strconv.Itoa(d.Span.Start.Col)
				}
				if string(d.Code) != w.code || at != w.at || !strings.Contains(d.Message, w.msg) || !strings.Contains(d.Hint, w.hint) {
					t.Errorf("diagnostic %d:\n got  %s %s %q hint %q\n want %s %s %q hint %q", i, d.Code, at, d.Message, d.Hint, w.code, w.at, w.msg, w.hint)
				}
			}
		})
	}
}

// TestToolSchemasOff: without Config.ToolSchemas (an embedding host's
// Compile, the REPL) the schemas are not used: the call fails when made.
func TestToolSchemasOff(t *testing.T) {
	cfg := schemaConfig()
	cfg.ToolSchemas = false
	p := parse(t, "t.a0", "cap { notes.search: true }\nlet r = call? notes.search { q: 3 }\nreturn r.nope")
	if ds := check.Program(p, cfg); len(ds) != 0 {
		t.Fatalf("got %s", ds.JSONArray())
	}
}

func TestParseSchemaRefusesNonObjects(t *testing.T) {
	for _, raw := range []string{``, `[]`, `3`, `null`, `{`} {
		if s := check.ParseSchema([]byte(raw)); s != nil {
			t.Errorf("ParseSchema(%q) = %+v, want nil", raw, s)
		}
	}
	// A reference loop ends at the nesting bound instead of recursing forever.
	s := check.ParseSchema([]byte(`{"$ref":"#"}`))
	if s == nil {
		t.Fatal("nil for a self reference")
	}
}
