package tools

import (
	"context"
	"encoding/base64"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
)

// ShExec is the sh.exec tool: run a command to completion (spec/exec.md §2, §5).
type ShExec struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShExec) Name() string { return "sh.exec" }

// Capability implements runtime.Tool.
func (ShExec) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShExec) Mode() runtime.Mode { return runtime.ModeEffect }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShExec) AwaitedOnStop() bool { return true }

// Params implements runtime.Tool.
func (ShExec) Params() []runtime.Param { return shExecParams }

// shExecParams is built once: the interpreter reads it on every call. The
// reference's four arguments keep its order (cmd, cwd, timeoutMs, env), so
// type issues are listed as it lists them.
var shExecParams = []runtime.Param{
	{Name: "cmd", Type: runtime.TypeString, Doc: "shell command line (exactly one of cmd and argv)"},
	{Name: "argv", Type: runtime.TypeStringList, Doc: "program and arguments, run without a shell"},
	{Name: "shell", Type: runtime.TypeString, Doc: "shell for cmd: sh (default), bash, zsh, dash or an absolute path"},
	{Name: "cwd", Type: runtime.TypeString, Doc: "working directory"},
	{Name: "timeoutMs", Type: runtime.TypeNumber, Doc: "timeout in ms (default 30000; 0 = the maximum)"},
	{Name: "env", Type: runtime.TypeStringMap, Doc: "environment variables to set"},
	{Name: "envMode", Type: runtime.TypeString, Doc: "inherit (default), clean or replace"},
	{Name: "envRemove", Type: runtime.TypeStringList, Doc: "inherited variables to drop"},
	{Name: "mask", Type: runtime.TypeStringList, Doc: "extra env names whose values are secret"},
	{Name: "stdin", Type: runtime.TypeString, Doc: "text fed to the command's standard input"},
	{Name: "stdinEncoding", Type: runtime.TypeString, Doc: "utf8 (default) or base64"},
	{Name: "merge", Type: runtime.TypeBool, Doc: "send stderr into stdout"},
	{Name: "maxOutputBytes", Type: runtime.TypeNumber, Doc: "bytes kept per stream (default 10 MiB)"},
	{Name: "truncate", Type: runtime.TypeString, Doc: "head, tail or both (default): what to keep of a long stream"},
	{Name: "encoding", Type: runtime.TypeString, Doc: "utf8 (default) or base64 output"},
	{Name: "outputLimitBytes", Type: runtime.TypeNumber, Doc: "stop the command past this many output bytes (0: off)"},
	{Name: "graceMs", Type: runtime.TypeNumber, Doc: "ms between SIGTERM and SIGKILL (default 2000)"},
	{Name: "onTimeout", Type: runtime.TypeString, Doc: "error (default: E_TOOL) or result (timedOut: true)"},
	{Name: "pty", Type: runtime.TypeBool, Doc: "run on a pseudo-terminal (stdout carries stdout and stderr)"},
	{Name: "cols", Type: runtime.TypeNumber, Doc: "terminal width with pty (default 80)"},
	{Name: "rows", Type: runtime.TypeNumber, Doc: "terminal height with pty (default 24)"},
	{Name: "login", Type: runtime.TypeBool, Doc: "start as a login shell (argv[0] prefixed with -)"},
}

const (
	defaultTimeoutMs = 30000
	maxTimeoutMs     = 600000
	defaultMaxOutput = 10 << 20
	maxOutputCeiling = 64 << 20
	defaultGraceMs   = 2000
	maxArgBytes      = 131072
)

func isInt(v value.Value, lo, hi float64) bool {
	f := v.AsNumber()
	return v.Kind() == value.Number && f == math.Trunc(f) && f >= lo && f <= hi
}

func oneOf(v value.Value, choices ...string) bool {
	s := v.AsString()
	for _, c := range choices {
		if s == c {
			return true
		}
	}
	return false
}

// CheckArgs implements runtime.ArgChecker with the rules of spec/exec.md §2.
func (ShExec) CheckArgs(a *value.Record) []string { return checkExecArgs("sh.exec", a) }

