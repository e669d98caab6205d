package check

import (
	"strings"
	"sync"

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
	topic := "stdlib"
	switch fn {
	case "for", "filter", "loop", "assert", "check":
		topic = "flow"
	}
	return argNamesMessage(fn, params, given, topic)
}

// ToolArgNamesMessage is ArgNamesMessage for a call of a tool: its hint
// points to the tool's help topic (ToolHelpTopic).
func ToolArgNamesMessage(tool string, params, given []string) (msg, hint string) {
	return argNamesMessage(tool, params, given, ToolHelpTopic(tool))
}

// argNamesMessage is ArgNamesMessage with the `a0 help` topic that
// documents fn's arguments.
func argNamesMessage(fn string, params, given []string, topic string) (msg, hint string) {
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
	// A rename goes to a parameter the call does not give already:
	// str.padStart { in, width, with } means len, not with, and
	// unique { in, by } has no by at all.
	var renames, options, twice []string
	to := map[string]string{}
	for _, u := range unknown {
		s := closeName(u, unused)
		if s == "" {
			s = argAlias(u, unused)
		}
		if s == "" && noSuchOption()[u] {
			options = append(options, u)
			continue
		}
		if s == "" && len(unknown) == 1 && len(unused) == 1 {
			s = unused[0]
		}
		if s != "" {
			to[u] = s
			renames = append(renames, "'"+u+"' to '"+s+"'")
		} else if g := givenTwice(u, params); g != "" {
			twice = append(twice, "'"+u+"' means '"+g+"'")
		} else if len(unused) == 0 {
			options = append(options, u)
		}
	}
	if len(twice) > 0 && len(renames) == 0 {
		return msg, strings.Join(twice, ", ") + ", which the call gives already: keep one of the two."
	}
	if len(params) > compactHint {
		// A long list is in the message already: the hint shows the call
		// as written, with the renames made.
		if len(renames) > 0 {
			return msg, "Rename " + strings.Join(renames, ", ") + ": " + callForm(fn, renamed(params, to, given)) + "."
		}
		if len(options) > 0 {
			return msg, fn + " has no '" + options[0] + "' argument: remove it; it takes the ones listed above."
		}
		return msg, "Use the argument names " + fn + " takes, listed above."
	}
	call := callForm(fn, params)
	if re := map[string]string{"str.split": "re.split", "str.replace": "re.replace", "str.starts": "re.test", "str.ends": "re.test", "contains": "re.test"}[fn]; re != "" {
		for _, u := range unknown {
			if u == "regex" || u == "regexp" || u == "pattern" || u == "re" || u == "isRegex" {
				return msg, fn + " matches plain text; for a pattern use " + re + " { in: …, pattern: \"…\" } (RE2 syntax)."
			}
		}
	}
	if target := sharedTarget(unknown, unused); target != "" {
		return msg, fn + " takes one '" + target + "': pass the values together as a list, " + fn + " { " + target + ": [ … ] }."
	}
	if (fn == "for" || fn == "filter") && len(renames) == 0 {
		for _, u := range unknown {
			if u == "index" || u == "i" || u == "idx" || u == "key" || u == "indexAs" {
				return msg, fn + " binds each item to its as name and nothing else: to number the items, go over range { from: 0, to: len { in: xs } } as \"i\" and read the item with get { in: xs, path: … }."
			}
		}
	}
	if !contains(params, "default") && (contains(unknown, "default") || contains(unknown, "fallback")) && len(renames) == 0 {
		return msg, fn + " takes no default: give one around the call, coalesce { in: " + call + ", default: … } (a missing value reads as null)."
	}
	if strings.HasPrefix(fn, "re.") && (contains(unknown, "flags") || contains(unknown, "flag")) {
		return msg, "Write the flags inside the pattern: \"(?i)…\" ignores case, (?m) makes ^ and $ match at each line, (?s) lets . match \\n; " + call + "."
	}
	if len(options) > 0 && len(renames) == 0 {
		what := "option"
		if !noSuchOption()[options[0]] {
			what = "argument"
		}
		return msg, fn + " has no '" + options[0] + "' " + what + ": remove it and call " + call + " (see `a0 help " + topic + "` for what each argument does)."
	}
	if len(renames) > 0 {
		return msg, "Rename " + strings.Join(renames, ", ") + ": " + call + "."
	}
	return msg, "Use the argument names it takes: " + call + "."
}

// compactHint is the number of parameters above which a hint no longer
// spells out the whole call (sh.exec takes 18).
const compactHint = 6

// callForm is `fn { a: …, b: … }`.
func callForm(fn string, names []string) string {
	form := make([]string, len(names))
	for i, p := range names {
		form[i] = p + ": …"
	}
	return fn + " { " + strings.Join(form, ", ") + " }"
}

