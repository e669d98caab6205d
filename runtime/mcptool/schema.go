package mcptool

import (
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/value"
)

// maxSchemaDepth is the deepest nesting of a tool's input schema (as
// JSON) a0 accepts; a deeper one is refused and the tool cannot be
// called (spec/mcp.md §3).
const maxSchemaDepth = 64

// The helpers below scan JSON text without recursion, so that a value
// nested any number of levels deep can be measured and taken apart
// without a stack that grows with it.

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i]
// ('"'), or -1 when it does not end in b.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index after the value that starts at or after
// b[i], or -1 when it does not end in b.
func skipValue(b []byte, i int) int {
	i = skipWS(b, i)
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				j := skipString(b, i)
				if j < 0 {
					return -1
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	j := i
	for j < len(b) && !strings.ContainsRune(",}] \t\r\n", rune(b[j])) {
		j++
	}
	if j == i || j == len(b) {
		return -1
	}
	return j
}

// objectMembers splits the object b into its members' keys and raw
// values; complete is false when b ends (or breaks off) early, with the
// members read until then.
func objectMembers(b []byte) (keys []string, vals [][]byte, complete bool) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, nil, false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil, nil, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return keys, vals, false
		}
		j := skipString(b, i)
		if j < 0 {
			return keys, vals, false
		}
		var k string
		if json.Unmarshal(b[i:j], &k) != nil {
			return keys, vals, false
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return keys, vals, false
		}
		start := skipWS(b, i+1)
		end := skipValue(b, start)
		if end < 0 {
			return keys, vals, false
		}
		keys, vals = append(keys, k), append(vals, b[start:end])
		i = skipWS(b, end)
		if i >= len(b) {
			return keys, vals, false
		}
		if b[i] == '}' {
			return keys, vals, true
		}
		if b[i] != ',' {
			return keys, vals, false
		}
		i = skipWS(b, i+1)
	}
	return keys, vals, false
}

// arrayItems splits the array b into its items' raw values.
func arrayItems(b []byte) ([][]byte, bool) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i = skipWS(b, i+1)
	var out [][]byte
	if i < len(b) && b[i] == ']' {
		return out, true
	}
	for i < len(b) {
		end := skipValue(b, i)
		if end < 0 {
			return nil, false
		}
		out = append(out, b[skipWS(b, i):end])
		i = skipWS(b, end)
		if i >= len(b) {
			return nil, false
		}
		if b[i] == ']' {
			return out, true
		}
		if b[i] != ',' {
			return nil, false
		}
		i++
	}
	return nil, false
}

// topLevelMember returns the raw value of the member key of the object
// that b starts (b may break off), or nil.
func topLevelMember(b []byte, key string) []byte {
	keys, vals, _ := objectMembers(b)
	for i, k := range keys {
		if k == key {
			return vals[i]
		}
	}
	return nil
}

func joinObject(keys []string, vals [][]byte) []byte {
	b := []byte{'{'}
	first := true
	for i, k := range keys {
		if vals[i] == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b = append(append(append(b, kb...), ':'), vals[i]...)
	}
	return append(b, '}')
}

// tooDeep is the reason a schema nested too deep is refused.
var tooDeep = "its input schema is nested more than " + strconv.Itoa(maxSchemaDepth) + " levels deep"

// sanitizeToolsList takes a tools/list result apart, without decoding it,
// when something in it is nested deeper than a schema may be: a tool's
// input schema that is too deep is replaced by an empty object schema and
// the tool named in refused; other members too deep (an outputSchema,
// _meta) are dropped. A result that is not too deep is returned as is.
func sanitizeToolsList(result []byte) ([]byte, map[string]string) {
	if value.JSONTextDepth(result) <= maxSchemaDepth+3 {
		return result, nil
	}
	keys, vals, ok := objectMembers(result)
	if !ok {
		return result, nil
	}
	refused := map[string]string{}
	for i, k := range keys {
		if k != "tools" {
			if value.JSONTextDepth(vals[i]) > maxSchemaDepth {
				vals[i] = nil
			}
			continue
		}
		items, ok := arrayItems(vals[i])
		if !ok {
			return result, nil
		}
		out := []byte{'['}
		for j, it := range items {
			if j > 0 {
				out = append(out, ',')
			}
			if value.JSONTextDepth(it) <= maxSchemaDepth+1 {
				out = append(out, it...)
				continue
			}
			tk, tv, ok := objectMembers(it)
			if !ok {
				return result, nil
			}
			var name string
			for n, k := range tk {
				if k == "name" {
					json.Unmarshal(tv[n], &name)
				}
			}
			for n, k := range tk {
				if value.JSONTextDepth(tv[n]) <= maxSchemaDepth {
					continue
				}
				if k == "inputSchema" {
					tv[n] = []byte(`{"type":"object"}`)
					refused[name] = tooDeep
				} else {
					tv[n] = nil
				}
			}
			out = append(out, joinObject(tk, tv)...)
		}
		vals[i] = append(out, ']')
	}
	return joinObject(keys, vals), refused
}

