package runtime

// Program inputs (spec/language.md §5.6, spec/embedding.md §5.1): a
// program with an `input { name: "type", … }` header reads the values a
// host gives in RunOptions.Input as `input.name`. They are checked against
// the header before the run starts; any mismatch is E_INPUT (exit 2).

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// InputText is an input value given as text, as a command line gives it
// (`a0 run --arg key=value`): the run parses it as the declared type. For
// `str` and `any` the text is the value; for `int` and `float` it must be
// a JSON number (an `int` a whole one), for `bool` `true` or `false`, for
// `list` and `rec` a JSON array or object.
type InputText string

// DefaultInputMask are the globs of input names whose values traces mask
// when RunOptions.InputMask is nil: the default secret names of the exec
// engine's environment masking (spec/exec.md §4.3).
var DefaultInputMask = []string{
	"*TOKEN*", "*SECRET*", "*PASSWORD*", "*PASSWD*", "*PASSPHRASE*", "*API_KEY*",
	"*APIKEY*", "*ACCESS_KEY*", "*PRIVATE_KEY*", "*CREDENTIAL*", "*_KEY",
}

// Inputs returns the inputs the program declares, in header order, and
// whether it has an input header at all (only then is `input` bound).
func (p *Program) Inputs() ([]check.InputDecl, bool) {
	return check.Inputs(p.ast)
}

// CheckInput checks opts.Input against the program's input header as Run
// does first, without running anything: nil, or the *Error (E_INPUT) Run
// would return. A host can check inputs before it asks a person for
// capabilities or opens output files.
func (p *Program) CheckInput(opts RunOptions) error {
	mask := opts.InputMask
	if mask == nil {
		mask = DefaultInputMask
	}
	_, err := p.bindInputs(opts.Input, mask)
	return err
}

// inputError is an E_INPUT for input name (name may be "").
func inputError(sp *diag.Span, name, reason, msg, hint string, extra ...any) *Error {
	e := &Error{Diagnostic: diag.Diagnostic{Code: diag.EInput, Message: msg, Hint: hint}}
	if sp != nil {
		s := *sp
		e.Span = &s
	}
	e.Details = details(append([]any{"input", name, "reason", reason}, extra...)...)
	return e
}

func inputHeaderOf(p *ast.Program) *ast.Header {
	for _, h := range p.Headers {
		if h.Kind == ast.InputHeader {
			return h
		}
	}
	return nil
}

// bindInputs checks in against the program's input header and returns
// the record `input` is bound to (the zero Value for a program without a
// header). mask says which names' values must not be echoed.
func (p *Program) bindInputs(in map[string]any, mask []string) (value.Value, error) {
	limit := p.env.memLimit
	decls, has := p.Inputs()
	if !has && len(in) == 0 {
		// Most programs: no header and no inputs (this path touches no
		// sorting code, which a fresh process would fault in).
		return value.Value{}, nil
	}
	given := make([]string, 0, len(in))
	for k := range in {
		given = append(given, k)
	}
	sort.Strings(given)
	if !has {
		if len(given) > 0 {
			return value.Value{}, inputError(nil, given[0], "undeclared",
				"Program takes no inputs: got '"+given[0]+"'.",
				"Declare the inputs it takes in a header before the first statement, for example input { "+given[0]+": \"str\" }, or run it without inputs.")
		}
		return value.Value{}, nil
	}
	hdr := inputHeaderOf(p.ast)
	names := make([]string, len(decls))
	byName := make(map[string]check.InputDecl, len(decls))
	for i, d := range decls {
		names[i] = d.Name
		byName[d.Name] = d
	}
	for _, k := range given {
		if _, ok := byName[k]; ok {
			continue
		}
		hint := "The program declares no inputs."
		if len(names) > 0 {
			hint = "Declared inputs: " + strings.Join(names, ", ")
			if s := diag.Suggest(k, names); s != "" {
				hint += ". Did you mean '" + s + "'?"
			} else {
				hint += "."
			}
		}
		return value.Value{}, inputError(&hdr.Span, k, "undeclared", "Unknown input '"+k+"'.", hint,
			"declared", value.StrList(names))
	}
	rec := value.NewRecord(len(decls))
	for _, d := range decls {
		sp := d.Span
		x, ok := in[d.Name]
		if !ok {
			if d.Optional {
				rec.Set(d.Name, value.NullValue)
				continue
			}
			return value.Value{}, inputError(&sp, d.Name, "missing", "Missing required input '"+d.Name+"' ("+d.Type+").",
				"Give "+typeWords(d.Type)+" for "+d.Name+" (a0 run: --arg "+d.Name+"=… or --input '{\""+d.Name+"\": …}'; a0_run: \"input\"), or declare it \""+d.Type+"?\" to make it optional.",
				"type", d.Type)
		}
		v, err := inputValue(d, x, masked(mask, d.Name), limit)
		if err != nil {
			return value.Value{}, err
		}
		rec.Set(d.Name, v)
	}
	return value.RecordOf(rec), nil
}

