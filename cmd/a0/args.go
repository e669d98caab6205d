package main

// Command-line parsing for the a0 CLI (spec/cli.md §1, §2).
//
// The reference CLI is built on Commander 12, and agents depend on its exact
// behaviour: which error wins, which stream gets what, and when "-V" or
// "--help" short-circuits everything. Rather than approximating those rules
// with a flag package, this file replays Commander's algorithm in two
// passes:
//
//  1. The unknown-command pre-check: the first argument that does not start
//     with "-" must be a known command (an empty string passes).
//  2. The program-level pass over the whole argument list. The program only
//     knows -V/--version, so every other dash-argument is "unknown" there;
//     the first unknown option diverts it and every later argument into an
//     "unknown" list, which is what the sub-command parses again. Arguments
//     before that point stay operands: the first names the command, the
//     rest are the command's positionals and are never read as options.
//  3. The sub-command pass over that "unknown" list with the command's own
//     options, then, in order: a value option lacking its value (raised
//     while parsing), -h/--help, the first unknown option (with Commander's
//     "Did you mean" suggestion) and a missing <file>.
//
// parseArgs is pure: it never touches os.Args, files or streams.

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/a0lang/a0/lang/diag"
)

// version is the CLI version printed by -V/--version.
const version = "0.5.2"

// invocation is a parsed command line.
type invocation struct {
	Command string             // run, check, fmt, trace, policy, help, repl, mcp
	File    string             // positional <file> (run/check/fmt/trace); "" when absent
	Files   []string           // every positional argument of fmt (File is the first)
	Topic   string             // help topic ("" when absent)
	Flags   map[optName]bool   // boolean flags set: optPretty, optJSON, ...
	Values  map[optName]string // value options: optTrace, optEvidence, ...; an empty value means "not given"
	// All holds every value given to each value option, in command-line
	// order (Values keeps the last): the repeatable --input, --input-file
	// and --arg read it.
	All map[optName][]string
}

// optName is an option's long name without dashes. It is a struct, not a
// string, so that no string literal can stand for it: commands read an
// invocation's options through the names declared below, and a misspelt
// name does not compile. TestOptNames checks the names against the
// option table (cliCommands).
type optName struct{ s string }

// optNames lists the names declared, for TestOptNames.
var optNames []optName

func newOptName(s string) optName {
	n := optName{s}
	optNames = append(optNames, n)
	return n
}

// The options of every command.
var (
	optCheck          = newOptName("check")
	optDebugParse     = newOptName("debug-parse")
	optEvidence       = newOptName("evidence")
	optIndex          = newOptName("index")
	optInput          = newOptName("input")
	optInputFile      = newOptName("input-file")
	optArg            = newOptName("arg")
	optJSON           = newOptName("json")
	optMaxResultBytes = newOptName("max-result-bytes")
	optPolicy         = newOptName("policy")
	optPretty         = newOptName("pretty")
	optSearch         = newOptName("search")
	optStableJSON     = newOptName("stable-json")
	optStrict         = newOptName("strict")
	optTrace          = newOptName("trace")
	optUnsafeAllowAll = newOptName("unsafe-allow-all")
	optWrite          = newOptName("write")
)

// cliOpt describes one long option of a command.
type cliOpt struct {
	Name  optName // long name without dashes
	Value string  // value placeholder ("path") for value options; "" for boolean flags
	Desc  string  // description shown by "a0 <cmd> --help"
}

// flags returns the option as Commander prints it: "--pretty" or
// "--trace <path>".
func (o cliOpt) flags() string {
	if o.Value == "" {
		return "--" + o.Name.s
	}
	return "--" + o.Name.s + " <" + o.Value + ">"
}

// cliCmd describes one sub-command.
type cliCmd struct {
	Name     string
	Arg      string // positional argument name ("file", "topic") or ""
	Required bool   // whether Arg is required (<file>) or optional ([topic])
	ArgDesc  string // description of the positional argument
	Summary  string // one line shown in the top-level command list
	Desc     string // description shown by "a0 <cmd> --help"
	Opts     []cliOpt
}

// term returns the command as listed in the top-level help, for example
// "run [options] <file>".
func (c *cliCmd) term() string {
	t := c.Name + " [options]"
	switch {
	case c.Arg == "":
	case c.Required:
		t += " <" + c.Arg + ">"
	default:
		t += " [" + c.Arg + "]"
	}
	return t
}

