package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/termout"
)

// replDir makes an empty working directory and HOME (no policy file).
func replDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	return dir
}

// pipedREPL runs `a0 repl args...` in-process with stdin as its input.
func pipedREPL(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = realMain(append([]string{"repl"}, args...), strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// diagCodes returns the codes of the JSON diagnostics on stderr, one line
// each (an array for static diagnostics, an object otherwise).
func diagCodes(t *testing.T, stderr string) []string {
	t.Helper()
	var codes []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if line == "" {
			continue
		}
		var one struct{ Code string }
		var many []struct{ Code string }
		switch {
		case json.Unmarshal([]byte(line), &many) == nil && len(many) > 0:
			codes = append(codes, many[0].Code)
		case json.Unmarshal([]byte(line), &one) == nil && one.Code != "":
			codes = append(codes, one.Code)
		default:
			codes = append(codes, "text: "+line)
		}
	}
	return codes
}

func TestREPLPiped(t *testing.T) {
	replDir(t)
	cases := []struct {
		name, in string
		args     []string
		out      string
		outRE    string   // when set, stdout must match it instead of equal out
		codes    []string // diagnostic codes on stderr, in order
		exit     int
	}{
		{name: "issue example", in: "let x = 2\nx * 21\n", out: "42\n"},
		{name: "no final newline", in: "let x = 2\nx * 21", out: "42\n"},
		{name: "CRLF", in: "let x = 2\r\nx * 21\r\n", out: "42\n"},
		{name: "blank lines and comments", in: "\n# nothing\n   \nlet x = 1 # one\nx\n", out: "1\n"},
		{
			name: "bindings persist and rebinding replaces",
			in:   "let x = 2\nfn sq { n } { return n * n }\nsq { n: x }\nlet x = 5\nsq { n: x }\n",
			out:  "4\n25\n",
		},
		{name: "return prints and the session goes on", in: "return { a: 1 }\n2\n", out: "{\"a\":1}\n2\n"},
		{name: "arrow binds", in: "[1, 2] -> xs\nlen { in: xs }\n", out: "2\n"},
		{name: "multi-line record", in: "let rec = {\n  a: 7,\n  b: [1,\n 2]\n}\nrec.a\nrec\n", out: "7\n{\"a\":7,\"b\":[1,2]}\n"},
		{name: "multi-line string", in: "let s = \"a\nb\"\n1\n", out: "1\n", codes: []string{"E_LEX", "E_LEX"}, exit: 2},
		{
			name:  "an error does not stop the next input; first failure's code",
			in:    "y + 1\n1 / 0\nlet y = 3\ny\n",
			out:   "3\n",
			codes: []string{"E_UNBOUND", "E_TYPE"},
			exit:  2,
		},
		{name: "runtime error code", in: "1 / 0\n1\n", out: "1\n", codes: []string{"E_TYPE"}, exit: 4},
		{
			name:  "capability denied without asking",
			in:    "do sh.exec { argv: [\"echo\", \"hi\"] } -> g\n1\n",
			out:   "1\n",
			codes: []string{"E_CAP_DENIED"},
			exit:  3,
		},
		{
			name:  "cap header denied",
			in:    "cap { fs.read: true }\n",
			codes: []string{"E_CAP_DENIED"},
			exit:  3,
		},
		{
			name: "unsafe-allow-all grants",
			in:   "do sh.exec { argv: [\"echo\", \"hi\"] } -> g\ng.stdout\n",
			args: []string{"--unsafe-allow-all"},
			out:  "\"hi\\n\"\n",
		},
		{name: "failed check", in: "check { that: false, msg: \"m\" } -> c\nc.ok\n", out: "false\n", codes: []string{"E_ASSERT"}, exit: 5},
		{name: "assert", in: "assert { that: false, msg: \"m\" }\n", codes: []string{"E_ASSERT"}, exit: 5},
		{name: "unfinished input at the end", in: "1\nlet r = {\n", out: "1\n", codes: []string{"E_PARSE"}, exit: 2},
		{name: "unknown meta command", in: ":bogus\n1\n", out: "1\n", codes: []string{"text: unknown command :bogus (:help lists the commands)"}, exit: 1},
		{name: "quit", in: "1\n:quit\n2\n", out: "1\n"},
		{name: "reset", in: "let x = 1\n:reset\nx\n", out: "session reset\n", codes: []string{"E_UNBOUND"}, exit: 2},
		{name: "unknown meta command near one", in: ":hlep\n:var\n", codes: []string{"text: unknown command :hlep: did you mean :help? (:help lists the commands)", "text: unknown command :var: did you mean :vars? (:help lists the commands)"}, exit: 1},
		{name: "jobs", in: ":jobs\n", out: "no running jobs\n"},
		{name: "jobs running", in: "do sh.start { argv: [\"sleep\", \"5\"], tag: \"nap\" } -> j\n:jobs\n", args: []string{"--unsafe-allow-all"}, outRE: `^j_[0-9a-f]{16} \[nap\] running: sleep 5\n$`},
		{name: "failing trace file", in: ":trace /dev/full\n1\n2\n", out: "tracing to /dev/full\ntracing is off\n2\n", codes: []string{"E_IO"}, exit: 4},
		{name: "vars", in: "let b = true\nlet a = [1]\nfn f { } { return 1 }\n:vars\n", out: "a  list     [1]\nb  boolean  true\nf  fn\n"},
		{name: "no vars", in: ":vars\n", out: "no bindings\n"},
		{name: "budget header applies to its input", in: "budget { maxIterations: 1 } for { in: [1, 2], as: \"i\" } { return i }\nfor { in: [1, 2], as: \"i\" } { return i }\n", out: "[1,2]\n", codes: []string{"E_BUDGET"}, exit: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pipedREPL(t, tc.in, tc.args...)
			if tc.outRE != "" {
				if !regexp.MustCompile(tc.outRE).MatchString(out) {
					t.Errorf("stdout = %q, want a match of %s", out, tc.outRE)
				}
			} else if out != tc.out {
				t.Errorf("stdout = %q, want %q", out, tc.out)
			}
			if got := diagCodes(t, errOut); strings.Join(got, ",") != strings.Join(tc.codes, ",") {
				t.Errorf("stderr codes = %q, want %q\nstderr: %s", got, tc.codes, errOut)
			}
			if code != tc.exit {
				t.Errorf("exit = %d, want %d", code, tc.exit)
			}
		})
	}
}

