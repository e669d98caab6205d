package check

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
)

// Schema is the part of a JSON Schema the checker judges literal values
// by: a tool's input schema (the argument record) or output schema (the
// call's result). It is built by [ParseSchema]; a keyword the checker does
// not understand is left out, so a Schema may accept more than the JSON
// Schema it came from, never less.
type Schema struct {
	// Types are the JSON types a value may have ("string", "number",
	// "integer", "boolean", "object", "array", "null"); empty: any.
	Types []string
	// Properties are the declared members of an object, by name (nil:
	// none declared, so member names are not judged).
	Properties map[string]*Schema
	// Required lists the members an object must have.
	Required []string
	// Closed is additionalProperties: false (and no patternProperties):
	// an undeclared member is refused.
	Closed bool
	// Patterns is true when patternProperties or a schema-valued
	// additionalProperties may accept undeclared members.
	Patterns bool
	// Enum lists the values allowed (decoded JSON: string, float64, bool,
	// nil); nil: any. const is an enum of one.
	Enum []any
	// Minimum, Maximum, ExclusiveMinimum and ExclusiveMaximum bound a
	// number (nil: unbounded).
	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum *float64
	// MinLength and MaxLength bound a string's length in code points (-1:
	// unbounded).
	MinLength, MaxLength int
	// Items is the schema of every element of an array (nil: any).
	Items *Schema
}

// maxSchemaNesting bounds how deep ParseSchema descends (and how many
// references it follows in a row).
const maxSchemaNesting = 32

// ParseSchema reads a JSON Schema (draft 2020-12 or draft-07) into the
// checker's Schema. It returns nil when raw is not a JSON object. Local
// references (#/$defs/…, #/definitions/…) are followed; a subschema with
// anyOf or oneOf is kept only when each branch names types alone (a
// nullable type), and a subschema built another way (allOf, not, if,
// another document's reference) accepts any value.
func ParseSchema(raw []byte) *Schema {
	var root map[string]any
	if json.Unmarshal(raw, &root) != nil || root == nil {
		return nil
	}
	return parseNode(root, root, 0)
}