// checkExecArgs checks the command arguments sh.exec and sh.start share;
// tool is the name the messages give. Issues come in a fixed order: the
// command, its environment, its input and output, its limits.
func checkExecArgs(tool string, a *value.Record) []string {
	issues := commandIssues(tool, a)
	issues = append(issues, environmentIssues(a)...)
	issues = append(issues, streamIssues(a)...)
	issues = append(issues, terminalIssues(a)...)
	return append(issues, limitIssues(a)...)
}

// commandIssues checks the command: exactly one of cmd (a shell string)
// and argv (a program and its arguments), within the size bounds.
func commandIssues(tool string, a *value.Record) []string {
	var issues []string
	add := func(s string) { issues = append(issues, s) }
	cmd, hasCmd := a.Get("cmd")
	argv, hasArgv := a.Get("argv")
	switch {
	case hasCmd && hasArgv:
		add("cmd: give exactly one of 'cmd' and 'argv', not both")
	case !hasCmd && !hasArgv:
		add("cmd: " + tool + " requires a 'cmd' or 'argv' argument")
	case hasCmd:
		s := cmd.AsString()
		if s == "" {
			add("cmd: must not be empty")
		} else if strings.IndexByte(s, 0) >= 0 || len(s) >= maxArgBytes {
			add("cmd: must not contain NUL and must be shorter than 128 KiB")
		}
	case hasArgv:
		items := argv.AsList()
		if len(items) == 0 || items[0].AsString() == "" {
			add("argv: must have at least one element and a non-empty program")
		}
		total := 0
		for _, it := range items {
			s := it.AsString()
			total += len(s)
			if strings.IndexByte(s, 0) >= 0 || len(s) >= maxArgBytes {
				add("argv: elements must not contain NUL and must be shorter than 128 KiB")
				break
			}
		}
		if len(items) > 4096 || total > 256<<10 {
			add("argv: at most 4096 elements and 256 KiB in total")
		}
		if _, ok := a.Get("shell"); ok {
			add("shell: only allowed with 'cmd'")
		}
	}
	return issues
}

// Bounds of the environment arguments (spec/exec.md §2).
const (
	maxEnvVars   = 1024    // variables in env
	maxEnvBytes  = 1 << 20 // NAME=value bytes of env together
	maxEnvRemove = 256     // names in envRemove
	maxMaskNames = 64      // names in mask
)

// environmentIssues checks where and with which variables the command
// runs: cwd, env names and envMode.
func environmentIssues(a *value.Record) []string {
	var issues []string
	if v, ok := a.Get("cwd"); ok && v.AsString() == "" {
		issues = append(issues, "cwd: must not be empty")
	}
	if env := a.GetOrNull("env").AsRecord(); env != nil {
		total := 0
		for i, k := range env.Keys() {
			v := env.At(i).AsString()
			total += len(k) + 1 + len(v)
			switch {
			case k == "" || strings.ContainsAny(k, "=\x00") || len(k) > 256:
				issues = append(issues, "env."+k+": invalid variable name")
			case strings.IndexByte(v, 0) >= 0 || len(k)+1+len(v) >= maxArgBytes:
				issues = append(issues, "env."+k+": the value must not contain NUL, and NAME=value must be shorter than 128 KiB")
			}
		}
		if env.Len() > maxEnvVars || total > maxEnvBytes {
			issues = append(issues, "env: at most 1024 variables and 1 MiB in total")
		}
	}
	if l := a.GetOrNull("envRemove").AsList(); len(l) > maxEnvRemove {
		issues = append(issues, "envRemove: at most 256 names")
	}
	if l := a.GetOrNull("mask").AsList(); len(l) > maxMaskNames {
		issues = append(issues, "mask: at most 64 names")
	}
	if v, ok := a.Get("envMode"); ok && !oneOf(v, "inherit", "clean", "replace") {
		issues = append(issues, "envMode: must be one of inherit, clean, replace")
	}
	return issues
}

// streamIssues checks the choices about input and output: stdin's
// encoding (and base64 stdin), truncation, output encoding, and what a
// timeout gives.
func streamIssues(a *value.Record) []string {
	var issues []string
	if v, ok := a.Get("stdinEncoding"); ok && !oneOf(v, "utf8", "base64") {
		issues = append(issues, "stdinEncoding: must be one of utf8, base64")
	} else if ok && v.AsString() == "base64" {
		if _, err := base64.StdEncoding.DecodeString(a.GetOrNull("stdin").AsString()); err != nil {
			issues = append(issues, "stdin: invalid base64")
		}
	}
	if v, ok := a.Get("truncate"); ok && !oneOf(v, "head", "tail", "both") {
		issues = append(issues, "truncate: must be one of head, tail, both")
	}
	if v, ok := a.Get("encoding"); ok && !oneOf(v, "utf8", "base64") {
		issues = append(issues, "encoding: must be one of utf8, base64")
	}
	if v, ok := a.Get("onTimeout"); ok && !oneOf(v, "error", "result") {
		issues = append(issues, "onTimeout: must be one of error, result")
	}
	return issues
}

