package main

// The interactive session, `a0 repl` (spec/cli.md §13).
//
// The loop is a plain function over a lineReader and two io.Writers, so the
// tests drive it in-process; on a terminal the lines come from the readline
// adapter in repl_readline.go, otherwise from stdin as it is (piped mode: no
// prompt, compact JSON values, JSON diagnostics, an exit code).
//
// An input is read line by line until it is no longer incomplete
// (inputState), then evaluated by a runtime.Session, so
// bindings and functions persist. Lines starting with ':' at the main
// prompt are meta commands.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hostpolicy"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/termout"
	"github.com/a0lang/a0/runtime/tools"
	"github.com/a0lang/a0/runtime/trace"
)

const (
	replPrompt     = "a0> "
	replContPrompt = "... "
	// replFile labels the spans of typed inputs.
	replFile = "<repl>"
)

// stopSessionJobs stops the session's background jobs (at exit and on
// :reset) by closing the session, which stops whatever its tools keep;
// tools.RunningJobs lists those still running for :jobs.
var stopSessionJobs = (*runtime.Session).Close

// errInterrupt is returned by a lineReader when the user pressed Ctrl-C:
// the line typed so far is discarded.
var errInterrupt = errors.New("interrupt")

// lineReader is where the REPL gets its input lines.
type lineReader interface {
	// readLine shows prompt (when there is a person to see it) and returns
	// the next line without its line ending; io.EOF at the end of input
	// (Ctrl-D on an empty line), errInterrupt for Ctrl-C.
	readLine(prompt string) (string, error)
	// addHistory records one complete input.
	addHistory(entry string)
}

// plainLines reads lines from an io.Reader. With echo set, prompts are
// written to it (the in-process tests of the terminal mode use this).
type plainLines struct {
	r    *bufio.Reader
	echo io.Writer
	eof  bool
}

func newPlainLines(r io.Reader, echo io.Writer) *plainLines {
	return &plainLines{r: bufio.NewReader(r), echo: echo}
}

func (p *plainLines) readLine(prompt string) (string, error) {
	if p.echo != nil {
		io.WriteString(p.echo, prompt)
	}
	if p.eof {
		return "", io.EOF
	}
	line, err := p.r.ReadString('\n')
	if err != nil {
		p.eof = true
		if line == "" {
			return "", io.EOF
		}
	}
	line = strings.TrimSuffix(line, "\n")
	return value.DecodeBytes([]byte(strings.TrimSuffix(line, "\r"))), nil
}

func (p *plainLines) addHistory(string) {}

// replConfig configures one session.
type replConfig struct {
	// Interactive means a person at a terminal: prompts, pretty values and
	// diagnostics, capability questions, and Ctrl-C cancels one input.
	Interactive bool
	// Color colours the values printed on out (interactive only).
	Color bool
	// Style styles the diagnostics printed on errOut (interactive only).
	Style diag.Style
	// Policy is the resolved policy of the session.
	Policy *policy.Resolved
	// RunID is the session's run id: its background jobs and its trace
	// share it (every input's RunOptions.RunID).
	RunID string
	// Ceiling caps the budget of every input (the policy's limits).
	Ceiling runtime.Budget
	// Trace, when not nil, receives the trace events of the session (path
	// is shown by :trace).
	Trace     *traceFile
	TracePath string
	// Notify, when set, replaces signal.Notify for SIGINT, SIGTERM and
	// SIGHUP while an input runs; the returned function stops delivery.
	Notify func(ch chan<- os.Signal) (stop func())
	// InputMask masks the :input values the trace records (the policy's
	// exec mask; nil: the default).
	InputMask []string
}

// repl is one interactive session.
type repl struct {
	cfg     replConfig
	env     *runtime.Env
	sess    *runtime.Session
	lines   lineReader
	out     io.Writer
	errOut  io.Writer
	granted map[string]bool // capabilities granted by a "y" answer
	refused map[string]bool // capabilities refused during the current input
	trace   *traceFile
	tracePt string

	code    int  // exit code of the first failed input (piped mode)
	quit    bool // :quit, or a terminating signal
	sigCode int  // 128+N when a signal ended the session
}

func newREPL(env *runtime.Env, lines lineReader, out, errOut io.Writer, cfg replConfig) *repl {
	return &repl{
		cfg: cfg, env: env, sess: env.NewSession(), lines: lines, out: out, errOut: errOut,
		granted: map[string]bool{}, refused: map[string]bool{},
		trace: cfg.Trace, tracePt: cfg.TracePath,
	}
}

