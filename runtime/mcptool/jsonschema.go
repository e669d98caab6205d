package mcptool

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// a0's own JSON Schema validator for the arguments of MCP tools (spec/mcp.md
// §6). It applies draft 2020-12 and draft-07 schemas, the two drafts MCP
// servers send, and reports the first rule that fails with the path of
// the argument that broke it.
//
// It is a0's own rather than a library because every a0 command links it:
// the library it replaced cost about 5% of each command's start-up in
// package initialisation. What it does not apply it leaves to the server,
// never refusing arguments it is unsure of:
//   - a schema of another draft, a $ref that is not a pointer into the
//     same document, $dynamicRef, $recursiveRef, unevaluatedProperties and
//     unevaluatedItems make the whole schema the server's to check
//     (compileSchema returns nil);
//   - a pattern that is not an RE2 expression is skipped; format is an
//     annotation, as the drafts say by default.

// jsSchema is one compiled (sub)schema.
type jsSchema struct {
	ptr    string // its JSON pointer in the document
	always *bool  // a boolean schema

	types      []string
	enum       []value.Value
	hasEnum    bool
	cnst       value.Value
	hasConst   bool
	multipleOf *float64
	minimum    *float64
	maximum    *float64
	exclMin    *float64
	exclMax    *float64
	minLen     *int
	maxLen     *int
	pattern    *regexp.Regexp
	patternSrc string

	ref    string // a JSON pointer, resolved after compiling
	refTo  *jsSchema
	allOf  []*jsSchema
	anyOf  []*jsSchema
	oneOf  []*jsSchema
	not    *jsSchema
	ifS    *jsSchema
	thenS  *jsSchema
	elseS  *jsSchema
	prefix []*jsSchema
	items  *jsSchema // items after prefix (2020-12), or every item
	// draft-07's items as an array is prefix, and additionalItems is items.

	contains    *jsSchema
	minContains *int
	maxContains *int
	minItems    *int
	maxItems    *int
	unique      bool

	props      []namedSchema
	patProps   []patternSchema
	addl       *jsSchema
	required   []string
	minProps   *int
	maxProps   *int
	propNames  *jsSchema
	depReq     []namedList
	depSchemas []namedSchema
}

type namedSchema struct {
	name string
	s    *jsSchema
}

type patternSchema struct {
	re *regexp.Regexp
	s  *jsSchema
}

type namedList struct {
	name string
	list []string
}

// jsCompiler compiles one document.
type jsCompiler struct {
	doc     value.Value
	draft7  bool
	byPtr   map[string]*jsSchema
	refs    []*jsSchema
	refused bool
}

// compileJSONSchema compiles a schema document; nil when a0 leaves it to
// the server (see above).
func compileJSONSchema(doc value.Value) *jsSchema {
	c := &jsCompiler{doc: doc, byPtr: map[string]*jsSchema{}}
	if r := doc.AsRecord(); r != nil {
		if v, ok := r.Get("$schema"); ok {
			switch strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(v.AsString(), "http://"), "https://"), "#") {
			case "json-schema.org/draft-07/schema":
				c.draft7 = true
			case "json-schema.org/draft/2020-12/schema":
			default:
				return nil
			}
		}
	}
	root := c.compile(doc, "")
	// Resolve the references now that every schema has its pointer.
	for len(c.refs) > 0 && !c.refused {
		s := c.refs[0]
		c.refs = c.refs[1:]
		target, ok := c.byPtr[s.ref]
		if !ok {
			at, found := stdlib.PointerGet(doc, s.ref)
			if !found {
				return nil
			}
			target = c.compile(at, s.ref)
		}
		s.refTo = target
	}
	if c.refused || root == nil {
		return nil
	}
	return root
}