var (
	cliOptPretty = cliOpt{Name: optPretty, Desc: "Print diagnostics as readable text instead of JSON"}
	cliOptDebug  = cliOpt{Name: optDebugParse, Desc: "Report the raw parser message for syntax errors"}
	cliOptUnsafe = cliOpt{Name: optUnsafeAllowAll, Desc: "[DEV ONLY] Grant every capability; policy scopes and limits are ignored (an invalid policy file is still an error)"}
	cliOptJSON   = cliOpt{Name: optJSON, Desc: "Print the result as JSON"}
	cliOptPolicy = cliOpt{Name: optPolicy, Value: "file", Desc: "Use this policy file, and only it, instead of ./.a0policy.json or ~/.a0/policy.json"}
)

// cliCommands lists the sub-commands in the order the top-level help shows
// them.
var cliCommands = []*cliCmd{
	{
		Name: "check", Arg: "file", Required: true,
		ArgDesc: "A0 source file to validate",
		Summary: "Validate a program without running it",
		Desc:    "Parse and statically validate a program; nothing is executed",
		Opts: []cliOpt{
			{Name: optPretty, Desc: "Readable output instead of JSON"},
			{Name: optStableJSON, Desc: `Print {"ok":true,"errors":[]} on success`},
			cliOptDebug,
			{Name: optStrict, Desc: "Also report argument names a function or tool does not take (E_UNKNOWN_ARG) and literal tool arguments of the wrong type (E_TOOL_ARGS)"},
			cliOptPolicy,
		},
	},
	{
		Name: "run", Arg: "file", Required: true,
		ArgDesc: "A0 source file to run (- reads stdin)",
		Summary: "Run a program and print its result",
		Desc:    "Run a program and print its return value as JSON",
		Opts: []cliOpt{
			{Name: optTrace, Value: "path", Desc: "Write a JSONL event trace to this file"},
			{Name: optEvidence, Value: "path", Desc: "Write assert/check evidence as JSON to this file"},
			{Name: optInput, Value: "json", Desc: "Give the program's declared inputs as a JSON object (repeatable; later keys win)"},
			{Name: optInputFile, Value: "path", Desc: "Read inputs from a JSON object file (repeatable; read before --input)"},
			{Name: optArg, Value: "key=value", Desc: "Give one input as text, parsed as its declared type (repeatable; overrides --input)"},
			cliOptPretty,
			cliOptDebug,
			cliOptUnsafe,
			cliOptPolicy,
		},
	},
	{
		Name: "fmt", Arg: "paths...", Required: true,
		ArgDesc: "A0 files, folders (every *.a0 inside) or - for stdin",
		Summary: "Print programs in canonical layout",
		Desc:    "Print programs in canonical layout, comments kept",
		Opts: []cliOpt{
			{Name: optWrite, Desc: "Rewrite the files that change instead of printing"},
			{Name: optCheck, Desc: "List the files that would change; exit 1 if any"},
		},
	},
	{
		Name: "trace", Arg: "file", Required: true,
		ArgDesc: "JSONL trace written by a0 run --trace",
		Summary: "Summarize a trace file",
		Desc:    "Summarize a JSONL trace: events, tool calls, evidence, failures",
		Opts:    []cliOpt{cliOptJSON},
	},
	{
		Name:    "policy",
		Summary: "Show the capability policy in effect",
		Desc:    "Show which policy file applies here and what it allows",
		Opts:    []cliOpt{cliOptJSON, cliOptPolicy},
	},
	{
		Name: "tools", Arg: "server[.tool]",
		ArgDesc: "One MCP server (its signatures) or one tool (in full, with its input and output schemas)",
		Summary: "List the tools of the policy's MCP servers",
		Desc:    "Start each MCP server the policy grants a tool of, list its tools as A0 signatures (arguments, types, result) and stop it; the other servers are not started",
		Opts: []cliOpt{
			{Name: optJSON, Desc: "Print the result as JSON (without a target: every tool with its full input and output schemas)"},
			cliOptPolicy,
			{Name: optSearch, Value: "text", Desc: "Rank the tools whose names or descriptions contain every word of text (case-insensitive)"},
		},
	},
	{
		Name:    "repl",
		Summary: "Start an interactive session",
		Desc:    "Read and run A0 statements interactively (one run for the session)",
		Opts: []cliOpt{
			cliOptUnsafe,
			{Name: optTrace, Value: "path", Desc: "Write a JSONL event trace of the session to this file"},
			cliOptPolicy,
		},
	},
	{
		Name:    "mcp",
		Summary: "Serve A0 over MCP on stdin/stdout",
		Desc:    "Run a Model Context Protocol server on stdin/stdout",
		Opts: []cliOpt{
			cliOptUnsafe,
			cliOptPolicy,
			{Name: optMaxResultBytes, Value: "bytes", Desc: "Largest tool result sent, in bytes (default 1048576); larger values are omitted (truncated: true)"},
		},
	},
	{
		Name: "jobs", Arg: "subcommand", Required: true,
		ArgDesc: "run, status, tail, wait, kill, list or gc (a0 jobs --help)",
		Summary: "Start and follow jobs that outlive the command",
		Desc:    "Start detached jobs and read, wait for, stop and collect them in the job store; one JSON object on stdout",
	},
	{
		Name: "help", Arg: "topic",
		ArgDesc: "One of: syntax, types, tools, stdlib, caps, budget, flow, diagnostics, examples, secrets, jobs; tools/SERVER: an MCP server's tool signatures",
		Summary: "Show language reference topics",
		Desc:    "Language reference; 'a0 help <topic>' shows one topic",
		Opts: []cliOpt{
			{Name: optIndex, Desc: "With the stdlib topic: list every function name"},
		},
	},
}