// runREPL runs a session until the input ends or :quit, then stops its jobs
// and closes its trace file. It returns the process exit code: 0 for an
// interactive session; in piped mode 0 when every input succeeded, else the
// exit code of the first failure; 128+N when signal N ended it.
func runREPL(env *runtime.Env, lines lineReader, out, errOut io.Writer, cfg replConfig) int {
	r := newREPL(env, lines, out, errOut, cfg)
	defer r.close()
	return r.loop()
}

func (r *repl) loop() int {
	for !r.quit {
		src, ok := r.readInput()
		if !ok {
			break
		}
		if strings.HasPrefix(src, ":") {
			r.meta(src)
			continue
		}
		r.eval(replFile, src)
	}
	switch {
	case r.sigCode != 0:
		return r.sigCode
	case r.cfg.Interactive:
		return diag.ExitOK
	}
	return r.code
}

func (r *repl) close() {
	stopSessionJobs(r.sess)
	if r.trace != nil {
		r.trace.Close()
		r.trace = nil
	}
}

// fail records the exit code of a failed input; the first one counts.
func (r *repl) fail(code int) {
	if r.code == 0 {
		r.code = code
	}
}

// readInput reads one complete input: a meta command, or lines until the
// text is no longer incomplete (see inputState). ok is false at the end
// of the input. In piped mode an unfinished input at the end is returned
// anyway, so its syntax error is reported.
func (r *repl) readInput() (string, bool) {
	var in *inputState
	for {
		prompt := replPrompt
		if in != nil {
			prompt = replContPrompt
		}
		line, err := r.lines.readLine(prompt)
		if err == errInterrupt {
			in = nil
			continue
		}
		if err != nil {
			if in != nil && !r.cfg.Interactive {
				return in.Text(), true
			}
			return "", false
		}
		if in == nil {
			t := strings.TrimSpace(line)
			if t == "" {
				continue
			}
			if strings.HasPrefix(t, ":") {
				r.lines.addHistory(t)
				return t, true
			}
			in = &inputState{}
		}
		if in.Add(line) {
			continue
		}
		r.lines.addHistory(runtime.HistoryEntry(in.Lines()))
		return in.Text(), true
	}
}

// inputState is an input being read line by line
// (runtime.InputLines); runtime.HistoryEntry is its line for the history file.
type inputState = runtime.InputLines

// eval runs one input (or a :load-ed file) in the session and prints its
// value or its error.
func (r *repl) eval(file, src string) {
	if p, _, _ := runtime.ParseInput(file, src); p != nil && len(p.Headers) == 0 && len(p.Stmts) == 0 {
		return // only comments
	}
	// The kill switch is this input's own: a second signal shortens the
	// stops of the commands it started, not those of later inputs.
	kill := proc.NewKillSwitch()
	ctx, cancel := context.WithCancelCause(proc.WithKillSwitch(context.Background(), kill))
	defer cancel(nil)
	sigs := make(chan os.Signal, 2)
	stop := r.notify(sigs)
	got := make(chan os.Signal, 1)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			got <- s
			cancel(runtime.SignalCause{Signal: signalName(s)})
			// A second signal while the input winds down skips the grace
			// period of the commands it is stopping, as in a0 run.
			select {
			case <-sigs:
				kill.Trip()
			case <-done:
			}
		case <-done:
			got <- nil
		}
	}()
	clear(r.refused)
	opts := runtime.RunOptions{Grants: replGrants{r}, RunID: r.cfg.RunID, Ceiling: r.cfg.Ceiling, InputMask: r.cfg.InputMask}
	if r.trace != nil {
		opts.Trace = r.trace
	}
	res, ds, err := r.sess.Eval(ctx, file, src, opts)
	hostpolicy.HintUngrantedServers(ds, r.cfg.Policy)
	close(done)
	sig := <-got
	stop()
	if sig != nil && r.cfg.Interactive {
		io.WriteString(r.errOut, "\n") // after the terminal's "^C"
	}

	switch {
	case len(ds) > 0:
		r.fail(diag.ExitStatic)
		if r.cfg.Interactive {
			io.WriteString(r.errOut, ds.Text(func(string) string { return src }, r.cfg.Style)+"\n")
		} else {
			io.WriteString(r.errOut, ds.JSONArray()+"\n")
		}
	case err != nil:
		e, form := runtime.ErrorOf(err)
		if h := hostpolicy.GrantHint(e, r.cfg.Policy, nil); h != "" {
			e.Hint = h
		}
		r.printDiag(e.Report(), form, src)
		code := e.ExitCode()
		if e.Code == diag.ECancelled && sig != nil {
			code = 128 + signalNumber(sig)
		}
		r.fail(code)
		if errors.As(err, new(writeError)) && r.trace != nil {
			// The trace file failed (E_IO): stop tracing.
			r.trace.Close()
			r.trace, r.tracePt = nil, ""
			r.note("tracing is off")
		}
	default:
		if res.HasValue {
			r.printValue(res.Value)
		}
		if res.Failed {
			r.fail(diag.ExitAssert)
			for _, d := range runtime.FailedChecks(res.Evidence) {
				r.printDiag(d, diag.FormRuntime, src)
			}
		}
	}
	// SIGTERM and SIGHUP end the session; so does SIGINT without a
	// terminal (Ctrl-C on a pipeline).
	if sig != nil && (sig != os.Interrupt || !r.cfg.Interactive) {
		r.quit = true
		r.sigCode = 128 + signalNumber(sig)
	}
}

