package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime/help"
	"github.com/a0lang/a0/stdlib"
)

const unknownTopicTail = "Available topics:\n  - syntax\n  - types\n  - tools\n  - stdlib\n  - caps\n  - budget\n  - flow\n  - diagnostics\n  - examples\n  - secrets\n" +
	"Usage:\n  a0 help <topic>\n  a0 help stdlib --index\n"

const indexErr = "The --index flag is only supported with the stdlib topic.\nUsage:\n  a0 help stdlib --index\n"

// quickReference is the text of a bare `a0 help` (runtime/help: one
// source for the CLI, the REPL and the MCP server).
var quickReference = help.QuickReference()

func TestHelpTopicResolution(t *testing.T) {
	cases := []struct {
		in, want string // want "" = unknown or ambiguous
	}{
		{"syntax", "syntax"},
		{"types", "types"},
		{"tools", "tools"},
		{"stdlib", "stdlib"},
		{"caps", "caps"},
		{"budget", "budget"},
		{"flow", "flow"},
		{"diagnostics", "diagnostics"},
		{"examples", "examples"},
		{"diag", "diagnostics"},
		{"DIAG", "diagnostics"},
		{"ex", "examples"},
		{"std", "stdlib"},
		{"sy", "syntax"},
		{"b", "budget"},
		{"c", "caps"},
		{"  Tools\t", "tools"},
		{"FLOW", "flow"},
		{"s", ""},        // syntax, stdlib
		{"t", ""},        // types, tools
		{"st", "stdlib"}, // syntax starts with "sy"
		{"run", ""},
		{"constructor", ""},
		{"syntaxx", ""},
		{" ", ""}, // trims to "", which prefixes every topic
	}
	for _, tc := range cases {
		got, ok := help.Resolve(tc.in)
		if (tc.want != "") != ok || got != tc.want {
			t.Errorf("helpResolveTopic(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

func TestHelpTopicOutputs(t *testing.T) {
	cases := []struct {
		name   string
		topic  string
		index  bool
		out    string
		errOut string
		code   int
	}{
		{name: "quick reference", topic: "", out: quickReference + "\n"},
		{name: "exact topic", topic: "syntax", out: helpTopicTexts["syntax"] + "\n"},
		{name: "prefix", topic: "diag", out: helpTopicTexts["diagnostics"] + "\n"},
		{name: "upper-case prefix", topic: "EX", out: helpTopicTexts["examples"] + "\n"},
		{name: "ambiguous", topic: "s", errOut: "Unknown help topic: \"s\"\n(\"s\" starts several topics: syntax, stdlib, secrets; type more of one)\n" + unknownTopicTail, code: 1},
		{name: "unknown", topic: "frob", errOut: "Unknown help topic: \"frob\"\n(Did you mean flow?)\n" + unknownTopicTail, code: 1},
		{name: "misspelt", topic: "stdlb", errOut: "Unknown help topic: \"stdlb\"\n(Did you mean stdlib?)\n" + unknownTopicTail, code: 1},
		{name: "nothing close", topic: "zzzzzz", errOut: "Unknown help topic: \"zzzzzz\"\n" + unknownTopicTail, code: 1},
		{name: "a command", topic: "run", errOut: "Unknown help topic: \"run\"\n" + unknownTopicTail + "  a0 run --help    (run is a command: its usage and options)\n", code: 1},
		{name: "a command, as typed", topic: " Check", errOut: "Unknown help topic: \" Check\"\n" + unknownTopicTail + "  a0 check --help    (check is a command: its usage and options)\n", code: 1},
		{name: "index with a command", topic: "run", index: true, errOut: indexErr, code: 1},
		{name: "unknown echoed as typed", topic: "No-Such-Topic", errOut: "Unknown help topic: \"No-Such-Topic\"\n" + unknownTopicTail, code: 1},
		{name: "spaces only", topic: " ", errOut: "Unknown help topic: \" \"\n" + unknownTopicTail, code: 1},
		{name: "index", topic: "stdlib", index: true, out: helpStdlibIndex() + "\n"},
		{name: "index with prefix", topic: "std", index: true, out: helpStdlibIndex() + "\n"},
		{name: "index with upper case", topic: "STDLIB", index: true, out: helpStdlibIndex() + "\n"},
		{name: "index without topic", topic: "", index: true, errOut: indexErr, code: 1},
		{name: "index with other topic", topic: "tools", index: true, errOut: indexErr, code: 1},
		{name: "index with unknown topic", topic: "nope", index: true, errOut: indexErr, code: 1},
		{name: "index with ambiguous topic", topic: "s", index: true, errOut: indexErr, code: 1},
	}
	for _, tc := range cases {
		out, errOut, code := helpTopic(tc.topic, tc.index)
		if out != tc.out || errOut != tc.errOut || code != tc.code {
			t.Errorf("%s: helpTopic(%q, %v) = (%q, %q, %d), want (%q, %q, %d)",
				tc.name, tc.topic, tc.index, short(out), errOut, code, short(tc.out), tc.errOut, tc.code)
		}
	}
}

func TestHelpStdlibIndexExact(t *testing.T) {
	want := "A0 STDLIB INDEX\n===============\n\n" +
		"   1. and\n   2. append\n   3. base64.decode\n   4. base64.encode\n   5. coalesce\n   6. concat\n" +
		"   7. contains\n   8. entries\n   9. eq\n  10. filter\n  11. find\n  12. flat\n" +
		"  13. get\n  14. hex.decode\n  15. hex.encode\n  16. join\n  17. json.stringify\n  18. keys\n" +
		"  19. len\n  20. math.max\n  21. math.min\n  22. merge\n  23. not\n  24. or\n" +
		"  25. parse.json\n  26. parse.number\n  27. patch\n  28. pluck\n  29. put\n  30. range\n" +
		"  31. re.find\n  32. re.findAll\n  33. re.replace\n  34. re.split\n  35. re.test\n  36. sort\n" +
		"  37. str.concat\n  38. str.ends\n  39. str.lines\n  40. str.lower\n  41. str.padEnd\n  42. str.padStart\n" +
		"  43. str.repeat\n  44. str.replace\n  45. str.split\n  46. str.starts\n  47. str.template\n  48. str.trim\n" +
		"  49. str.trimEnd\n  50. str.trimStart\n  51. str.upper\n  52. typeof\n  53. unique\n  54. values\n" +
		"\nTotal: 54\n\nMore details:\n  a0 help stdlib\n"
	out, errOut, code := helpTopic("stdlib", true)
	if out != want || errOut != "" || code != 0 {
		t.Errorf("a0 help stdlib --index:\n%s\nwant:\n%s", out, want)
	}
}

func TestHelpStdlibIndexMatchesRegistry(t *testing.T) {
	names := slices.Clone(stdlib.Names())
	slices.Sort(names)
	if !slices.Equal(names, helpStdlibNames) {
		t.Errorf("index names %v\nregistry sorted %v", helpStdlibNames, names)
	}
}

// TestHelpTitles checks that every topic starts with its upper-case title
// line followed by a line of "=".
func TestHelpTitles(t *testing.T) {
	texts := map[string]string{"": quickReference}
	for _, n := range helpTopicNames {
		texts[n] = helpTopicTexts[n]
		if texts[n] == "" {
			t.Errorf("topic %q has no text", n)
		}
	}
	if len(helpTopicTexts) != len(helpTopicNames) {
		t.Errorf("%d topic texts for %d topics", len(helpTopicTexts), len(helpTopicNames))
	}
	titles := map[string]bool{}
	for name, text := range texts {
		lines := strings.Split(text, "\n")
		if len(lines) < 3 {
			t.Errorf("topic %q: too short", name)
			continue
		}
		title, rule := lines[0], lines[1]
		if bare := strings.TrimSuffix(title, " (v0.5)"); !strings.HasPrefix(title, "A0 ") || bare != strings.ToUpper(bare) {
			t.Errorf("topic %q: title %q is not an upper-case A0 title", name, title)
		}
		if rule == "" || strings.Trim(rule, "=") != "" || len(rule) != len(title) {
			t.Errorf("topic %q: line after the title is %q", name, rule)
		}
		if titles[title] {
			t.Errorf("title %q used twice", title)
		}
		titles[title] = true
		if strings.HasSuffix(text, "\n") {
			t.Errorf("topic %q: text ends with a newline (helpTopic adds one)", name)
		}
		for i, l := range lines {
			if strings.TrimRight(l, " \t") != l || strings.Contains(l, "\t") {
				t.Errorf("topic %q line %d: tab or trailing space: %q", name, i+1, l)
			}
		}
	}
	for _, want := range []string{"A0 QUICK REFERENCE (v0.5)", "A0 SYNTAX REFERENCE", "A0 STDLIB REFERENCE"} {
		if !titles[want] {
			t.Errorf("missing title %q", want)
		}
	}
	out, _, _ := helpTopic("", false)
	if !strings.HasPrefix(out, "A0 QUICK REFERENCE (v0.5)\n=========================\n") {
		t.Errorf("a0 help starts with %q", short(out))
	}
}

var allTools = []string{"fs.read", "fs.write", "fs.list", "fs.exists", "http.get", "sh.exec",
	"sh.start", "sh.status", "sh.tail", "sh.wait", "sh.kill", "sh.jobs", "sh.notify", "sh.write"}

func TestHelpQuickReference(t *testing.T) {
	q := quickReference
	mustContain(t, "quick reference", q,
		"\n  0=ok 1=cli-usage/help 2=parse/validate 3=cap-denied 4=runtime 5=assert/check\n")
	for _, tool := range allTools {
		if !strings.Contains(q, " "+tool+" ") {
			t.Errorf("quick reference lacks the tool %s", tool)
		}
	}
	// Both forms of sh.exec.
	mustContain(t, "quick reference", q, "sh.exec   { cmd", "sh.exec   { argv")
	for _, n := range helpTopicNames {
		if !strings.Contains(q, "\n  "+n+" ") {
			t.Errorf("quick reference lacks the topic %s", n)
		}
	}
	for _, c := range cliCommands {
		mustContain(t, "quick reference", q, "a0 "+c.Name)
	}
}

func TestHelpTopicContents(t *testing.T) {
	stdlibText := helpTopicTexts["stdlib"]
	for _, n := range append(stdlib.Names(), "map", "reduce") {
		if !strings.Contains(stdlibText, "\n  "+n+" {") {
			t.Errorf("stdlib topic lacks %s", n)
		}
	}
	mustContain(t, "stdlib", stdlibText, "filter { in, fn }", "filter { in, by }")

	for _, tool := range allTools {
		mustContain(t, "tools", helpTopicTexts["tools"], tool+" {")
		mustContain(t, "caps", helpTopicTexts["caps"], tool)
	}
	mustContain(t, "tools", helpTopicTexts["tools"], "cmd:", "argv:", "E_TOOL_ARGS", "E_TOOL ")

	codes := []string{
		"E_LEX", "E_PARSE", "E_AST", "E_NO_RETURN", "E_RETURN_NOT_LAST", "E_DUP_BINDING", "E_FN_DUP",
		"E_UNKNOWN_CAP", "E_CAP_VALUE", "E_DUP_BUDGET", "E_UNKNOWN_BUDGET", "E_BUDGET_TYPE",
		"E_IMPORT_UNSUPPORTED", "E_UNDECLARED_CAP", "E_SPREAD_NOT_ALLOWED", "E_CALL_EFFECT",
		"E_UNKNOWN_TOOL", "E_UNBOUND", "E_UNKNOWN_FN", "E_TYPE", "E_PATH", "E_FOR_NOT_LIST",
		"E_MATCH_NOT_RECORD", "E_MATCH_NO_ARM", "E_ASSERT", "E_FN", "E_BUDGET", "E_CAP_DENIED",
		"E_POLICY", "E_TOOL_ARGS", "E_TOOL", "E_RUNTIME", "E_CANCELLED", "E_IO", "E_TRACE",
	}
	for _, c := range codes {
		mustContain(t, "diagnostics", helpTopicTexts["diagnostics"], "  "+c+" ")
	}

	mustContain(t, "caps", helpTopicTexts["caps"], "--unsafe-allow-all", `"allow"`, `"deny"`, `"exec"`,
		".a0policy.json", "~/.a0/policy.json", "E_CAP_DENIED", "E_POLICY", "allowShell", "root")
	mustContain(t, "budget", helpTopicTexts["budget"], "timeMs", "maxToolCalls", "maxBytesWritten", "maxIterations", "E_BUDGET")
	mustContain(t, "flow", helpTopicTexts["flow"], "if (", "for {", "filter {", "loop {", "match ", "try {", "fn ", "assert {", "check {")
}

func mustContain(t *testing.T, what, text string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(text, s) {
			t.Errorf("%s: missing %q", what, s)
		}
	}
}

func TestHelpTopLevel(t *testing.T) {
	h := topLevelHelp()
	if !strings.HasPrefix(h, "Usage: a0 [options] [command]\n\n") {
		t.Errorf("top-level help starts with %q", short(h))
	}
	if !strings.HasSuffix(h, "\n\n"+quickReference+"\n") {
		t.Errorf("top-level help does not end with an empty line and the quick reference")
	}
	head := strings.TrimSuffix(h, "\n"+quickReference+"\n")
	for _, c := range cliCommands {
		mustContain(t, "top-level help", head, "\n  "+c.term()+" ")
	}
	mustContain(t, "top-level help", head, "\n  -V, --version ", "\n  -h, --help ", "\nOptions:\n", "\nCommands:\n")
	checkColumns(t, "top-level", head)
}

func TestHelpCommandTexts(t *testing.T) {
	usages := map[string]string{
		"run":    "Usage: a0 run [options] <file>\n",
		"check":  "Usage: a0 check [options] <file>\n",
		"fmt":    "Usage: a0 fmt [options] <paths...>\n",
		"trace":  "Usage: a0 trace [options] <file>\n",
		"policy": "Usage: a0 policy [options]\n",
		"help":   "Usage: a0 help [options] [topic]\n",
		"repl":   "Usage: a0 repl [options]\n",
		"mcp":    "Usage: a0 mcp [options]\n",
		"tools":  "Usage: a0 tools [options] [server[.tool]]\n",
		"jobs":   "Usage: a0 jobs [options] <subcommand>\n",
	}
	if len(usages) != len(cliCommands) {
		t.Fatalf("%d commands, %d usage lines", len(cliCommands), len(usages))
	}
	for _, c := range cliCommands {
		h := commandHelp(c.Name)
		if !strings.HasPrefix(h, usages[c.Name]+"\n") {
			t.Errorf("%s --help starts with %q", c.Name, short(h))
		}
		if !strings.Contains(h, "\n  -h, --help ") {
			t.Errorf("%s --help lacks -h, --help", c.Name)
		}
		if (c.Arg != "") != strings.Contains(h, "\nArguments:\n  "+strings.TrimSuffix(c.Arg, "...")+" ") {
			t.Errorf("%s --help: Arguments block does not match the command", c.Name)
		}
		for _, o := range c.Opts {
			mustContain(t, c.Name+" --help", h, "\n  "+o.flags()+" ")
		}
		if !strings.HasSuffix(h, "\n") || strings.HasSuffix(h, "\n\n") {
			t.Errorf("%s --help must end with exactly one newline", c.Name)
		}
		checkColumns(t, c.Name, h)
	}
	if commandHelp("nope") != "" {
		t.Errorf("commandHelp of an unknown command is not empty")
	}
	want := "Usage: a0 fmt [options] <paths...>\n\n" + lookupDesc("fmt") + "\n\n" +
		"Arguments:\n  paths       " + cliLookup("fmt").ArgDesc + "\n\n" +
		"Options:\n  --write     " + cliLookup("fmt").Opts[0].Desc + "\n  --check     " + cliLookup("fmt").Opts[1].Desc +
		"\n  -h, --help  show help for this command\n"
	if got := commandHelp("fmt"); got != want {
		t.Errorf("fmt --help =\n%s\nwant\n%s", got, want)
	}
}

func lookupDesc(name string) string { return cliLookup(name).Desc }

// checkColumns verifies the column rule: in the Arguments, Options and
// Commands blocks every description starts at the same column, the longest
// term plus two spaces (after the two-space indent).
func checkColumns(t *testing.T, what, text string) {
	t.Helper()
	var terms, items []string
	inBlock := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case l == "Arguments:" || l == "Options:" || l == "Commands:":
			inBlock = true
		case l == "":
			inBlock = false
		case inBlock:
			if !strings.HasPrefix(l, "  ") {
				t.Errorf("%s: item line %q is not indented", what, l)
				continue
			}
			body := l[2:]
			i := strings.Index(body, "  ")
			if i < 0 {
				t.Errorf("%s: item line %q has no description", what, l)
				continue
			}
			terms = append(terms, body[:i])
			items = append(items, body)
		}
	}
	if len(terms) == 0 {
		t.Fatalf("%s: no items found", what)
	}
	width := 0
	for _, term := range terms {
		width = max(width, len(term))
	}
	for i, body := range items {
		col := len(body) - len(strings.TrimLeft(body[len(terms[i]):], " "))
		if col != width+2 {
			t.Errorf("%s: %q: description at column %d, want %d", what, body, col+2, width+4)
		}
	}
}

// TestHelpMCPOptions: the quick reference and a0 mcp --help name the
// result limit.
func TestHelpMCPOptions(t *testing.T) {
	mustContain(t, "quick reference", quickReference, "--max-result-bytes")
	mustContain(t, "a0 mcp --help", commandHelp("mcp"), "\n  --max-result-bytes <bytes>  ")
}

// TestHelpArgNamesEveryTopic: the topic argument of `a0 help --help` names
// every topic `a0 help` has (and jobs), so that none is found only by
// reading the quick reference.
func TestHelpArgNamesEveryTopic(t *testing.T) {
	desc := cliLookup("help").ArgDesc
	for _, n := range append(help.Topics(), "jobs") {
		if !strings.Contains(desc, " "+n+",") && !strings.Contains(desc, " "+n+";") {
			t.Errorf("a0 help --help does not name the topic %q: %s", n, desc)
		}
	}
}

// TestHelpSyntaxIndexing: what `a0 help syntax` says of xs[0] is what
// a0 check does with it (an E_PARSE, not two statements).
func TestHelpSyntaxIndexing(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "ix.a0")
	if err := os.WriteFile(f, []byte("let xs = [1, 2]\nreturn xs[0]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := realMain([]string{"check", f}, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), `"E_PARSE"`) {
		t.Fatalf("a0 check of xs[0]: exit %d, stderr %s", code, errb.String())
	}
	text := strings.Join(strings.Fields(helpTopicTexts["syntax"]), " ")
	if !strings.Contains(text, "xs[0] is a syntax error (E_PARSE)") || strings.Contains(text, "xs[0] is two statements") {
		t.Errorf("a0 help syntax does not say that xs[0] is an E_PARSE")
	}
}

// TestHelpCapsPolicyKeys: the top-level keys `a0 help caps` lists are the
// ones the policy loader accepts (it once left out secrets).
func TestHelpCapsPolicyKeys(t *testing.T) {
	dir := t.TempDir()
	pol := filepath.Join(dir, "p.json")
	if err := os.WriteFile(pol, []byte(`{"version": 1, "bogus": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	realMain([]string{"policy", "--policy", pol}, strings.NewReader(""), &out, &errOut)
	_, keys, ok := strings.Cut(errOut.String(), "valid top-level keys: ")
	if !ok {
		t.Fatalf("no key list in %q", errOut.String())
	}
	keys, _, _ = strings.Cut(keys, " (line")
	out.Reset()
	realMain([]string{"help", "caps"}, strings.NewReader(""), &out, &errOut)
	text := strings.Join(strings.Fields(out.String()), " ")
	if !strings.Contains(text, "Valid top-level keys: "+keys) {
		t.Errorf("a0 help caps does not list the policy keys %q", keys)
	}
}
