package runtime

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/a0lang/a0/stdlib"
)

// Hints of the run-time failures of library functions (E_FN) and tools
// (E_TOOL): what to pass instead, or how to go on after a failure the
// program cannot rule out (spec/diagnostics.md "Run-time codes").

// mustBe matches the stdlib's "name: 'arg' must be …" messages. It is
// compiled at the first failure that needs it, not at start-up.
var mustBe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`((?:'[A-Za-z]+'(?: and |, )?)+) must be ([^;(]+)`)
})

// requiresTo matches "get requires 'path' to be a string".
var requiresTo = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`requires ('[A-Za-z]+') to be ([^;(.]+)`)
})

// callShape is `name { p: …, q: … }` with the function's argument names.
func callShape(name string) string {
	ps, ok := stdlib.Params(name)
	if !ok || len(ps) == 0 {
		return name + " { … }"
	}
	return name + " { " + strings.Join(ps, ": …, ") + ": … }"
}

// fnFailHint names the fix for a library function that failed with err:
// an argument of the wrong type or left out (it reads as null), input the
// program cannot vouch for (parse.json, parse.number), a pattern that does
// not compile; else what the function takes, where it is described, and
// that try lets the run go on.
func fnFailHint(name string, err error) string {
	if pe := (*stdlib.PatternError)(nil); errors.As(err, &pe) {
		return stdlib.PatternHint
	}
	msg := err.Error()
	m := mustBe().FindStringSubmatch(msg)
	if m == nil {
		m = requiresTo().FindStringSubmatch(msg)
	}
	if m != nil {
		want := strings.TrimSpace(m[2])
		h := "Pass " + strings.TrimSpace(m[1]) + " as " + want + ": " + callShape(name) + " (an argument left out is null; typeof { in: x } shows what a value is)."
		if name == "merge" {
			h += " Lists are joined with concat { a: xs, b: ys }."
		}
		return h
	}
	switch name {
	case "parse.json":
		return "The text is not valid JSON: return it to see what it holds, or catch the failure, `try { return parse.json { in: s } } catch { e } { return null }`."
	case "parse.number":
		return "Catch text that may not be a number, `try { return parse.number { in: s } } catch { e } { return 0 }`, or test it first with re.test { in: s, pattern: \"^-?[0-9.]+$\" }."
	}
	takes := ""
	if ps, ok := stdlib.Params(name); ok && len(ps) > 0 {
		takes = name + " takes { " + strings.Join(ps, ", ") + " }; "
	}
	return takes + "`a0 help stdlib` says what each argument must be. To go on when it fails, wrap the call in try { … } catch { e } { … }."
}

// toolFailHint names the fix for a tool that failed with msg; when none
// is known, how the run goes on after it.
func toolFailHint(tool, msg string) string {
	switch {
	case strings.Contains(msg, "ENOENT"):
		return "The path does not exist: test it first with call? fs.exists { path: … } or list its directory with call? fs.list { path: … } (a relative path is relative to the working directory), or catch the failure with try { … } catch { e } { … }."
	case strings.Contains(msg, "EISDIR") && tool == "fs.write":
		return "The path is a directory: write to a file inside it, path: \"<dir>/<name>\"."
	case strings.Contains(msg, "EISDIR"):
		return "The path is a directory: list it with call? fs.list { path: … }, or read a file inside it."
	case strings.Contains(msg, "ENOTDIR") && tool == "fs.list" && strings.Contains(msg, "scandir"):
		return "The path (or a folder on it) is a file, not a directory: read a file with call? fs.read { path: … }, or list the directory that holds it."
	case strings.Contains(msg, "ENOTDIR"):
		return "A part of the path is a file, not a directory: check the path (call? fs.exists { path: … })."
	case strings.Contains(msg, "without null bytes"):
		return "A path cannot hold a NUL character (\\u0000): take it out of the path, or build the path from clean parts."
	case strings.Contains(msg, "parse URL") || strings.Contains(msg, "Invalid URL"):
		return "Give a full URL with its scheme: url: \"https://example.com/path\"."
	case tool == "http.get" && strings.Contains(msg, "includes credentials"):
		return "Take the user name and password out of the URL and send them in a header, headers: { Authorization: \"Basic …\" }, best from a policy secret (`a0 help secrets`)."
	case tool == "http.get" && strings.Contains(msg, "ByteString"):
		return "Header values are bytes: keep them to characters up to U+00FF (percent-encode or base64 other text)."
	case tool == "http.get" && strings.Contains(msg, "invalid header value"):
		return "A header value cannot hold a line break or a NUL character: remove them, str.replace { in: v, from: \"\\n\", to: \" \" }."
	case tool == "http.get" && msg == "terminated":
		return "The server closed the connection before the whole body came: retry the call, or catch the failure with try { … } catch { e } { … }."
	case tool == "http.get" && strings.Contains(msg, "fetch failed"):
		return "The server could not be reached: check the host and port in the URL and that the server is up; catch a network failure with try { … } catch { e } { … }."
	case strings.Contains(msg, "EACCES") || strings.Contains(msg, "EPERM"):
		return "The operating system refused access to the path: pick a path the user running a0 may " + map[bool]string{true: "write", false: "read"}[tool == "fs.write"] + "."
	}
	return "To go on when it fails, wrap the call in try { … } catch { e } { … }: e.message says why, e.details.reason (when set) in one word."
}

