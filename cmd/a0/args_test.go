package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// argsCase is one command line and what parseArgs must make of it. When
// stop is false, the invocation fields are compared; flags and values list
// exactly what must be set.
type argsCase struct {
	name    string
	args    []string
	out     string
	errOut  string
	code    int
	stop    bool
	command string
	file    string
	topic   string
	flags   []string
	values  map[string]string
}

func usageErr(name string, args []string, line string) argsCase {
	return argsCase{name: name, args: args, errOut: line, code: 1, stop: true}
}

// unknownCmd is an unknown command: the reference's line on stderr, the
// list of commands (and a did-you-mean) on stdout.
func unknownCmd(name string, args []string, cmd string) argsCase {
	return argsCase{name: name, args: args, out: unknownCommand(cmd), errOut: "Unknown command: " + cmd + "\n", code: 1, stop: true}
}

func versionCase(name string, args ...string) argsCase {
	return argsCase{name: name, args: args, out: "0.5.2\n", stop: true}
}

func runCase(name string, args []string, command, file string, flags []string, values map[string]string) argsCase {
	return argsCase{name: name, args: args, command: command, file: file, flags: flags, values: values}
}

func TestArgsParse(t *testing.T) {
	top := topLevelHelp()
	cases := []argsCase{
		// spec/cli.md §2 step 1: unknown-command pre-check.
		unknownCmd("unknown command", []string{"nope"}, "nope"),
		unknownCmd("unknown command beats help", []string{"nope", "--help"}, "nope"),
		unknownCmd("no version command", []string{"version"}, "version"),
		unknownCmd("option value counts as first positional", []string{"--trace", "x", "run", "f.a0"}, "x"),
		unknownCmd("pre-check runs before -V", []string{"-V", "nope"}, "nope"),
		unknownCmd("pre-check sees arguments after --", []string{"--", "nope"}, "nope"),
		usageErr("empty argument passes the pre-check", []string{"", "run", "f.a0"}, "error: unknown command ''\n"),
		usageErr("empty argument then unknown word", []string{"", "nope"}, "error: unknown command ''\n"),
		usageErr("parser suggests a command", []string{"--", "-run"}, "error: unknown command '-run'\n(Did you mean run?)\n"),

		// spec/cli.md §2 step 3: program level.
		{name: "no arguments", args: nil, errOut: top, code: 1, stop: true},
		{name: "only --", args: []string{"--"}, errOut: top, code: 1, stop: true},
		{name: "--help", args: []string{"--help"}, out: top, stop: true},
		{name: "-h", args: []string{"-h"}, out: top, stop: true},
		{name: "--help before command", args: []string{"--help", "run"}, out: top, stop: true},
		{name: "--help beats unknown top option", args: []string{"--help", "--bogus"}, out: top, stop: true},
		{name: "empty argument with --help", args: []string{"", "--help"}, out: top, stop: true},
		versionCase("-V", "-V"),
		versionCase("--version", "--version"),
		versionCase("-V before command", "-V", "run"),
		versionCase("-V after file", "run", "f.a0", "-V"),
		versionCase("-V after policy", "policy", "-V"),
		versionCase("-V beats unknown option", "run", "f.a0", "--bogus", "-V"),
		versionCase("-V beats --help", "run", "f.a0", "--help", "-V"),
		versionCase("-V beats missing file", "run", "-V"),
		versionCase("-V beats missing value", "run", "--trace", "-V"),
		versionCase("-V even as the value of --trace", "run", "--trace", "-V", "f.a0"),
		versionCase("-V combined with more letters", "-Vx"),
		versionCase("--version after --help", "help", "--help", "--version"),
		runCase("-V after -- is an argument", []string{"run", "f.a0", "--", "-V"}, "run", "f.a0", nil, nil),
		usageErr("--version=x is unknown", []string{"--version=x"}, "error: unknown option '--version=x'\n(Did you mean --version?)\n"),
		usageErr("leading sub-command option", []string{"--pretty", "run", "f.a0"}, "error: unknown option '--pretty'\n"),
		usageErr("top-level suggestion", []string{"--vers"}, "error: unknown option '--vers'\n(Did you mean --version?)\n"),
		usageErr("top-level --hel", []string{"--hel"}, "error: unknown option '--hel'\n(Did you mean --help?)\n"),

		// spec/cli.md §2: options before or after the file, both value forms, last wins.
		runCase("option before file", []string{"run", "--trace", "t.jsonl", "f.a0"}, "run", "f.a0", nil, map[string]string{"trace": "t.jsonl"}),
		runCase("option after file", []string{"run", "f.a0", "--trace", "t.jsonl"}, "run", "f.a0", nil, map[string]string{"trace": "t.jsonl"}),
		runCase("--opt=value", []string{"run", "f.a0", "--trace=t.jsonl"}, "run", "f.a0", nil, map[string]string{"trace": "t.jsonl"}),
		runCase("value containing =", []string{"run", "--evidence=a=b.json", "f.a0"}, "run", "f.a0", nil, map[string]string{"evidence": "a=b.json"}),
		runCase("repeated option: last wins", []string{"run", "--trace", "a", "f.a0", "--trace=b"}, "run", "f.a0", nil, map[string]string{"trace": "b"}),
		runCase("repeated option: empty last wins", []string{"run", "--trace", "a", "f.a0", "--trace="}, "run", "f.a0", nil, map[string]string{"trace": ""}),
		runCase("repeated flag", []string{"run", "--pretty", "f.a0", "--pretty"}, "run", "f.a0", []string{"pretty"}, nil),
		runCase("all run options", []string{"run", "f.a0", "--trace", "t", "--evidence", "e", "--pretty", "--debug-parse", "--unsafe-allow-all"}, "run", "f.a0",
			[]string{"pretty", "debug-parse", "unsafe-allow-all"}, map[string]string{"trace": "t", "evidence": "e"}),
		runCase("stdin file", []string{"run", "-"}, "run", "-", nil, nil),
		runCase("stdin file with options", []string{"run", "--pretty", "-"}, "run", "-", []string{"pretty"}, nil),

		// Surplus positionals are ignored.
		runCase("surplus file", []string{"run", "f.a0", "extra"}, "run", "f.a0", nil, nil),
		runCase("policy ignores positionals", []string{"policy", "x"}, "policy", "", nil, nil),
		{name: "help ignores surplus", args: []string{"help", "stdlib", "extra"}, command: "help", topic: "stdlib"},

		// -- ends options.
		runCase("-- before file", []string{"run", "--", "f.a0"}, "run", "f.a0", nil, nil),
		runCase("-- after an option", []string{"run", "--pretty", "--", "--json"}, "run", "--json", []string{"pretty"}, nil),
		runCase("-- before command", []string{"--", "run", "f.a0"}, "run", "f.a0", nil, nil),
		runCase("--help after --", []string{"run", "f.a0", "--", "--help"}, "run", "f.a0", nil, nil),

		// -h/--help after a sub-command.
		{name: "run --help", args: []string{"run", "--help"}, out: commandHelp("run"), stop: true},
		{name: "run -h", args: []string{"run", "-h"}, out: commandHelp("run"), stop: true},
		{name: "help beats unknown option", args: []string{"run", "--help", "--bogus"}, out: commandHelp("run"), stop: true},
		{name: "help after unknown option", args: []string{"run", "f.a0", "--bogus", "--help"}, out: commandHelp("run"), stop: true},
		{name: "help beats missing file", args: []string{"trace", "--help"}, out: commandHelp("trace"), stop: true},
		{name: "check --help", args: []string{"check", "--help"}, out: commandHelp("check"), stop: true},
		{name: "fmt --help", args: []string{"fmt", "-h"}, out: commandHelp("fmt"), stop: true},
		{name: "policy --help", args: []string{"policy", "--help"}, out: commandHelp("policy"), stop: true},
		{name: "help --help", args: []string{"help", "--help"}, out: commandHelp("help"), stop: true},
		{name: "repl --help", args: []string{"repl", "--help"}, out: commandHelp("repl"), stop: true},
		{name: "mcp --help", args: []string{"mcp", "--help"}, out: commandHelp("mcp"), stop: true},
		runCase("--help as the value of --trace", []string{"run", "--trace", "--help", "f.a0"}, "run", "f.a0", nil, map[string]string{"trace": "--help"}),
		runCase("--help as the value of --evidence", []string{"run", "--evidence", "--help", "f.a0"}, "run", "f.a0", nil, map[string]string{"evidence": "--help"}),
		usageErr("--help=x is an unknown option", []string{"run", "f.a0", "--help=x"}, "error: unknown option '--help=x'\n(Did you mean --help?)\n"),

		// A value option always takes the next argument.
		runCase("value that looks like a flag", []string{"run", "--trace", "--pretty", "f.a0"}, "run", "f.a0", nil, map[string]string{"trace": "--pretty"}),
		runCase("value that is --", []string{"run", "--trace", "--", "f.a0"}, "run", "f.a0", nil, map[string]string{"trace": "--"}),
		runCase("empty value with =", []string{"run", "--trace=", "f.a0"}, "run", "f.a0", nil, map[string]string{"trace": ""}),
		runCase("empty value as next argument", []string{"run", "--evidence", "", "f.a0"}, "run", "f.a0", nil, map[string]string{"evidence": ""}),

		// Boolean flags take no =value.
		usageErr("boolean with =value", []string{"run", "--pretty=1", "f.a0"}, "error: unknown option '--pretty=1'\n(Did you mean --pretty?)\n"),
		usageErr("json with =value", []string{"trace", "f", "--json=true"}, "error: unknown option '--json=true'\n"),

		// Usage errors.
		usageErr("flag of another command", []string{"check", "--json", "f.a0"}, "error: unknown option '--json'\n"),
		usageErr("no suggestion for --stable", []string{"check", "f.a0", "--stable"}, "error: unknown option '--stable'\n"),
		usageErr("single-dash unknown flag", []string{"run", "f.a0", "-x"}, "error: unknown option '-x'\n"),
		usageErr("single-dash near-miss gets no suggestion", []string{"run", "f.a0", "-prety"}, "error: unknown option '-prety'\n"),
		usageErr("run without file", []string{"run"}, "error: missing required argument 'file'\n"),
		usageErr("trace without file", []string{"trace"}, "error: missing required argument 'file'\n"),
		usageErr("check without file", []string{"check", "--pretty"}, "error: missing required argument 'file'\n"),
		usageErr("fmt without file", []string{"fmt", "--write"}, "error: missing required argument 'file'\n"),
		usageErr("options but no file", []string{"run", "--trace", "t.jsonl"}, "error: missing required argument 'file'\n"),
		usageErr("trace value missing", []string{"run", "f.a0", "--trace"}, "error: option '--trace <path>' argument missing\n"),
		usageErr("evidence value missing", []string{"run", "f.a0", "--evidence"}, "error: option '--evidence <path>' argument missing\n"),
		usageErr("repl trace value missing", []string{"repl", "--trace"}, "error: option '--trace <path>' argument missing\n"),
		usageErr("mcp has no --trace", []string{"mcp", "--trace", "x"}, "error: unknown option '--trace'\n"),

		// Precedence: missing value > --help > unknown option > missing file.
		usageErr("missing value beats unknown option", []string{"run", "--bogus", "--trace"}, "error: option '--trace <path>' argument missing\n"),
		usageErr("unknown option beats missing file", []string{"run", "--bogus"}, "error: unknown option '--bogus'\n"),
		usageErr("missing value beats --help", []string{"run", "--help", "--trace"}, "error: option '--trace <path>' argument missing\n"),
		usageErr("first unknown option is reported", []string{"run", "f.a0", "--zzz", "--bogus"}, "error: unknown option '--zzz'\n"),

		// Suggestions.
		usageErr("suggest --pretty", []string{"run", "f.a0", "--prety"}, "error: unknown option '--prety'\n(Did you mean --pretty?)\n"),
		usageErr("suggest --trace", []string{"run", "f.a0", "--tracee", "x"}, "error: unknown option '--tracee'\n(Did you mean --trace?)\n"),
		usageErr("suggest from a prefix", []string{"run", "--pre", "f.a0"}, "error: unknown option '--pre'\n(Did you mean --pretty?)\n"),
		usageErr("suggest with =value", []string{"run", "f.a0", "--evidenc=x"}, "error: unknown option '--evidenc=x'\n(Did you mean --evidence?)\n"),
		usageErr("suggest --json", []string{"policy", "--jsn"}, "error: unknown option '--jsn'\n(Did you mean --json?)\n"),
		usageErr("suggest --index", []string{"help", "--inde"}, "error: unknown option '--inde'\n(Did you mean --index?)\n"),
		usageErr("suggest a tie, sorted", []string{"trace", "x", "--heon"}, "error: unknown option '--heon'\n(Did you mean one of --help, --json?)\n"),
		usageErr("suggest program --version", []string{"run", "f.a0", "--versio"}, "error: unknown option '--versio'\n(Did you mean --version?)\n"),
		usageErr("suggest --unsafe-allow-all", []string{"run", "f.a0", "--unsafe-alow-all"}, "error: unknown option '--unsafe-alow-all'\n(Did you mean --unsafe-allow-all?)\n"),
		usageErr("no suggestion when lengths differ by more than 3", []string{"run", "f.a0", "--unsafe-allow"}, "error: unknown option '--unsafe-allow'\n"),
		usageErr("suggest by transposition", []string{"fmt", "f", "--wirte"}, "error: unknown option '--wirte'\n(Did you mean --write?)\n"),

		// The other commands.
		runCase("check flags", []string{"check", "--pretty", "--stable-json", "--debug-parse", "f.a0"}, "check", "f.a0", []string{"pretty", "stable-json", "debug-parse"}, nil),
		runCase("check - is a file name", []string{"check", "-"}, "check", "-", nil, nil),
		runCase("fmt --write", []string{"fmt", "f.a0", "--write"}, "fmt", "f.a0", []string{"write"}, nil),
		runCase("trace --json", []string{"trace", "--json", "t.jsonl"}, "trace", "t.jsonl", []string{"json"}, nil),
		runCase("policy", []string{"policy"}, "policy", "", nil, nil),
		runCase("policy --json", []string{"policy", "--json"}, "policy", "", []string{"json"}, nil),
		runCase("repl", []string{"repl"}, "repl", "", nil, nil),
		runCase("repl options", []string{"repl", "--unsafe-allow-all", "--trace", "s.jsonl"}, "repl", "", []string{"unsafe-allow-all"}, map[string]string{"trace": "s.jsonl"}),
		runCase("mcp", []string{"mcp", "--unsafe-allow-all"}, "mcp", "", []string{"unsafe-allow-all"}, nil),
		runCase("empty file name", []string{"run", ""}, "run", "", nil, nil),
		{name: "help", args: []string{"help"}, command: "help"},
		{name: "help topic", args: []string{"help", "stdlib"}, command: "help", topic: "stdlib"},
		{name: "help empty topic", args: []string{"help", ""}, command: "help", topic: ""},
		{name: "help --index first", args: []string{"help", "--index", "stdlib"}, command: "help", topic: "stdlib", flags: []string{"index"}},
		{name: "help --index alone", args: []string{"help", "--index"}, command: "help", flags: []string{"index"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inv, out, errOut, code, stop := parseArgs(tc.args)
			if out != tc.out || errOut != tc.errOut || code != tc.code || stop != tc.stop {
				t.Fatalf("parseArgs(%q)\n got out=%q errOut=%q code=%d stop=%v\nwant out=%q errOut=%q code=%d stop=%v",
					tc.args, short(out), errOut, code, stop, short(tc.out), tc.errOut, tc.code, tc.stop)
			}
			if stop {
				return
			}
			if inv.Command != tc.command || inv.File != tc.file || inv.Topic != tc.topic {
				t.Errorf("parseArgs(%q) = command %q file %q topic %q, want %q %q %q",
					tc.args, inv.Command, inv.File, inv.Topic, tc.command, tc.file, tc.topic)
			}
			wantFlags := map[string]bool{}
			for _, f := range tc.flags {
				wantFlags[f] = true
			}
			gotFlags := map[string]bool{}
			for n, v := range inv.Flags {
				gotFlags[n.s] = v
			}
			if !reflect.DeepEqual(gotFlags, wantFlags) {
				t.Errorf("parseArgs(%q) flags = %v, want %v", tc.args, gotFlags, wantFlags)
			}
			wantValues := tc.values
			if wantValues == nil {
				wantValues = map[string]string{}
			}
			gotValues := map[string]string{}
			for n, v := range inv.Values {
				gotValues[n.s] = v
			}
			if !reflect.DeepEqual(gotValues, wantValues) {
				t.Errorf("parseArgs(%q) values = %v, want %v", tc.args, gotValues, wantValues)
			}
		})
	}
}