// notify delivers SIGINT, SIGTERM and SIGHUP to ch until the returned
// function is called; afterwards they have their default effect again.
func (r *repl) notify(ch chan<- os.Signal) func() {
	if r.cfg.Notify != nil {
		return r.cfg.Notify(ch)
	}
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	return func() { signal.Stop(ch) }
}

// printValue prints an input's value: pretty (and coloured) JSON on a
// terminal, compact JSON on one line otherwise.
func (r *repl) printValue(v value.Value) {
	switch {
	case !r.cfg.Interactive:
		io.WriteString(r.out, value.JSON(v)+"\n")
	case r.cfg.Color:
		io.WriteString(r.out, termout.SafeJSON(termout.ColorJSON(v, defaultJSONColors()))+"\n")
	default:
		io.WriteString(r.out, termout.SafeJSON(value.JSONIndent(v))+"\n")
	}
}

// printDiag prints one diagnostic: the --pretty text on a terminal, the
// JSON form otherwise.
func (r *repl) printDiag(d *diag.Diagnostic, form diag.Form, src string) {
	if r.cfg.Interactive {
		io.WriteString(r.errOut, termout.SafeDiag(d).Text(src, r.cfg.Style)+"\n")
		return
	}
	io.WriteString(r.errOut, d.JSON(hintForm(d, form))+"\n")
}

// usage reports a mistyped meta command (exit code 1 in piped mode).
func (r *repl) usage(format string, args ...any) {
	r.fail(diag.ExitUsage)
	fmt.Fprintf(r.errOut, format+"\n", args...)
}

// note prints an informational line of a meta command.
func (r *repl) note(format string, args ...any) {
	fmt.Fprintf(r.out, format+"\n", args...)
}

// ---- capabilities -------------------------------------------------------

// replGrants grants what the policy grants, plus what the user allowed
// when asked.
type replGrants struct{ r *repl }

// Allowed implements runtime.Grants. On a terminal a capability the policy
// does not grant is asked about once per input; "y" grants it until the
// session ends, anything else refuses it for the rest of the input (a
// later input asks again). Without a terminal nothing is asked, and a
// capability the policy lists under "deny" is never asked about.
func (g replGrants) Allowed(c string) bool {
	r := g.r
	if r.cfg.Policy.Allowed(c) || r.granted[c] {
		return true
	}
	if r.cfg.Policy.Denied(c) {
		return false // never asked: "y" does not override deny
	}
	if !r.cfg.Interactive || r.refused[c] {
		return false
	}
	line, err := r.lines.readLine("allow " + c + " for this session? [y/N] ")
	if ans := strings.ToLower(strings.TrimSpace(line)); err == nil && (ans == "y" || ans == "yes") {
		r.granted[c] = true
		return true
	}
	r.refused[c] = true
	return false
}

// ---- meta commands ------------------------------------------------------

// replCommands are the meta commands with their help lines.
var replCommands = []struct{ name, args, help string }{
	{":help", "", "show this help"},
	{":quit", "", "end the session (Ctrl-D on an empty line does too)"},
	{":vars", "", "list the bindings with their types, and the functions"},
	{":caps", "", "show which capabilities are granted and which are denied"},
	{":load", " FILE", "run the statements of FILE in the session"},
	{":reset", "", "start over: forget bindings, functions and capability answers"},
	{":trace", " FILE|off", "write the session's trace events to FILE, or stop"},
	{":jobs", "", "list the background jobs that are running"},
	{":input", " {…}", "bind input to a record of data (JSON or A0 literals), read as input.name"},
}

