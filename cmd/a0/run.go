package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hostpolicy"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/tools"
	"github.com/a0lang/a0/runtime/trace"
)

// readSource reads the program text (file or "-" for stdin) and decodes it
// with the WHATWG UTF-8 rule (runtime.ReadSource).
func (c *cli) readSource(file string, allowStdin bool) (string, *diag.Diagnostic) {
	if file == "-" && allowStdin {
		return runtime.ReadSource(c.stdin, file)
	}
	return runtime.ReadSourceFile(file)
}

// reportReadError prints a failure of readSource and returns the exit
// code: a program too large is a static error, like the parser's.
func (c *cli) reportReadError(d *diag.Diagnostic, pretty bool) int {
	if d.Code == diag.EParse {
		c.printStatic(diag.List{d}, pretty, "")
		return diag.ExitStatic
	}
	c.printOne(d, diag.FormCLI, pretty, "")
	return diag.ExitRuntime
}

// newEnv builds the interpreter environment the CLI uses.
func newEnv(extra ...runtime.Option) (*runtime.Env, error) {
	wd, err := getwd()
	if err != nil {
		return nil, err
	}
	opts := append([]runtime.Option{runtime.WithTools(standardTools()...), runtime.WithWorkDir(wd)}, extra...)
	return runtime.NewEnv(opts...)
}

func (c *cli) check() int {
	pretty := c.inv.Flags[optPretty]
	src, derr := c.readSource(c.inv.File, false)
	if derr != nil {
		return c.reportReadError(derr, pretty)
	}
	// check starts no server and no command: the MCP tools of the
	// command's policy are known by name, or by the schema cache.
	cp := c.loadPolicy(false)
	var extra []runtime.Option
	if m := newMCPManager(cp.res, cp.wd); m != nil {
		defer m.Close()
		extra = append(extra, runtime.WithTools(hostpolicy.ProgramMCPTools(m, c.inv.File, src)...))
	}
	env, err := newEnv(extra...)
	if err != nil {
		c.printOne(&diag.Diagnostic{Code: diag.ERuntime, Message: err.Error()}, diag.FormCLI, pretty, "")
		return diag.ExitRuntime
	}
	_, ds := env.CompileWith(c.inv.File, src, runtime.CompileOptions{DebugParse: c.inv.Flags[optDebugParse], Strict: c.inv.Flags[optStrict], Literals: true})
	if len(ds) > 0 {
		if d := hostpolicy.PolicyBeforeStatic(ds, cp.err); d != nil {
			c.printOne(d, diag.FormCLI, pretty, "")
			return diag.ExitCap
		}
		hostpolicy.MCPNamespaceHints(ds, cp.res)
		c.printStatic(ds, pretty, src)
		return diag.ExitStatic
	}
	if c.inv.Values[optPolicy] != "" && cp.err != nil {
		// check runs nothing, but a policy named with --policy is
		// validated, so a mistake in it shows before the run. A policy
		// found in the working folder or the home directory is not
		// check's business (it only names the MCP servers' tools).
		c.printOne(cp.err, diag.FormCLI, pretty, "")
		return diag.ExitCap
	}
	switch {
	case pretty:
		io.WriteString(c.stdout, "No errors found.\n")
	case c.inv.Flags[optStableJSON]:
		io.WriteString(c.stdout, `{"ok":true,"errors":[]}`+"\n")
	default:
		io.WriteString(c.stdout, "[]\n")
	}
	return diag.ExitOK
}