// inputValue converts and type-checks the value x given for d.
func inputValue(d check.InputDecl, x any, secret bool, limit int64) (value.Value, error) {
	sp := d.Span
	show := func(s string) string {
		if secret {
			return "[masked:" + d.Name + "]"
		}
		if r := []rune(s); len(r) > 60 {
			s = string(r[:57]) + "..."
		}
		return s
	}
	var v value.Value
	if t, ok := x.(InputText); ok {
		var perr string
		v, perr = parseInputText(d.Type, string(t))
		if perr != "" && (d.Type == "list" || d.Type == "rec") {
			perr = jsonArgHint(d.Name, d.Type, string(t), secret, perr)
		}
		if perr != "" {
			return value.Value{}, inputError(&sp, d.Name, "parse",
				"Input '"+d.Name+"' must be "+typeWords(d.Type)+", got '"+show(string(t))+"'.",
				perr, "type", d.Type)
		}
	} else {
		var err error
		v, err = value.FromGo(x)
		if err != nil {
			if strings.Contains(err.Error(), "levels deep") {
				return value.Value{}, depthError(d)
			}
			return value.Value{}, inputError(&sp, d.Name, "type", "Input '"+d.Name+"' is not a data value: "+err.Error()+".",
				"Give inputs as JSON-like data: strings, numbers, booleans, null, lists and records.", "type", d.Type)
		}
		if v.Depth() <= value.MaxDepth {
			if v = nilRecordSafe(v); nonFinite(v) {
				return value.Value{}, inputError(&sp, d.Name, "type", "Input '"+d.Name+"' holds a number that is not finite (NaN or an infinity).",
					"JSON has no NaN or Infinity: give finite numbers, or null.", "type", d.Type)
			}
		}
	}
	if v.Depth() > value.MaxDepth {
		return value.Value{}, depthError(d)
	}
	if limit > 0 && v.Size() > limit {
		return value.Value{}, inputError(&sp, d.Name, "size",
			"Input '"+d.Name+"' is too large: "+strconv.FormatInt(v.Size(), 10)+" bytes, more than the memory limit of "+strconv.FormatInt(limit, 10)+" bytes.",
			"Pass a path and read large data at run time (fs.read) instead.", "type", d.Type)
	}
	if v.IsNull() && d.Optional {
		return value.NullValue, nil
	}
	if why := typeMismatch(d.Type, v); why != "" {
		got := v.TypeName()
		if v.Kind() == value.Number && d.Type == "int" && !secret {
			got = value.JSON(v)
		}
		return value.Value{}, inputError(&sp, d.Name, "type",
			"Input '"+d.Name+"' must be "+typeWords(d.Type)+", got "+got+".",
			why, "type", d.Type, "got", v.TypeName())
	}
	return v, nil
}

func depthError(d check.InputDecl) *Error {
	sp := d.Span
	return inputError(&sp, d.Name, "depth",
		"Input '"+d.Name+"' is nested more than "+strconv.Itoa(value.MaxDepth)+" levels deep.",
		"Keep lists and records at most "+strconv.Itoa(value.MaxDepth)+" levels deep.", "type", d.Type)
}

// typeWords names a declared type in messages.
func typeWords(t string) string {
	switch t {
	case "str":
		return "a string (str)"
	case "int":
		return "a whole number (int)"
	case "float":
		return "a number (float)"
	case "bool":
		return "a boolean (bool)"
	case "list":
		return "a list"
	case "rec":
		return "a record (rec)"
	}
	return "any value"
}

// typeMismatch returns why v is not of type t (a hint), or "".
func typeMismatch(t string, v value.Value) string {
	declared := "It is declared \"" + t + "\"."
	switch t {
	case "any":
		return ""
	case "str":
		if v.Kind() == value.String {
			return ""
		}
		return declared + " Quote the value: text is given as a JSON string."
	case "int", "float":
		if v.Kind() != value.Number {
			return declared + " Give a JSON number, without quotes."
		}
		f := v.AsNumber()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return declared + " Give a finite number."
		}
		if t == "int" && f != math.Trunc(f) {
			return declared + " Give a whole number, or declare it \"float\"."
		}
		return ""
	case "bool":
		if v.Kind() == value.Bool {
			return ""
		}
		return declared + " Give true or false, without quotes."
	case "list":
		if v.Kind() == value.ListKind {
			return ""
		}
		return declared + " Give a JSON array, [ … ]."
	case "rec":
		if v.Kind() == value.RecordKind {
			return ""
		}
		return declared + " Give a JSON object, { … }."
	}
	return declared
}