func (r *repl) meta(line string) {
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case ":help", ":h", ":?":
		r.help()
	case ":quit", ":q", ":exit":
		r.quit = true
	case ":vars":
		r.vars()
	case ":caps":
		r.caps()
	case ":load":
		if arg == "" {
			r.usage("usage: :load FILE")
			return
		}
		src, d := (&cli{}).readSource(arg, false)
		if d != nil {
			r.fail(diag.ExitRuntime)
			r.printDiag(d, diag.FormCLI, "")
			return
		}
		r.eval(arg, src)
	case ":reset":
		stopSessionJobs(r.sess)
		r.sess = r.env.NewSession()
		clear(r.granted)
		r.note("session reset")
	case ":trace":
		r.setTrace(arg)
	case ":input":
		r.bindInput(arg)
	case ":jobs":
		jobs := tools.RunningJobs(r.sess)
		if len(jobs) == 0 {
			r.note("no running jobs")
		}
		for _, j := range jobs {
			r.note("%s", j)
		}
	default:
		names := make([]string, len(replCommands))
		for i, c := range replCommands {
			names[i] = c.name
		}
		if s := diag.Suggest(name, names); s != "" {
			r.usage("unknown command %s: did you mean %s? (:help lists the commands)", name, s)
			return
		}
		r.usage("unknown command %s (:help lists the commands)", name)
	}
}

func (r *repl) help() {
	var b strings.Builder
	b.WriteString("Type A0 statements or expressions; an expression's value is printed.\n")
	b.WriteString("Bindings and functions persist; binding a name again replaces it.\n")
	b.WriteString("An unfinished input (open brace, bracket, paren or string) continues on\n")
	b.WriteString("the next line. Tab completes names; Ctrl-C clears the input or stops\n")
	b.WriteString("the running statement; Ctrl-D on an empty line ends the session.\n\n")
	for _, c := range replCommands {
		fmt.Fprintf(&b, "  %-18s %s\n", c.name+c.args, c.help)
	}
	b.WriteString("\nLanguage reference: a0 help [topic]")
	r.note("%s", b.String())
}

func (r *repl) vars() {
	vars := r.sess.Vars()
	fns := r.sess.Fns()
	if len(vars) == 0 && len(fns) == 0 {
		r.note("no bindings")
		return
	}
	w := 0
	for _, v := range vars {
		w = max(w, len(v.Name))
	}
	for _, f := range fns {
		w = max(w, len(f))
	}
	for _, v := range vars {
		r.note("%-*s  %-7s  %s", w, v.Name, v.Value.TypeName(), preview(v.Value, 60))
	}
	for _, f := range fns {
		r.note("%-*s  %s", w, f, "fn")
	}
}

// preview is v's compact JSON, cut to at most n characters.
func preview(v value.Value, n int) string {
	s := value.JSON(v)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n-1]) + "…"
}

func (r *repl) caps() {
	pol := r.cfg.Policy
	switch {
	case pol.IsAllowAll():
		r.note("policy:  --unsafe-allow-all")
	case pol.Path != "":
		r.note("policy:  %s (%s)", pol.Source, pol.Path)
	default:
		r.note("policy:  %s (nothing allowed)", pol.Source)
	}
	var granted, denied []string
	for _, c := range r.env.CheckConfig().Caps {
		switch {
		case pol.Allowed(c):
			granted = append(granted, c+" (policy)")
		case r.granted[c]:
			granted = append(granted, c+" (this session)")
		case pol.Denied(c):
			denied = append(denied, c+" (policy deny)")
		default:
			denied = append(denied, c)
		}
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return "(none)"
		}
		return strings.Join(l, ", ")
	}
	r.note("granted: %s", list(granted))
	if r.cfg.Interactive && len(denied) > 0 {
		r.note("denied:  %s (asked on first use)", list(denied))
	} else {
		r.note("denied:  %s", list(denied))
	}
}

func (r *repl) setTrace(arg string) {
	switch arg {
	case "":
		if r.trace == nil {
			r.note("tracing is off")
		} else {
			r.note("tracing to %s", r.tracePt)
		}
		return
	case "off":
		if r.trace != nil {
			r.trace.Close()
			r.trace, r.tracePt = nil, ""
		}
		r.note("tracing is off")
		return
	}
	tw, d := runtime.OpenTraceFile(arg, r.cfg.RunID)
	if d != nil {
		r.fail(diag.ExitRuntime)
		r.printDiag(d, diag.FormCLI, "")
		return
	}
	if r.trace != nil {
		r.trace.Close()
	}
	r.trace, r.tracePt = tw, arg
	r.note("tracing to %s", arg)
}

// ---- completion ---------------------------------------------------------