// schemaProblem returns why a0 refuses a tool's input schema ("" when it
// does not): nested deeper than maxSchemaDepth, or a loop of references
// and in-place subschemas ($ref, allOf, anyOf, oneOf, not, if/then/else,
// dependentSchemas) that comes back to a schema without reaching a
// property or an item — a schema no instance can be validated against,
// since its validation never ends. A reference that loops through
// properties or items (a recursive tree type) is accepted. unsure is true
// when the schema has a reference a0 cannot follow (another document, an
// $id-based URI, $recursiveRef): a0 then does not check arguments itself
// and leaves them to the server.
func schemaProblem(raw []byte) (problem string, unsure bool) {
	if value.JSONTextDepth(raw) > maxSchemaDepth {
		return tooDeep, false
	}
	var root any
	if json.Unmarshal(raw, &root) != nil {
		return "", true
	}
	g := &schemaGraph{root: root, anchors: map[string]any{}, ptrs: map[uintptr]string{}}
	g.index(root, "#")
	if g.unsure {
		return "", true
	}
	state := map[uintptr]int{} // 1: on the path, 2: done
	var path []string
	var visit func(n any) string
	visit = func(n any) string {
		m, ok := n.(map[string]any)
		if !ok {
			return ""
		}
		id := reflect.ValueOf(m).Pointer()
		switch state[id] {
		case 1:
			loop := path
			for i, p := range path {
				if p == g.ptrs[id] {
					loop = path[i:]
					break
				}
			}
			return "its input schema's references loop back to " + g.ptrs[id] + " without reaching a property or an item (" + strings.Join(append(slices.Clone(loop), g.ptrs[id]), " → ") + ")"
		case 2:
			return ""
		}
		state[id] = 1
		path = append(path, g.ptrs[id])
		for _, next := range g.inPlace(m) {
			if p := visit(next); p != "" {
				return p
			}
		}
		path = path[:len(path)-1]
		state[id] = 2
		return ""
	}
	for _, m := range g.all {
		if p := visit(m); p != "" {
			return p, false
		}
	}
	return "", g.unsure
}

// schemaGraph indexes a schema document: every object in it, its JSON
// pointer and its anchors.
type schemaGraph struct {
	root    any
	all     []map[string]any
	anchors map[string]any
	ptrs    map[uintptr]string
	unsure  bool
}

func (g *schemaGraph) index(n any, ptr string) {
	switch v := n.(type) {
	case map[string]any:
		id := reflect.ValueOf(v).Pointer()
		if _, seen := g.ptrs[id]; seen {
			return
		}
		g.ptrs[id] = ptr
		g.all = append(g.all, v)
		for _, k := range []string{"$anchor", "$dynamicAnchor"} {
			if a, ok := v[k].(string); ok {
				g.anchors[a] = v
			}
		}
		if s, ok := v["$id"].(string); ok {
			if a, ok := strings.CutPrefix(s, "#"); ok && a != "" {
				g.anchors[a] = v // draft-07's plain-name fragment
			} else if ptr != "#" {
				g.unsure = true // a nested resource: references may be relative to it
			}
		}
		if _, ok := v["$recursiveRef"]; ok {
			g.unsure = true
		}
		for k, c := range v {
			g.index(c, ptr+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
		}
	case []any:
		for i, c := range v {
			g.index(c, ptr+"/"+strconv.Itoa(i))
		}
	}
}

// resolve follows a reference within the document (nil, and g.unsure,
// when it cannot).
func (g *schemaGraph) resolve(ref string) any {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		if s, _ := g.root.(map[string]any)["$id"].(string); s != "" {
			// A reference to the root's own $id, with a fragment.
			if base, f, found := strings.Cut(ref, "#"); found && base == strings.SplitN(s, "#", 2)[0] {
				frag, ok = f, true
			} else if ref == s {
				return g.root
			}
		}
		if !ok {
			g.unsure = true
			return nil
		}
	}
	if frag == "" {
		return g.root
	}
	if !strings.HasPrefix(frag, "/") {
		if a, ok := g.anchors[frag]; ok {
			return a
		}
		g.unsure = true
		return nil
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	return pointerIn(g.root, frag)
}

// pointerIn follows the JSON Pointer ptr ("/$defs/item", already
// unescaped from its URI fragment) from root; nil when it leads nowhere.
func pointerIn(root any, ptr string) any {
	cur := root
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			cur = v[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

// inPlace returns the subschemas that apply to the same instance as m.
func (g *schemaGraph) inPlace(m map[string]any) []any {
	var out []any
	for _, k := range []string{"$ref", "$dynamicRef"} {
		if r, ok := m[k].(string); ok {
			if t := g.resolve(r); t != nil {
				out = append(out, t)
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if l, ok := m[k].([]any); ok {
			out = append(out, l...)
		}
	}
	for _, k := range []string{"not", "if", "then", "else"} {
		if s, ok := m[k]; ok {
			out = append(out, s)
		}
	}
	for _, k := range []string{"dependentSchemas", "dependencies"} {
		if d, ok := m[k].(map[string]any); ok {
			for _, s := range d {
				out = append(out, s)
			}
		}
	}
	return out
}
