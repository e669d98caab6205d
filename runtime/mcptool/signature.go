package mcptool

// Signatures: the compact A0 form of a tool's input and output schemas,
// in the style `a0 help` describes the stdlib and the built-in tools
// (spec/mcp.md §8.1):
//
//	call? notes.search { q: string, limit?: integer = 10 } -> { hits: [{ title: string, score: number }], count: integer }
//	    Search the notes.
//
// Nested objects and lists are shown to a fixed depth and number of
// members, so that one server's signatures fit in a few hundred bytes;
// `a0 tools SERVER.TOOL` shows the full schemas.

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/termout"
)

// Caps on what a signature shows.
const (
	// sigDepth is how many levels of nested objects and lists a type
	// shows; deeper ones are written {…} and […].
	sigDepth = 4
	// sigMembers is how many members of a nested object a type shows
	// (the arguments themselves are all shown).
	sigMembers = 8
	// sigAlternatives is how many enum values or anyOf alternatives a
	// type shows.
	sigAlternatives = 8
	// sigDescRunes bounds the one-line description.
	sigDescRunes = 120
	// sigRefs bounds how many $refs one rendering follows.
	sigRefs = 32
)

// SigArg is one argument of a signature.
type SigArg struct {
	// Name is the argument's name.
	Name string `json:"name"`
	// Type is its A0 type text: string, number, integer, boolean, null,
	// [T] for a list, { a: T, b?: T } for a record, "x"|"y" for an enum,
	// any when the schema does not say.
	Type string `json:"type"`
	// Required says whether the call must give it.
	Required bool `json:"required"`
	// Enum holds the values an enum allows (nil for none).
	Enum []json.RawMessage `json:"enum,omitempty"`
	// Default is the schema's default (nil for none).
	Default json.RawMessage `json:"default,omitempty"`
	// Description is the first line of the argument's description.
	Description string `json:"description,omitempty"`
	// Constraints names the limits the schema puts on the value
	// ("minimum 1", "maxLength 80", "format uri"), "" for none.
	Constraints string `json:"constraints,omitempty"`
}

// Signature is a tool's A0 signature (spec/mcp.md §8.1).
type Signature struct {
	// Name is the A0 name ("notes.search").
	Name string `json:"name"`
	// Server and Tool are the server's name and its own name for the tool.
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Mode is "read" (call? or do) or "effect" (do only).
	Mode string `json:"mode"`
	// Args are the arguments: the required ones first, each group in the
	// schema's order.
	Args []SigArg `json:"args"`
	// Result is the A0 type of the call's value, from the output schema;
	// "any" when the server gives none.
	Result string `json:"result"`
	// Description is the first sentence of the tool's description on one
	// line, its control characters escaped.
	Description string `json:"description"`
	// Unavailable, when set, says why the tool cannot be called.
	Unavailable string `json:"unavailable,omitempty"`
	// Builtin, when set, names the MCP request a0 itself makes for the
	// tool ("resources/read"): the server has no tool of that name.
	Builtin string `json:"builtin,omitempty"`
	// Text is the signature as `a0 tools` prints it on its first line.
	Text string `json:"signature"`

	full string // the whole description
}

// Describer is implemented by tools that have a description
// (mcptool.Tool).
type Describer interface{ Description() string }

// OutputSchemer is implemented by tools that know the JSON Schema of
// their result (mcptool.Tool).
type OutputSchemer interface{ OutputSchema() json.RawMessage }

// SignatureOf returns the signature of a listed server tool. A tool that
// cannot be called (a name collision, a refused schema) carries the
// reason in Unavailable.
func SignatureOf(t ToolInfo) Signature {
	why := t.NotCallable
	if len(t.Collision) > 0 {
		why = "the server tools " + strings.Join(t.Collision, ", ") + " map to this name"
	}
	if why == "" && t.Unavailable != "" {
		why = t.Unavailable
	}
	sig := NewSignature(t.Name, t.Server, t.Remote, t.Mode, t.Description, t.Schema, t.OutputSchema, why)
	sig.Builtin = t.Builtin
	return sig
}