func parseNode(n any, root map[string]any, depth int) *Schema {
	s := &Schema{MinLength: -1, MaxLength: -1}
	m, ok := n.(map[string]any)
	if !ok || depth > maxSchemaNesting {
		return s
	}
	if ref, ok := m["$ref"].(string); ok {
		if t := localRef(root, ref); t != nil && onlyAnnotations(m, "$ref") {
			return parseNode(t, root, depth+1)
		}
		return s
	}
	for _, k := range []string{"allOf", "not", "if", "$dynamicRef", "$recursiveRef"} {
		if _, ok := m[k]; ok {
			return s
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if l, ok := m[k].([]any); ok {
			types, ok := branchTypes(l, root, depth)
			if !ok || !onlyAnnotations(m, k) {
				return s
			}
			s.Types = types
			return s
		}
	}
	s.Types = typeList(m["type"])
	if e, ok := m["enum"].([]any); ok {
		s.Enum = e
	}
	if c, ok := m["const"]; ok {
		s.Enum = []any{c}
	}
	num := func(k string) *float64 {
		if f, ok := m[k].(float64); ok {
			return &f
		}
		return nil
	}
	s.Minimum, s.Maximum = num("minimum"), num("maximum")
	s.ExclusiveMinimum, s.ExclusiveMaximum = num("exclusiveMinimum"), num("exclusiveMaximum")
	if f, ok := m["minLength"].(float64); ok && f >= 0 {
		s.MinLength = int(f)
	}
	if f, ok := m["maxLength"].(float64); ok && f >= 0 {
		s.MaxLength = int(min(f, math.MaxInt32))
	}
	if props, ok := m["properties"].(map[string]any); ok {
		s.Properties = make(map[string]*Schema, len(props))
		for k, v := range props {
			s.Properties[k] = parseNode(v, root, depth+1)
		}
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	_, patterns := m["patternProperties"]
	switch ap := m["additionalProperties"].(type) {
	case bool:
		s.Closed = !ap && !patterns
	case map[string]any:
		patterns = true
	}
	s.Patterns = patterns
	if it, ok := m["items"].(map[string]any); ok {
		s.Items = parseNode(it, root, depth+1)
	}
	return s
}

// onlyAnnotations reports whether m has no keyword besides key that
// constrains a value (a description, a title, a default are fine).
func onlyAnnotations(m map[string]any, key string) bool {
	for k := range m {
		switch k {
		case key, "description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly":
		default:
			return false
		}
	}
	return true
}

// branchTypes returns the union of the types of anyOf/oneOf branches that
// each name types alone, or false.
func branchTypes(l []any, root map[string]any, depth int) ([]string, bool) {
	var out []string
	for _, b := range l {
		m, ok := b.(map[string]any)
		if !ok {
			return nil, false
		}
		if ref, ok := m["$ref"].(string); ok && onlyAnnotations(m, "$ref") {
			if t, ok := localRef(root, ref).(map[string]any); ok && depth < maxSchemaNesting {
				m = t
			}
		}
		ts := typeList(m["type"])
		if len(ts) == 0 || !onlyAnnotations(m, "type") {
			return nil, false
		}
		for _, t := range ts {
			if !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out, len(out) > 0
}

func typeList(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// localRef resolves a reference within the document: "#", "#/$defs/x",
// "#/definitions/x" and other JSON pointers (nil when it cannot).
func localRef(root map[string]any, ref string) any {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	if frag == "" {
		return root
	}
	if !strings.HasPrefix(frag, "/") {
		return nil
	}
	var cur any = root
	for _, seg := range strings.Split(frag[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[seg]
	}
	return cur
}

// names returns the declared member names, sorted.
func (s *Schema) names() []string {
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ---- tool arguments ----

// schemaArgs reports every mistake in the literal argument record of a
// call of a tool whose input schema is known: member names the schema
// does not declare (E_UNKNOWN_ARG; under additionalProperties only a
// close spelling of a declared name), literal values of the wrong type,
// outside the enum, the numeric range or the length bounds (E_TOOL_ARGS),
// and required members the record lacks (E_TOOL_ARGS). Nested records
// and lists written as literals are checked the same way.
func (c *checker) schemaArgs(t *ast.ToolCall, s *Schema) {
	c.schemaRecord(t.Tool, "", s, t.Args)
}

// argPath joins a member name to the path of the record it is in.
func argPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func (c *checker) schemaRecord(tool, prefix string, s *Schema, r *ast.RecordExpr) {
	if s.Properties == nil && len(s.Required) == 0 {
		return
	}
	props := s.names()
	var given []string
	spread := false
	for _, e := range r.Entries {
		if e.Spread {
			spread = true
			continue
		}
		k, _, _ := strings.Cut(e.Key, ".")
		if !contains(given, k) {
			given = append(given, k)
		}
	}
	// One undeclared name and one declared member not given: the likely
	// rename, as for functions (ArgNamesMessage).
	var unknown, unused []string
	for _, g := range given {
		if _, ok := s.Properties[g]; !ok && s.Properties != nil {
			unknown = append(unknown, g)
		}
	}
	for _, p := range props {
		if !contains(given, p) {
			unused = append(unused, p)
		}
	}
	what := tool
	if prefix != "" {
		what = tool + " " + prefix
	}
	reported := map[string]bool{}
	for i, e := range r.Entries {
		if e.Spread {
			continue
		}
		k, _, dotted := strings.Cut(e.Key, ".")
		p, declared := s.Properties[k]
		if !declared && s.Properties != nil {
			if reported[k] {
				continue
			}
			near := nearest(k, props)
			spelt := "" // a close spelling of a declared name not given
			if sug := diag.Suggest(k, props); sug != "" && !contains(given, sug) {
				spelt = sug
			}
			for _, p := range props {
				if squash(p) == squash(k) && !contains(given, p) {
					spelt = p
				}
			}
			if near != "" && contains(given, near) {
				near = spelt
			}
			if near == "" && s.Closed && len(unknown) == 1 && len(unused) == 1 {
				near = unused[0]
			}
			if !s.Closed {
				if s.Patterns || spelt == "" {
					continue // the schema lets other members through
				}
				near = spelt
			}
			reported[k] = true
			sp := e.Span
			msg := what + " takes { " + strings.Join(props, ", ") + " }; got " + k + "."
			var hint string
			switch {
			case near != "" && !s.Closed:
				hint = "Rename '" + k + "' to '" + near + "'" + renameForm(tool, prefix, props, given, k, near) + ". The schema accepts other arguments, so the server would take '" + k + "' as an extra one and ignore it, not as '" + near + "'."
			case near != "":
				hint = "Rename '" + k + "' to '" + near + "'" + renameForm(tool, prefix, props, given, k, near) + "."
			default:
				hint = "Use the argument names the schema declares: " + strings.Join(props, ", ") + "."
			}
			c.add(diag.EUnknownArg, &sp, msg, hint)
			continue
		}
		if !declared || dotted || replaced(r, i) {
			continue
		}
		c.schemaValue(tool, argPath(prefix, k), p, e.Value)
	}
	if spread {
		return // the spread may bring the missing members
	}
	for _, req := range s.Required {
		if contains(given, req) {
			continue
		}
		sp := r.Span
		path := argPath(prefix, req)
		var form []string
		for _, g := range given {
			if _, ok := s.Properties[g]; ok {
				form = append(form, g)
			}
		}
		form = append(form, req)
		c.add(diag.EToolArgs, &sp, "Invalid arguments for tool '"+tool+"': "+path+": required argument is missing.",
			"Add '"+req+": …'"+typeNote(s.Properties[req])+" to the record: "+callForm(recordName(tool, prefix), form)+".")
	}
}

// recordName is how a hint shows the record: the tool for the argument
// record, else the tool and the member's path.
func recordName(tool, prefix string) string {
	if prefix == "" {
		return tool
	}
	return prefix + ":"
}

// renameForm is ": <tool> { … }" with the record's names, k renamed.
func renameForm(tool, prefix string, props, given []string, k, near string) string {
	var names []string
	for _, g := range given {
		if g == k {
			g = near
		}
		if contains(props, g) && !contains(names, g) {
			names = append(names, g)
		}
	}
	return ": " + callForm(recordName(tool, prefix), names)
}

// typeNote is " (a string)" for a member of one known type.
func typeNote(s *Schema) string {
	if s == nil || len(s.Types) != 1 {
		return ""
	}
	return " (a" + article(s.Types[0]) + " " + s.Types[0] + ")"
}

// schemaValue checks the literal x written for the member at path.
func (c *checker) schemaValue(tool, path string, s *Schema, x ast.Expr) {
	got := literalType(x)
	if got == "" || s == nil {
		return
	}
	pre := "Invalid arguments for tool '" + tool + "': " + path + ": "
	sp := x.GetSpan()
	name := path
	if i := strings.LastIndexAny(path, ".["); i >= 0 && path[i] == '.' {
		name = path[i+1:]
	}
	if len(s.Types) > 0 && !typeFits(s.Types, x, got) && !(got == "number" && contains(s.Types, "integer")) {
		c.add(diag.EToolArgs, &sp, pre+"Expected "+strings.Join(s.Types, " or ")+", received "+got, typeHint(name, s.Types, x))
		return
	}
	if len(s.Types) > 0 && got == "number" && !typeFits(s.Types, x, got) {
		n, _ := numLiteral(x)
		c.add(diag.EToolArgs, &sp, pre+"Expected integer, received "+formatNum(n), "'"+name+"' takes a whole number: write "+formatNum(math.Trunc(n))+" or "+formatNum(math.Ceil(n))+".")
		return
	}
	if s.Enum != nil {
		if v, ok := literalJSON(x); ok && !inEnum(s.Enum, v) {
			choices := enumText(s.Enum)
			hint := "Valid choices for '" + name + "': " + strings.Join(choices, ", ") + "."
			if str, ok := v.(string); ok {
				var strs []string
				for _, e := range s.Enum {
					if es, ok := e.(string); ok {
						strs = append(strs, es)
					}
				}
				if near := nearest(str, strs); near != "" && len(strs) > 1 {
					hint += " Did you mean " + strconv.Quote(near) + "?"
				}
			}
			c.add(diag.EToolArgs, &sp, pre+jsonText(v)+" is not one of "+strings.Join(choices, ", "), hint)
			return
		}
	}
	switch got {
	case "number":
		n, _ := numLiteral(x)
		switch {
		case s.Minimum != nil && n < *s.Minimum:
			c.add(diag.EToolArgs, &sp, pre+formatNum(n)+" is less than the minimum "+formatNum(*s.Minimum), "'"+name+"' must be at least "+formatNum(*s.Minimum)+".")
		case s.ExclusiveMinimum != nil && n <= *s.ExclusiveMinimum:
			c.add(diag.EToolArgs, &sp, pre+formatNum(n)+" is not greater than the exclusive minimum "+formatNum(*s.ExclusiveMinimum), "'"+name+"' must be greater than "+formatNum(*s.ExclusiveMinimum)+".")
		case s.Maximum != nil && n > *s.Maximum:
			c.add(diag.EToolArgs, &sp, pre+formatNum(n)+" is greater than the maximum "+formatNum(*s.Maximum), "'"+name+"' must be at most "+formatNum(*s.Maximum)+".")
		case s.ExclusiveMaximum != nil && n >= *s.ExclusiveMaximum:
			c.add(diag.EToolArgs, &sp, pre+formatNum(n)+" is not less than the exclusive maximum "+formatNum(*s.ExclusiveMaximum), "'"+name+"' must be less than "+formatNum(*s.ExclusiveMaximum)+".")
		}
	case "string":
		l, _ := unparen(x).(*ast.Literal)
		n := utf8.RuneCountInString(l.Str)
		switch {
		case s.MinLength >= 0 && n < s.MinLength:
			c.add(diag.EToolArgs, &sp, pre+"the string has "+chars(n)+", fewer than the minLength "+strconv.Itoa(s.MinLength), "'"+name+"' must have at least "+chars(s.MinLength)+".")
		case s.MaxLength >= 0 && n > s.MaxLength:
			c.add(diag.EToolArgs, &sp, pre+"the string has "+chars(n)+", more than the maxLength "+strconv.Itoa(s.MaxLength), "'"+name+"' may have at most "+chars(s.MaxLength)+".")
		}
	case "object":
		if r, ok := unparen(x).(*ast.RecordExpr); ok {
			c.schemaRecord(tool, path, s, r)
		}
	case "array":
		if l, ok := unparen(x).(*ast.ListExpr); ok && s.Items != nil {
			for i, el := range l.Elems {
				c.schemaValue(tool, path+"["+strconv.Itoa(i)+"]", s.Items, el)
			}
		}
	}
}

// literalJSON is the JSON value of a scalar literal (string, float64,
// bool, nil), or false.
func literalJSON(x ast.Expr) (any, bool) {
	if n, ok := numLiteral(x); ok {
		return n, true
	}
	l, ok := unparen(x).(*ast.Literal)
	if !ok {
		return nil, false
	}
	switch l.Kind {
	case ast.LitString:
		return l.Str, true
	case ast.LitBool:
		return l.Bool, true
	case ast.LitNull:
		return nil, true
	}
	return nil, false
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if e == v {
			return true
		}
	}
	return false
}

// enumText writes the choices of an enum, at most maxChoices of them.
func enumText(enum []any) []string {
	var out []string
	for i, e := range enum {
		if i == maxChoices {
			out = append(out, "… ("+strconv.Itoa(len(enum)-maxChoices)+" more)")
			break
		}
		out = append(out, jsonText(e))
	}
	return out
}

// maxChoices bounds the enum values a message lists.
const maxChoices = 20

// jsonText writes a decoded JSON value as JSON (A0 writes scalars alike).
func jsonText(v any) string {
	if f, ok := v.(float64); ok {
		return formatNum(f)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

func formatNum(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// ---- result fields ----

// resultFields reports reads of members a tool's result does not have:
// `let r = do srv.tool { … }` (or `… -> r`) and then `r.missing`, when
// the tool's output schema declares the result's members. A name bound
// again in an inner block (a parameter, a loop variable, a catch name,
// another let) hides the result there.
func (c *checker) resultFields(p *ast.Program) {
	c.fieldStmts(p.Stmts, map[string]resultVar{})
}

type resultVar struct {
	tool string
	s    *Schema
}

func (c *checker) fieldStmts(stmts []ast.Stmt, vars map[string]resultVar) {
	vars = copyVars(vars)
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.LetStmt:
			c.fieldExpr(s.Value, vars)
			delete(vars, s.Name)
			if rv, ok := c.resultOf(s.Value); ok {
				vars[s.Name] = rv
			}
		case *ast.ExprStmt:
			c.fieldExpr(s.X, vars)
			if s.Target != nil {
				delete(vars, s.Target.Parts[0])
				if rv, ok := c.resultOf(s.X); ok && len(s.Target.Parts) == 1 {
					vars[s.Target.Parts[0]] = rv
				}
			}
		case *ast.ReturnStmt:
			c.fieldExpr(s.X, vars)
		case *ast.FnDecl:
			c.fieldBlock(s.Body, vars, append([]string{s.Name}, s.Params...)...)
		}
	}
}

func copyVars(vars map[string]resultVar) map[string]resultVar {
	out := make(map[string]resultVar, len(vars))
	for k, v := range vars {
		out[k] = v
	}
	return out
}

func (c *checker) fieldBlock(b *ast.Block, vars map[string]resultVar, locals ...string) {
	if b == nil {
		return
	}
	inner := copyVars(vars)
	for _, l := range locals {
		delete(inner, l)
	}
	c.fieldStmts(b.Stmts, inner)
}

// resultOf returns the tool whose call x is, when its output schema
// declares the result's members.
func (c *checker) resultOf(x ast.Expr) (resultVar, bool) {
	t, ok := unparen(x).(*ast.ToolCall)
	if !ok {
		return resultVar{}, false
	}
	info, ok := c.cfg.tool(t.Tool)
	if !ok || info.Output == nil || info.Output.Properties == nil {
		return resultVar{}, false
	}
	return resultVar{t.Tool, info.Output}, true
}

func (c *checker) fieldExpr(e ast.Expr, vars map[string]resultVar) {
	if e == nil {
		return
	}
	switch e := e.(type) {
	case *ast.IdentPath:
		if rv, ok := vars[e.Parts[0]]; ok && len(e.Parts) > 1 {
			c.fieldPath(e, rv)
		}
	case *ast.RecordExpr:
		for _, en := range e.Entries {
			c.fieldExpr(en.Value, vars)
		}
	case *ast.ListExpr:
		for _, x := range e.Elems {
			c.fieldExpr(x, vars)
		}
	case *ast.CallExpr:
		c.fieldExpr(e.Args, vars)
	case *ast.ToolCall:
		c.fieldExpr(e.Args, vars)
	case *ast.AssertExpr:
		c.fieldExpr(e.Args, vars)
	case *ast.IfBlock:
		c.fieldExpr(e.Cond, vars)
		c.fieldBlock(e.Then, vars)
		c.fieldBlock(e.Else, vars)
	case *ast.IfRecord:
		c.fieldExpr(e.Cond, vars)
		c.fieldExpr(e.Then, vars)
		c.fieldExpr(e.Else, vars)
	case *ast.ForExpr:
		c.fieldExpr(e.In, vars)
		c.fieldLoop(e.In, e.As, e.Body, vars)
	case *ast.FilterBlock:
		c.fieldExpr(e.In, vars)
		c.fieldLoop(e.In, e.As, e.Body, vars)
	case *ast.LoopExpr:
		c.fieldExpr(e.In, vars)
		c.fieldExpr(e.Times, vars)
		c.fieldBlock(e.Body, vars, e.As)
	case *ast.MatchExpr:
		c.fieldExpr(e.Subject, vars)
		c.fieldBlock(e.Ok.Body, vars, e.Ok.Binding)
		c.fieldBlock(e.Err.Body, vars, e.Err.Binding)
	case *ast.TryExpr:
		c.fieldBlock(e.Body, vars)
		c.fieldBlock(e.Catch, vars, e.CatchName)
	case *ast.BinaryExpr:
		c.fieldExpr(e.L, vars)
		c.fieldExpr(e.R, vars)
	case *ast.UnaryExpr:
		c.fieldExpr(e.X, vars)
	case *ast.ParenExpr:
		c.fieldExpr(e.X, vars)
	}
}

// fieldLoop checks a for or filter body; when the list is a path into a
// result whose schema gives the items' members (`for { in: r.hits, as:
// "h" }`), the loop variable is judged by them.
func (c *checker) fieldLoop(in ast.Expr, as string, body *ast.Block, vars map[string]resultVar) {
	inner := copyVars(vars)
	delete(inner, as)
	if id, ok := unparen(in).(*ast.IdentPath); ok && as != "" {
		if rv, ok := vars[id.Parts[0]]; ok {
			s := rv.s
			for _, seg := range id.Parts[1:] {
				if s == nil || s.Properties == nil {
					s = nil
					break
				}
				s = s.Properties[seg]
			}
			if s != nil && s.Items != nil && s.Items.Properties != nil {
				inner[as] = resultVar{rv.tool, s.Items}
			}
		}
	}
	c.fieldBlock(body, inner)
}

// fieldPath follows the segments of a path that starts at a tool result
// through the output schema's declared members, and reports the first
// segment the schema does not declare (E_PATH, the run would read null):
// any name when the schema says additionalProperties: false, else only a
// close spelling of a declared member.
func (c *checker) fieldPath(e *ast.IdentPath, rv resultVar) {
	s := rv.s
	for i, seg := range e.Parts[1:] {
		if s == nil || s.Properties == nil {
			return
		}
		if len(s.Types) > 0 && !contains(s.Types, "object") {
			return
		}
		p, ok := s.Properties[seg]
		if ok {
			s = p
			continue
		}
		if s.Patterns || !s.Closed && diag.Suggest(seg, s.names()) == "" {
			// The result may have members the schema does not name: only
			// a close spelling of a declared one is judged a mistake.
			return
		}
		sp := e.Span
		path := strings.Join(e.Parts[:i+1], ".")
		props := s.names()
		hint := "The output schema of '" + rv.tool + "' declares " + strings.Join(props, ", ") + " for " + path + "."
		hint = withSuggestion(hint, seg, props)
		c.add(diag.EPath, &sp, "'"+path+"' has no field '"+seg+"': the result of '"+rv.tool+"' does not declare it, so '"+strings.Join(e.Parts[:i+2], ".")+"' would be null.", hint)
		return
	}
}

// chars is "1 character", "3 characters".
func chars(n int) string {
	if n == 1 {
		return "1 character"
	}
	return strconv.Itoa(n) + " characters"
}
