package check

import (
	"math"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
)

// Arg describes one argument of a tool for the strict check of literal
// values (`a0 check --strict`): a literal the tool would refuse at run
// time is reported before anything runs.
type Arg struct {
	Name string
	// Types are the JSON types a value may have: "string", "number",
	// "integer", "boolean", "object", "array", "null". Empty: any value.
	Types []string
	// Elem is the type every element of a list value, or every field of
	// a record value, must have ("": any).
	Elem string
}

// argTypes reports, under Config.Strict, the literal values of a tool
// call's record that do not have the type the argument takes: one
// E_TOOL_ARGS per value, with the issue text the run would give.
//
// An entry a later entry of the same name or a later spread may replace
// is not checked: the value the tool gets is not known.
func (c *checker) argTypes(tool string, args []Arg, r *ast.RecordExpr) {
	for i, e := range r.Entries {
		if e.Spread || strings.Contains(e.Key, ".") || replaced(r, i) {
			continue
		}
		a, ok := findArg(args, e.Key)
		if !ok || len(a.Types) == 0 {
			continue
		}
		got := literalType(e.Value)
		if got == "" {
			continue
		}
		if !typeFits(a.Types, e.Value, got) {
			sp := e.Value.GetSpan()
			c.add(diag.EToolArgs, &sp, "Invalid arguments for tool '"+tool+"': "+a.Name+": Expected "+strings.Join(a.Types, " or ")+", received "+got,
				typeHint(a.Name, a.Types, e.Value))
			continue
		}
		if a.Elem == "" {
			continue
		}
		c.elemTypes(tool, a, e.Value)
	}
}

// elemTypes checks the literal elements of a list value, or the literal
// fields of a record value, against a.Elem.
func (c *checker) elemTypes(tool string, a Arg, v ast.Expr) {
	check := func(path, part string, x ast.Expr) {
		got := literalType(x)
		if got == "" || typeFits([]string{a.Elem}, x, got) {
			return
		}
		sp := x.GetSpan()
		c.add(diag.EToolArgs, &sp, "Invalid arguments for tool '"+tool+"': "+path+": Expected "+a.Elem+", received "+got,
			"Every "+part+" of '"+a.Name+"' must be a"+article(a.Elem)+" "+a.Elem+typeFix(a.Elem, x))
	}
	switch v := unparen(v).(type) {
	case *ast.ListExpr:
		for i, x := range v.Elems {
			check(a.Name+"."+strconv.Itoa(i), "element", x)
		}
	case *ast.RecordExpr:
		for i, e := range v.Entries {
			if e.Spread || strings.Contains(e.Key, ".") || replaced(v, i) {
				continue
			}
			check(a.Name+"."+e.Key, "value", e.Value)
		}
	}
}

// replaced reports whether the value of r's entry i may be replaced by a
// later entry: one of the same name, or a spread.
func replaced(r *ast.RecordExpr, i int) bool {
	for _, e := range r.Entries[i+1:] {
		if e.Spread || e.Key == r.Entries[i].Key {
			return true
		}
	}
	return false
}

func findArg(args []Arg, name string) (Arg, bool) {
	for _, a := range args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

func unparen(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// literalType is the run-time type word of a literal value ("string",
// "number", "boolean", "null", "array", "object"), or "" when x is not a
// literal and its type is known only once it is evaluated.
func literalType(x ast.Expr) string {
	switch x := unparen(x).(type) {
	case *ast.Literal:
		switch x.Kind {
		case ast.LitNull:
			return "null"
		case ast.LitBool:
			return "boolean"
		case ast.LitInt, ast.LitFloat:
			return "number"
		case ast.LitString:
			return "string"
		}
	case *ast.UnaryExpr:
		if l, ok := unparen(x.X).(*ast.Literal); ok && (l.Kind == ast.LitInt || l.Kind == ast.LitFloat) {
			return "number"
		}
	case *ast.ListExpr:
		return "array"
	case *ast.RecordExpr:
		return "object"
	}
	return ""
}

// typeFits reports whether a literal x of type got is one of types; an
// "integer" is a number literal without a fraction.
func typeFits(types []string, x ast.Expr, got string) bool {
	for _, t := range types {
		switch {
		case t == got:
			return true
		case t == "integer" && got == "number":
			if l, ok := numLiteral(x); ok && l == math.Trunc(l) {
				return true
			}
		}
	}
	return false
}

// numLiteral is the value of a number literal (negated under unary minus).
func numLiteral(x ast.Expr) (float64, bool) {
	switch x := unparen(x).(type) {
	case *ast.Literal:
		return x.Num, x.Kind == ast.LitInt || x.Kind == ast.LitFloat
	case *ast.UnaryExpr:
		n, ok := numLiteral(x.X)
		return -n, ok
	}
	return 0, false
}

// typeHint names the fix of an argument literal of the wrong type.
func typeHint(name string, types []string, x ast.Expr) string {
	if len(types) != 1 {
		return "'" + name + "' takes a value of type " + strings.Join(types, " or ") + "."
	}
	return "'" + name + "' takes a" + article(types[0]) + " " + types[0] + typeFix(types[0], x)
}

// typeFix ends a hint: how to write x as a want, when that is plain.
func typeFix(want string, x ast.Expr) string {
	if lst, ok := unparen(x).(*ast.ListExpr); ok && want == "object" {
		// env: ["A=1", "B=2"]: the pairs of another tool's environment.
		var pairs []string
		for _, el := range lst.Elems {
			s, ok := unparen(el).(*ast.Literal)
			if !ok || s.Kind != ast.LitString {
				return "."
			}
			k, v, found := strings.Cut(s.Str, "=")
			if !found || !isIdent(k) {
				return "."
			}
			pairs = append(pairs, k+": "+strconv.Quote(v))
		}
		if len(pairs) > 0 {
			return ": write a record of names and values, { " + strings.Join(pairs, ", ") + " }."
		}
	}
	l, ok := unparen(x).(*ast.Literal)
	if !ok {
		return "."
	}
	switch {
	case want == "array" && l.Kind == ast.LitString && len(strings.Fields(l.Str)) > 1:
		words := strings.Fields(l.Str)
		for i, w := range words {
			words[i] = strconv.Quote(w)
		}
		return ": write the words as a list, [" + strings.Join(words, ", ") + "]."

	case (want == "number" || want == "integer") && l.Kind == ast.LitString:
		if _, err := strconv.ParseFloat(strings.TrimSpace(l.Str), 64); err == nil {
			return ": write " + strings.TrimSpace(l.Str) + " without quotes."
		}
	case want == "boolean" && l.Kind == ast.LitString && (l.Str == "true" || l.Str == "false"):
		return ": write " + l.Str + " without quotes."
	case want == "string" && l.Kind != ast.LitString && l.Kind != ast.LitNull:
		return ": quote it, \"" + l.Raw + "\"."
	case want == "array" && l.Kind == ast.LitString:
		return ": write a list, [" + l.Raw + "]."
	}
	return "."
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "n"
	}
	return ""
}

// isIdent reports whether s is an A0 name (a letter or _, then letters,
// digits or _), which a record key can be without quotes.
func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