// ToolSignature returns the signature of any A0 tool: its description
// and output schema when it has them (Describer, OutputSchemer), its
// input schema (runtime.ToolSchema), and for an MCP tool the reason it
// cannot be called.
func ToolSignature(t runtime.Tool) Signature {
	var desc, remote, server string
	var out json.RawMessage
	if d, ok := t.(Describer); ok {
		desc = d.Description()
	}
	if o, ok := t.(OutputSchemer); ok {
		out = o.OutputSchema()
	}
	server, remote, _ = strings.Cut(t.Name(), ".")
	why := ""
	if mt, ok := t.(*Tool); ok {
		server = mt.Server()
		if r := mt.Remote(); r != "" {
			remote = r
		}
		why = mt.NotCallable()
	}
	return NewSignature(t.Name(), server, remote, t.Mode(), desc, runtime.ToolSchema(t), out, why)
}

// NewSignature builds a signature from a tool's name, mode, description,
// input and output JSON Schemas (nil output: the result is any) and the
// reason it cannot be called ("" when it can).
func NewSignature(name, server, remote string, mode runtime.Mode, desc string, input, output json.RawMessage, unavailable string) Signature {
	s := Signature{Name: name, Server: server, Tool: remote, Mode: mode.String(), Args: []SigArg{}, Result: "any",
		Description: OneLine(desc), Unavailable: unavailable, full: desc}
	if len(input) > 0 {
		if r := newSigRenderer(input); r != nil {
			s.Args = r.args(r.root)
		}
	}
	if len(output) > 0 {
		if r := newSigRenderer(output); r != nil {
			s.Result = r.typeOf(r.root, 0)
		}
	}
	s.Text = s.line()
	return s
}

// FullDescription returns the tool's whole description.
func (s *Signature) FullDescription() string { return s.full }

// line is the first line of the text form: the call form, the name, the
// arguments and the result.
func (s *Signature) line() string {
	call := "do"
	if s.Mode == runtime.ModeRead.String() {
		call = "call?"
	}
	var b strings.Builder
	b.WriteString(call + " " + termout.Safe(s.Name, false) + " {")
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" " + a.text())
	}
	if len(s.Args) > 0 {
		b.WriteString(" ")
	}
	b.WriteString("} -> " + s.Result)
	return b.String()
}

// text is the argument as the signature shows it: name?: type = default.
func (a SigArg) text() string {
	t := sigKey(a.Name)
	if !a.Required {
		t += "?"
	}
	t += ": " + a.Type
	if a.Default != nil {
		t += " = " + clipRunes(termout.Safe(string(a.Default), false), 40)
	}
	return t
}

// Render writes the signature as `a0 tools` lists it: the signature line
// (indented by indent), then the one-line description and the reason it
// is unavailable, indented four more spaces.
func (s *Signature) Render(indent string) string {
	var b strings.Builder
	b.WriteString(indent + s.Text)
	b.WriteString(s.origin())
	b.WriteString("\n")
	if s.Unavailable != "" {
		b.WriteString(indent + "    not callable: " + termout.Safe(s.Unavailable, false) + "\n")
	}
	if s.Description != "" {
		b.WriteString(indent + "    " + s.Description + "\n")
	}
	return b.String()
}

// origin is what follows the signature line when the A0 name is not the
// server's own: "  (a0's resources/read)" or "  (server tool add-note)".
func (s *Signature) origin() string {
	switch {
	case s.Builtin != "":
		return "  (a0's " + s.Builtin + ")"
	case s.Tool != "" && s.Server != "" && s.Tool != strings.TrimPrefix(s.Name, s.Server+"."):
		return "  (server tool " + termout.Safe(s.Tool, false) + ")"
	}
	return ""
}

// RenderFull is the text of `a0 tools SERVER.TOOL`: the signature line,
// the whole description, each argument with its description and
// constraints, the result, and the input and output schemas as compact
// JSON.
func (s *Signature) RenderFull(input, output json.RawMessage) string {
	var b strings.Builder
	b.WriteString(s.Text)
	b.WriteString(s.origin())
	b.WriteString("\n")
	if s.Unavailable != "" {
		b.WriteString("    not callable: " + termout.Safe(s.Unavailable, false) + "\n")
	}
	if d := strings.TrimSpace(s.full); d != "" {
		b.WriteString("    " + strings.ReplaceAll(termout.Safe(d, true), "\n", "\n    ") + "\n")
	}
	b.WriteString("\narguments:\n")
	if len(s.Args) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, a := range s.Args {
		line := "  " + a.text()
		var notes []string
		if a.Required {
			notes = append(notes, "required")
		}
		if a.Constraints != "" {
			notes = append(notes, a.Constraints)
		}
		if len(notes) > 0 {
			line += "  (" + strings.Join(notes, "; ") + ")"
		}
		b.WriteString(line + "\n")
		if a.Description != "" {
			b.WriteString("      " + a.Description + "\n")
		}
	}
	b.WriteString("result: " + s.Result + "\n")
	if len(input) > 0 {
		b.WriteString("input schema: " + termout.SafeJSON(compactSchema(input)) + "\n")
	}
	if len(output) > 0 {
		b.WriteString("output schema: " + termout.SafeJSON(compactSchema(output)) + "\n")
	} else {
		b.WriteString("output schema: none (the result is the tool's structured content or its text)\n")
	}
	return b.String()
}