func (c *cli) run() int {
	pretty := c.inv.Flags[optPretty]
	file := c.inv.File
	if msg := c.outputClash(); msg != "" {
		io.WriteString(c.stderr, "error: "+msg+"\n")
		return diag.ExitUsage
	}
	src, derr := c.readSource(file, true)
	if derr != nil {
		return c.reportReadError(derr, pretty)
	}
	// The policy configures the tools the program is compiled against; a
	// policy error is reported after the program's static errors.
	grants, toolCfg, ceiling, perr := c.resolveRunPolicy(c.inv.Flags[optUnsafeAllowAll])
	var extra []runtime.Option
	mcpm := newMCPManager(grants, c.pol.wd)
	if mcpm != nil {
		defer mcpm.Close() // no server outlives the run
		extra = append(extra, runtime.WithTools(hostpolicy.ProgramMCPTools(mcpm, file, src)...))
	}
	env, err := newEnvWith(toolCfg, extra...)
	if err != nil {
		c.printOne(&diag.Diagnostic{Code: diag.ERuntime, Message: err.Error()}, diag.FormCLI, pretty, "")
		return diag.ExitRuntime
	}
	prog, ds := env.CompileWith(file, src, runtime.CompileOptions{DebugParse: c.inv.Flags[optDebugParse], ToolSchemas: true})
	if len(ds) > 0 && mcpm != nil && hostpolicy.RelistStale(mcpm, grants, ds) {
		// Static errors from the schema cache: judged again against
		// what the servers list now, so a stale entry refuses nothing.
		if env2, err := newEnvWith(toolCfg, runtime.WithTools(hostpolicy.ProgramMCPTools(mcpm, file, src)...)); err == nil {
			env = env2
			prog, ds = env.CompileWith(file, src, runtime.CompileOptions{DebugParse: c.inv.Flags[optDebugParse], ToolSchemas: true})
		}
	}
	if len(ds) > 0 {
		if d := hostpolicy.PolicyBeforeStatic(ds, perr); d != nil {
			c.printOne(d, diag.FormCLI, pretty, "")
			return diag.ExitCap
		}
		hostpolicy.MCPNamespaceHints(ds, grants)
		c.printStatic(ds, pretty, src)
		return diag.ExitStatic
	}
	if perr != nil {
		c.printOne(perr, diag.FormCLI, pretty, "")
		return diag.ExitCap
	}
	opts := runtime.RunOptions{Grants: grants, Ceiling: ceiling, Start: processStart}
	if !c.setInputs(&opts, prog, toolCfg, pretty, src) {
		return diag.ExitStatic
	}
	if file != "-" && isTerminal(c.stdin) && isTerminal(c.stderr) {
		c.askAtTerminal(&opts, file, prog, env)
	}
	// The run id names the trace's lines and the run's background jobs;
	// without a trace the exec tools draw one when a job first needs it.
	var tw *traceFile
	if path := c.inv.Values[optTrace]; path != "" {
		runID := trace.NewRunID()
		opts.RunID = runID
		tw, derr = runtime.OpenTraceFile(path, runID)
		if derr != nil {
			c.printOne(derr, diag.FormCLI, pretty, "")
			return diag.ExitRuntime
		}
		defer tw.Close()
		opts.Trace = tw
	}
	kill := proc.NewKillSwitch()
	ctx, cancel := context.WithCancelCause(proc.WithKillSwitch(context.Background(), kill))
	defer cancel(nil)
	sigs := newRunSignals(cancel, kill)
	sigs.exitAfter = shutdownBound(toolCfg)
	if c.inv.Values[optTrace] != "" || c.inv.Values[optEvidence] != "" {
		sigs.install()
	} else {
		// Installing the handlers costs ~1 ms (see runSignals): they
		// wait for the run's first tool call or its first 5 ms.
		opts.BeforeTool = sigs.install
		t := time.AfterFunc(5*time.Millisecond, sigs.install)
		defer t.Stop()
	}
	defer sigs.stop()
	res, rerr := prog.Run(ctx, opts)
	if mcpm != nil {
		mcpm.Close()
	}
	gotSig := sigs.after()
	defer sigs.release()
	// Output-file failures come after the run's own error: the first
	// failure is reported, the later ones ride in its details ("also").
	later := c.closeOutputs(res, rerr, tw)
	if rerr != nil {
		e, form := runtime.ErrorOf(rerr)
		if h := hostpolicy.GrantHint(e, grants, prog.Capabilities()); h != "" {
			e.Hint = h
		}
		d := e.Report()
		if len(later) > 0 {
			d, form = runtime.WithLaterFailures(d, later), diag.FormRuntime
		}
		c.printOne(d, form, pretty, src)
		if e.Code == diag.ECancelled && gotSig != nil {
			return 128 + signalNumber(gotSig)
		}
		return e.ExitCode()
	}
	if len(later) > 0 {
		d, form := later[0], diag.FormCLI
		if len(later) > 1 {
			d, form = runtime.WithLaterFailures(d, later[1:]), diag.FormRuntime
		}
		c.printOne(d, form, pretty, "")
		return diag.ExitRuntime
	}
	io.WriteString(c.stdout, value.JSONIndent(res.Value)+"\n")
	if res.Failed {
		for _, d := range prog.FailedChecks(res.Evidence) {
			c.printOne(d, diag.FormRuntime, pretty, src)
		}
	}
	return runtime.ExitCode(res, nil)
}