// cliLookup returns the sub-command named name, or nil.
func cliLookup(name string) *cliCmd {
	for _, c := range cliCommands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// cliFindOpt returns the option whose "--name" equals arg exactly.
func cliFindOpt(opts []cliOpt, arg string) (cliOpt, bool) {
	if strings.HasPrefix(arg, "--") {
		for _, o := range opts {
			if "--"+o.Name.s == arg {
				return o, true
			}
		}
	}
	return cliOpt{}, false
}

// cliIsDash reports whether Commander would treat arg as an option.
func cliIsDash(arg string) bool { return len(arg) > 1 && arg[0] == '-' }

// cliIsHelp reports whether arg is the help option.
func cliIsHelp(arg string) bool { return arg == "-h" || arg == "--help" }

// parseArgs parses os.Args[1:]. When stop is true the caller prints out to stdout and errOut to stderr and exits with code, without running anything.
//
// When stop is false, inv.Command names the command to run; for "help" the
// caller prints helpTopic(inv.Topic, inv.Flags[optIndex]). For run, check,
// fmt and trace a missing <file> always stops, so with stop false an empty
// inv.File means the user typed an empty string as the file name.
func parseArgs(args []string) (inv invocation, out, errOut string, code int, stop bool) {
	// 1. Unknown-command pre-check.
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if a != "" && cliLookup(a) == nil {
			return inv, unknownCommand(a), "Unknown command: " + a + "\n", 1, true
		}
		break
	}

	// 2. Program level: only -V/--version is known here.
	var operands, unknown []string
	dest := &operands
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			if dest == &unknown {
				unknown = append(unknown, arg)
			}
			*dest = append(*dest, args[i+1:]...)
			break
		}
		if arg == "-V" || arg == "--version" || (len(arg) > 2 && arg[0] == '-' && arg[1] == 'V') {
			return inv, version + "\n", "", 0, true
		}
		if cliIsDash(arg) {
			dest = &unknown
		}
		*dest = append(*dest, arg)
	}

	if len(operands) > 0 {
		if c := cliLookup(operands[0]); c != nil {
			return cliParseCommand(c, operands[1:], unknown)
		}
	}
	if len(operands) == 0 && len(unknown) == 0 {
		return inv, "", topLevelHelp(), 1, true
	}
	for _, a := range unknown {
		if cliIsHelp(a) {
			return inv, topLevelHelp(), "", 0, true
		}
	}
	if len(operands) > 0 {
		names := make([]string, len(cliCommands))
		for i, c := range cliCommands {
			names[i] = c.Name
		}
		msg := "error: unknown command '" + operands[0] + "'" + cliSuggest(operands[0], names)
		return inv, "", msg + "\n", 1, true
	}
	return inv, "", cliUnknownOption(unknown[0], nil), 1, true
}