func TestREPLPipedFiles(t *testing.T) {
	dir := replDir(t)
	os.WriteFile("lib.a0", []byte("fn double { n } { return n * 2 }\nlet base = 10\nreturn double { n: base }\n"), 0o644)
	os.WriteFile("bad.a0", []byte("let a = 1\nreturn a +\n"), 0o644)

	out, errOut, code := pipedREPL(t, ":load lib.a0\ndouble { n: base + 1 }\n:load missing.a0\n:load bad.a0\n:load\n")
	if out != "20\n22\n" || code != 4 {
		t.Errorf("stdout %q exit %d", out, code)
	}
	if got := diagCodes(t, errOut); strings.Join(got, ",") != "E_IO,E_PARSE,text: usage: :load FILE" {
		t.Errorf("stderr codes %q\n%s", got, errOut)
	}
	if !strings.Contains(errOut, `"file":"bad.a0"`) {
		t.Errorf("the span should name the loaded file: %s", errOut)
	}

	// --trace and :trace write the inputs' events; :trace off stops.
	out, errOut, code = pipedREPL(t, "let x = 1\n:trace t2.jsonl\nx + 1\n:trace\n:trace off\nx + 2\n:trace\n", "--trace", "t1.jsonl")
	if code != 0 || out != "tracing to t2.jsonl\n2\ntracing to t2.jsonl\ntracing is off\n3\ntracing is off\n" {
		t.Errorf("stdout %q stderr %q exit %d", out, errOut, code)
	}
	for _, f := range []string{"t1.jsonl", "t2.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), `"event":"run_start"`) || !strings.Contains(string(b), `"event":"run_end"`) {
			t.Errorf("%s: %v %q", f, err, b)
		}
	}
	if _, _, code := pipedREPL(t, ":trace no/such/dir/t.jsonl\n"); code != 4 {
		t.Errorf(":trace into a missing directory: exit %d", code)
	}
	if _, errOut, code := pipedREPL(t, "1\n", "--trace", "no/such/dir/t.jsonl"); code != 4 || !strings.Contains(errOut, "E_IO") {
		t.Errorf("--trace into a missing directory: exit %d %s", code, errOut)
	}

	// A project policy grants; an invalid one stops before the session.
	os.WriteFile(".a0policy.json", []byte(`{"version":1,"allow":["fs.read"]}`), 0o644)
	out, _, code = pipedREPL(t, "call? fs.exists { path: \"lib.a0\" }\n:caps\n")
	if code != 0 || !strings.HasPrefix(out, "true\npolicy:  project (") || !strings.Contains(out, "granted: fs.read (policy)\ndenied:  fs.write, http.get, sh.exec\n") {
		t.Errorf("policy: %q exit %d", out, code)
	}
	// The policy's limits cap every input's budget, as for a0 run.
	os.WriteFile(".a0policy.json", []byte(`{"version":1,"allow":[],"limits":{"maxIterations":1}}`), 0o644)
	if _, errOut, code := pipedREPL(t, "for { in: [1, 2], as: \"i\" } { return i }\n"); code != 4 || !strings.Contains(errOut, "E_BUDGET") {
		t.Errorf("policy limits: %q exit %d", errOut, code)
	}
	os.WriteFile(".a0policy.json", []byte(`{"version":1,"alow":[]}`), 0o644)
	if out, errOut, code := pipedREPL(t, "1\n"); code != 3 || out != "" || !strings.Contains(errOut, "E_POLICY") {
		t.Errorf("invalid policy: %q %q exit %d", out, errOut, code)
	}
}