func (c *jsCompiler) compile(v value.Value, ptr string) *jsSchema {
	if s, ok := c.byPtr[ptr]; ok {
		return s
	}
	s := &jsSchema{ptr: ptr}
	c.byPtr[ptr] = s
	if v.Kind() == value.Bool {
		b := v.AsBool()
		s.always = &b
		return s
	}
	r := v.AsRecord()
	if r == nil {
		c.refused = true // not a schema
		return s
	}
	sub := func(key string, x value.Value) *jsSchema { return c.compile(x, ptr+"/"+escapePointer(key)) }
	subs := func(key string, x value.Value) []*jsSchema {
		var out []*jsSchema
		for i, it := range x.AsList() {
			out = append(out, c.compile(it, ptr+"/"+key+"/"+strconv.Itoa(i)))
		}
		return out
	}
	named := func(key string, x value.Value) []namedSchema {
		var out []namedSchema
		if m := x.AsRecord(); m != nil {
			for i, k := range m.Keys() {
				out = append(out, namedSchema{k, c.compile(m.At(i), ptr+"/"+key+"/"+escapePointer(k))})
			}
		}
		return out
	}
	if ref, ok := r.Get("$ref"); ok {
		p, isPtr := strings.CutPrefix(ref.AsString(), "#")
		if !isPtr || (p != "" && !strings.HasPrefix(p, "/")) {
			c.refused = true // a remote reference or an anchor
			return s
		}
		s.ref = unescapeURIFragment(p)
		c.refs = append(c.refs, s)
		if c.draft7 {
			return s // draft-07 ignores the members beside $ref
		}
	}
	for i, k := range r.Keys() {
		x := r.At(i)
		switch k {
		case "$dynamicRef", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems":
			c.refused = true
		case "type":
			if x.Kind() == value.String {
				s.types = []string{x.AsString()}
			} else {
				for _, t := range x.AsList() {
					s.types = append(s.types, t.AsString())
				}
			}
		case "enum":
			s.enum, s.hasEnum = x.AsList(), true
		case "const":
			s.cnst, s.hasConst = x, true
		case "multipleOf":
			s.multipleOf = num(x)
		case "minimum":
			s.minimum = num(x)
		case "maximum":
			s.maximum = num(x)
		case "exclusiveMinimum":
			s.exclMin = num(x)
		case "exclusiveMaximum":
			s.exclMax = num(x)
		case "minLength":
			s.minLen = count(x)
		case "maxLength":
			s.maxLen = count(x)
		case "pattern":
			if re, err := regexp.Compile(x.AsString()); err == nil {
				s.pattern, s.patternSrc = re, x.AsString()
			}
		case "allOf":
			s.allOf = subs(k, x)
		case "anyOf":
			s.anyOf = subs(k, x)
		case "oneOf":
			s.oneOf = subs(k, x)
		case "not":
			s.not = sub(k, x)
		case "if":
			s.ifS = sub(k, x)
		case "then":
			s.thenS = sub(k, x)
		case "else":
			s.elseS = sub(k, x)
		case "prefixItems":
			if !c.draft7 {
				s.prefix = subs(k, x)
			}
		case "items":
			if x.Kind() == value.ListKind {
				s.prefix = subs(k, x) // draft-07's tuple form
			} else {
				s.items = sub(k, x)
			}
		case "contains":
			s.contains = sub(k, x)
		case "minContains":
			s.minContains = count(x)
		case "maxContains":
			s.maxContains = count(x)
		case "minItems":
			s.minItems = count(x)
		case "maxItems":
			s.maxItems = count(x)
		case "uniqueItems":
			s.unique = x.Kind() == value.Bool && x.AsBool()
		case "properties":
			s.props = named(k, x)
		case "patternProperties":
			for _, ns := range named(k, x) {
				if re, err := regexp.Compile(ns.name); err == nil {
					s.patProps = append(s.patProps, patternSchema{re, ns.s})
				}
			}
		case "additionalProperties":
			s.addl = sub(k, x)
		case "required":
			s.required = stringsOf(x)
		case "minProperties":
			s.minProps = count(x)
		case "maxProperties":
			s.maxProps = count(x)
		case "propertyNames":
			s.propNames = sub(k, x)
		case "dependentRequired":
			s.depReq = append(s.depReq, lists(x)...)
		case "dependentSchemas":
			s.depSchemas = append(s.depSchemas, named(k, x)...)
		case "dependencies": // draft-07: a list of names or a schema per member
			if m := x.AsRecord(); m != nil {
				for j, name := range m.Keys() {
					if d := m.At(j); d.Kind() == value.ListKind {
						s.depReq = append(s.depReq, namedList{name, stringsOf(d)})
					} else {
						s.depSchemas = append(s.depSchemas, namedSchema{name, c.compile(d, ptr+"/dependencies/"+escapePointer(name))})
					}
				}
			}
		}
	}
	if c.draft7 {
		if ai, ok := r.Get("additionalItems"); ok && s.prefix != nil {
			s.items = sub("additionalItems", ai)
		}
	}
	return s
}