// askAtTerminal lets a person at a terminal be asked for the program's
// capabilities instead of refused: it asks for each in turn (until one is
// refused; the run's start-up check reports it), and the run's time
// starts after the answers.
func (c *cli) askAtTerminal(opts *runtime.RunOptions, file string, prog *runtime.Program, env *runtime.Env) {
	pg := &promptGrants{base: opts.Grants, file: file, tools: capTools(prog, env),
		in: bufio.NewReader(c.stdin), out: c.stderr, answers: map[string]bool{}}
	for _, capID := range prog.Capabilities() {
		if !pg.Allowed(capID) {
			break // the run's start-up check reports it
		}
	}
	if len(pg.answers) > 0 {
		// The time a person took to answer is not the program's.
		opts.Start = time.Now()
	}
	opts.Grants = pg
}

// closeOutputs writes the evidence file and closes the trace file after a
// run, and returns their failures (E_IO) in that order.
func (c *cli) closeOutputs(res *runtime.Result, rerr error, tw *traceFile) []*diag.Diagnostic {
	var later []*diag.Diagnostic
	if path := c.inv.Values[optEvidence]; path != "" {
		ev := res.Evidence
		if e, ok := rerr.(*runtime.Error); ok && (e.Code == diag.EIO || e.Code == diag.ERuntime && e.Span == nil) {
			ev = nil
		}
		if err := writeEvidence(path, ev); err != nil {
			later = append(later, &diag.Diagnostic{Code: diag.EIO, Message: "Error writing evidence file: " + runtime.FileErrorText(err, path), Hint: runtime.OutputPathHint(err, path, "evidence.json")})
		}
	}
	if tw != nil {
		if err := tw.Close(); err != nil {
			later = append(later, &diag.Diagnostic{Code: diag.EIO, Message: "Error closing trace file: " + runtime.FileErrorText(err, "")})
		}
	}
	return later
}

// runSignals makes SIGINT and SIGTERM cancel the run even when they were
// ignored at start; SIGHUP only when it was not (nohup). A second signal
// makes the exec engine's stop sequences skip their grace period.
//
// Setting the handlers up costs ~1 ms in a fresh process (the runtime
// starts a thread for the signal mask), a quarter of a short run, so they
// are installed before the run's first tool call, after 5 ms of running,
// or at once when a trace or evidence file must be finished. Until then a
// signal has its default effect on a run that has started nothing.
type runSignals struct {
	cancel    context.CancelCauseFunc
	kill      *proc.KillSwitch
	sig       chan os.Signal
	sigs      []os.Signal
	mu        sync.Mutex
	got       os.Signal // the signal that cancelled the run
	done      chan struct{}
	once      sync.Once
	installed atomic.Bool
	// exitAfter bounds the shutdown after a signal: past it a0 exits with
	// 128 + the signal number whatever the run is doing (0: never).
	exitAfter time.Duration
	// exit ends the process (os.Exit; tests replace it).
	exit func(code int)
}

func newRunSignals(cancel context.CancelCauseFunc, kill *proc.KillSwitch) *runSignals {
	s := &runSignals{cancel: cancel, kill: kill, sig: make(chan os.Signal, 2), done: make(chan struct{}), exit: os.Exit,
		sigs: []os.Signal{os.Interrupt, syscall.SIGTERM}}
	if !signal.Ignored(syscall.SIGHUP) {
		s.sigs = append(s.sigs, syscall.SIGHUP)
	}
	return s
}

// install sets the handlers up (once, and never after after).
func (s *runSignals) install() {
	s.once.Do(func() {
		signal.Notify(s.sig, s.sigs...)
		s.installed.Store(true)
		go func() {
			select {
			case sg := <-s.sig:
				s.mu.Lock()
				s.got = sg
				s.mu.Unlock()
				s.cancel(runtime.SignalCause{Signal: signalName(sg)})
				s.watchdog(sg)
			case <-s.done:
				return
			}
			select {
			case <-s.sig:
				s.kill.Trip()
			case <-s.done:
			}
		}()
	})
}