// complete returns the word before the cursor (head is the line up to the
// cursor) and the completions of it, sorted: meta commands at the start of
// a line, file names after :load and :trace, else keywords, stdlib
// functions, tools, bound names, functions and the keys of bound records.
func (r *repl) complete(head string) (word string, cands []string) {
	if strings.HasPrefix(head, ":") {
		name, arg, spaced := strings.Cut(head, " ")
		if !spaced {
			for _, c := range replCommands {
				if strings.HasPrefix(c.name, name) {
					cands = append(cands, c.name)
				}
			}
			sort.Strings(cands)
			return name, cands
		}
		if name == ":load" || name == ":trace" {
			arg = strings.TrimLeft(arg, " ")
			return arg, completeFile(arg)
		}
		return "", nil
	}
	i := len(head)
	for i > 0 && isWordByte(head[i-1]) {
		i--
	}
	word = head[i:]
	if word == "" {
		return "", nil
	}
	return word, r.sess.Complete(word)
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '?' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// completeFile completes a file name; directories end in '/'.
func completeFile(prefix string) []string {
	dir, base := filepath.Split(prefix)
	ents, err := os.ReadDir(dirOrDot(dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, base) || strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if e.IsDir() {
			n += "/"
		}
		out = append(out, dir+n)
	}
	sort.Strings(out)
	return out
}

func dirOrDot(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// ---- coloured JSON ------------------------------------------------------

// jsonColors colours the parts of a printed value; termout.ColorJSON prints it.
type jsonColors = termout.Colors

func defaultJSONColors() *jsonColors {
	mk := func(attrs ...color.Attribute) func(string) string {
		c := color.New(attrs...)
		c.EnableColor()
		return func(s string) string { return c.Sprint(s) }
	}
	return &jsonColors{
		Key:    mk(color.FgBlue, color.Bold),
		String: mk(color.FgGreen),
		Number: mk(color.FgCyan),
		Bool:   mk(color.FgYellow),
		Null:   mk(color.FgHiBlack),
	}
}

// ---- the command --------------------------------------------------------

// historyPath is $XDG_STATE_HOME/a0/history, else
// ~/.local/state/a0/history; "" (no history) when HOME is unset.
func historyPath() string {
	home := os.Getenv("HOME")
	if home == "" {
		return ""
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "a0", "history")
	}
	return filepath.Join(home, ".local", "state", "a0", "history")
}

func (c *cli) repl() int {
	f, isFile := c.stdin.(*os.File)
	interactive := isFile && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
	report := func(d *diag.Diagnostic) {
		if interactive {
			io.WriteString(c.stderr, d.Text("", diagStyle(c.stderr))+"\n")
		} else {
			io.WriteString(c.stderr, d.JSON(hintForm(d, diag.FormCLI))+"\n")
		}
	}
	grants, toolCfg, ceiling, perr := c.resolveRunPolicy(c.inv.Flags[optUnsafeAllowAll])
	if perr != nil {
		report(perr)
		return diag.ExitCap
	}
	var extra []runtime.Option
	if m := newMCPManager(grants, c.pol.wd); m != nil {
		defer m.Close() // servers live for the session
		extra = append(extra, runtime.WithTools(hostpolicy.SessionMCPTools(m, grants)...))
	}
	env, err := newEnvWith(toolCfg, extra...)
	if err != nil {
		report(&diag.Diagnostic{Code: diag.ERuntime, Message: err.Error()})
		return diag.ExitRuntime
	}
	cfg := replConfig{
		Interactive: interactive,
		Policy:      grants,
		Ceiling:     ceiling,
		// The session is one run: its jobs and its trace share one run id.
		RunID: trace.NewRunID(),
	}
	if toolCfg.Exec != nil {
		cfg.InputMask = toolCfg.Exec.Mask
	}
	if path := c.inv.Values[optTrace]; path != "" {
		tw, d := runtime.OpenTraceFile(path, cfg.RunID)
		if d != nil {
			report(d)
			return diag.ExitRuntime
		}
		cfg.Trace, cfg.TracePath = tw, path
	}
	if !interactive {
		return runREPL(env, newPlainLines(c.stdin, nil), c.stdout, c.stderr, cfg)
	}
	cfg.Color = useColor(c.stdout)
	cfg.Style = diagStyle(c.stderr)
	var r *repl
	rl, err := newReadlineLines(f, c.stdout, c.stderr, historyPath(), func(head string) (string, []string) {
		return r.complete(head)
	})
	if err != nil {
		report(&diag.Diagnostic{Code: diag.ERuntime, Message: "cannot start the line editor: " + err.Error()})
		return diag.ExitRuntime
	}
	defer rl.close()
	r = newREPL(env, rl, c.stdout, c.stderr, cfg)
	defer r.close()
	fmt.Fprintf(c.stdout, "a0 %s: type :help for help, Ctrl-D to exit\n", version)
	return r.loop()
}