// toolArgsHint names the fix for the first issue of an E_TOOL_ARGS: the
// argument to add, or the type to give an argument. Otherwise (a tool's
// own check, whose text says what to change) a built-in tool points to
// its argument list and a host's tool gets none.
func toolArgsHint(tool, issue string) string {
	field, rest, ok := strings.Cut(issue, ": ")
	if !ok {
		return builtinArgsHint(tool)
	}
	if (tool == "sh.exec" || tool == "sh.start") && field == "argv" && strings.HasSuffix(rest, "received string") {
		return "argv is the list of the command's words, argv: [\"ls\", \"-l\"] (runs without a shell); for one shell command line write cmd: \"ls -l\"."
	}
	if (tool == "sh.exec" || tool == "sh.start") && field == "env" && strings.HasSuffix(rest, "received array") {
		return "env is a record of variable names and values, env: { NAME: \"value\" }, not a list of NAME=value strings."
	}
	if (tool == "sh.exec" || tool == "sh.start") && field == "cmd" && strings.HasSuffix(rest, "received array") {
		return "cmd is one shell command line, cmd: \"ls -l\"; to pass the words as a list write argv: [\"ls\", \"-l\"] (runs without a shell)."
	}
	if strings.HasPrefix(rest, "must be one of ") {
		return "Set '" + field + "' to one of " + strings.TrimSuffix(strings.TrimPrefix(rest, "must be one of "), ".") + "."
	}
	if strings.HasPrefix(rest, "must be a job id") {
		return "Pass the id a job record carries: `let j = do sh.start { … }` then `" + tool + " { id: j.id }`; call? sh.jobs {} lists the jobs."
	}
	if strings.Contains(rest, "requires a '"+field+"' argument") {
		return "Add the argument: " + tool + " { " + field + ": … }."
	}
	if want, got, ok := strings.Cut(strings.TrimPrefix(rest, "Expected "), ", received "); ok && strings.HasPrefix(rest, "Expected ") {
		h := "Give '" + field + "' a value of type " + want + ", not " + got
		if top, sub, ok := strings.Cut(field, "."); ok {
			if _, err := strconv.Atoi(sub); err == nil {
				h = "Every element of '" + top + "' must be a " + want + "; item " + sub + " is " + article(got) + got
			} else {
				h = "Every value of '" + top + "' must be a " + want + "; '" + sub + "' is " + article(got) + got
			}
		}
		switch {
		case want == "string" && (got == "number" || got == "boolean"):
			h += " (write a literal in quotes; json.stringify { in: … } turns a computed value into text)"
		case want == "string" && (got == "object" || got == "array"):
			h += " (json.stringify { in: … } turns a value into text)"
		}
		if want == "number" && got == "string" {
			h += " (parse.number { in: … } reads a number from text)"
		}
		return h + "."
	}
	return builtinArgsHint(tool)
}

// builtinArgsHint points a built-in tool's E_TOOL_ARGS to the list of its
// arguments; "" for a host's tool.
func builtinArgsHint(tool string) string {
	if ns, _, _ := strings.Cut(tool, "."); ns == "fs" || ns == "http" || ns == "sh" {
		return "`a0 help tools` lists the arguments of " + tool + " and their types."
	}
	return ""
}

// assertHint names the fix for a failed assert: when its record has no
// `that`, the condition was given under another name and read as null;
// otherwise the program's own condition is false.
func assertHint(args interface{ Keys() []string }) string {
	keys := args.Keys()
	for _, k := range keys {
		if k == "that" {
			return "A false assert stops the run: fix what it asserts, or use check { that: …, msg: … } to record the failure and go on."
		}
	}
	var other []string
	for _, k := range keys {
		if k != "msg" && k != "details" {
			other = append(other, k)
		}
	}
	if len(other) == 0 {
		return "assert reads its condition from 'that', which is missing: write assert { that: <condition>, msg: \"…\" }."
	}
	return "assert reads its condition from 'that', not '" + other[0] + "': write assert { that: …, msg: \"…\" }."
}

// assertKeyNote is the hint for an assert or check whose record (its
// explicit keys) gives the condition or the message under another key:
// check { cond: … } always fails, check { that: …, message: "…" } fails
// with an empty message. "" when the keys are right.
func assertKeyNote(isCheck bool, keys []string) string {
	kw := "assert"
	if isCheck {
		kw = "check"
	}
	var other []string
	hasThat, hasMsg := false, false
	for _, k := range keys {
		switch k {
		case "that":
			hasThat = true
		case "msg":
			hasMsg = true
		case "details":
		default:
			other = append(other, k)
		}
	}
	switch {
	case len(other) == 0:
		return ""
	case !hasThat:
		always := ""
		if isCheck {
			always = " (without it the check always fails)"
		}
		return kw + " reads its condition from 'that', not '" + other[0] + "'" + always + ": write " + kw + " { that: …, msg: \"…\" }."
	case !hasMsg:
		return kw + " reads its message from 'msg', not '" + other[0] + "' (so the message was empty): write " + kw + " { that: …, msg: \"…\" }."
	}
	return ""
}

func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an "
	}
	return "a "
}