// compactSchema is a schema as compact JSON.
func compactSchema(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// OneLine returns the first sentence of the first paragraph line of desc,
// at most sigDescRunes runes, its control characters escaped.
func OneLine(desc string) string {
	d := strings.TrimSpace(desc)
	if i := strings.IndexAny(d, "\r\n"); i >= 0 {
		d = strings.TrimSpace(d[:i])
	}
	for i := 0; i+1 < len(d); i++ {
		if (d[i] == '.' || d[i] == '!' || d[i] == '?') && (d[i+1] == ' ' || d[i+1] == '\t') {
			d = d[:i+1]
			break
		}
	}
	return clipRunes(termout.Safe(d, false), sigDescRunes)
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// sigKey is a member name as a signature shows it: as it is when it is
// an identifier, else quoted.
func sigKey(k string) string {
	ident := k != ""
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			ident = false
			break
		}
	}
	if ident {
		return k
	}
	b, _ := json.Marshal(k)
	return termout.Safe(string(b), false)
}

// sigRenderer renders the types of one schema document.
type sigRenderer struct {
	root   any
	refs   int
	order  map[uintptr][]string // the document order of each object's keys
	active map[uintptr]bool     // the schemas being rendered (a $ref back to one is a loop)
}

// newSigRenderer decodes a schema document, keeping the order of its
// objects' keys (nil when it is not JSON).
func newSigRenderer(raw json.RawMessage) *sigRenderer {
	r := &sigRenderer{order: map[uintptr][]string{}, active: map[uintptr]bool{}}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	root, err := r.decode(dec, 0)
	if err != nil {
		return nil
	}
	r.root = root
	return r
}

