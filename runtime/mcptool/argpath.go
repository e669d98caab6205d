package mcptool

import (
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/value"
)

// The validator's messages name the schema that failed ("validating
// /properties/entities/items/properties/name: …"), not the argument, and
// print values with Go's %v (map[x:1], [New York Chicago]). a0 turns them
// into the argument's path with its indices (entities[2].name) and the
// value as JSON (spec/mcp.md §6).

var (
	chainStep = lazyRegexp(`validating (\S+): `)
	goQuoted  = lazyRegexp(`\[("(?:[^"\\]|\\.)*"(?: "(?:[^"\\]|\\.)*")*)\]`)
	wantType  = lazyRegexp(`has type "[a-z]+", want (.+)$`)
	wantOneOf = lazyRegexp(`want one of "([a-z, ]*)"`)
)

// seg is one step of an argument path: a member name, or an index (-1
// when it could not be found).
type seg struct {
	key   string
	index int
	isIdx bool
}

// located is what locate learns from a validation error.
type located struct {
	segs   []seg
	rule   string // the rule's text, after the last "validating …: "
	schema string // the JSON pointer of the failing schema
}

// locate follows the chain of schemas in the error message msg (of the
// validation of inst, the arguments as Go values) down the arguments.
func (a *argSchema) locate(inst map[string]any, msg string) located {
	first, rest, _ := strings.Cut(msg, "\n")
	ms := chainStep().FindAllStringSubmatchIndex(first, -1)
	var out located
	if len(ms) == 0 {
		out.rule = msg
		return out
	}
	last := ms[len(ms)-1]
	out.rule = first[last[1]:]
	if rest != "" {
		out.rule += "\n" + rest
	}
	var cur any = inst
	set := func(any) {}
	prev := ""
	for _, m := range ms {
		p := first[m[2]:m[3]]
		if p == "root" {
			prev = ""
			continue
		}
		out.schema = p
		if !strings.HasPrefix(p, prev+"/") {
			prev = p // a $ref: the same argument, another schema
			continue
		}
		toks := strings.Split(p[len(prev)+1:], "/")
		prev = p
		for i := 0; i < len(toks); i++ {
			switch toks[i] {
			case "properties", "patternProperties":
				if i+1 >= len(toks) {
					continue
				}
				k := unescapePointer(toks[i+1])
				i++
				if toks[i-1] == "patternProperties" {
					k = "*" // which member matched is not known
				}
				out.segs = append(out.segs, seg{key: k})
				if o, ok := cur.(map[string]any); ok {
					parent, key := o, k
					cur = o[k]
					set = func(v any) { parent[key] = v }
				} else {
					cur, set = nil, func(any) {}
				}
			case "items", "prefixItems":
				arr, _ := cur.([]any)
				idx := -1
				if i+1 < len(toks) {
					if n, err := strconv.Atoi(toks[i+1]); err == nil {
						idx = n // a tuple's item
						i++
					}
				}
				if idx < 0 && arr != nil {
					idx = a.failingItem(inst, arr, set, msg)
				}
				out.segs = append(out.segs, seg{index: idx, isIdx: true})
				if idx >= 0 && idx < len(arr) {
					parent, j := arr, idx
					cur = arr[idx]
					set = func(v any) { parent[j] = v }
				} else {
					cur, set = nil, func(any) {}
				}
			}
			// allOf/N, anyOf/N, oneOf/N, not, if, then, else, $defs/X,
			// dependentSchemas/X: the same argument.
		}
	}
	return out
}

