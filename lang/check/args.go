package check

import (
	"strings"

	"github.com/a0lang/a0/lang/ast"
	"github.com/a0lang/a0/lang/diag"
)

// UnknownArgs returns the keys (first segment of a dotted key) that are
// not among params, in order and without repeats. Spread entries are not
// keys: what they bring is known only at run time.
func UnknownArgs(params, keys []string) []string {
	var out []string
	for _, k := range keys {
		if i := strings.IndexByte(k, '.'); i >= 0 {
			k = k[:i]
		}
		if !contains(params, k) && !contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// RecordKeys returns the keys of r's explicit entries (spreads skipped).
func RecordKeys(r *ast.RecordExpr) []string {
	var out []string
	for _, e := range r.Entries {
		if !e.Spread {
			out = append(out, e.Key)
		}
	}
	return out
}

// ArgNamesMessage returns the message and hint of a call to fn (which
// takes params) with argument names it does not take:
// "str.starts takes { in, value }; got prefix." and a hint that names
// the likely rename and the call's record form.
//
// given are the call's explicit keys (unknown ones included).
func ArgNamesMessage(fn string, params, given []string) (msg, hint string) {
	unknown := UnknownArgs(params, given)
	if len(params) == 0 {
		msg = fn + " takes no arguments; got " + strings.Join(unknown, ", ") + "."
		return msg, "Call it with an empty record: " + fn + " {}."
	}
	msg = fn + " takes { " + strings.Join(params, ", ") + " }; got " + strings.Join(unknown, ", ") + "."
	var unused []string
	for _, p := range params {
		if !contains(UnknownArgs(nil, given), p) {
			unused = append(unused, p)
		}
	}
	var renames []string
	for _, u := range unknown {
		if s := nearest(u, params); s != "" {
			renames = append(renames, "'"+u+"' to '"+s+"'")
		} else if len(unknown) == 1 && len(unused) == 1 {
			renames = append(renames, "'"+u+"' to '"+unused[0]+"'")
		}
	}
	form := make([]string, len(params))
	for i, p := range params {
		form[i] = p + ": …"
	}
	call := fn + " { " + strings.Join(form, ", ") + " }"
	if strings.HasPrefix(fn, "re.") && (contains(unknown, "flags") || contains(unknown, "flag")) {
		return msg, "Write the flags inside the pattern: \"(?i)…\" ignores case, (?m) makes ^ and $ match at each line, (?s) lets . match \\n; " + call + "."
	}
	if len(renames) > 0 {
		return msg, "Rename " + strings.Join(renames, ", ") + ": " + call + "."
	}
	return msg, "Use the argument names it takes: " + call + "."
}

// nearest is the parameter an unknown argument name most likely meant:
// a close spelling, else the only parameter not given.
func nearest(name string, params []string) string {
	if s := diag.Suggest(name, params); s != "" {
		return s
	}
	best, bestD := "", 1<<30
	for _, p := range params {
		if d := diag.EditDistance([]rune(strings.ToLower(name)), []rune(strings.ToLower(p))); d < bestD {
			best, bestD = p, d
		}
	}
	if len(params) == 1 {
		return best
	}
	return ""
}

// argNames reports, under Config.Strict, a call whose explicit argument
// names the function does not take.
func (c *checker) argNames(fn string, params []string, r *ast.RecordExpr, sp diag.Span) {
	keys := RecordKeys(r)
	if len(UnknownArgs(params, keys)) == 0 {
		return
	}
	msg, hint := ArgNamesMessage(fn, params, keys)
	c.add(diag.EUnknownArg, &sp, msg, hint)
}