// renamed returns the given argument names (first segments, once each)
// with each unknown one replaced by its rename in to, or dropped when it
// has none.
func renamed(params []string, to map[string]string, given []string) []string {
	var out []string
	for _, k := range UnknownArgs(nil, given) {
		if !contains(params, k) {
			k = to[k]
		}
		if k != "" && !contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// nearest is the parameter an unknown argument name most likely meant:
// the same name in another case or word style (timeout_ms for
// timeoutMs), a close spelling, else the only parameter not given.
func nearest(name string, params []string) string {
	if s := closeName(name, params); s != "" {
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

// givenTwice is the parameter (given in the call, so not a rename
// target) that the unknown name u spells closely or stands for: command
// next to cmd. Else "".
func givenTwice(u string, params []string) string {
	if s := closeName(u, params); s != "" {
		return s
	}
	return argAlias(u, params)
}

// closeName is the parameter that is name in another case or word style
// (timeout_ms for timeoutMs) or a close spelling of it, or "".
func closeName(name string, params []string) string {
	for _, p := range params {
		if squash(p) == squash(name) {
			return p
		}
	}
	return diag.Suggest(name, params)
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

// toolArgNames is argNames for a call of tool fn: its hint points to the
// tool's help topic (ToolHelpTopic), not the stdlib's.
func (c *checker) toolArgNames(fn string, params []string, r *ast.RecordExpr, sp diag.Span) {
	keys := RecordKeys(r)
	if len(UnknownArgs(params, keys)) == 0 {
		return
	}
	msg, hint := ToolArgNamesMessage(fn, params, keys)
	c.add(diag.EUnknownArg, &sp, msg, hint)
}

// ToolHelpTopic is the `a0 help` topic that documents tool name: "tools"
// for the built-in fs, http and sh tools, "tools/<server>" for a tool of
// an MCP server.
func ToolHelpTopic(name string) string {
	ns, _, _ := strings.Cut(name, ".")
	switch ns {
	case "fs", "http", "sh":
		return "tools"
	}
	return "tools/" + ns
}

// squash folds an argument name's case and drops its word separators, so
// timeout_ms, timeout-ms and TimeoutMS all read as timeoutms.
func squash(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// argAliases maps argument names of other languages and tools to the
// A0 names that mean the same, most likely first.
var argAliases = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"command": {"cmd"}, "commandLine": {"cmd"}, "shell": {"cmd"}, "script": {"cmd"}, "run": {"cmd"},
		"args": {"argv"}, "arguments": {"argv"},
		"dir": {"cwd", "path"}, "workdir": {"cwd"}, "workingDir": {"cwd"}, "directory": {"cwd", "path"}, "cd": {"cwd"},
		"timeout": {"timeoutMs", "waitMs"}, "timeoutMillis": {"timeoutMs"}, "timeoutSec": {"timeoutMs"}, "wait": {"waitMs", "timeoutMs"},
		"uri": {"url"}, "href": {"url"}, "link": {"url"}, "endpoint": {"url"}, "address": {"url"},
		"file": {"path"}, "filename": {"path"}, "fileName": {"path"}, "filepath": {"path"}, "filePath": {"path"}, "location": {"path"},
		"content": {"data"}, "contents": {"data"}, "text": {"data", "in"}, "body": {"data"},
		"header":    {"headers"},
		"separator": {"sep"}, "delimiter": {"sep"}, "delim": {"sep"}, "joiner": {"sep"},
		"list": {"in"}, "items": {"in", "parts"}, "array": {"in"}, "arr": {"in"}, "xs": {"in"}, "input": {"in"},
		"str": {"in"}, "string": {"in"}, "s": {"in"}, "obj": {"in"}, "object": {"in"}, "record": {"in"}, "source": {"in"}, "src": {"in"},
		"item": {"value"}, "element": {"value"}, "elem": {"value"}, "needle": {"value"}, "search": {"value"},
		"start": {"from"}, "end": {"to"}, "stop": {"to"},
		"regex": {"pattern"}, "regexp": {"pattern"}, "re": {"pattern"},
		"replacement": {"to"}, "repl": {"to"}, "with": {"to"}, "by": {"to"},
		"key": {"by", "path"}, "field": {"by", "path"}, "sortBy": {"by"},
		"initial": {"init"}, "acc": {"init"}, "accumulator": {"init"}, "seed": {"init"},
		"func": {"fn"}, "function": {"fn"}, "callback": {"fn"}, "f": {"fn"},
		"fallback": {"default"}, "otherwise": {"default"},
		"values": {"vars"}, "params": {"vars"}, "variables": {"vars"},
		"strings": {"parts"},
		"message": {"msg"}, "description": {"msg"}, "reason": {"msg"}, "label": {"msg"},
		"cond": {"that"}, "condition": {"that"}, "test": {"that"}, "expr": {"that"}, "assertion": {"that"},
	}
})

// argAlias returns the name among cands that the argument name u of
// another language stands for (command is cmd, uri is url), or "".
func argAlias(u string, cands []string) string {
	for _, a := range argAliases()[u] {
		if contains(cands, a) {
			return a
		}
	}
	return ""
}

// noSuchOption lists option names of other libraries (sort order, case
// folding, verbosity) that are never another name for an argument: they
// are not renamed to the one argument left unused.
var noSuchOption = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"desc": true, "descending": true, "asc": true, "ascending": true, "reverse": true, "reversed": true,
		"order": true, "ignoreCase": true, "caseInsensitive": true, "insensitive": true, "global": true,
		"strict": true, "verbose": true, "debug": true, "recursive": true, "unique": true, "numeric": true,
	}
})

// sharedTarget is the parameter that two or more unknown names would be
// renamed to (math.max { a, b } → in), or "".
func sharedTarget(unknown, params []string) string {
	seen := map[string]bool{}
	for _, u := range unknown {
		t := nearest(u, params)
		if t == "" {
			t = argAlias(u, params)
		}
		if t == "" && len(params) == 1 {
			t = params[0]
		}
		if t == "" {
			continue
		}
		if seen[t] {
			return t
		}
		seen[t] = true
	}
	return ""
}