// scripted is a lineReader that plays back lines (strings) and Ctrl-C or
// Ctrl-D (errInterrupt, io.EOF), recording the prompts and history.
type scripted struct {
	items   []any
	prompts []string
	history []string
}

func (s *scripted) readLine(prompt string) (string, error) {
	s.prompts = append(s.prompts, prompt)
	if len(s.items) == 0 {
		return "", io.EOF
	}
	it := s.items[0]
	s.items = s.items[1:]
	if err, ok := it.(error); ok {
		return "", err
	}
	return it.(string), nil
}

func (s *scripted) addHistory(e string) { s.history = append(s.history, e) }

// terminalREPL runs an interactive session in-process.
func terminalREPL(t *testing.T, pol *policy.Resolved, notify func(chan<- os.Signal) func(), items ...any) (s *scripted, out, errOut string, code int) {
	t.Helper()
	env, err := newEnv()
	if err != nil {
		t.Fatal(err)
	}
	if pol == nil {
		pol = &policy.Resolved{Source: policy.SourceDefault, Policy: policy.Default()}
	}
	s = &scripted{items: items}
	var o, e bytes.Buffer
	code = runREPL(env, s, &o, &e, replConfig{Interactive: true, Policy: pol, Notify: notify})
	return s, o.String(), e.String(), code
}

