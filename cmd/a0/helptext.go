package main

// Help output of the a0 CLI (spec/cli.md §11): the Commander-style usage texts
// of "a0 --help" and "a0 <command> --help", and the reference topics of
// "a0 help [topic] [--index]".
//
// Fixed interface points: each topic's upper-case title line followed by a
// line of "=", the topic names and their prefix resolution, the exit-code
// map line of the quick reference, the --index layout and the error texts
// of an unknown topic or a misused --index. Everything else is our own
// wording and describes this implementation.

import (
	"fmt"
	"strings"
	"unicode"
)

// helpItem is one "term  description" line of a Commander help text.
type helpItem struct{ term, desc string }

// helpFormatCommander lays out a Commander help text: the usage line, the
// description, then the Arguments, Options and Commands blocks. All terms
// share one column, the longest term plus two spaces.
func helpFormatCommander(usage, desc string, args, opts, cmds []helpItem) string {
	width := 0
	for _, list := range [][]helpItem{args, opts, cmds} {
		for _, it := range list {
			width = max(width, len(it.term))
		}
	}
	var b strings.Builder
	b.WriteString("Usage: " + usage + "\n\n" + desc + "\n")
	block := func(title string, items []helpItem) {
		if len(items) == 0 {
			return
		}
		b.WriteString("\n" + title + ":\n")
		for _, it := range items {
			b.WriteString("  " + it.term + strings.Repeat(" ", width+2-len(it.term)) + it.desc + "\n")
		}
	}
	block("Arguments", args)
	block("Options", opts)
	block("Commands", cmds)
	return b.String()
}

// topLevelHelp is the output of "a0 --help" (and, on stderr, of a bare
// "a0"): the command list, an empty line, then the quick reference.
func topLevelHelp() string {
	opts := []helpItem{
		{"-V, --version", "print the version number"},
		{"-h, --help", "show help for a command"},
	}
	var cmds []helpItem
	for _, c := range cliCommands {
		cmds = append(cmds, helpItem{c.term(), c.Summary})
	}
	head := helpFormatCommander("a0 [options] [command]",
		"A0: run, check, format and trace programs written in the A0 agent language",
		nil, opts, cmds)
	return head + "\n" + quickReference + "\n"
}

// commandHelp is the output of "a0 <cmd> --help"; "" for an unknown
// command.
func commandHelp(cmd string) string {
	c := cliLookup(cmd)
	if c == nil {
		return ""
	}
	usage := "a0 " + c.term()
	var args []helpItem
	if c.Arg != "" {
		args = append(args, helpItem{strings.TrimSuffix(c.Arg, "..."), c.ArgDesc})
	}
	var opts []helpItem
	for _, o := range c.Opts {
		opts = append(opts, helpItem{o.flags(), o.Desc})
	}
	opts = append(opts, helpItem{"-h, --help", "show help for this command"})
	return helpFormatCommander(usage, c.Desc, args, opts, nil)
}

// helpTopicNames are the topics of "a0 help", in the order they are
// listed.
var helpTopicNames = []string{"syntax", "types", "tools", "stdlib", "caps", "budget", "flow", "diagnostics", "examples", topicSecretsName}

// helpStdlibNames are the 54 registered stdlib functions, sorted (the
// --index list; map and reduce are evaluator built-ins and not in it).
var helpStdlibNames = []string{
	"and", "append", "base64.decode", "base64.encode", "coalesce", "concat", "contains", "entries", "eq", "filter", "find", "flat",
	"get", "hex.decode", "hex.encode", "join", "json.stringify", "keys", "len", "math.max", "math.min", "merge", "not", "or", "parse.json",
	"parse.number", "patch", "pluck", "put", "range", "re.find", "re.findAll", "re.replace", "re.split", "re.test",
	"sort", "str.concat", "str.ends", "str.lines", "str.lower", "str.padEnd", "str.padStart", "str.repeat", "str.replace", "str.split",
	"str.starts", "str.template", "str.trim", "str.trimEnd", "str.trimStart", "str.upper", "typeof", "unique", "values",
}