func num(x value.Value) *float64 {
	if x.Kind() != value.Number {
		return nil
	}
	f := x.AsNumber()
	return &f
}

func count(x value.Value) *int {
	if x.Kind() != value.Number || x.AsNumber() < 0 || x.AsNumber() != math.Trunc(x.AsNumber()) {
		return nil
	}
	n := int(min(x.AsNumber(), math.MaxInt32))
	return &n
}

func lists(x value.Value) []namedList {
	var out []namedList
	if m := x.AsRecord(); m != nil {
		for i, name := range m.Keys() {
			out = append(out, namedList{name, stringsOf(m.At(i))})
		}
	}
	return out
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapeURIFragment undoes the percent-encoding a $ref's fragment may
// carry; the pointer's own escapes stay.
func unescapeURIFragment(p string) string {
	if !strings.Contains(p, "%") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) {
			if n, err := strconv.ParseUint(p[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// jsFailure is the first rule an instance broke.
type jsFailure struct {
	segs  []seg    // the path of the failing argument
	rule  string   // the rule's message
	names []string // for required and additionalProperties: the members
	kind  string   // "required", "additionalProperties" or ""
}

// maxJSDepth bounds the nesting of schema applications, so a $ref loop
// that never reaches a property or an item cannot recurse forever.
const maxJSDepth = 200

// maxJSSteps bounds the schema applications of one validation. References
// that fan out without looping ($defs a0 → allOf [a1, a1], a1 → allOf
// [a2, a2], …) pass schemaProblem yet would apply 2^n schemas: a server's
// schema must not be able to hang a0, so past this many the arguments are
// left to the server, as for any schema a0 is unsure of.
const maxJSSteps = 200000

// jsRun is the state of one validation.
type jsRun struct {
	steps  int
	gaveUp bool // the depth or the step bound was reached
}

// validate returns the first failure of v against s, or nil (also when
// the validation reached maxJSDepth or maxJSSteps: then the server judges).
func (s *jsSchema) validate(v value.Value) *jsFailure {
	run := &jsRun{}
	f := s.check(v, nil, 0, run)
	if run.gaveUp {
		return nil
	}
	return f
}

func fail(path []seg, rule string) *jsFailure {
	return &jsFailure{segs: slices.Clone(path), rule: rule}
}

// jsonType is the JSON Schema type of an A0 value.
func jsonType(v value.Value) string {
	switch v.Kind() {
	case value.Null:
		return "null"
	case value.Bool:
		return "boolean"
	case value.Number:
		if f := v.AsNumber(); f == math.Trunc(f) && !math.IsInf(f, 0) {
			return "integer"
		}
		return "number"
	case value.String:
		return "string"
	case value.ListKind:
		return "array"
	case value.RecordKind:
		return "object"
	}
	return "unknown"
}

func typeOK(want, got string) bool {
	return want == got || (want == "number" && got == "integer")
}

func quoteTypes(ts []string) string {
	q := make([]string, len(ts))
	for i, t := range ts {
		q[i] = strconv.Quote(t)
	}
	return strings.Join(q, " or ")
}

func numText(f float64) string { return value.JSON(value.Num(f)) }

func (s *jsSchema) check(v value.Value, path []seg, depth int, run *jsRun) *jsFailure {
	run.steps++
	if run.gaveUp || depth > maxJSDepth || run.steps > maxJSSteps {
		run.gaveUp = true
		return nil // left to the server
	}
	depth++
	if s.always != nil {
		if !*s.always {
			return fail(path, "false: the schema allows no value here")
		}
		return nil
	}
	j := func() string { return value.JSON(v) }
	got := jsonType(v)
	if len(s.types) > 0 && !slices.ContainsFunc(s.types, func(t string) bool { return typeOK(t, got) }) {
		return fail(path, "type: "+j()+" has type "+strconv.Quote(got)+", want "+quoteTypes(s.types))
	}
	if s.hasEnum && !slices.ContainsFunc(s.enum, func(e value.Value) bool { return value.Equal(e, v) }) {
		return fail(path, "enum: "+j()+" is not one of "+value.JSON(value.ListOf(s.enum)))
	}
	if s.hasConst && !value.Equal(s.cnst, v) {
		return fail(path, "const: "+j()+" is not "+value.JSON(s.cnst))
	}
	if v.Kind() == value.Number {
		n := v.AsNumber()
		switch {
		case s.multipleOf != nil && *s.multipleOf > 0 && !isMultiple(n, *s.multipleOf):
			return fail(path, "multipleOf: "+j()+" is not a multiple of "+numText(*s.multipleOf))
		case s.minimum != nil && n < *s.minimum:
			return fail(path, "minimum: "+j()+" is less than "+numText(*s.minimum))
		case s.maximum != nil && n > *s.maximum:
			return fail(path, "maximum: "+j()+" is greater than "+numText(*s.maximum))
		case s.exclMin != nil && n <= *s.exclMin:
			return fail(path, "exclusiveMinimum: "+j()+" is less than or equal to "+numText(*s.exclMin))
		case s.exclMax != nil && n >= *s.exclMax:
			return fail(path, "exclusiveMaximum: "+j()+" is greater than or equal to "+numText(*s.exclMax))
		}
	}
	if v.Kind() == value.String {
		str := v.AsString()
		n := utf8.RuneCountInString(str)
		switch {
		case s.minLen != nil && n < *s.minLen:
			return fail(path, "minLength: "+j()+" contains "+strconv.Itoa(n)+" Unicode code points, fewer than "+strconv.Itoa(*s.minLen))
		case s.maxLen != nil && n > *s.maxLen:
			return fail(path, "maxLength: "+j()+" contains "+strconv.Itoa(n)+" Unicode code points, more than "+strconv.Itoa(*s.maxLen))
		case s.pattern != nil && !s.pattern.MatchString(str):
			return fail(path, "pattern: "+j()+" does not match regular expression "+strconv.Quote(s.patternSrc))
		}
	}
	if s.refTo != nil {
		if f := s.refTo.check(v, path, depth, run); f != nil {
			return f
		}
	}
	for _, sub := range s.allOf {
		if f := sub.check(v, path, depth, run); f != nil {
			return f
		}
	}
	if len(s.anyOf) > 0 {
		var fs []*jsFailure
		for _, sub := range s.anyOf {
			f := sub.check(v, path, depth, run)
			if f == nil {
				fs = nil
				break
			}
			fs = append(fs, f)
		}
		if fs != nil {
			return fail(path, "anyOf: "+j()+" matches none of the "+strconv.Itoa(len(s.anyOf))+" allowed schemas"+wantTypes(fs, len(path)))
		}
	}
	if len(s.oneOf) > 0 {
		matched := 0
		var fs []*jsFailure
		for _, sub := range s.oneOf {
			if f := sub.check(v, path, depth, run); f == nil {
				matched++
			} else {
				fs = append(fs, f)
			}
		}
		switch {
		case matched > 1:
			return fail(path, "oneOf: "+j()+" matches more than one of the allowed schemas")
		case matched == 0:
			return fail(path, "oneOf: "+j()+" matches none of the "+strconv.Itoa(len(s.oneOf))+" allowed schemas"+wantTypes(fs, len(path)))
		}
	}
	if s.not != nil && s.not.check(v, path, depth, run) == nil {
		return fail(path, "not: "+j()+" matches a schema it must not match")
	}
	if s.ifS != nil {
		next := s.elseS
		if s.ifS.check(v, path, depth, run) == nil {
			next = s.thenS
		}
		if next != nil {
			if f := next.check(v, path, depth, run); f != nil {
				return f
			}
		}
	}
	switch v.Kind() {
	case value.ListKind:
		return s.checkArray(v.AsList(), path, depth, run)
	case value.RecordKind:
		return s.checkObject(v.AsRecord(), path, depth, run)
	}
	return nil
}

// wantTypes names the types that would do when every alternative refused
// the value's type: " (want "string" or "integer")".
func wantTypes(fs []*jsFailure, at int) string {
	var wants []string
	for _, f := range fs {
		if len(f.segs) != at || !strings.HasPrefix(f.rule, "type: ") {
			return ""
		}
		_, w, _ := strings.Cut(f.rule, ", want ")
		wants = append(wants, w)
	}
	if len(wants) == 0 {
		return ""
	}
	return " (want " + strings.Join(wants, " or ") + ")"
}

func isMultiple(n, m float64) bool {
	q := n / m
	return math.Abs(q-math.Round(q)) < 1e-9*math.Max(1, math.Abs(q))
}

func (s *jsSchema) checkArray(items []value.Value, path []seg, depth int, run *jsRun) *jsFailure {
	at := func(i int) []seg { return append(path[:len(path):len(path)], seg{index: i, isIdx: true}) }
	for i, sub := range s.prefix {
		if i >= len(items) {
			break
		}
		if f := sub.check(items[i], at(i), depth, run); f != nil {
			return f
		}
	}
	if s.items != nil {
		for i := len(s.prefix); i < len(items); i++ {
			if f := s.items.check(items[i], at(i), depth, run); f != nil {
				return f
			}
		}
	}
	if s.contains != nil {
		n := 0
		for i, it := range items {
			if s.contains.check(it, at(i), depth, run) == nil {
				n++
			}
		}
		switch {
		case n == 0 && (s.minContains == nil || *s.minContains > 0):
			return fail(path, "contains: no item matches the schema of contains")
		case s.minContains != nil && n < *s.minContains:
			return fail(path, "minContains: contains validated "+strconv.Itoa(n)+" items, less than "+strconv.Itoa(*s.minContains))
		case s.maxContains != nil && n > *s.maxContains:
			return fail(path, "maxContains: contains validated "+strconv.Itoa(n)+" items, greater than "+strconv.Itoa(*s.maxContains))
		}
	}
	switch {
	case s.minItems != nil && len(items) < *s.minItems:
		return fail(path, "minItems: array length "+strconv.Itoa(len(items))+" is less than "+strconv.Itoa(*s.minItems))
	case s.maxItems != nil && len(items) > *s.maxItems:
		return fail(path, "maxItems: array length "+strconv.Itoa(len(items))+" is greater than "+strconv.Itoa(*s.maxItems))
	}
	if s.unique {
		seen := map[string]int{}
		for i, it := range items {
			k := value.JSON(canonical(it))
			if first, dup := seen[k]; dup {
				return fail(path, "uniqueItems: array items "+strconv.Itoa(first)+" and "+strconv.Itoa(i)+" are equal")
			}
			seen[k] = i
		}
	}
	return nil
}

// canonical returns v with the members of its records sorted, so equal
// values have equal JSON.
func canonical(v value.Value) value.Value {
	switch v.Kind() {
	case value.ListKind:
		items := v.AsList()
		out := make([]value.Value, len(items))
		for i, it := range items {
			out[i] = canonical(it)
		}
		return value.ListOf(out)
	case value.RecordKind:
		r := v.AsRecord()
		keys := slices.Clone(r.Keys())
		slices.Sort(keys)
		vals := make([]value.Value, len(keys))
		for i, k := range keys {
			x, _ := r.Get(k)
			vals[i] = canonical(x)
		}
		out := value.NewRecord(len(keys))
		for i, k := range keys {
			out.Set(k, vals[i])
		}
		return value.RecordOf(out)
	}
	return v
}

func (s *jsSchema) checkObject(r *value.Record, path []seg, depth int, run *jsRun) *jsFailure {
	at := func(k string) []seg { return append(path[:len(path):len(path)], seg{key: k}) }
	evaluated := map[string]bool{}
	for _, p := range s.props {
		x, ok := r.Get(p.name)
		if !ok {
			continue
		}
		if f := p.s.check(x, at(p.name), depth, run); f != nil {
			return f
		}
		evaluated[p.name] = true
	}
	keys := r.Keys()
	for _, pp := range s.patProps {
		for i, k := range keys {
			if pp.re.MatchString(k) {
				if f := pp.s.check(r.At(i), at(k), depth, run); f != nil {
					return f
				}
				evaluated[k] = true
			}
		}
	}
	if s.addl != nil {
		if s.addl.always != nil && !*s.addl.always {
			var extra []string
			for _, k := range keys {
				if !evaluated[k] {
					extra = append(extra, k)
				}
			}
			if len(extra) > 0 {
				f := fail(path, "additionalProperties: the schema allows no such argument")
				f.kind, f.names = "additionalProperties", extra
				return f
			}
		} else {
			for i, k := range keys {
				if !evaluated[k] {
					if f := s.addl.check(r.At(i), at(k), depth, run); f != nil {
						return f
					}
				}
			}
		}
	}
	if s.propNames != nil {
		for _, k := range keys {
			if f := s.propNames.check(value.Str(k), path, depth, run); f != nil {
				f.rule = "propertyNames: " + strconv.Quote(k) + ": " + f.rule
				return f
			}
		}
	}
	switch {
	case s.minProps != nil && r.Len() < *s.minProps:
		return fail(path, "minProperties: object has "+strconv.Itoa(r.Len())+" properties, less than "+strconv.Itoa(*s.minProps))
	case s.maxProps != nil && r.Len() > *s.maxProps:
		return fail(path, "maxProperties: object has "+strconv.Itoa(r.Len())+" properties, greater than "+strconv.Itoa(*s.maxProps))
	}
	missing := func(names []string) []string {
		var out []string
		for _, n := range names {
			if _, ok := r.Get(n); !ok {
				out = append(out, n)
			}
		}
		return out
	}
	if m := missing(s.required); len(m) > 0 {
		f := fail(path, "required: the argument is missing")
		f.kind, f.names = "required", m
		return f
	}
	for _, d := range s.depReq {
		if _, ok := r.Get(d.name); !ok {
			continue
		}
		if m := missing(d.list); len(m) > 0 {
			return fail(path, "dependentRequired["+strconv.Quote(d.name)+"]: missing properties "+value.JSON(value.StrList(m)))
		}
	}
	for _, d := range s.depSchemas {
		if _, ok := r.Get(d.name); !ok {
			continue
		}
		if f := d.s.check(value.RecordOf(r), path, depth, run); f != nil {
			return f
		}
	}
	return nil
}

func stringsOf(x value.Value) []string {
	var out []string
	for _, n := range x.AsList() {
		out = append(out, n.AsString())
	}
	return out
}

// seg is one step of an argument path: a member name, or an index (-1
// when it could not be found).
type seg struct {
	key   string
	index int
	isIdx bool
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