func TestREPLTerminal(t *testing.T) {
	replDir(t)
	s, out, errOut, code := terminalREPL(t, nil, nil,
		"let x = 40",
		"x + 2",
		"let rec = {",
		"a: 7 }",
		"rec.a",
		"let half = [1,", errInterrupt, // Ctrl-C clears the unfinished input
		"half",
		"return { ok: true, l: [] }",
		`do sh.exec { argv: ["echo", "granted"] } -> g`, "y",
		"g.stdout",
		`call? fs.exists { path: "." }`, "n",
		`call? fs.exists { path: "." }`, "",
		"  :caps  ",
	)
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	wantPrompts := []string{"a0> ", "a0> ", "a0> ", "... ", "a0> ", "a0> ", "... ", "a0> ", "a0> ", "a0> ",
		"allow sh.exec for this session? [y/N] ", "a0> ",
		"a0> ", "allow fs.read for this session? [y/N] ",
		"a0> ", "allow fs.read for this session? [y/N] ", "a0> ", "a0> "}
	if strings.Join(s.prompts, "|") != strings.Join(wantPrompts, "|") {
		t.Errorf("prompts\n got %q\nwant %q", s.prompts, wantPrompts)
	}
	wantOut := "42\n7\n{\n  \"ok\": true,\n  \"l\": []\n}\n\"granted\\n\"\n" +
		"policy:  default (nothing allowed)\n" +
		"granted: sh.exec (this session)\n" +
		"denied:  fs.read, fs.write, http.get (asked on first use)\n"
	if out != wantOut {
		t.Errorf("stdout\n got %q\nwant %q", out, wantOut)
	}
	// Pretty diagnostics: code, message, caret under the span.
	for _, want := range []string{
		"error[E_UNBOUND]: Unbound variable 'half'.\n  --> <repl>:1:1\n   |\n 1 | half\n   | ^^^^\n",
		"error[E_CAP_DENIED]: Capability 'fs.read' required by tool 'fs.exists' is not allowed.",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	wantHist := []string{"let x = 40", "x + 2", "let rec = { a: 7 }", "rec.a", "half", "return { ok: true, l: [] }",
		`do sh.exec { argv: ["echo", "granted"] } -> g`, "g.stdout", `call? fs.exists { path: "." }`, `call? fs.exists { path: "." }`, ":caps"}
	if strings.Join(s.history, "|") != strings.Join(wantHist, "|") {
		t.Errorf("history\n got %q\nwant %q", s.history, wantHist)
	}
}

func TestREPLTerminalAsksOncePerInput(t *testing.T) {
	replDir(t)
	// Refused: the loop's three calls ask once; the next input asks again.
	s, _, errOut, _ := terminalREPL(t, nil, nil,
		`for { in: [1, 2, 3], as: "i" } { return call? fs.exists { path: "." } }`, "no",
		`cap { fs.read: true }`, "y",
		`for { in: [1, 2, 3], as: "i" } { return call? fs.exists { path: "." } }`,
		":reset",
		`call? fs.exists { path: "." }`, io.EOF,
	)
	asks := 0
	for _, p := range s.prompts {
		if strings.HasPrefix(p, "allow fs.read") {
			asks++
		}
	}
	if asks != 3 {
		t.Errorf("asked %d times, want 3 (prompts %q)", asks, s.prompts)
	}
	if n := strings.Count(errOut, "E_CAP_DENIED"); n != 2 {
		t.Errorf("%d E_CAP_DENIED, want 2:\n%s", n, errOut)
	}
}

func TestREPLTerminalColour(t *testing.T) {
	replDir(t)
	env, _ := newEnv()
	var out bytes.Buffer
	s := &scripted{items: []any{`return { s: "x", n: 1, b: true, z: null, l: [] }`}}
	runREPL(env, s, &out, io.Discard, replConfig{Interactive: true, Color: true, Policy: &policy.Resolved{Policy: policy.Default()}})
	if !strings.Contains(out.String(), "\x1b[") {
		t.Errorf("no colour: %q", out.String())
	}
}

func TestREPLInterruptCancelsStatement(t *testing.T) {
	dir := replDir(t)
	started := filepath.Join(dir, "started")
	notify := func(ch chan<- os.Signal) func() {
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				if _, err := os.Stat(started); err == nil {
					os.Remove(started)
					ch <- os.Interrupt
					return
				}
			}
		}()
		return func() { close(stop) }
	}
	begin := time.Now()
	_, out, errOut, code := terminalREPL(t, (&policy.Resolved{Policy: policy.Default()}).AllowAll(), notify,
		`do sh.exec { cmd: "touch started; sleep 20" }`,
		"1 + 1",
	)
	if d := time.Since(begin); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	if code != 0 || out != "2\n" || !strings.Contains(errOut, "error[E_CANCELLED]") {
		t.Errorf("exit %d stdout %q stderr %q", code, out, errOut)
	}
}

func TestREPLPipedSignalEndsSession(t *testing.T) {
	dir := replDir(t)
	started := filepath.Join(dir, "started")
	env, _ := newEnv()
	notify := func(ch chan<- os.Signal) func() {
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				if _, err := os.Stat(started); err == nil {
					ch <- os.Interrupt
					return
				}
			}
		}()
		return func() { close(stop) }
	}
	var out, errOut bytes.Buffer
	in := "do sh.exec { cmd: \"touch started; sleep 20\" }\n1\n"
	code := runREPL(env, newPlainLines(strings.NewReader(in), nil), &out, &errOut,
		replConfig{Policy: (&policy.Resolved{Policy: policy.Default()}).AllowAll(), Notify: notify})
	if code != 130 || out.String() != "" || !strings.Contains(errOut.String(), "E_CANCELLED") {
		t.Errorf("exit %d stdout %q stderr %q", code, out.String(), errOut.String())
	}
}