// decode reads one value from dec; objects become map[string]any, with
// their key order in r.order.
func (r *sigRenderer) decode(dec *json.Decoder, depth int) (any, error) {
	if depth > 2*maxSchemaDepth {
		return nil, errors.New("nested too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			var keys []string
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := r.decode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := m[k]; !dup {
					keys = append(keys, k)
				}
				m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			r.order[reflect.ValueOf(m).Pointer()] = keys
			return m, nil
		case '[':
			l := []any{}
			for dec.More() {
				v, err := r.decode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return l, nil
		}
		return nil, errors.New("unexpected delimiter")
	}
	return tok, nil
}

// keys returns the keys of a decoded object in document order.
func (r *sigRenderer) keys(m map[string]any) []string {
	if k, ok := r.order[reflect.ValueOf(m).Pointer()]; ok && len(k) == len(m) {
		return k
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// resolve follows a reference within the document (nil when it cannot,
// or when the rendering has followed sigRefs references).
func (r *sigRenderer) resolve(ref string) any {
	r.refs++
	if r.refs > sigRefs {
		return nil
	}
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	cur := r.root
	if frag == "" {
		return cur
	}
	if !strings.HasPrefix(frag, "/") {
		return nil
	}
	return pointerIn(cur, frag)
}

// deref returns the schema m stands for: m itself, or what its $ref (and
// a single-member allOf) point to.
func (r *sigRenderer) deref(s any) any {
	for range sigRefs {
		m, ok := s.(map[string]any)
		if !ok {
			return s
		}
		if ref, ok := m["$ref"].(string); ok {
			t := r.resolve(ref)
			if t == nil {
				return true // any
			}
			s = t
			continue
		}
		if all, ok := m["allOf"].([]any); ok && len(all) == 1 && len(m) == 1 {
			s = all[0]
			continue
		}
		return s
	}
	return true
}

// objectParts returns the properties (in document order), the required
// names and the additionalProperties of an object schema, merging the
// members of an allOf.
func (r *sigRenderer) objectParts(m map[string]any) (names []string, props map[string]any, required map[string]bool) {
	props, required = map[string]any{}, map[string]bool{}
	var add func(m map[string]any, depth int)
	add = func(m map[string]any, depth int) {
		if p, ok := m["properties"].(map[string]any); ok {
			for _, k := range r.keys(p) {
				if _, seen := props[k]; !seen {
					names = append(names, k)
				}
				props[k] = p[k]
			}
		}
		if req, ok := m["required"].([]any); ok {
			for _, x := range req {
				if k, ok := x.(string); ok {
					required[k] = true
				}
			}
		}
		if all, ok := m["allOf"].([]any); ok && depth < 4 {
			for _, s := range all {
				if sm, ok := r.deref(s).(map[string]any); ok {
					add(sm, depth+1)
				}
			}
		}
	}
	add(m, 0)
	return names, props, required
}

// args returns the arguments of an input schema.
func (r *sigRenderer) args(s any) []SigArg {
	m, ok := r.deref(s).(map[string]any)
	if !ok {
		return []SigArg{}
	}
	names, props, required := r.objectParts(m)
	id := reflect.ValueOf(m).Pointer()
	r.active[id] = true
	defer delete(r.active, id)
	out := make([]SigArg, 0, len(names))
	for _, k := range names {
		p := r.deref(props[k])
		a := SigArg{Name: k, Required: required[k], Type: r.typeOf(p, 1)}
		if pm, ok := p.(map[string]any); ok {
			if e, ok := pm["enum"].([]any); ok {
				for _, v := range e {
					if b, err := json.Marshal(v); err == nil {
						a.Enum = append(a.Enum, b)
					}
				}
			}
			if d, ok := pm["default"]; ok {
				if b, err := json.Marshal(d); err == nil {
					a.Default = b
				}
			}
			if d, ok := pm["description"].(string); ok {
				a.Description = OneLine(d)
			}
			a.Constraints = constraints(pm)
		}
		out = append(out, a)
	}
	// Required arguments first, as a function's signature lists them;
	// each group in the schema's order.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Required && !out[j].Required })
	return out
}

// constraints names the limits of a schema: minimum 1, maxLength 80, …
func constraints(m map[string]any) string {
	var parts []string
	for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			continue
		}
		if str, ok := v.(string); ok && k != "pattern" {
			b = []byte(str)
		}
		parts = append(parts, k+" "+clipRunes(termout.Safe(string(b), false), 60))
	}
	return strings.Join(parts, ", ")
}

// typeOf renders the A0 type of a schema at nesting depth.
func (r *sigRenderer) typeOf(s any, depth int) string {
	s = r.deref(s)
	switch v := s.(type) {
	case bool:
		if v {
			return "any"
		}
		return "never"
	case map[string]any:
		id := reflect.ValueOf(v).Pointer()
		if r.active[id] {
			// A reference back to a schema being rendered: a recursive
			// type, shown once.
			if t, _ := v["type"].(string); t == "array" {
				return "[…]"
			}
			if _, ok := v["properties"]; ok || v["type"] == "object" {
				return "{…}"
			}
			return "…"
		}
		r.active[id] = true
		defer delete(r.active, id)
		return r.mapType(v, depth)
	}
	return "any"
}

func (r *sigRenderer) mapType(m map[string]any, depth int) string {
	if c, ok := m["const"]; ok {
		return literal(c)
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		lits := make([]string, 0, len(e))
		for _, v := range e {
			lits = append(lits, literal(v))
		}
		return alternatives(lits)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			var ts []string
			for _, a := range alts {
				ts = append(ts, r.typeOf(a, depth))
			}
			return alternatives(ts)
		}
	}
	var types []string
	switch t := m["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if str, ok := x.(string); ok {
				types = append(types, str)
			}
		}
	}
	if len(types) == 0 {
		_, hasProps := m["properties"]
		_, hasAll := m["allOf"]
		_, hasItems := m["items"]
		switch {
		case hasProps || hasAll:
			types = []string{"object"}
		case hasItems:
			types = []string{"array"}
		default:
			return "any"
		}
	}
	ts := make([]string, 0, len(types))
	for _, t := range types {
		ts = append(ts, r.simpleType(t, m, depth))
	}
	return alternatives(ts)
}