// failingItem returns the index of the first item of arr that fails (the
// validator reports the first), found by validating the arguments with
// the list cut after an item: the same error comes back exactly when the
// cut keeps the failing item, so a binary search finds it; -1 when the
// error cannot be reproduced.
func (a *argSchema) failingItem(inst map[string]any, arr []any, set func(any), msg string) int {
	defer set(arr)
	same := func(i int) bool {
		set(arr[:i+1])
		err := a.rs.Validate(inst)
		return err != nil && err.Error() == msg
	}
	if len(arr) == 0 || !same(len(arr)-1) {
		return -1
	}
	lo, hi := 0, len(arr)-1 // same(hi) holds
	for lo < hi {
		mid := (lo + hi) / 2
		if same(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// pathText writes the path: members joined by ".", indices in brackets
// ("[]" when unknown).
func pathText(segs []seg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.isIdx {
			if s.index >= 0 {
				b.WriteString("[" + strconv.Itoa(s.index) + "]")
			} else {
				b.WriteString("[]")
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// valueAt returns the argument at the path (ok false when the path
// cannot be followed).
func valueAt(args *value.Record, segs []seg) (value.Value, bool) {
	v := value.RecordOf(args)
	for _, s := range segs {
		switch {
		case s.isIdx:
			if v.Kind() != value.ListKind || s.index < 0 || s.index >= len(v.AsList()) {
				return value.Value{}, false
			}
			v = v.AsList()[s.index]
		default:
			r := v.AsRecord()
			if r == nil {
				return value.Value{}, false
			}
			x, ok := r.Get(s.key)
			if !ok {
				return value.Value{}, false
			}
			v = x
		}
	}
	return v, true
}

// schemaAt returns the member of the schema document at a JSON pointer.
func schemaAt(doc value.Value, ptr string) (value.Value, bool) {
	if ptr == "" || ptr == "/" {
		return doc, true
	}
	v := doc
	for _, t := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		t = unescapePointer(t)
		switch v.Kind() {
		case value.RecordKind:
			x, ok := v.AsRecord().Get(t)
			if !ok {
				return value.Value{}, false
			}
			v = x
		case value.ListKind:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(v.AsList()) {
				return value.Value{}, false
			}
			v = v.AsList()[n]
		default:
			return value.Value{}, false
		}
	}
	return v, true
}

// plainRule rewrites the validator's text of a rule so that values are
// written as JSON: got is the failing argument (ok false when unknown),
// sch the failing schema.
func plainRule(rule string, got value.Value, ok bool, sch value.Value, haveSch bool) string {
	name, _, _ := strings.Cut(rule, ":")
	j := ""
	if ok {
		j = value.JSON(got)
	}
	member := func(k string) (value.Value, bool) {
		if !haveSch || sch.AsRecord() == nil {
			return value.Value{}, false
		}
		return sch.AsRecord().Get(k)
	}
	switch name {
	case "type":
		if i := strings.LastIndex(rule, ` has type "`); i >= 0 && ok {
			return "type: " + j + jsonLists(rule[i:])
		}
	case "enum":
		if e, has := member("enum"); has && ok {
			return "enum: " + j + " is not one of " + value.JSON(e)
		}
	case "const":
		if c, has := member("const"); has && ok {
			return "const: " + j + " is not " + value.JSON(c)
		}
	case "anyOf", "oneOf":
		if strings.Contains(rule, "validated against both") {
			if ok {
				return "oneOf: " + j + " matches more than one of the allowed schemas"
			}
			return "oneOf: the value matches more than one of the allowed schemas"
		}
		n := 0
		if l, has := member(name); has && l.Kind() == value.ListKind {
			n = len(l.AsList())
		}
		// Every alternative refused the type: say which types would do.
		var wants []string
		lines := strings.Split(rule, "\n")[1:]
		for _, l := range lines {
			if m := wantType().FindStringSubmatch(l); m != nil {
				wants = append(wants, strings.TrimPrefix(jsonLists("want "+m[1]), "want "))
			} else if strings.TrimSpace(l) != "" {
				wants = nil
				break
			}
		}
		what := "the value"
		if ok {
			what = j
		}
		out := name + ": " + what + " matches none of the "
		if n > 0 {
			out += strconv.Itoa(n) + " "
		}
		out += "allowed schemas"
		if len(wants) > 0 && len(wants) == len(lines) {
			out += " (want " + strings.Join(wants, " or ") + ")"
		}
		return out
	case "not":
		if ok {
			return "not: " + j + " matches a schema it must not match"
		}
		return "not: the value matches a schema it must not match"
	case "contains":
		return "contains: no item matches the schema of contains"
	case "minLength", "maxLength", "pattern":
		if ok {
			if loc := quoted().FindStringIndex(rule); loc != nil {
				return rule[:loc[0]] + j + rule[loc[1]:]
			}
		}
	}
	return jsonLists(rule)
}

// jsonLists rewrites the lists the validator writes with %q (["a" "b"])
// as JSON lists.
func jsonLists(rule string) string {
	rule = wantOneOf().ReplaceAllStringFunc(rule, func(s string) string {
		types := strings.Split(wantOneOf().FindStringSubmatch(s)[1], ", ")
		return `want "` + strings.Join(types, `" or "`) + `"`
	})
	return goQuoted().ReplaceAllStringFunc(rule, func(s string) string {
		return "[" + strings.Join(quoted().FindAllString(s, -1), ",") + "]"
	})
}