// cliParseCommand is Commander's sub-command pass: operands came from the
// program level and are positionals as they stand; unknown is parsed again
// with the command's options.
func cliParseCommand(c *cliCmd, operands, unknown []string) (inv invocation, out, errOut string, code int, stop bool) {
	inv = invocation{Command: c.Name, Flags: map[optName]bool{}, Values: map[optName]string{}, All: map[optName][]string{}}
	operands = append([]string(nil), operands...)
	var rest []string // arguments this command does not know, from the first unknown option on
	dest := &operands
	for i := 0; i < len(unknown); i++ {
		arg := unknown[i]
		if arg == "--" {
			if dest == &rest {
				rest = append(rest, arg)
			}
			*dest = append(*dest, unknown[i+1:]...)
			break
		}
		if cliIsDash(arg) {
			if o, ok := cliFindOpt(c.Opts, arg); ok {
				if o.Value == "" {
					inv.Flags[o.Name] = true
					continue
				}
				if i+1 >= len(unknown) {
					return inv, "", "error: option '" + o.flags() + "' argument missing\n", 1, true
				}
				i++
				inv.Values[o.Name] = unknown[i]
				inv.All[o.Name] = append(inv.All[o.Name], unknown[i])
				continue
			}
		}
		// --name=value for a value option (boolean flags take no value).
		if eq := strings.IndexByte(arg, '='); strings.HasPrefix(arg, "--") && eq > 2 {
			if o, ok := cliFindOpt(c.Opts, arg[:eq]); ok && o.Value != "" {
				inv.Values[o.Name] = arg[eq+1:]
				inv.All[o.Name] = append(inv.All[o.Name], arg[eq+1:])
				continue
			}
		}
		if cliIsDash(arg) {
			dest = &rest
		}
		*dest = append(*dest, arg)
	}

	for _, a := range rest {
		if cliIsHelp(a) {
			return inv, commandHelp(c.Name), "", 0, true
		}
	}
	if len(rest) > 0 {
		return inv, "", cliUnknownOption(rest[0], c), 1, true
	}
	if c.Arg != "" && len(operands) > 0 {
		if c.Arg == "topic" {
			inv.Topic = operands[0]
		} else {
			inv.File = operands[0]
			if c.Name == "fmt" {
				inv.Files = operands
			}
		}
	} else if c.Required {
		// Every command that needs an operand takes files, and the
		// reference names that operand 'file' (fmt's list included).
		return inv, "", "error: missing required argument 'file'\n", 1, true
	}
	return inv, "", "", 0, false
}

// cliUnknownOption formats Commander's unknown-option error, with a suggestion
// line for a "--" flag close to one of the command's long options, its
// --help, or the program's --version and --help. c is nil at program level.
func cliUnknownOption(flag string, c *cliCmd) string {
	msg := "error: unknown option '" + flag + "'"
	if strings.HasPrefix(flag, "--") {
		var cands []string
		if c != nil {
			for _, o := range c.Opts {
				cands = append(cands, "--"+o.Name.s)
			}
			cands = append(cands, "--help")
		}
		cands = append(cands, "--version", "--help")
		msg += cliSuggest(flag, cands)
	}
	return msg + "\n"
}

// cliSuggest returns "\n(Did you mean X?)" or "\n(Did you mean one of
// X, Y?)" for the candidates closest to word, or "" when none is close
// enough. For a word starting with "--" the dashes are stripped from the
// word and from every candidate before comparing.
func cliSuggest(word string, candidates []string) string {
	const maxDistance = 3
	options := strings.HasPrefix(word, "--")
	if options {
		word = word[2:]
	}
	w := utf16.Encode([]rune(word))
	seen := map[string]bool{}
	best := maxDistance
	var similar []string
	for _, cand := range candidates {
		if seen[cand] {
			continue
		}
		seen[cand] = true
		if options {
			cand = strings.TrimPrefix(cand, "--")
		}
		cu := utf16.Encode([]rune(cand))
		if len(cu) <= 1 {
			continue
		}
		d := cliEditDistance(w, cu)
		n := max(len(w), len(cu))
		if float64(n-d)/float64(n) <= 0.4 {
			continue
		}
		if d < best {
			best = d
			similar = []string{cand}
		} else if d == best {
			similar = append(similar, cand)
		}
	}
	sort.Strings(similar)
	if options {
		for i := range similar {
			similar[i] = "--" + similar[i]
		}
	}
	switch len(similar) {
	case 0:
		return ""
	case 1:
		return "\n(Did you mean " + similar[0] + "?)"
	}
	return fmt.Sprintf("\n(Did you mean one of %s?)", strings.Join(similar, ", "))
}

// cliEditDistance is diag.EditDistance counted in UTF-16 code units, as
// Commander counts; when the lengths differ by more than 3 it returns the
// longer length without computing it (no such word is ever suggested).
func cliEditDistance(a, b []uint16) int {
	if len(a)-len(b) > 3 || len(b)-len(a) > 3 {
		return max(len(a), len(b))
	}
	return diag.EditDistance(a, b)
}

// unknownCommand is what an unknown first operand prints on stdout: the
// nearest command and the list of commands. stderr keeps the reference's
// one line, "Unknown command: X", which hosts match exactly.
func unknownCommand(a string) string {
	names := make([]string, len(cliCommands))
	var b strings.Builder
	for i, c := range cliCommands {
		names[i] = c.Name
	}
	if s := cliSuggest(a, names); s != "" {
		b.WriteString(strings.TrimPrefix(s, "\n") + "\n")
	}
	b.WriteString("Commands:\n")
	for _, c := range cliCommands {
		fmt.Fprintf(&b, "  %-8s %s\n", c.Name, c.Summary)
	}
	b.WriteString("Run 'a0 help' for the language reference, 'a0 <command> --help' for a command's options.\n")
	return b.String()
}