// watchdog ends the process when the run has not ended exitAfter after
// the signal sg cancelled it: every stop sequence is cut short (SIGKILL to
// the commands' groups), and a0 exits with 128 + the signal number.
func (s *runSignals) watchdog(sg os.Signal) {
	if s.exitAfter <= 0 {
		return
	}
	go func() {
		t := time.NewTimer(s.exitAfter)
		defer t.Stop()
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		s.kill.Trip()
		select {
		case <-s.done:
			return
		case <-time.After(200 * time.Millisecond):
		}
		os.Stderr.WriteString((&diag.Diagnostic{Code: diag.ECancelled, Message: "Run cancelled by " + signalName(sg) +
			"; it did not end within " + s.exitAfter.String() + ", so a0 exits without finishing it."}).JSON(diag.FormCLI) + "\n")
		s.exit(128 + signalNumber(sg))
	}()
}

// shutdownBound is how long a cancelled run may take to end: the stop
// sequence of its commands (grace, then the output drain) and 2 s more.
func shutdownBound(cfg tools.Config) time.Duration {
	grace, drain := 2*time.Second, 2*time.Second
	if cfg.Exec != nil {
		grace, drain = cfg.Exec.Grace, cfg.Exec.Drain
	}
	return grace + drain + 2*time.Second
}

// after is called when the run is over: no handlers are installed from
// now on, and it returns the signal that cancelled the run, which stays
// so until release.
func (s *runSignals) after() os.Signal {
	s.once.Do(func() {})
	s.mu.Lock()
	return s.got
}

// release ends after's hold on the received signal.
func (s *runSignals) release() { s.mu.Unlock() }

// stop ends the handlers' goroutine and restores the signals' default
// effect.
func (s *runSignals) stop() {
	close(s.done)
	if s.installed.Load() {
		signal.Stop(s.sig)
	}
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

func signalNumber(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return int(n)
	}
	return int(syscall.SIGINT)
}

// writeEvidence writes the evidence list as JSON-2 without a final newline.
func writeEvidence(path string, ev []value.Value) error {
	if ev == nil {
		ev = []value.Value{}
	}
	return os.WriteFile(path, []byte(value.JSONIndent(value.ListOf(ev))), 0o644)
}

func getwd() (string, error) { return syscall.Getwd() }

// sameFile reports whether paths a and b name one output file: the same
// path, existing or not, or one existing regular file. Devices
// (/dev/stderr twice) are not one file.
func sameFile(a, b string) bool {
	aa, errA := filepath.Abs(a)
	ab, errB := filepath.Abs(b)
	if errA == nil && errB == nil && aa == ab {
		return !strings.HasPrefix(aa, "/dev/")
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && sa.Mode().IsRegular() && os.SameFile(sa, sb)
}

// outputClash reports an output file of a0 run (--trace, --evidence) that
// is one of the files the run reads (the program, an --input-file, the
// --policy file) or the other output: writing it would destroy that file
// (a0 run prog.a0 --trace prog.a0 once replaced the program with its
// trace). Only existing regular files are compared, so two outputs to
// /dev/stderr are fine. "" when there is no clash.
func (c *cli) outputClash() string {
	type named struct{ what, path string }
	var outs, ins []named
	for _, o := range []named{{"--trace", c.inv.Values[optTrace]}, {"--evidence", c.inv.Values[optEvidence]}} {
		if o.path != "" {
			outs = append(outs, o)
		}
	}
	if len(outs) == 0 {
		return ""
	}
	if c.inv.File != "-" {
		ins = append(ins, named{"the program file", c.inv.File})
	}
	for _, f := range c.inv.All[optInputFile] {
		ins = append(ins, named{"the --input-file", f})
	}
	if p := c.inv.Values[optPolicy]; p != "" {
		ins = append(ins, named{"the --policy file", p})
	}
	// The two outputs: the same path (existing or not), or one file.
	if len(outs) == 2 && sameFile(outs[0].path, outs[1].path) {
		return "options '--trace' and '--evidence' name the same file '" + outs[1].path + "': the evidence would overwrite the trace; give each a file of its own (for example --trace trace.jsonl --evidence evidence.json)"
	}
	for _, o := range outs {
		so, err := os.Stat(o.path)
		if err != nil || !so.Mode().IsRegular() {
			continue
		}
		for _, in := range ins {
			if si, err := os.Stat(in.path); err == nil && os.SameFile(so, si) {
				example := map[string]string{"--trace": "trace.jsonl", "--evidence": "evidence.json"}[o.what]
				return "option '" + o.what + "' names " + in.what + " '" + in.path + "': writing it would overwrite that file; give " + o.what + " a file of its own (for example " + o.what + " " + example + ")"
			}
		}
	}
	return ""
}
