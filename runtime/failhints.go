package runtime

import (
	"regexp"
	"strings"

	"github.com/a0lang/a0/stdlib"
)

// Hints of the run-time failures of library functions (E_FN) and tools
// (E_TOOL): what to pass instead, or how to go on after a failure the
// program cannot rule out (spec/diagnostics.md "Run-time codes").

// mustBe matches the stdlib's "name: 'arg' must be …" messages.
var mustBe = regexp.MustCompile(`'([A-Za-z]+)' must be ([^;(]+)`)

// callShape is `name { p: …, q: … }` with the function's argument names.
func callShape(name string) string {
	ps, ok := stdlib.Params(name)
	if !ok || len(ps) == 0 {
		return name + " { … }"
	}
	return name + " { " + strings.Join(ps, ": …, ") + ": … }"
}

// fnFailHint names the fix for a library function that failed with msg:
// an argument of the wrong type or left out (it reads as null), or input
// the program cannot vouch for (parse.json, parse.number). "" when none
// is known.
func fnFailHint(name, msg string) string {
	if m := mustBe.FindStringSubmatch(msg); m != nil {
		want := strings.TrimSpace(m[2])
		return "Pass '" + m[1] + "' as " + want + ": " + callShape(name) + " (an argument left out is null; typeof { in: x } shows what a value is)."
	}
	switch name {
	case "parse.json":
		return "The text is not valid JSON: return it to see what it holds, or catch the failure, `try { return parse.json { in: s } } catch { e } { return null }`."
	case "parse.number":
		return "Catch text that may not be a number, `try { return parse.number { in: s } } catch { e } { return 0 }`, or test it first with re.test { in: s, pattern: \"^-?[0-9.]+$\" }."
	}
	return ""
}

// toolFailHint names the fix for a tool that failed with msg; "" when
// none is known.
func toolFailHint(tool, msg string) string {
	switch {
	case strings.Contains(msg, "ENOENT"):
		return "The path does not exist: test it first with call? fs.exists { path: … } or list its directory with call? fs.list { path: … } (a relative path is relative to the working directory), or catch the failure with try { … } catch { e } { … }."
	case strings.Contains(msg, "EISDIR"):
		return "The path is a directory: list it with call? fs.list { path: … }, or read a file inside it."
	case strings.Contains(msg, "ENOTDIR"):
		return "A part of the path is a file, not a directory: check the path (call? fs.exists { path: … })."
	case strings.Contains(msg, "EACCES") || strings.Contains(msg, "EPERM"):
		return "The operating system refused access to the path: pick a path the user running a0 may " + map[bool]string{true: "write", false: "read"}[tool == "fs.write"] + "."
	}
	return ""
}
