package runtime

import (
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/format"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
)

// ParseData parses a record of inputs given as text (the REPL's
// `:input { … }`): a JSON object, or an A0 record written with literals
// only (inputs are data, never code: no names, calls or operators but a
// number's minus sign). why says, as a sentence, why text is not one.
func ParseData(text string) (value.Value, string) {
	notData := func(why string) (value.Value, string) {
		return value.Value{}, why
	}
	if v, err := value.ParseJSON(text); err == nil {
		if v.Kind() != value.RecordKind {
			return notData("got " + v.TypeName() + ".")
		}
		return v, ""
	}
	p, ds := parser.Parse("input", "return "+text, parser.Options{})
	if len(ds) > 0 {
		return notData(ds[0].Message)
	}
	if len(p.Headers) > 0 || len(p.Stmts) != 1 {
		return notData("the text is not one record.")
	}
	ret, ok := p.Stmts[0].(*ast.ReturnStmt)
	if !ok {
		return notData("the text is not one record.")
	}
	if _, ok := ret.X.(*ast.RecordExpr); !ok {
		return notData("the text is not a record.")
	}
	v, why := dataValue(ret.X, 0)
	if why != "" {
		return notData(why)
	}
	return v, ""
}

// dataValue is the value of an expression made of literals only, or
// why it is not one.
func dataValue(e ast.Expr, depth int) (value.Value, string) {
	if depth > value.MaxDepth {
		return value.Value{}, "it is nested more than " + strconv.Itoa(value.MaxDepth) + " levels deep."
	}
	switch e := e.(type) {
	case *ast.Literal:
		switch e.Kind {
		case ast.LitNull:
			return value.NullValue, ""
		case ast.LitBool:
			return value.BoolOf(e.Bool), ""
		case ast.LitString:
			return value.Str(e.Str), ""
		}
		return value.Num(e.Num), ""
	case *ast.ParenExpr:
		return dataValue(e.X, depth)
	case *ast.UnaryExpr:
		v, why := dataValue(e.X, depth)
		if why == "" && v.Kind() != value.Number {
			why = "a minus sign applies to numbers only."
		}
		if why != "" {
			return value.Value{}, why
		}
		return value.Num(-v.AsNumber()), ""
	case *ast.ListExpr:
		out := make([]value.Value, len(e.Elems))
		for i, x := range e.Elems {
			v, why := dataValue(x, depth+1)
			if why != "" {
				return value.Value{}, why
			}
			out[i] = v
		}
		return value.ListOf(out), ""
	case *ast.RecordExpr:
		r := value.NewRecord(len(e.Entries))
		for _, en := range e.Entries {
			if en.Spread {
				return value.Value{}, "a spread is not data."
			}
			v, why := dataValue(en.Value, depth+1)
			if why != "" {
				return value.Value{}, why
			}
			r.Set(en.Key, v)
		}
		return value.RecordOf(r), ""
	}
	return value.Value{}, "'" + dataExprText(e) + "' is not a literal (names, calls and operators are code, not data)."
}

// dataExprText is the start of an expression's source form, for messages.
func dataExprText(e ast.Expr) string {
	if p, ok := e.(*ast.IdentPath); ok {
		return strings.Join(p.Parts, ".")
	}
	s := format.Expr(e)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:37]) + "..."
	}
	return s
}