// simpleType renders one JSON Schema type of m.
func (r *sigRenderer) simpleType(t string, m map[string]any, depth int) string {
	switch t {
	case "string", "number", "integer", "boolean", "null":
		return t
	case "array":
		items, ok := m["items"]
		if !ok {
			if pi, ok := m["prefixItems"].([]any); ok && len(pi) > 0 {
				items = pi[0]
			} else {
				return "list"
			}
		}
		if depth >= sigDepth {
			return "[…]"
		}
		return "[" + r.typeOf(items, depth+1) + "]"
	case "object":
		names, props, required := r.objectParts(m)
		if len(names) == 0 {
			if ap, ok := m["additionalProperties"]; ok {
				if b, isBool := ap.(bool); !isBool || b {
					if depth >= sigDepth {
						return "{…}"
					}
					if !isBool {
						return "{ [key]: " + r.typeOf(ap, depth+1) + " }"
					}
				}
			}
			return "record"
		}
		if depth >= sigDepth {
			return "{…}"
		}
		parts := make([]string, 0, min(len(names), sigMembers)+1)
		for i, k := range names {
			if i == sigMembers {
				parts = append(parts, "…")
				break
			}
			opt := ""
			if !required[k] {
				opt = "?"
			}
			parts = append(parts, sigKey(k)+opt+": "+r.typeOf(props[k], depth+1))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return "any"
}

// literal is a JSON value as a signature shows it.
func literal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "any"
	}
	return clipRunes(termout.Safe(string(b), false), 40)
}

// alternatives joins types with |, without repeats, at most
// sigAlternatives of them.
func alternatives(ts []string) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range ts {
		if seen[t] {
			continue
		}
		seen[t] = true
		if len(out) == sigAlternatives {
			out = append(out, "…")
			break
		}
		out = append(out, t)
	}
	return strings.Join(out, "|")
}

// MarshalJSON returns v (signatures, or records holding them) as
// indented JSON without HTML escapes, control characters in server text
// escaped (termout.SafeJSON), ending in a newline.
func MarshalJSON(v any) string { return marshalJSON(v, "  ") }

// MarshalJSONLine is MarshalJSON on one line.
func MarshalJSONLine(v any) string { return marshalJSON(v, "") }

func marshalJSON(v any, indent string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return "null\n"
	}
	return termout.SafeJSON(b.String())
}

// Search ranks signatures by how well query matches their names and
// descriptions, case-insensitively: every word of the query must occur
// in the tool's name (without the server's), its server tool name or its
// description; a word in
// the name counts more than one in the description, a whole name or a
// name that starts with the word more than one that only contains it,
// and a name the words cover more of ranks higher.
// Signatures that do not match are left out; ties keep their order.
func Search(sigs []Signature, query string) []Signature {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return nil
	}
	type scored struct {
		s     Signature
		score int
	}
	var hits []scored
	for _, s := range sigs {
		name := strings.ToLower(s.Name)
		// The server's name is not searched: every tool of a server
		// would match it (a0 tools SERVER lists them).
		short := strings.ToLower(strings.TrimPrefix(s.Name, s.Server+"."))
		remote := strings.ToLower(s.Tool)
		desc := strings.ToLower(s.full)
		score, covered := 0, 0
		for _, w := range words {
			ws := 0
			switch {
			case short == w || remote == w || name == w:
				ws = 100
			case strings.HasPrefix(short, w) || strings.HasPrefix(remote, w):
				ws = 60
			case strings.Contains(short, w) || strings.Contains(remote, w):
				ws = 40
			}
			if strings.Contains(desc, w) {
				ws += 10 + min(strings.Count(desc, w), 5)
			}
			if ws == 0 {
				score = 0
				break
			}
			if strings.Contains(short, w) {
				covered += len(w)
			}
			score += ws
		}
		if score > 0 && short != "" {
			// Of two names the words match, the one they cover more of
			// ranks first (read_file before read_text_file for "read file").
			score += 20 * min(covered, len(short)) / len(short)
		}
		if score > 0 {
			hits = append(hits, scored{s, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]Signature, len(hits))
	for i, h := range hits {
		out[i] = h.s
	}
	return out
}