// limitIssues checks the numeric limits: output sizes, timeout and grace.
func limitIssues(a *value.Record) []string {
	var issues []string
	for _, f := range []string{"maxOutputBytes", "outputLimitBytes", "timeoutMs"} {
		if v, ok := a.Get(f); ok && !isInt(v, 0, 1<<53) {
			issues = append(issues, f+": must be a non-negative integer")
		}
	}
	if v, ok := a.Get("graceMs"); ok && !isInt(v, 0, 60000) {
		issues = append(issues, "graceMs: must be an integer from 0 to 60000")
	}
	return issues
}

// execRun is the per-run state of the exec tools: the engine and the
// run's background jobs. It is a runtime.Resource, closed at run end.
type execRun struct {
	engine *proc.Engine
	jobs   *proc.Jobs
}

// Close stops every job of the run (run-end cleanup, spec/exec.md §6.4).
func (x *execRun) Close(reason string) { x.jobs.CloseAll(reason) }

// RunningJobs describes the running background jobs of a session, one
// line each ("j_… tag running: cmd"), for the REPL's :jobs.
func RunningJobs(s *runtime.Session) []string {
	x, ok := s.Resource("a0.exec").(*execRun)
	if !ok || x == nil {
		return nil
	}
	var out []string
	for _, j := range x.jobs.List() {
		info := j.Info()
		if info.State != "running" {
			continue
		}
		what := info.Cmd
		if what == "" {
			what = strings.Join(info.Argv, " ")
		}
		line := info.ID
		if info.Tag != "" {
			line += " [" + info.Tag + "]"
		}
		out = append(out, line+" running: "+what)
	}
	return out
}

func execFor(c *runtime.Call, tc *Config) *execRun {
	// The roots are pinned before the engine exists (and before its
	// first command), and its Landlock rules are made from them.
	pins := pinnedRoots(c, tc)
	return c.Resource("a0.exec", func() runtime.Resource {
		// The run's own configuration (RunOptions.Exec), else the tools'.
		var cfg proc.Config
		if rc := c.Exec(); rc != nil {
			cfg = *rc
		} else {
			cfg = tc.execConfig()
		}
		if cfg.Sandbox != nil && cfg.Sandbox.OpenRoot == nil {
			sb := *cfg.Sandbox
			sb.OpenRoot = pins.openRule
			cfg.Sandbox = &sb
		}
		if c.WorkDir != "" {
			cfg.WorkDir = c.WorkDir
		}
		if names := secretEnvSources(tc.secretList()); names != nil {
			// A secret's source variable reaches a command only through
			// a placeholder.
			cfg.EnvDeny = append(append([]string(nil), cfg.EnvDeny...), names...)
		}
		e := proc.NewEngine(cfg)
		x := &execRun{engine: e, jobs: proc.NewJobs(e)}
		x.bind(c)
		return x
	}).(*execRun)
}