func TestHistoryEntry(t *testing.T) {
	cases := []struct {
		lines []string
		want  string
	}{
		{[]string{"let x = 1 # kept on one line"}, "let x = 1 # kept on one line"},
		{[]string{"let rec = {", "  a: 7, # seven", "  b: \"#\"", "}"}, `let rec = { a: 7, b: "#" }`},
		{[]string{"f {", "n:1}"}, "f { n:1}"},
		{[]string{"let s = \"abc", "def\""}, "let s = \"abc\ndef\""},
		{[]string{"let a = @", "1"}, "let a = @ 1"},
	}
	for _, tc := range cases {
		if got := runtime.HistoryEntry(tc.lines); got != tc.want {
			t.Errorf("historyEntry(%q) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

func TestREPLComplete(t *testing.T) {
	dir := replDir(t)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "script.a0"), nil, 0o644)
	env, _ := newEnv()
	r := newREPL(env, &scripted{}, io.Discard, io.Discard, replConfig{Policy: &policy.Resolved{Policy: policy.Default()}})
	r.eval(replFile, "let record1 = { alpha: 1, beta: { gamma: 2, delta: 3 } }")
	r.eval(replFile, "fn square { n } { return n * n }")
	cases := []struct{ head, word, cands string }{
		{":", ":", ":caps :help :input :jobs :load :quit :reset :trace :vars"},
		{":re", ":re", ":reset"},
		{":load s", "s", "script.a0 sub/"},
		{":trace  su", "su", "sub/"},
		{":vars x", "", ""},
		{"", "", ""},
		{"let y = ", "", ""},
		{"le", "le", "len let"},
		{"x + squ", "squ", "square"},
		{"call", "call", "call?"},
		{"do sh.e", "sh.e", "sh.exec"},
		{"str.sp", "str.sp", "str.split"},
		{"re", "re", "re.find re.findAll re.replace re.split re.test record1 reduce return"},
		{"record1.", "record1.", "record1.alpha record1.beta"},
		{"1 + record1.beta.d", "record1.beta.d", "record1.beta.delta"},
		{"record1.alpha.", "record1.alpha.", ""},
	}
	for _, tc := range cases {
		word, cands := r.complete(tc.head)
		if word != tc.word || strings.Join(cands, " ") != tc.cands {
			t.Errorf("complete(%q) = %q %q, want %q %q", tc.head, word, cands, tc.word, tc.cands)
		}
	}
	// The readline adapter returns what each candidate adds.
	add, n := completer(r.complete).Do([]rune("x + squ"), 7)
	if n != 3 || len(add) != 1 || string(add[0]) != "are" {
		t.Errorf("completer.Do = %q %d", add, n)
	}
}

func TestColorJSON(t *testing.T) {
	env, _ := runtime.NewEnv()
	res, ds, err := env.NewSession().Eval(t.Context(), "t", `return { a: [1, "s", true, null, {}, []], b.c: { d: 1.5 } }`, runtime.RunOptions{})
	if err != nil || len(ds) > 0 {
		t.Fatal(ds, err)
	}
	if got, want := termout.ColorJSON(res.Value, &jsonColors{}), value.JSONIndent(res.Value); got != want {
		t.Errorf("plain colorJSON\n got %s\nwant %s", got, want)
	}
	mark := func(tag string) func(string) string { return func(s string) string { return tag + "(" + s + ")" } }
	got := termout.ColorJSON(res.Value, &jsonColors{Key: mark("k"), String: mark("s"), Number: mark("n"), Bool: mark("b"), Null: mark("z")})
	for _, want := range []string{`k("a"): [`, `n(1),`, `s("s"),`, `b(true),`, `z(null),`, `{},`, `[]`, `k("b.c"): {`, `k("d"): n(1.5)`} {
		if !strings.Contains(got, want) {
			t.Errorf("coloured JSON lacks %q:\n%s", want, got)
		}
	}
}

func TestHistoryPath(t *testing.T) {
	t.Setenv("HOME", "/h")
	t.Setenv("XDG_STATE_HOME", "")
	if got := historyPath(); got != "/h/.local/state/a0/history" {
		t.Errorf("default: %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "/state")
	if got := historyPath(); got != "/state/a0/history" {
		t.Errorf("XDG_STATE_HOME: %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "relative")
	if got := historyPath(); got != "/h/.local/state/a0/history" {
		t.Errorf("relative XDG_STATE_HOME: %q", got)
	}
	t.Setenv("HOME", "")
	if got := historyPath(); got != "" {
		t.Errorf("no HOME: %q", got)
	}
}

func TestREPLHelpListsCommands(t *testing.T) {
	replDir(t)
	out, _, code := pipedREPL(t, ":help\n")
	for _, c := range replCommands {
		if !strings.Contains(out, c.name) {
			t.Errorf(":help lacks %s", c.name)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}
