// Package help holds the A0 language reference: the quick reference and
// the topics that `a0 help [topic] [--index]` prints and that the MCP
// server's a0_help tool serves (runtime/mcpserver).
//
// Each text is one embedded file, topics/<name>.txt (the quick reference
// is topics/quick.txt); a file ends with one newline, which is not part of
// the text. To add a topic, add its file and its name to topics.
//
// Fixed interface points: each topic's upper-case title line followed by a
// line of "=", the topic names and their prefix resolution, the exit-code
// map line of the quick reference, the --index layout and the error texts
// of an unknown topic or a misused --index. Everything else is our own
// wording and describes this implementation.
package help

import (
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/a0lang/a0/lang/diag"
)

//go:embed topics/*.txt
var files embed.FS

// topics are the topic names, in the order they are listed.
var topics = []string{"syntax", "types", "tools", "stdlib", "caps", "budget", "flow", "diagnostics", "examples", "secrets"}

// stdlibNames are the 54 registered stdlib functions, sorted (the --index
// list; map and reduce are evaluator built-ins and not in it).
var stdlibNames = []string{
	"and", "append", "base64.decode", "base64.encode", "coalesce", "concat", "contains", "entries", "eq", "filter", "find", "flat",
	"get", "hex.decode", "hex.encode", "join", "json.stringify", "keys", "len", "math.max", "math.min", "merge", "not", "or", "parse.json",
	"parse.number", "patch", "pluck", "put", "range", "re.find", "re.findAll", "re.replace", "re.split", "re.test",
	"sort", "str.concat", "str.ends", "str.lines", "str.lower", "str.padEnd", "str.padStart", "str.repeat", "str.replace", "str.split",
	"str.starts", "str.template", "str.trim", "str.trimEnd", "str.trimStart", "str.upper", "typeof", "unique", "values",
}

// load returns the text of topics/<name>.txt without its final newline.
// The files are part of the binary, so a missing one is a build defect.
func load(name string) string {
	b, err := files.ReadFile("topics/" + name + ".txt")
	if err != nil {
		panic("help: " + err.Error())
	}
	return strings.TrimSuffix(string(b), "\n")
}

// quick and texts are the texts, read on first use (not at start-up:
// most commands never print help).
var (
	quick = sync.OnceValue(func() string { return load("quick") })
	texts = sync.OnceValue(func() map[string]string {
		m := make(map[string]string, len(topics))
		for _, n := range topics {
			m[n] = load(n)
		}
		return m
	})
)

// Topics returns the topic names, in the order they are listed.
func Topics() []string { return slices.Clone(topics) }

// StdlibNames returns the 54 registered stdlib functions, sorted (the
// --index list; map and reduce are evaluator built-ins and not in it).
func StdlibNames() []string { return slices.Clone(stdlibNames) }

// QuickReference is the quick reference (without the final newline): the
// text of a bare `a0 help`, which `a0 --help` ends with.
func QuickReference() string { return quick() }

// Text returns the text of the topic name (an exact name of Topics),
// without the final newline; ok is false for another name.
func Text(name string) (text string, ok bool) {
	text, ok = texts()[name]
	return text, ok
}

// Resolve maps what the user typed to a topic name: trimmed and
// lower-cased, then an exact name or a prefix of exactly one name. ok is
// false for an unknown or ambiguous topic.
func Resolve(topic string) (name string, ok bool) {
	t := strings.ToLower(strings.TrimFunc(topic, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }))
	var matches []string
	for _, n := range topics {
		if n == t {
			return n, true
		}
		if strings.HasPrefix(n, t) {
			matches = append(matches, n)
		}
	}
	if len(matches) == 1 {
		return matches[0], true
	}
	return "", false
}

// Topic implements "a0 help [topic] [--index]": out is the text for
// stdout, errOut the text for stderr, code the exit code (0 or 1). An
// empty topic is the quick reference.
func Topic(topic string, index bool) (out, errOut string, code int) {
	name, ok := Resolve(topic)
	if index {
		if topic == "" || !ok || name != "stdlib" {
			return "", "The --index flag is only supported with the stdlib topic.\nUsage:\n  a0 help stdlib --index\n", 1
		}
		return StdlibIndex() + "\n", "", 0
	}
	if topic == "" {
		return quick() + "\n", "", 0
	}
	if !ok {
		var b strings.Builder
		b.WriteString("Unknown help topic: \"" + topic + "\"\n")
		b.WriteString(nearTopics(topic))
		b.WriteString("Available topics:\n")
		for _, n := range topics {
			b.WriteString("  - " + n + "\n")
		}
		b.WriteString("Usage:\n  a0 help <topic>\n  a0 help stdlib --index\n")
		return "", b.String(), 1
	}
	return texts()[name] + "\n", "", 0
}

// StdlibIndex is the text of "a0 help stdlib --index" (without the final
// newline).
func StdlibIndex() string {
	var b strings.Builder
	b.WriteString("A0 STDLIB INDEX\n===============\n\n")
	w := len(fmt.Sprint(len(stdlibNames)))
	for i, n := range stdlibNames {
		fmt.Fprintf(&b, "  %*d. %s\n", w, i+1, n)
	}
	fmt.Fprintf(&b, "\nTotal: %d\n\nMore details:\n  a0 help stdlib", len(stdlibNames))
	return b.String()
}

// nearTopics is the line that follows an unknown topic: the topics it is
// the start of (an ambiguous prefix), else the closest one by spelling
// ("(Did you mean stdlib?)"), else nothing.
func nearTopics(topic string) string {
	t := strings.ToLower(strings.TrimFunc(topic, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }))
	if t == "" {
		return ""
	}
	var starts []string
	for _, n := range topics {
		if strings.HasPrefix(n, t) {
			starts = append(starts, n)
		}
	}
	if len(starts) > 1 {
		return "(\"" + t + "\" starts several topics: " + strings.Join(starts, ", ") + "; type more of one)\n"
	}
	if s := diag.Suggest(t, topics); s != "" {
		return "(Did you mean " + s + "?)\n"
	}
	return ""
}