// request decodes the shared argument blocks of sh.exec and sh.start.
func request(c *runtime.Call, isJob bool) *proc.Request {
	a := c.Args
	r := &proc.Request{IsJob: isJob, MaxOutput: -1, Remaining: c.Remaining()}
	if v, ok := a.Get("argv"); ok {
		for _, it := range v.AsList() {
			r.Argv = append(r.Argv, it.AsString())
		}
	} else {
		r.Cmd = a.GetOrNull("cmd").AsString()
	}
	r.Shell = a.GetOrNull("shell").AsString()
	r.Cwd = a.GetOrNull("cwd").AsString()
	if env := a.GetOrNull("env").AsRecord(); env != nil {
		for i, k := range env.Keys() {
			r.Env = append(r.Env, [2]string{k, env.At(i).AsString()})
		}
	}
	r.EnvMode = a.GetOrNull("envMode").AsString()
	for _, it := range a.GetOrNull("envRemove").AsList() {
		r.EnvRemove = append(r.EnvRemove, it.AsString())
	}
	for _, it := range a.GetOrNull("mask").AsList() {
		r.Mask = append(r.Mask, it.AsString())
	}
	if v, ok := a.Get("stdin"); ok {
		r.HasStdin = true
		if a.GetOrNull("stdinEncoding").AsString() == "base64" {
			r.Stdin, _ = base64.StdEncoding.DecodeString(v.AsString())
		} else {
			r.Stdin = []byte(v.AsString())
		}
	}
	r.Merge = a.GetOrNull("merge").AsBool()
	r.DefaultOut = defaultMaxOutput
	if isJob {
		r.DefaultOut = 1 << 20
	}
	if v, ok := a.Get("maxOutputBytes"); ok {
		r.MaxOutput = int64(v.AsNumber())
	}
	r.Truncate = a.GetOrNull("truncate").AsString()
	r.OutputLimit = int64(a.GetOrNull("outputLimitBytes").AsNumber())
	if v, ok := a.Get("timeoutMs"); ok {
		r.HasTimeout = true
		r.Timeout = time.Duration(v.AsNumber()) * time.Millisecond
	}
	if v, ok := a.Get("graceMs"); ok {
		r.HasGrace = true
		r.Grace = time.Duration(v.AsNumber()) * time.Millisecond
	}
	terminalRequest(a, r)
	return r
}

// engineError maps a proc.Error to the runtime error of spec/exec.md §9.
func engineError(c *runtime.Call, err error) error {
	pe, ok := err.(*proc.Error)
	if !ok {
		return err
	}
	extra := value.NewRecord(len(pe.Fields))
	for _, f := range pe.Fields {
		extra.Set(f[0], value.Str(f[1]))
	}
	switch pe.Kind {
	case proc.KindCapDenied:
		d := value.NewRecord(4 + len(pe.Fields))
		d.Set("capability", value.Str("sh.exec"))
		d.Set("tool", value.Str(c.Tool))
		d.Set("reason", value.Str(string(pe.Reason)))
		for _, f := range pe.Fields {
			d.Set(f[0], value.Str(f[1]))
		}
		hint := ""
		if pe.Reason == proc.ReasonSecretNotAllowed {
			hint = secretHint(pe.Msg, pe.Fields)
		}
		return &runtime.Error{Diagnostic: *diag.New(diag.ECapDenied, c.Span, "Capability 'sh.exec' does not allow this call: "+pe.Msg, hint), Details: value.RecordOf(d)}
	case proc.KindArgs:
		d := value.NewRecord(3 + len(pe.Fields))
		d.Set("tool", value.Str(c.Tool))
		d.Set("reason", value.Str(string(pe.Reason)))
		for _, f := range pe.Fields {
			d.Set(f[0], value.Str(f[1]))
		}
		return &runtime.Error{Diagnostic: *diag.New(diag.EToolArgs, c.Span, "Invalid arguments for tool '"+c.Tool+"': "+pe.Msg, ""), Details: value.RecordOf(d)}
	}
	return &runtime.ToolError{Msg: pe.Msg, Reason: string(pe.Reason), Extra: extra}
}

// RedactArgs implements runtime.Redactor: strings are masked, env values
// of secret names become [masked:NAME], stdin is summarised. No argument
// is ignored: unknown ones are refused before the call starts.
func (t ShExec) RedactArgs(c *runtime.Call, args *value.Record) (value.Value, []string) {
	return redactExecArgs(c, t.cfg, args), nil
}

func redactExecArgs(c *runtime.Call, cfg *Config, args *value.Record) value.Value {
	x := execFor(c, cfg)
	// The mask set of the call: the secrets of its final environment.
	req := request(c, false)
	secrets := x.engine.SecretsFor(req)
	m := proc.NewMasker(secrets)
	out := value.NewRecord(args.Len() + 1)
	for i, k := range args.Keys() {
		v := args.At(i)
		switch k {
		case "stdin":
			out.Set(k, value.Str("[stdin: "+strconv.Itoa(len(req.Stdin))+" bytes]"))
			continue
		case "env":
			if env := v.AsRecord(); env != nil {
				er := value.NewRecord(env.Len())
				for j, name := range env.Keys() {
					val := env.At(j).AsString()
					if x.engine.IsSecretName(name, req.Mask) {
						er.Set(name, value.Str("[masked:"+name+"]"))
					} else {
						er.Set(name, value.Str(m.String(val)))
					}
				}
				out.Set(k, value.RecordOf(er))
				continue
			}
		}
		if m != nil {
			v = value.MapStrings(v, m.String, false)
		}
		out.Set(k, v)
	}
	return value.RecordOf(out)
}