// parseInputText parses a command-line text as type t; the second result
// is a hint when it does not parse.
func parseInputText(t, s string) (value.Value, string) {
	switch t {
	case "str", "any":
		return value.Str(s), ""
	case "bool":
		switch s {
		case "true":
			return value.BoolOf(true), ""
		case "false":
			return value.BoolOf(false), ""
		}
		return value.Value{}, "Write true or false."
	case "int", "float":
		v, err := value.ParseJSON(strings.TrimSpace(s))
		if err != nil || v.Kind() != value.Number {
			if t == "int" {
				return value.Value{}, "Write a whole number, for example 3 or -12."
			}
			return value.Value{}, "Write a number, for example 3 or 0.25."
		}
		if t == "int" && v.AsNumber() != math.Trunc(v.AsNumber()) {
			return value.Value{}, "Write a whole number, or declare the input \"float\"."
		}
		return v, ""
	case "list", "rec":
		v, err := value.ParseJSON(s)
		if err != nil {
			return value.Value{}, "Write the value as JSON (" + err.Error() + ")."
		}
		return v, ""
	}
	return value.Str(s), ""
}

// maskedInputs returns the input record as traces show it: the value of
// every input whose name matches a glob of mask replaced by
// "[masked:<name>]".
func maskedInputs(in value.Value, mask []string) value.Value {
	r := in.AsRecord()
	out := value.NewRecord(r.Len())
	for i := 0; i < r.Len(); i++ {
		k, v := r.Key(i), r.At(i)
		if masked(mask, k) {
			v = value.Str("[masked:" + k + "]")
		}
		out.Set(k, v)
	}
	return value.RecordOf(out)
}

// masked reports whether name matches one of the globs (case-insensitive,
// `*` matches any run of characters).
func masked(globs []string, name string) bool {
	n := strings.ToUpper(name)
	for _, g := range globs {
		if globMatch(strings.ToUpper(g), n) {
			return true
		}
	}
	return false
}

func globMatch(g, s string) bool {
	gi, si, starG, starS := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case gi < len(g) && g[gi] == '*':
			starG, starS = gi, si
			gi++
		case gi < len(g) && g[gi] == s[si]:
			gi++
			si++
		case starG >= 0:
			starS++
			si, gi = starS, starG+1
		default:
			return false
		}
	}
	for gi < len(g) && g[gi] == '*' {
		gi++
	}
	return gi == len(g)
}

// jsonArgHint is the hint of an --arg text that is not the JSON a list or
// record input needs: the form to type, in single quotes for the shell,
// built from the text when it is a plain comma-separated list (a,b is
// ["a", "b"]) and not a secret's, after the parser's complaint (perr),
// which a secret's text never gets, since it quotes the text.
func jsonArgHint(name, t, text string, secret bool, perr string) string {
	lead := strings.TrimSuffix(perr, ".")
	if secret {
		// The parser's complaint quotes the text: never a secret's.
		lead = "Write the value as JSON"
	}
	if t == "rec" {
		return lead + ": a record is a JSON object, --arg '" + name + `={"key": "value"}'.`
	}
	example := `["a", "b"]`
	if !secret && !strings.ContainsAny(text, "[]{}\"'") {
		var items []string
		for _, it := range strings.Split(text, ",") {
			it = strings.TrimSpace(it)
			if _, err := strconv.ParseFloat(it, 64); err == nil || it == "true" || it == "false" || it == "null" {
				items = append(items, it)
			} else {
				items = append(items, strconv.Quote(it))
			}
		}
		example = "[" + strings.Join(items, ", ") + "]"
	}
	return lead + ": a list is a JSON array, --arg '" + name + "=" + example + "'."
}

// nonFinite reports whether a value a host built (an input, a tool
// result) holds a NaN or an infinity, which no A0 or JSON number is. A
// nil *Record inside it (value.RecordOf(nil)) holds nothing.
func nonFinite(v value.Value) bool {
	switch v.Kind() {
	case value.Number:
		f := v.AsNumber()
		return math.IsNaN(f) || math.IsInf(f, 0)
	case value.ListKind:
		for _, x := range v.AsList() {
			if nonFinite(x) {
				return true
			}
		}
	case value.RecordKind:
		r := v.AsRecord()
		for i := 0; r != nil && i < r.Len(); i++ {
			if nonFinite(r.At(i)) {
				return true
			}
		}
	}
	return false
}
