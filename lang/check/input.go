package check

import (
	"strings"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/resolve"
)

// InputTypes are the type words an `input { … }` header may give an input,
// in the order messages list them. A trailing `?` makes the input optional.
var InputTypes = []string{"str", "int", "float", "bool", "list", "rec", "any"}

// InputDecl is one input declared by a program's `input { … }` header.
type InputDecl struct {
	Name     string
	Type     string // one of InputTypes
	Optional bool   // declared with a trailing `?`: null when not given
	Span     diag.Span
}

// Inputs returns the inputs declared by p's first input header, in source
// order, and whether p has an input header at all. Malformed entries (the
// checker reports them) are left out.
func Inputs(p *ast.Program) ([]InputDecl, bool) {
	h := inputHeader(p)
	if h == nil {
		return nil, false
	}
	out := []InputDecl{}
	seen := map[string]bool{}
	for _, e := range h.Rec.Entries {
		if e.Spread || seen[e.Key] || strings.Contains(e.Key, ".") {
			continue
		}
		lit, ok := e.Value.(*ast.Literal)
		if !ok || lit.Kind != ast.LitString {
			continue
		}
		typ, opt := strings.CutSuffix(lit.Str, "?")
		if !contains(InputTypes, typ) {
			continue
		}
		seen[e.Key] = true
		out = append(out, InputDecl{Name: e.Key, Type: typ, Optional: opt, Span: e.Span})
	}
	return out, true
}

// HasInputHeader reports whether p declares inputs (and so binds `input`).
func HasInputHeader(p *ast.Program) bool { return inputHeader(p) != nil }

func inputHeader(p *ast.Program) *ast.Header {
	for _, h := range p.Headers {
		if h.Kind == ast.InputHeader {
			return h
		}
	}
	return nil
}

// inputTypeAliases are type words of other languages, with the A0 word.
var inputTypeAliases = map[string]string{
	"string": "str", "text": "str", "integer": "int", "number": "float", "double": "float",
	"boolean": "bool", "array": "list", "record": "rec", "object": "rec", "map": "rec", "dict": "rec",
}

const inputTypeHint = `Declare each input as name: "type" with a type among str, int, float, bool, list, rec, any; add ? for an optional input, for example input { repo: "str", limit: "int?" }.`

// inputHeaders validates the input headers: one at most, each entry a
// plain name with a type string. It records the declared names for the
// binding walk (checkInputUse).
func (c *checker) inputHeaders(p *ast.Program) {
	n := 0
	for _, h := range p.Headers {
		if h.Kind != ast.InputHeader {
			continue
		}
		n++
		if c.cfg.Session {
			c.add(diag.EInputDecl, &h.Span, "An input header is not allowed in a session input.", "Bind the session's inputs with :input { ... } in the REPL (Session.Bind for a host).")
			continue
		}
		if n > 1 {
			c.add(diag.EInputDecl, &h.Span, "Only one input header is allowed.", "Declare every input in a single 'input { ... }' header.")
			continue
		}
		c.inputs = map[string]bool{}
		for _, e := range h.Rec.Entries {
			if e.Spread {
				c.add(diag.ESpreadNotAllowed, &e.Span, "A spread is not allowed in an input header.", inputTypeHint)
				continue
			}
			if strings.Contains(e.Key, ".") {
				c.add(diag.EInputDecl, &e.Span, "Input name '"+e.Key+"' must be a single word.", "Name each input with one word, read as input.<name>: for example '"+strings.ReplaceAll(e.Key, ".", "_")+": \"str\"'.")
				continue
			}
			if c.inputs[e.Key] {
				c.add(diag.EInputDecl, &e.Span, "Duplicate input '"+e.Key+"'.", "Declare each input once.")
				continue
			}
			c.inputs[e.Key] = true
			c.inputOrder = append(c.inputOrder, e.Key)
			lit, ok := e.Value.(*ast.Literal)
			sp := e.Value.GetSpan()
			if !ok || lit.Kind != ast.LitString {
				c.add(diag.EInputDecl, &sp, "Input '"+e.Key+"' must be declared with a type string.", inputTypeHint)
				continue
			}
			typ, opt := strings.CutSuffix(lit.Str, "?")
			if contains(InputTypes, typ) {
				continue
			}
			hint := inputTypeHint
			want := inputTypeAliases[strings.ToLower(typ)]
			if want == "" {
				want = diag.Suggest(typ, InputTypes)
			}
			if want != "" {
				q := ""
				if opt {
					q = "?"
				}
				hint = "Did you mean \"" + want + q + "\"? " + hint
			}
			c.add(diag.EInputDecl, &sp, "Unknown input type '"+lit.Str+"' for input '"+e.Key+"'.", hint)
		}
	}
}

// checkInputUse reports `input.x` where the header declares no x. Only a
// path whose `input` is the header's binding (not a shadowing variable)
// is checked.
func (c *checker) checkInputUse(e *ast.IdentPath, b *resolve.Binding) {
	if c.inputs == nil || len(e.Parts) < 2 || e.Parts[0] != "input" {
		return
	}
	if b.Scope != nil && !b.Scope.Top() {
		return
	}
	name := e.Parts[1]
	if c.inputs[name] {
		return
	}
	names := c.inputOrder
	var hint string
	if len(names) == 0 {
		hint = "The input header declares no inputs: add '" + name + ": \"str\"' (or another type) to it."
	} else {
		hint = "Declared inputs: " + strings.Join(names, ", ") + "."
		if s := diag.Suggest(name, names); s != "" {
			hint += " Did you mean '" + s + "'?"
		}
		hint += " To take a new input, add '" + name + ": \"<type>\"' to the input header."

	}
	c.add(diag.EInputDecl, &e.Span, "Input '"+name+"' is not declared in the input header.", hint)
}