// Call implements runtime.Tool.
func (t ShExec) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	req := request(c, false)
	req.Secrets = secretsFor(c, t.cfg).execUse()
	prep, err := x.engine.Prepare(req)
	if err != nil {
		return value.Value{}, engineError(c, err)
	}
	prep.Spec.OnSignalEvent = func(ev proc.SignalEvent) {
		_ = c.Emit("exec_signal", signalData("", ev))
	}
	emitUnconfined(c, prep)
	res, err := x.engine.Run(c.Ctx, prep)
	if err != nil {
		return value.Value{}, startError(c, err)
	}
	c.SetEndData(execEndData(prep, res))
	if res.KillReason == "budget" {
		return value.Value{}, runtime.ErrTimeBudget
	}
	if res.KillReason == "host_cancel" {
		if errors.Is(c.Ctx.Err(), context.DeadlineExceeded) {
			// The run's own deadline (its time budget) stopped it.
			return value.Value{}, runtime.ErrTimeBudget
		}
		return value.Value{}, cancelled(c)
	}
	b64 := c.Args.GetOrNull("encoding").AsString() == "base64"
	stdout, stderr := text(res.Stdout, b64), text(res.Stderr, b64)
	timeoutMs := prep.TimeoutMs
	if res.TimedOut && c.Args.GetOrNull("onTimeout").AsString() != "result" {
		d := value.NewRecord(12)
		d.Set("timeoutMs", value.Num(float64(timeoutMs)))
		d.Set("exitCode", value.Int(res.ExitCode))
		d.Set("signal", nullable(res.Signal))
		d.Set("durationMs", value.Int(int(res.Duration.Milliseconds())))
		d.Set("stdout", value.Str(lastChars(stdout, 16<<10)))
		d.Set("stderr", value.Str(lastChars(stderr, 16<<10)))
		d.Set("stdoutTotalBytes", value.Num(float64(res.Stdout.Total)))
		d.Set("stderrTotalBytes", value.Num(float64(res.Stderr.Total)))
		d.Set("stdoutTruncated", value.BoolOf(res.Stdout.Truncated))
		d.Set("stderrTruncated", value.BoolOf(res.Stderr.Truncated))
		stop := "SIGTERM"
		if res.Signal == "SIGKILL" {
			stop = "SIGKILL"
		}
		return value.Value{}, &runtime.ToolError{Msg: "timed out after " + strconv.FormatInt(timeoutMs, 10) + " ms; process group stopped with " + stop +
			". Pass onTimeout: \"result\" to get the partial output as a result, or raise timeoutMs (policy maximum " +
			strconv.FormatInt(x.engine.Config().MaxTimeout.Milliseconds(), 10) + ").", Reason: "timeout", Extra: d}
	}
	r := value.NewRecord(16)
	r.Set("exitCode", value.Int(res.ExitCode))
	r.Set("stdout", value.Str(stdout))
	r.Set("stderr", value.Str(stderr))
	r.Set("durationMs", value.Int(int(res.Duration.Milliseconds())))
	r.Set("signal", nullable(res.Signal))
	r.Set("timedOut", value.BoolOf(res.TimedOut))
	r.Set("killReason", nullable(res.KillReason))
	r.Set("stdoutTruncated", value.BoolOf(res.Stdout.Truncated))
	r.Set("stderrTruncated", value.BoolOf(res.Stderr.Truncated))
	r.Set("stdoutTotalBytes", value.Num(float64(res.Stdout.Total)))
	r.Set("stderrTotalBytes", value.Num(float64(res.Stderr.Total)))
	r.Set("outputIncomplete", value.BoolOf(res.OutputIncomplete))
	r.Set("leftoverKilled", value.BoolOf(res.LeftoverKilled))
	r.Set("timeoutMs", value.Num(float64(timeoutMs)))
	r.Set("pid", value.Int(res.Pid))
	return value.RecordOf(r), nil
}