// short trims long help texts in failure messages.
func short(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

func TestArgsCommandsKnownToPreCheck(t *testing.T) {
	for _, name := range []string{"check", "run", "fmt", "trace", "policy", "help", "repl", "mcp"} {
		_, _, errOut, _, _ := parseArgs([]string{name, "--help"})
		if errOut != "" {
			t.Errorf("%s --help: stderr %q", name, errOut)
		}
	}
}

func TestArgsEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"prety", "pretty", 1},
		{"ab", "ba", 1},       // one adjacent swap
		{"wirte", "write", 1}, // swap inside a word
		{"ca", "abc", 3},      // optimal string alignment, not full Damerau (2)
		{"heon", "help", 2},   // two substitutions
		{"heon", "json", 2},   // two substitutions
		{"x", "abcdef", 6},    // lengths differ by more than 3: the longer length
		{"stable", "stable-json", 11},
		{"evidenc=x", "evidence", 2},
	}
	for _, tc := range cases {
		a := utf16.Encode([]rune(tc.a))
		b := utf16.Encode([]rune(tc.b))
		if got := cliEditDistance(a, b); got != tc.want {
			t.Errorf("cliEditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestArgsSuggest(t *testing.T) {
	cases := []struct {
		word  string
		cands []string
		want  string
	}{
		{"--prety", []string{"--pretty", "--help", "--version", "--help"}, "\n(Did you mean --pretty?)"},
		{"--heon", []string{"--json", "--help", "--version"}, "\n(Did you mean one of --help, --json?)"},
		{"--json", []string{"--pretty", "--stable-json", "--debug-parse", "--help", "--version"}, ""},
		{"--x", []string{"--x", "--xy"}, "\n(Did you mean --xy?)"}, // one-character candidates are skipped
		{"--vers", []string{"--version", "--help"}, "\n(Did you mean --version?)"},
		{"--abcd", []string{"--wxyz"}, ""}, // distance 4 is never suggested
		{"rn", []string{"run", "fmt"}, "\n(Did you mean run?)"},
		{"", []string{"run", "fmt"}, ""},
	}
	for _, tc := range cases {
		if got := cliSuggest(tc.word, tc.cands); got != tc.want {
			t.Errorf("cliSuggest(%q, %q) = %q, want %q", tc.word, tc.cands, got, tc.want)
		}
	}
}

// TestUnknownCommandLists: an unknown command lists the commands on stdout
// with the nearest one first.
func TestUnknownCommandLists(t *testing.T) {
	_, out, errOut, code, _ := parseArgs([]string{"rnu", "x.a0"})
	if errOut != "Unknown command: rnu\n" || code != 1 {
		t.Fatalf("errOut %q code %d", errOut, code)
	}
	if !strings.HasPrefix(out, "(Did you mean run?)\nCommands:\n") || !strings.Contains(out, "  repl ") {
		t.Errorf("out %q", out)
	}
}

// TestOptNames checks the declared option names against the option table:
// each names an option some command has, every option of the table is
// declared, and an option is a flag or a value option everywhere alike.
func TestOptNames(t *testing.T) {
	declared := optNames
	isValue := map[optName]bool{}
	for _, c := range cliCommands {
		for _, o := range c.Opts {
			if v, seen := isValue[o.Name]; seen && v != (o.Value != "") {
				t.Errorf("--%s is a flag in one command and takes a value in another", o.Name.s)
			}
			isValue[o.Name] = o.Value != ""
			if !slices.Contains(declared, o.Name) {
				t.Errorf("--%s (a0 %s) has no declared optName", o.Name.s, c.Name)
			}
		}
	}
	for _, n := range declared {
		if _, ok := isValue[n]; !ok {
			t.Errorf("optName %q is no command's option", n.s)
		}
	}
}