// helpResolveTopic maps what the user typed to a topic name: trimmed and
// lower-cased, then an exact name or a prefix of exactly one name. ok is
// false for an unknown or ambiguous topic.
func helpResolveTopic(topic string) (name string, ok bool) {
	t := strings.ToLower(strings.TrimFunc(topic, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }))
	var matches []string
	for _, n := range helpTopicNames {
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

// helpTopic implements "a0 help [topic] [--index]": out goes to stdout,
// errOut to stderr, code is the exit code.
func helpTopic(topic string, index bool) (out, errOut string, code int) {
	if strings.TrimSpace(topic) == "jobs" && !index {
		// a0 jobs is a command, not a language topic: its own help.
		return jobsHelp, "", 0
	}
	name, ok := helpResolveTopic(topic)
	if index {
		if topic == "" || !ok || name != "stdlib" {
			return "", "The --index flag is only supported with the stdlib topic.\nUsage:\n  a0 help stdlib --index\n", 1
		}
		return helpStdlibIndex() + "\n", "", 0
	}
	if topic == "" {
		return quickReference + "\n", "", 0
	}
	if !ok {
		var b strings.Builder
		b.WriteString("Unknown help topic: \"" + topic + "\"\nAvailable topics:\n")
		for _, n := range helpTopicNames {
			b.WriteString("  - " + n + "\n")
		}
		b.WriteString("Usage:\n  a0 help <topic>\n  a0 help stdlib --index\n")
		return "", b.String(), 1
	}
	return helpTopicTexts[name] + "\n", "", 0
}

// helpStdlibIndex is the text of "a0 help stdlib --index" (without the
// final newline).
func helpStdlibIndex() string {
	var b strings.Builder
	b.WriteString("A0 STDLIB INDEX\n===============\n\n")
	w := len(fmt.Sprint(len(helpStdlibNames)))
	for i, n := range helpStdlibNames {
		fmt.Fprintf(&b, "  %*d. %s\n", w, i+1, n)
	}
	fmt.Fprintf(&b, "\nTotal: %d\n\nMore details:\n  a0 help stdlib", len(helpStdlibNames))
	return b.String()
}

// helpTopicTexts holds each topic's text (without the final newline).
var helpTopicTexts = map[string]string{
	"syntax":         topicSyntax,
	"types":          topicTypes,
	"tools":          topicTools,
	"stdlib":         topicStdlib,
	"caps":           topicCaps,
	"budget":         topicBudget,
	"flow":           topicFlow,
	"diagnostics":    topicDiagnostics,
	"examples":       topicExamples,
	topicSecretsName: topicSecrets,
}

const quickReference = `A0 QUICK REFERENCE (v0.5)
=========================

A0 is a small language for agent tasks. Headers say what a program may do,
statements compute values, and the final return statement gives the result,
which a0 run prints as JSON. Problems are reported as JSON diagnostics with a
code (E_...), a message and a source span.

PROGRAM
  cap { fs.read: true, sh.exec: true }        capabilities (headers come first)
  budget { timeMs: 5000, maxToolCalls: 3 }    optional limits
  input { repo: "str", limit: "int?" }        inputs, read as input.repo
  let name = expr                             bind a name once
  expr -> name                                evaluate, then bind the value
  fn add { a, b } { return a + b }            declare; call as add { a: 1, b: 2 }
  return expr                                 required as the last statement
  # comment                                   runs to the end of the line

VALUES
  null  true  false  42  2.5  "text"  [1, 2]  { key: 1, ...other }
  r.key.sub (missing key: null)       get { in: xs, path: "[0].name" }

CONTROL
  if (c) { return a } else { return b }       if { cond: c, then: a, else: b }
  for { in: xs, as: "x" } { return ... }      list of the body results
  filter { in: xs, as: "x" } { return ... }   elements whose result is truthy
  loop { in: start, times: n, as: "acc" } { return ... }
  match r { ok { v } { ... } err { e } { ... } }
  try { ... } catch { e } { ... }             e is { code, message, details? }
  assert { that: c, msg: "..." }              false: the run stops (exit 5)
  check { that: c, msg: "..." }               false: recorded, the run goes on

TOOLS  (call? = read-only, do = side effects; capability in brackets)
  call? fs.read   { path, encoding? }               -> string            [fs.read]
  call? fs.list   { path }                          -> [{ name, type }]  [fs.read]
  call? fs.exists { path }                          -> boolean           [fs.read]
  do    fs.write  { path, data, format? }           -> { kind, path, bytes, sha256 }  [fs.write]
  call? http.get  { url, headers? }                 -> { status, headers, body }  [http.get]
  do    sh.exec   { cmd, cwd?, env?, timeoutMs? }   -> { exitCode, stdout, stderr, durationMs, ... }  [sh.exec]
  do    sh.exec   { argv: ["prog", "arg"], ... }    same result; runs without a shell
  do    sh.start  { cmd | argv, waitMs?, tag? }     -> job record (background job)  [sh.exec]
  call? sh.status { id }                            -> job record        [sh.exec]
  call? sh.tail   { id, stream?, lines?, offset? }  -> recent output     [sh.exec]
  call? sh.wait   { id, timeoutMs? }                -> job record + waitTimedOut  [sh.exec]
  do    sh.kill   { id, signal?, graceMs? }         -> job record + signalSent  [sh.exec]
  call? sh.jobs   { state?, tag?, limit? }          -> { jobs, count, truncated }  [sh.exec]
  do    sh.notify { id, command?, file?, output? }  -> job record (detached jobs)  [sh.exec]
  do    sh.write  { id, data?, eof? }               -> job record + bytesWritten  [sh.exec]

STDLIB  (pure functions with named arguments; a0 help stdlib)
  len sort filter find map reduce get put patch parse.json keys values merge
  str.split str.replace str.template join range eq contains coalesce typeof ...
  re.test re.find re.replace str.trim str.lower json.stringify parse.number ...

COMMANDS
  a0 run <file> [--trace t.jsonl] [--evidence e.json] [--pretty]   (- reads stdin)
     [--input '{"repo": "."}'] [--input-file in.json] [--arg limit=10]
  a0 check <file> [--pretty]           a0 fmt <paths...> [--write|--check]
  a0 trace <file> [--json]             a0 policy [--json]
  a0 repl [--trace t.jsonl]            a0 mcp
  a0 help [topic]                      a0 <command> --help
  a0 tools [--json]                    (tools of the policy's MCP servers)
  a0 jobs run|status|tail|wait|kill|list|gc   detached jobs (a0 jobs --help)
  run, check, repl, mcp, tools and policy take --policy FILE: that file is
  then the only policy, for every section.
  In a0 repl each statement or expression runs as you type it and a value is
  printed; bindings persist. :help lists its commands, Ctrl-D ends it.
  a0 mcp serves a0_run, a0_check, a0_format and a0_help to an MCP client on
  stdin/stdout; every a0_run is a separate run under the policy found at start.
  A result over --max-result-bytes (default 1 MiB) is sent truncated; the
  first signal cancels the calls in flight and stops the server, a second
  one exits at once.

EXIT CODES
  0=ok 1=cli-usage/help 2=parse/validate 3=cap-denied 4=runtime 5=assert/check
  (3 also for an invalid policy file; 128+N when a signal cancels a run)

TOPICS  (a0 help <topic>; a unique prefix is enough, e.g. a0 help diag)
  syntax        statements, expressions, operators, literals, keywords
  types         values, numbers, strings, records, truthiness, equality
  tools         every tool with its arguments, results and errors
  stdlib        all standard-library functions (a0 help stdlib --index)
  caps          capabilities, policy files and their scopes, --unsafe-allow-all
  budget        timeMs, maxToolCalls, maxBytesWritten, maxIterations
  flow          blocks, conditionals, loops, match, try, functions, evidence
  diagnostics   error codes, output formats and exit codes
  examples      complete programs to start from
  jobs          a0 jobs: detached jobs at a shell (same as a0 jobs --help)
  secrets       credentials a program uses through placeholders, never sees`

const topicSyntax = `A0 SYNTAX REFERENCE
===================

SOURCE TEXT
  UTF-8 without a byte-order mark. Spaces, tabs and newlines only separate
  tokens: there are no statement terminators, so "let a = 1 let b = 2" holds
  two statements. A # starts a comment that runs to the end of the line.

LAYOUT
  1. Headers, in any order and number, all before the first statement:
       cap { fs.read: true, http.get: true }       each value is the literal true
       budget { timeMs: 3000, maxIterations: 50 }  integer literals; one header
       input { repo: "str", limit: "int?" }        the inputs the program takes
       import "lib" as lib                         parsed but not supported yet
  2. Statements; the last one at top level is return.

INPUTS
  input { name: "type", ... } declares the inputs; the program reads them as
  input.name. Types: str int float bool list rec any; a trailing ? makes one
  optional (null when not given). int is a whole number; float any number.
  One input header at most; input.x with x not declared is E_INPUT_DECL.
  Without the header, input is an ordinary name and no input may be given.
  Give them with a0 run --input '{"repo": "."}', --input-file in.json or
  --arg limit=10 (text parsed as the type; files, then --input, then --arg,
  later keys win), a0_run's "input" object, or :input { ... } in a0 repl.
  A missing, undeclared or mistyped input stops before the run: E_INPUT.

STATEMENTS
  let name = expr              bind a new name in the current scope
  expr                         evaluate for the effect (tool call, check, ...)
  expr -> name                 evaluate and bind the value to name
  expr -> a.b.c                bind a to { b: { c: value } }
  fn name { p1, p2 } { ... }   declare a function; its body ends with return
  return expr                  the value of the enclosing block or program

EXPRESSIONS
  literal       null  true  false  42  3.25  1.5e3  "text"
  list          [a, b, c]                 a trailing comma is allowed
  record        { key: v, a.b: v, ...r }  keys are identifiers; a dotted key
                                          is one key "a.b"; ...r copies r
  path          name.field.sub            a missing key reads as null
  call          fname { arg: v }          stdlib or user function; the
                                          argument is always one record
  tool call     call? tool { ... }        read-only tools
                do tool { ... }           any tool, required for effects
  unary         -x
  binary        * / %   then + -   then < > <= >= == !=   (tightest first)
  grouping      ( expr )
  keyword forms if for filter loop match try assert check   (a0 help flow)

OPERATOR RULES
  + adds two numbers or joins two strings; nothing converts implicitly.
  - * / % need numbers; dividing by zero (/ or %) is an E_TYPE error.
  < > <= >= compare two numbers, or two strings by UTF-16 code units.
  == and != compare any two values deeply and strictly.
  Comparisons do not chain: "a < b < c" is a syntax error.
  Keyword forms are not operands: "1 + if {...}" fails, "(if {...}) + 1" works.
  Both operands are always evaluated, left first.

LITERALS
  Numbers: 0, 17, 2.5, 1.5e3. No leading zeros and no "1."; an exponent needs
  a fraction (write 1.0e5, not 1e5). -5 is unary minus applied to 5.
  Strings: double quotes only. Escapes: \" \\ \/ \b \f \n \r \t \uXXXX.
  A raw control character (a newline too) inside a string is an error.

NAMES
  Identifiers: a letter or _, then letters, digits or _ (ASCII only).
  Reserved words: cap budget import as let return do assert check true false
  null if else for fn match try catch filter loop.
  Words such as ok, err, in, map, call or then are ordinary names. Reserved
  words may still be record keys and path segments (r.if), except true, false
  and null.

PITFALLS
  - "name { ... }" is always a call, even across a line break.
  - There is no indexing syntax; xs[0] is two statements. Use
    get { in: xs, path: "[0]" }.
  - There is no "else if"; put an if inside the else block.
  - A header after the first statement is a syntax error.`

const topicTypes = `A0 TYPES REFERENCE
==================

THE SIX TYPES           typeof { in: v }
  null                  "null"
  boolean               "boolean"   true, false
  number                "number"    one numeric type (64-bit floating point)
  string                "string"    text, measured in UTF-16 code units
  list                  "list"      ordered values: [1, "a", null]
  record                "record"    string keys to values: { a: 1 }
  Functions are not values: they are called by name, or named by a string in
  map, filter and reduce.

NUMBERS
  Integers and decimals are the same type: 1.0 == 1 and 7 / 2 is 3.5.
  % keeps the sign of the left operand. Results print the way JavaScript
  prints numbers: 2.0 as 2, 1e21 as 1e+21; infinities and NaN print as null.

STRINGS
  len, str.split with sep "" and the < > comparisons count UTF-16 code units,
  so an emoji has length 2. Only + joins two strings; to turn other values into
  text use str.concat, join or str.template.

RECORDS
  Keys keep their insertion order, except keys that look like array indexes
  ("0", "12"), which always come first in numeric order. Writing an existing
  key (duplicate key, spread, merge, put) keeps its place and replaces the
  value. A missing key reads as null; reading a field of a value that is not a
  record is an E_PATH error.

TRUTHINESS  (if, filter, assert and check "that", not, and, or)
  false, null, 0 and "" are false. Everything else is true, including [], {}
  and "0".

EQUALITY  (==, !=, eq, contains, find, unique)
  Deep and strict: the types must match (1 == "1" is false); lists compare
  element by element; records compare their key sets and values, ignoring key
  order; { a: null } is not equal to {}.

TEXT CONVERSION  (str.concat, join, str.template)
  null becomes "null", booleans "true"/"false", numbers as printed, lists their
  elements joined by "," (null elements empty), records "[object Object]".

TYPE ERRORS
  Operators raise E_TYPE naming both operand types; lists and records are both
  called "object" there, e.g.
  Operator '+' requires two numbers or two strings, got string and number.`

const topicTools = `A0 TOOLS REFERENCE
==================

CALLING
  call? tool { args }    only for read-only tools
  do tool { args }       any tool; required for fs.write, sh.exec, sh.start
                         and sh.kill
  A tool needs its capability declared in cap { } and allowed by the policy
  (a0 help caps). Invalid arguments raise E_TOOL_ARGS, and so does an
  argument name the tool does not take (timeout_ms for timeoutMs: no
  argument is ignored); a failure while the tool works raises E_TOOL; a
  call the policy's fs, http or exec section refuses raises E_CAP_DENIED.
  try can catch all three. Each call counts against maxToolCalls once its
  arguments are valid.

  tool        mode     capability
  fs.read     read     fs.read
  fs.list     read     fs.read
  fs.exists   read     fs.read
  http.get    read     http.get
  fs.write    effect   fs.write
  sh.exec     effect   sh.exec
  sh.start    effect   sh.exec
  sh.kill     effect   sh.exec
  sh.status   read     sh.exec
  sh.tail     read     sh.exec
  sh.wait     read     sh.exec
  sh.jobs     read     sh.exec
  sh.notify   effect   sh.exec
  sh.write    effect   sh.exec

FILES  (relative paths are resolved against the working directory)
  call? fs.read { path, encoding? } -> string
      Text decoded as UTF-8 (invalid bytes become U+FFFD). With any encoding
      other than "utf8" the raw bytes come back base64-encoded.
  do fs.write { path, data, format? } -> { kind: "file", path, bytes, sha256 }
      Creates missing parent directories and replaces the file. A string is
      written as it is; format: "json" writes indented JSON; anything else is
      written as compact JSON. A write that would pass maxBytesWritten is
      refused before the file is touched.
  call? fs.list { path } -> [{ name, type }]
      type is "file", "directory" or "other" (symlinks included); entries are
      sorted by name.
  call? fs.exists { path } -> boolean   (never fails)

HTTP
  call? http.get { url, headers? } -> { status, headers, body }
      Every HTTP status is a result, not an error; redirects are followed and
      response header names are lower-case. data: URLs work without a network.
      A request that cannot be made is E_TOOL.

COMMANDS: sh.exec
  do sh.exec { cmd: "grep -c TODO *.go" }        shell form (sh -c by default)
  do sh.exec { argv: ["git", "log", "-1"] }      argv form: no shell, no quoting
  Give exactly one of cmd and argv. Further arguments:
    shell              for cmd: sh (default) or another shell the policy
                       lists in exec.shells (by default bash, zsh, dash,
                       pwsh, powershell, cmd), by name or absolute path
    cwd                working directory (default: the policy root if set,
                       else the current directory)
    env                record of strings laid over the environment
    envMode            inherit (default), clean or replace
    envRemove          inherited variable names to drop
    mask               extra variable names whose values are hidden
    stdin              input text (stdinEncoding: utf8 or base64); without it
                       the command reads an empty input
    timeoutMs          default 30000, 0 = the policy maximum (600000 by
                       default); also cut to the time left in timeMs
    onTimeout          "error" (default: E_TOOL, reason timeout) or "result"
    graceMs            delay between SIGTERM and SIGKILL when stopping
    merge              true sends stderr into stdout
    maxOutputBytes     bytes kept per stream (default 10 MiB); the rest is
                       cut as truncate says: head, tail or both (default)
    encoding           utf8 (default) or base64 output
    outputLimitBytes   stop the command once this much output was produced
  Result: { exitCode, stdout, stderr, durationMs, signal, timedOut, killReason,
    stdoutTruncated, stderrTruncated, stdoutTotalBytes, stderrTotalBytes,
    outputIncomplete, leftoverKilled, timeoutMs, pid }
  A non-zero exit code is data, not an error, and stderr is always returned.
  A command ended by signal N reports exit code 128+N. Inside a shell an
  unknown command is exit code 127; in argv form a missing program is E_TOOL
  with reason not_found. Processes the command leaves running in the
  background are stopped when it ends. Values of secret-looking variables
  (tokens, passwords, keys) are masked as [masked:NAME] in output and traces.

JOBS: background commands, stopped when the run ends unless detached
  do sh.start { cmd | argv, waitMs?, tag?, lines?, maxBytes?, ... }
      Starts a job and returns its record with the latest output; waitMs
      waits that long for it to finish first. The sh.exec arguments apply
      except truncate, encoding and onTimeout; maxOutputBytes (default 1 MiB)
      is the output kept in memory; timeoutMs has no default. The job tools
      refuse argument names they do not know.
  call? sh.status { id } -> job record
  call? sh.tail { id, stream?, lines?, maxBytes?, offset? }
      -> { id, state, completed, stdout, stderr, stdoutRange, stderrRange,
           stdoutTotalBytes, stderrTotalBytes, gap, nextOffset }
      Without offset: the last lines. With offset (stream stdout or stderr):
      output from that byte on; pass nextOffset to the next call.
  call? sh.wait { id, timeoutMs?, lines?, maxBytes? }
      -> job record + output + waitTimedOut (its own timeoutMs running out
         is no error)
  do sh.kill { id, signal?, graceMs?, escalate?, wait? }
      -> job record + signalSent + escalated; signal TERM (default), INT, HUP
      or KILL; killing a finished job is not an error
  call? sh.jobs { state?, tag?, scope?, limit? } -> { jobs, count, truncated }
  do sh.start { ..., detach: true, notify? }
      A detached job outlives the run: a supervisor owns it (policy:
      exec.allowDetach and exec.jobStore). Later runs read it with
      sh.status, sh.tail, sh.wait (exec.allowCrossRun for another run's
      job) and stop it with sh.kill; a0 jobs does the same at a shell.
      notify: { command?, file?, output?: { pattern, matchType?, stream?,
      command?, file? } } sends a job.finished event when it ends and a
      job.output.matched event for each new matching line.
  do sh.notify { id, command?, file?, output? } -> job record
      Changes a running detached job's notifications.
  Job record: id, runId, tag, state (created, running, exited, timed_out,
  killed, failed, lost), completed, pid, startedAt, finishedAt, durationMs, exitCode,
  signal, timedOut, killReason, leftoverKilled, stdoutTotalBytes,
  stderrTotalBytes, merged, cmd or argv, cwd, timeoutMs.

TERMINALS AND INPUT
  do sh.exec { cmd, pty: true, cols?, rows? }    sh.start takes them too
      Runs the command on a pseudo-terminal (default 80x24) as its
      controlling terminal: isatty is true, stdout carries stdout and stderr
      (stderr is ""), lines end in \r\n and input is echoed. TERM is
      xterm-256color unless env sets it. sh.exec types stdin, then ^D.
  login: true      start as a login shell (argv[0] becomes "-sh", "-bash")
  do sh.start { argv: ["cat"], stdinOpen: true }  keep a pipe job's input open
  do sh.write { id, data?, eof? } -> job record + bytesWritten, eof
      Writes data to a running job's input: a pty job always takes it, a
      pipe job only when started with stdinOpen: true (else E_TOOL, reason
      stdin_not_open). eof: true closes the pipe, or sends the terminal's
      EOF character (^D). On a pty, "\u0003" is ^C. Read the answers with
      sh.tail or sh.wait. Example:
        do sh.start { argv: ["python3", "-i"], pty: true } -> py
        do sh.write { id: py.id, data: "print(6 * 7)\n" } -> w
        call? sh.wait { id: py.id, timeoutMs: 1000 } -> s    s.stdout has 42

ERRORS
  E_TOOL_ARGS   missing, ill-typed or unknown argument (details.field)
  E_TOOL        the tool failed: "Tool '<name>' failed: ..."; sh.* tools add
                details.reason (not_found, permission_denied, cwd_not_found,
                spawn_failed, timeout, job_limit, job_not_found, ...)
  E_CAP_DENIED  refused by the policy's fs, http or exec section
                (details.reason; a0 help caps)`

const topicStdlib = `A0 STDLIB REFERENCE
===================

Every function takes one record of named arguments: name { key: value }. A
missing argument counts as null; a name the function does not take is E_FN
("str.starts takes { in, value }; got prefix."). The functions need no
capability and never modify their inputs. A failure raises E_FN,
"Function '<name>' failed: <reason>". Names only: a0 help stdlib --index

DATA
  parse.json { in }               parse a JSON string into a value
  get { in, path }                read a path such as "a.b[0].c" or "a.b.0.c";
                                  null when any step is missing
  put { in, path, value }         copy of in with value stored at path (digit
                                  steps address list positions)
  patch { in, ops }               apply JSON Patch operations in order: add,
                                  remove, replace, move, copy, test, with
                                  "/a/0" style paths
  json.stringify { in, indent? }  JSON text of in, as a0 run prints values;
                                  compact, or indented by indent (0-10 spaces
                                  or a string); parse.json reads it back
  parse.number { in }             the number a decimal text such as " -12.5e3"
                                  holds; E_FN for anything else

LOGIC
  eq { a, b }                     deep equality, like ==
  contains { in, value }          substring of a string, element of a list or
                                  key of a record
  not { in }                      negated truthiness
  and { a, b }                    true when both are truthy
  or { a, b }                     true when either is truthy
  coalesce { in, default }        in, or default when in is null
  typeof { in }                   "null", "boolean", "number", "string",
                                  "list" or "record"

LISTS
  len { in }                      length of a list, a string (UTF-16 units) or
                                  a record (number of keys)
  append { in, value }            new list with value added at the end
  concat { a, b }                 the elements of a, then those of b
  sort { in, by? }                stable ascending sort; by names a key or a
                                  list of keys; strings sort in dictionary
                                  order ("a" < "B" < "b"), numbers by value
  filter { in, by }               the records whose field by is truthy
  find { in, key, value }         the first record whose key equals value
  range { from, to }              integers from, from+1, ..., to-1
  join { in, sep? }               elements as text, separated by sep
  unique { in }                   without repeated elements (first kept)
  pluck { in, key }               the key of each element (null if absent)
  flat { in }                     nested lists flattened by one level

STRINGS
  str.concat { parts }            the elements of parts as text, joined
  str.split { in, sep }           pieces between each sep; sep "" gives single
                                  UTF-16 units
  str.starts { in, value }        whether in begins with value
  str.ends { in, value }          whether in ends with value
  str.replace { in, from, to }    every occurrence of from replaced by to
                                  (in to, $$ $& $' and $` + "`" + ` are special)
  str.template { in, vars }       "{name}" placeholders filled from vars; a
                                  missing or null var leaves the placeholder
  str.trim { in, chars? }         without white space (or the characters of
                                  chars) at both ends
  str.trimStart { in, chars? }    the same at the start only
  str.trimEnd { in, chars? }      the same at the end only
  str.lower { in }                lower case (full Unicode mapping)
  str.upper { in }                upper case ("straße" gives "STRASSE")
  str.lines { in }                the lines of in, split on "\n" ("\r\n" too);
                                  a final line break adds no empty line
  str.padStart { in, len, with? } in, preceded by with (default " ") repeated
                                  up to len UTF-16 units
  str.padEnd { in, len, with? }   the same, padding at the end
  str.repeat { in, times }        in repeated times times

REGULAR EXPRESSIONS  (pattern: a string, RE2 syntax, linear time; flags
inline: (?i) case, (?m) ^ $ per line, (?s) . matches "\n"; no lookaround
or backreferences. An invalid pattern is E_FN; a0 check reports a literal
one before the run.)
  re.test { in, pattern }         whether pattern matches somewhere in in
  re.find { in, pattern }         the first match, or null: { match, index,
                                  groups, named }; index in UTF-16 units,
                                  groups the capture groups (null when a group
                                  took no part), named those with (?P<n>…)
  re.findAll { in, pattern, limit? }
                                  every match (at most limit), same records
  re.replace { in, pattern, to, limit? }
                                  matches replaced by to, in which $1, ${1},
                                  ${name} are groups and $$ is a $
  re.split { in, pattern, limit? }
                                  the pieces between matches; with limit, at
                                  most limit pieces, the last the rest of in

ENCODINGS  (text is encoded as UTF-8)
  base64.encode { in }            base64 of the text
  base64.decode { in, as? }       the text base64 encodes (standard or URL
                                  alphabet, padding optional); as: "base64"
                                  or "hex" returns bytes that are not text
  hex.encode { in }               lower-case hex of the text
  hex.decode { in, as? }          the text hex encodes; as as for base64

RECORDS
  keys { in }                     list of keys
  values { in }                   list of values
  entries { in }                  list of { key, value } records
  merge { a, b }                  a with b's keys laid over it

MATH
  math.max { in }                 largest number in a non-empty list
  math.min { in }                 smallest number in a non-empty list

WITH A USER FUNCTION  (fn is the function's name as a string)
  map { in, fn }                  list of the function's results
  filter { in, fn }               the elements for which it returns a truthy
                                  value (give either by or fn, not both)
  reduce { in, fn, init? }        fold: the function's two parameters receive
                                  the accumulator (init at first) and the next
                                  element; the last result is the value
  For map and filter, a function with one parameter receives the element; with
  several, each parameter reads the element's field of the same name. Each
  element counts one iteration of maxIterations. An unknown name is
  E_UNKNOWN_FN. Stdlib functions cannot be passed this way.`

const topicCaps = `A0 CAPABILITIES REFERENCE
=========================

CAPABILITIES AND THE TOOLS THEY COVER
  fs.read     fs.read, fs.list, fs.exists
  fs.write    fs.write
  http.get    http.get
  sh.exec     sh.exec, sh.start, sh.status, sh.tail, sh.wait, sh.kill, sh.jobs,
              sh.notify, sh.write

DECLARING
  cap { fs.read: true, sh.exec: true }
  A program declares the capability of every tool it uses; a0 check reports a
  missing one as E_UNDECLARED_CAP. Each value must be the literal true, and an
  unknown name is E_UNKNOWN_CAP. Several cap headers add up.

GRANTING: THE POLICY
  a0 run, a0 repl and a0 mcp use the first policy they find:
    1. .a0policy.json in the working directory     (source "project")
    2. ~/.a0/policy.json                           (source "user")
    3. the built-in default, which allows nothing  (source "default")
  --policy FILE replaces the search (source "flag"): FILE is the only policy,
  for every section, MCP servers included. Whoever can write the working
  directory writes .a0policy.json: in a cloned repository, use --policy.
  A policy file is read once, at start; one that is not a regular file (a
  FIFO, a device, a directory) or is over 1 MiB is E_POLICY (exit 3).
  Example:
    { "version": 1, "allow": ["fs.read", "sh.exec"], "deny": ["fs.write"] }
  The allowed set is allow minus deny. A "limits" object (budget fields, e.g.
  { "timeMs": 5000 }) caps every run: a program's budget header may ask for
  less, never more (not with --unsafe-allow-all). A policy file that exists
  but is invalid (not JSON, wrong types, unknown keys) is not skipped: a0 run
  stops with E_POLICY (exit 3) naming the problem.
  Every declared capability is checked before the first statement runs; one
  that is not allowed stops the run with E_CAP_DENIED (exit 3).
  a0 policy shows the policy in effect and where it came from (--json too).
  Valid top-level keys: version, allow, deny, limits, exec, fs, http, mcp.

IN THE REPL  (a0 repl)
  The session resolves the same policy. Inputs need no cap header: a tool call
  declares its capability itself. One the policy does not grant is asked about
  on a terminal ("allow sh.exec for this session? [y/N]"; y grants it until
  the session ends, anything else is E_CAP_DENIED) and denied without one.
  A capability the policy lists under deny is never asked about (neither by
  the REPL nor by a0 run's prompt): it is E_CAP_DENIED.

THE FS AND HTTP SECTIONS  (optional; narrow a granted capability)
  { "fs": { "read": ["data"], "write": ["out"] },
    "http": { "allow": ["api.example.com", "*.example.org"], "deny": [],
              "allowPrivate": false, "maxResponseBytes": 1048576,
              "timeoutMs": 10000 } }
  fs.read / fs.write  roots for fs.read, fs.list, fs.exists / for fs.write,
                      relative to the policy file; files are opened beneath
                      the root, so .. and symlinks cannot lead out
  http                allow and deny host patterns, checked before the
                      request and on every redirect; loopback and private
                      addresses are refused unless allowPrivate (also with
                      no http section); a body size limit and a per-request
                      timeout
  /proc magic links (/proc/self/fd/0, ...) are never followed.
  A refused call is E_CAP_DENIED with details.reason: outside_root,
  magic_link, host_not_allowed, host_denied or private_address.

THE EXEC SECTION  (optional; limits sh.exec and the job tools)
  { "version": 1, "allow": ["sh.exec"],
    "exec": { "allow": ["git", "go"], "deny": ["sudo"], "root": ".",
              "envMode": "clean", "maxTimeoutMs": 900000 } }
  allow / deny      executables by bare name or absolute path; deny wins.
                    Without allow any executable may run.
  allowShell        whether the cmd (shell) form may be used; default true
                    without an allow list and false with one; shells lists
                    the shells it may use (under an allow list the shell
                    must be allowed too)
  root              commands must start in this directory or below it (it
                    is also the default cwd)
  envMode           the least strict environment mode calls may use
  envAllow, envDeny, mask
                    variable name patterns (* wildcard): extra names clean
                    mode keeps, inherited names to drop, names whose values
                    are masked
  defaultTimeoutMs, maxTimeoutMs, maxJobMs, maxWaitMs, graceMs, drainMs,
  maxOutputBytes
                    defaults and ceilings; a request above a ceiling is
                    lowered to it, not refused
  maxStdinBytes, maxJobs, maxJobsPerRun
                    limits that refuse: a larger stdin is E_TOOL_ARGS, one
                    job too many is E_TOOL (reason job_limit)
  jobStore, allowCrossRun, sweepEscaped
                    keep job records on disk, let other runs read them, and
                    kill processes that escaped their process group
  A refused call is E_CAP_DENIED with details.reason: executable_not_allowed,
  executable_denied, shell_not_allowed, cwd_outside_root, env_not_allowed or
  cross_run_not_allowed. Paths in the section are relative to the policy
  file's directory.

THE MCP SECTION  (optional; tools of MCP servers become A0 tools)
  { "allow": ["notes.search", "files.*"],
    "mcp": { "notes": { "command": ["notes-server", "--db", "n.db"],
                        "env": { "NOTES_TOKEN": "..." }, "cwd": ".",
                        "tools": ["search", "add-note"], "timeoutMs": 5000 },
             "files": { "url": "https://mcp.example.com/mcp" } } }
  The server's tool add-note is the A0 tool notes.add_note (characters that
  cannot be in a name become _); its capability is that name, and
  "notes.*" in allow grants every tool of the server. A tool marked
  readOnlyHint may be called with call?, every other one only with do.
  Arguments are checked against the tool's input schema (E_TOOL_ARGS); a
  tool error or a server that fails is E_TOOL. A local server starts at its
  first call and stops when the run ends; url servers obey the http
  section. a0 tools lists the tools with their modes and argument schemas.

--unsafe-allow-all  (a0 run, a0 repl, a0 mcp)
  Grants fs.read, fs.write, http.get and sh.exec whatever the policy says and
  ignores its limits, fs, http and exec sections (sh.exec runs with its
  defaults). An invalid policy file is still E_POLICY. Static checks still
  apply: the program must still declare its capabilities. Meant for
  development only.`

const topicBudget = `A0 BUDGET REFERENCE
===================

  budget { timeMs: 10000, maxToolCalls: 20, maxBytesWritten: 65536, maxIterations: 500 }

At most one budget header, among the other headers. Every field is optional
and must be an integer literal; 0 is a valid limit. Without a header nothing
is limited.

FIELDS
  timeMs            milliseconds since a0 run started (reading and checking
                    the program count too)
  maxToolCalls      tool calls; a call counts once its arguments are valid,
                    every sh.* call included
  maxBytesWritten   total bytes written by fs.write; checked before writing,
                    so a write that would pass the limit leaves no file
  maxIterations     one counter shared by for, filter blocks, loop, map,
                    filter with fn and reduce; each element or round counts 1

PASSING A LIMIT
  The run raises E_BUDGET (exit 4) with details { budget, limit, actual }, and
  the trace records a budget_exceeded event. try can catch E_BUDGET, but the
  counters are never reset, so the next counted step fails again.

COMMANDS AND JOBS
  Waiting is bounded by the time left: an sh.exec timeout, sh.wait's timeoutMs
  and sh.start's waitMs are all cut to the remaining timeMs. When the budget is
  what ends a command or a wait, the call returns and E_BUDGET follows. The
  output of commands is not charged to maxBytesWritten. When the run ends for
  any reason, its running jobs are stopped.

NOT COUNTED
  Stdlib functions (sort, range, filter with by, ...), calls of user functions
  and recursion do not count iterations. The "limits" of a policy file lower
  a program's budget; they never raise it.

MEMORY AND DEPTH
  Apart from the budget, a run's values may take at most 256 MiB, and lists
  and records may be nested at most 1000 levels. Every operation checks the
  size of what it builds before building it. Passing either is E_BUDGET with
  details.budget "memory" or "depth", which try cannot catch.`

const topicFlow = `A0 CONTROL FLOW REFERENCE
=========================

BLOCKS AND RETURN
  Every block (function body, if and else branch, for, filter and loop body,
  match arm, try and catch) ends with return, and that value is the value of
  the block. A return leaves only its own block: in an if branch it gives the
  if its value; it does not return from the surrounding function.
    let sign = if (x < 0) { return "negative" } else { return "positive" }

CONDITIONALS
  if (cond) { ... } else { ... }        the else block is required
  if { cond: c, then: a, else: b }      only the chosen value is evaluated

LOOPS
  for { in: list, as: "x" } { return ... }
      a list with one body result per element
  filter { in: list, as: "x" } { return ... }
      the elements whose body result is truthy (for a record result, its
      first value decides)
  loop { in: start, times: n, as: "acc" } { return ... }
      runs the body n times, acc holding the previous result; the value is the
      last result (start itself when n is 0)
  map, filter and reduce with fn: "name" apply a user function (a0 help stdlib)

MATCH  (for records shaped { ok: value } or { err: error })
  match r { ok { v } { return v } err { e } { return null } }
  The subject must be a record. An ok key selects the ok arm, otherwise an err
  key selects the err arm, otherwise E_MATCH_NO_ARM. A subject that is not a
  name is written in parentheses: match (f { x: 1 }) { ... }.

ERRORS
  try { ... } catch { e } { ... }
  Any runtime error in the try block (a tool failure, E_ASSERT, E_BUDGET, ...)
  runs the catch block with e = { code, message, details? }. Effects that
  already happened stay done. E_CANCELLED (a signal), a trace file that
  cannot be written and the memory and depth E_BUDGET are never caught.

FUNCTIONS
  fn area { w, h } { return w * h }      call: area { w: 2, h: 3 }
  Arguments are matched by name; missing ones are null, an unknown one is E_FN.
  A function is declared before its first call, may call itself, and sees the
  names bound before its declaration. Function names cannot reuse stdlib names.

EVIDENCE
  assert { that: cond, msg: "text", details: { ... } }
  check { that: cond, msg: "text" }
  Each records { kind, ok, msg, span, details? }, which is also its value;
  a0 run --evidence writes the list to a file. A false assert stops the run
  with E_ASSERT (exit 5); a false check lets it finish, and a0 run then exits
  with 5.

SCOPE AND ORDER
  A name is bound once per block; an inner block may shadow an outer name.
  Evaluation is strict and left to right: record fields, list elements and the
  arguments of and/or are all evaluated; only the if forms skip a branch.`

const topicDiagnostics = `A0 DIAGNOSTICS REFERENCE
========================

OUTPUT FORMATS (stderr)
  Static problems (run, check): a JSON array, one object per problem:
    [{"code":"E_UNBOUND","message":"...","span":{...},"hint":"..."}]
  Runtime errors (run): one JSON object {"code","message","span","details"},
  with a "hint" when a0 knows the fix.
  File and trace problems: {"code":"E_IO","message":"..."}.
  With --pretty (always for fmt and for trace without --json):
    error[E_UNBOUND]: Unbound variable 'total'.
      --> report.a0:4:10
      hint: ...
  A span holds file, startLine, startCol, endLine and endCol: 1-based, columns
  in UTF-16 units, endCol just past the last character.

EXIT CODES
  0 success              3 capability denied or invalid policy
  1 command-line usage   4 runtime, tool or file error
  2 parse or validation  5 a failed assert, or a run with a failed check
  128+N: the run was cancelled by signal N (130 for Ctrl-C)

READING THE SOURCE (exit 2)
  E_LEX                 text that is not a token (also a BOM or a lone CR)
  E_PARSE               syntax error, or an if/for/filter/loop/match head
                        missing a required field; also index syntax, xs[1]
                        (read items with get { in: xs, path: "[1]" })
  E_AST                 a string literal holding a raw control character

VALIDATION (exit 2)
  E_NO_RETURN           the program or a block does not end with return
  E_RETURN_NOT_LAST     statements after a return
  E_DUP_BINDING         a name bound twice in one scope, or a repeated parameter
  E_FN_DUP              a function declared twice, or named like a stdlib function
  E_UNBOUND             a name used before it is bound
  E_UNKNOWN_FN          a call of a function that does not exist
  E_UNKNOWN_TOOL        a tool name that does not exist
  E_UNDECLARED_CAP      a tool used without its capability in cap { }
  E_CALL_EFFECT         call? used with an effect tool (use do)
  E_UNKNOWN_CAP         an unknown name in cap { }
  E_CAP_VALUE           a cap value other than true
  E_DUP_BUDGET          more than one budget header
  E_UNKNOWN_BUDGET      an unknown budget field
  E_BUDGET_TYPE         a budget value that is not an integer literal
  E_IMPORT_UNSUPPORTED  an import header
  E_SPREAD_NOT_ALLOWED  a ...spread where only name: value pairs may appear
  E_INPUT_DECL          a malformed or second input header, or input.x
                        with x not declared in it
  E_UNKNOWN_ARG         (a0 check --strict only) an argument name the
                        function or tool does not take
  E_FN                  (a0 check only) a re.* pattern written as a string
                        literal that does not compile; a run fails with the
                        same E_FN when it reaches the call
  E_TOOL_ARGS           (a0 check --strict only) a literal tool argument of
                        the wrong type, e.g. timeoutMs: "300"

INPUTS (exit 2, before the run starts)
  E_INPUT               an input missing, undeclared, of the wrong type or
                        not parsable as its type (--arg n=abc for an int);
                        any input for a program without an input header

BEFORE THE FIRST STATEMENT (exit 3)
  E_POLICY              the policy file in effect is invalid
  E_CAP_DENIED          a declared capability is not allowed (during the run
                        also: a refusal by the policy's fs, http or exec
                        section)

RUNNING (exit 4 unless noted)
  E_TYPE                wrong operand or argument type, division by zero
  E_PATH                a field read from a value that is not a record
  E_FOR_NOT_LIST        for over a value that is not a list
  E_MATCH_NOT_RECORD    a match subject that is not a record
  E_MATCH_NO_ARM        a match subject with neither ok nor err
  E_FN                  a stdlib function failed
  E_UNKNOWN_FN          map, filter or reduce named a function that is missing
  E_UNBOUND             a function's own name read as a variable
  E_TOOL_ARGS           invalid tool arguments
  E_TOOL                a tool failed
  E_BUDGET              a budget, the memory limit or the depth limit was passed
  E_ASSERT              an assert was false (exit 5)
  E_CANCELLED           the run was cancelled by a signal (exit 128+N)
  E_RUNTIME             an internal failure

FILES (exit 4)
  E_IO                  a file could not be read or written
  E_TRACE               a0 trace found no valid events, or events of several runs`

const topicExamples = `A0 EXAMPLE PROGRAMS
===================

1. Plain computation
  let xs = [3, 1, 2]
  return { sorted: sort { in: xs }, count: len { in: xs } }

2. Read a JSON file, falling back when it is missing
  cap { fs.read: true }
  let settings = try {
    call? fs.read { path: "settings.json" } -> text
    return parse.json { in: text }
  } catch { e } {
    return { fallback: true, reason: e.code }
  }
  return settings

3. A user function with map, and a check
  fn double { n } { return n * 2 }
  let ys = map { in: [1, 2, 3], fn: "double" }
  check { that: eq { a: ys, b: [2, 4, 6] }, msg: "values doubled" }
  return ys

4. A command without a shell, under a budget
  cap { sh.exec: true }
  budget { timeMs: 20000, maxToolCalls: 2 }
  do sh.exec { argv: ["git", "rev-parse", "HEAD"], timeoutMs: 5000 } -> r
  assert { that: r.exitCode == 0, msg: "git rev-parse failed" }
  return { commit: r.stdout }

5. A background job
  cap { sh.exec: true }
  do sh.start { cmd: "sleep 1; echo ready", tag: "warmup" } -> job
  call? sh.wait { id: job.id, timeoutMs: 5000 } -> done
  return { state: done.state, output: done.stdout }

6. Build rows in a loop and write them as JSON
  cap { fs.write: true }
  let rows = for { in: range { from: 1, to: 4 }, as: "i" } {
    return { n: i, square: i * i }
  }
  do fs.write { path: "out/squares.json", data: rows, format: "json" } -> f
  return { file: f.path, bytes: f.bytes }

7. A reusable grader that takes inputs
  input { cmd: "list", expect: "str", exitCode: "int?" }
  cap { sh.exec: true }
  do sh.exec { argv: input.cmd } -> r
  check { that: r.exitCode == coalesce { in: input.exitCode, default: 0 }, msg: "exit code" }
  check { that: contains { in: r.stdout, value: input.expect }, msg: "output" }
  return { exitCode: r.exitCode, stdout: r.stdout }
  Run it with: a0 run grade.a0 --input '{"cmd": ["make", "test"]}' --arg expect=ok

Run one with: a0 run prog.a0   Validate only: a0 check prog.a0`