// execEndData is the `exec` member of sh.exec's tool_end event.
func execEndData(p *proc.Prepared, res *proc.Result) value.Value {
	d := value.NewRecord(16)
	d.Set("exitCode", value.Int(res.ExitCode))
	d.Set("signal", nullable(res.Signal))
	d.Set("timedOut", value.BoolOf(res.TimedOut))
	d.Set("killReason", nullable(res.KillReason))
	d.Set("stdoutTotalBytes", value.Num(float64(res.Stdout.Total)))
	d.Set("stderrTotalBytes", value.Num(float64(res.Stderr.Total)))
	d.Set("stdoutTruncated", value.BoolOf(res.Stdout.Truncated))
	d.Set("stderrTruncated", value.BoolOf(res.Stderr.Truncated))
	d.Set("outputIncomplete", value.BoolOf(res.OutputIncomplete))
	d.Set("leftoverKilled", value.BoolOf(res.LeftoverKilled))
	d.Set("resolvedPath", value.Str(p.ResolvedPath))
	d.Set("pid", value.Int(res.Pid))
	d.Set("envMode", value.Str(p.EnvMode))
	d.Set("envModeTightened", value.BoolOf(p.EnvModeTightened))
	lim := value.NewRecord(3)
	lim.Set("timeoutMs", value.Num(float64(p.TimeoutMs)))
	lim.Set("graceMs", value.Num(float64(p.GraceMs)))
	lim.Set("maxOutputBytes", value.Num(float64(p.MaxOutput)))
	d.Set("limits", value.RecordOf(lim))
	if sandboxOn(p) {
		d.Set("confined", value.BoolOf(res.Confined))
	}
	return value.RecordOf(d)
}

// sandboxOn reports whether the policy has an exec.sandbox (the exec data
// of tool_end and job_start then say whether the command was confined).
func sandboxOn(p *proc.Prepared) bool { return p.Confined || p.SandboxSkipped != "" }

// emitUnconfined writes the exec_unconfined trace event when a sandbox
// with require: false runs a command unconfined.
func emitUnconfined(c *runtime.Call, p *proc.Prepared) {
	if p.SandboxSkipped == "" {
		return
	}
	d := value.NewRecord(3)
	d.Set("tool", value.Str(c.Tool))
	d.Set("id", value.Str(p.ID))
	d.Set("reason", value.Str(p.SandboxSkipped))
	_ = c.Emit("exec_unconfined", value.RecordOf(d))
}

func nullable(s string) value.Value {
	if s == "" {
		return value.NullValue
	}
	return value.Str(s)
}

// text renders a captured stream: decoded UTF-8 (cut points moved to
// character boundaries) with an omission marker, or base64 of the bytes.
func text(o proc.Output, b64 bool) string {
	if b64 {
		return base64.StdEncoding.EncodeToString(append(append([]byte(nil), o.Head...), o.Tail...))
	}
	if !o.Truncated {
		return value.DecodeBytes(o.Head)
	}
	head, tail := trimHead(o.Head), o.Tail
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	omitted := o.Total - int64(len(head)) - int64(len(tail))
	marker := proc.Omitted(omitted)
	if utf8.Valid(head) && utf8.Valid(tail) {
		// One allocation for the whole text (a capped stream can be large).
		var b strings.Builder
		b.Grow(len(head) + len(marker) + len(tail))
		b.Write(head)
		b.WriteString(marker)
		b.Write(tail)
		return b.String()
	}
	if len(head) == 0 && len(tail) == 0 {
		return marker
	}
	if len(tail) == 0 {
		return value.DecodeBytes(head) + marker
	}
	if len(head) == 0 {
		return marker + value.DecodeBytes(tail)
	}
	return value.DecodeBytes(head) + marker + value.DecodeBytes(tail)
}

// trimHead drops an incomplete UTF-8 character at the end of b, so a cut
// never splits a character.
func trimHead(b []byte) []byte {
	// Find the start of the last character (at most 3 bytes back).
	for i := len(b) - 1; i >= 0 && i >= len(b)-4; i-- {
		if !utf8.RuneStart(b[i]) {
			continue
		}
		if !utf8.FullRune(b[i:]) {
			return b[:i]
		}
		return b
	}
	return b
}

// lastChars returns at most n bytes from the end of s, cut at a character
// boundary.
func lastChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s
}
