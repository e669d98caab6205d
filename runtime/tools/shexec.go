package tools

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
)

// ShExec is the sh.exec tool: run a command to completion (EXEC.md §5).
type ShExec struct{}

// Name implements runtime.Tool.
func (ShExec) Name() string { return "sh.exec" }

// Capability implements runtime.Tool.
func (ShExec) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShExec) Mode() runtime.Mode { return runtime.ModeEffect }

// Params implements runtime.Tool.
func (ShExec) Params() []runtime.Param {
	return []runtime.Param{
		{Name: "cmd", Type: runtime.TypeString, Doc: "shell command line (exactly one of cmd and argv)"},
		{Name: "argv", Type: runtime.TypeStringList, Doc: "program and arguments, run without a shell"},
		{Name: "shell", Type: runtime.TypeString, Doc: "shell for cmd: sh (default), bash, zsh, dash or an absolute path"},
		{Name: "cwd", Type: runtime.TypeString, Doc: "working directory"},
		{Name: "env", Type: runtime.TypeStringMap, Doc: "environment variables to set"},
		{Name: "envMode", Type: runtime.TypeString, Doc: "inherit (default), clean or replace"},
		{Name: "envRemove", Type: runtime.TypeStringList, Doc: "inherited variables to drop"},
		{Name: "stdin", Type: runtime.TypeString, Doc: "text fed to the command's standard input"},
		{Name: "stdinEncoding", Type: runtime.TypeString, Doc: "utf8 (default) or base64"},
		{Name: "merge", Type: runtime.TypeBool, Doc: "send stderr into stdout"},
		{Name: "maxOutputBytes", Type: runtime.TypeNumber, Doc: "bytes kept per stream (default 10 MiB)"},
		{Name: "truncate", Type: runtime.TypeString, Doc: "head, tail or both (default): what to keep of a long stream"},
		{Name: "encoding", Type: runtime.TypeString, Doc: "utf8 (default) or base64 output"},
		{Name: "outputLimitBytes", Type: runtime.TypeNumber, Doc: "stop the command past this many output bytes (0: off)"},
		{Name: "timeoutMs", Type: runtime.TypeNumber, Doc: "timeout in ms (default 30000; 0 = the maximum)"},
		{Name: "graceMs", Type: runtime.TypeNumber, Doc: "ms between SIGTERM and SIGKILL (default 2000)"},
		{Name: "onTimeout", Type: runtime.TypeString, Doc: "error (default: E_TOOL) or result (timedOut: true)"},
	}
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

// CheckArgs implements runtime.ArgChecker with the rules of EXEC.md §3.
func (ShExec) CheckArgs(a *value.Record) []string {
	var issues []string
	add := func(s string) { issues = append(issues, s) }
	cmd, hasCmd := a.Get("cmd")
	argv, hasArgv := a.Get("argv")
	switch {
	case hasCmd && hasArgv:
		add("cmd: give exactly one of 'cmd' and 'argv', not both")
	case !hasCmd && !hasArgv:
		add("cmd: sh.exec requires a 'cmd' or 'argv' argument")
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
	if v, ok := a.Get("cwd"); ok && v.AsString() == "" {
		add("cwd: must not be empty")
	}
	if env := a.GetOrNull("env").AsRecord(); env != nil {
		for _, k := range env.Keys() {
			if k == "" || strings.ContainsAny(k, "=\x00") || len(k) > 256 {
				add("env." + k + ": invalid variable name")
			}
		}
	}
	if v, ok := a.Get("envMode"); ok && !oneOf(v, "inherit", "clean", "replace") {
		add("envMode: must be one of inherit, clean, replace")
	}
	if v, ok := a.Get("stdinEncoding"); ok && !oneOf(v, "utf8", "base64") {
		add("stdinEncoding: must be one of utf8, base64")
	} else if ok && v.AsString() == "base64" {
		if _, err := base64.StdEncoding.DecodeString(a.GetOrNull("stdin").AsString()); err != nil {
			add("stdin: invalid base64")
		}
	}
	if v, ok := a.Get("truncate"); ok && !oneOf(v, "head", "tail", "both") {
		add("truncate: must be one of head, tail, both")
	}
	if v, ok := a.Get("encoding"); ok && !oneOf(v, "utf8", "base64") {
		add("encoding: must be one of utf8, base64")
	}
	if v, ok := a.Get("onTimeout"); ok && !oneOf(v, "error", "result") {
		add("onTimeout: must be one of error, result")
	}
	for _, f := range []string{"maxOutputBytes", "outputLimitBytes", "timeoutMs"} {
		if v, ok := a.Get(f); ok && !isInt(v, 0, 1<<53) {
			add(f + ": must be a non-negative integer")
		}
	}
	if v, ok := a.Get("graceMs"); ok && !isInt(v, 0, 60000) {
		add("graceMs: must be an integer from 0 to 60000")
	}
	return issues
}

// Call implements runtime.Tool.
func (ShExec) Call(c *runtime.Call) (value.Value, error) {
	a := c.Args
	cwd := c.WorkDir
	if v, ok := a.Get("cwd"); ok {
		cwd = resolve(c, v.AsString())
	}
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		return value.Value{}, &runtime.ToolError{Msg: "working directory not found: " + cwd, Reason: "cwd_not_found"}
	}
	env := childEnv(a, cwd)
	var path string
	var args []string
	if argv, ok := a.Get("argv"); ok {
		for _, it := range argv.AsList() {
			args = append(args, it.AsString())
		}
		p, reason, err := lookPath(args[0], cwd, env)
		if err != nil {
			return value.Value{}, &runtime.ToolError{Msg: err.Error(), Reason: reason}
		}
		path = p
	} else {
		shell := "sh"
		if v, ok := a.Get("shell"); ok {
			shell = v.AsString()
		}
		p, reason, err := shellPath(shell, cwd, env)
		if err != nil {
			return value.Value{}, &runtime.ToolError{Msg: err.Error(), Reason: reason}
		}
		path = p
		args = []string{p, "-c", a.GetOrNull("cmd").AsString()}
	}
	spec := &proc.Spec{Path: path, Args: args, Dir: cwd, Env: env,
		Merge: a.GetOrNull("merge").AsBool(), Truncate: a.GetOrNull("truncate").AsString(),
		MaxOutput: defaultMaxOutput, Grace: defaultGraceMs * time.Millisecond, Drain: 2 * time.Second}
	if v, ok := a.Get("stdin"); ok {
		spec.HasStdin = true
		if a.GetOrNull("stdinEncoding").AsString() == "base64" {
			spec.Stdin, _ = base64.StdEncoding.DecodeString(v.AsString())
		} else {
			spec.Stdin = []byte(v.AsString())
		}
	}
	if v, ok := a.Get("maxOutputBytes"); ok {
		spec.MaxOutput = min(int(v.AsNumber()), maxOutputCeiling)
	}
	if v, ok := a.Get("outputLimitBytes"); ok {
		spec.OutputLimit = int64(v.AsNumber())
	}
	if v, ok := a.Get("graceMs"); ok {
		spec.Grace = time.Duration(v.AsNumber()) * time.Millisecond
	}
	timeoutMs := int64(defaultTimeoutMs)
	if v, ok := a.Get("timeoutMs"); ok {
		timeoutMs = int64(v.AsNumber())
		if timeoutMs == 0 || timeoutMs > maxTimeoutMs {
			timeoutMs = maxTimeoutMs
		}
	}
	spec.Timeout = time.Duration(timeoutMs) * time.Millisecond
	spec.TimeoutReason = "timeout"
	if left := c.Remaining(); left >= 0 && left <= spec.Timeout {
		spec.Timeout = left
		if spec.Timeout <= 0 {
			spec.Timeout = time.Millisecond
		}
		spec.TimeoutReason = "budget"
		timeoutMs = left.Milliseconds()
	}
	res, err := proc.Run(c.Ctx, spec)
	if err != nil {
		if se, ok := err.(*proc.StartError); ok {
			return value.Value{}, &runtime.ToolError{Msg: se.Err.Error(), Reason: se.Reason}
		}
		return value.Value{}, err
	}
	if res.KillReason == "budget" {
		return value.Value{}, runtime.ErrTimeBudget
	}
	if res.KillReason == "host_cancel" {
		if errors.Is(c.Ctx.Err(), context.DeadlineExceeded) {
			// The run's own deadline (its time budget) stopped it.
			return value.Value{}, runtime.ErrTimeBudget
		}
		return value.Value{}, c.Ctx.Err()
	}
	b64 := a.GetOrNull("encoding").AsString() == "base64"
	stdout, stderr := text(res.Stdout, b64), text(res.Stderr, b64)
	if res.TimedOut && a.GetOrNull("onTimeout").AsString() != "result" {
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
		return value.Value{}, &runtime.ToolError{Msg: "command timed out after " + itoa(timeoutMs) + "ms", Reason: "timeout", Extra: d}
	}
	r := value.NewRecord(16)
	r.Set("exitCode", value.Int(res.ExitCode))
	r.Set("stdout", value.Str(stdout))
	r.Set("stderr", value.Str(stderr))
	r.Set("durationMs", value.Int(int(res.Duration.Milliseconds())))
	r.Set("signal", nullable(res.Signal))
	r.Set("timedOut", value.BoolOf(res.TimedOut))
	kr := res.KillReason
	if kr == "budget" || kr == "host_cancel" {
		kr = "" // reported through E_BUDGET / E_CANCELLED by the evaluator
	}
	r.Set("killReason", nullable(kr))
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

func itoa(n int64) string { return value.FormatNumber(float64(n)) }

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

var cleanNames = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TEMP", "TMP", "TZ", "TERM", "LANG"}

// childEnv builds the child's environment (EXEC.md §3.3).
func childEnv(a *value.Record, cwd string) []string {
	mode := a.GetOrNull("envMode").AsString()
	m := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := m[k]; !ok {
			order = append(order, k)
		}
		m[k] = v
	}
	if mode != "replace" {
		for _, kv := range os.Environ() {
			k, v, _ := strings.Cut(kv, "=")
			if mode == "clean" && !contains(cleanNames, k) && !strings.HasPrefix(k, "LC_") {
				continue
			}
			set(k, v)
		}
	}
	for _, it := range a.GetOrNull("envRemove").AsList() {
		delete(m, it.AsString())
	}
	pwdSet := false
	if env := a.GetOrNull("env").AsRecord(); env != nil {
		for i, k := range env.Keys() {
			set(k, env.At(i).AsString())
			if k == "PWD" {
				pwdSet = true
			}
		}
	}
	if _, ok := m["PWD"]; ok && !pwdSet {
		m["PWD"] = cwd
	}
	set("A0_EXEC_ID", newExecID())
	out := make([]string, 0, len(m))
	for _, k := range order {
		if v, ok := m[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

// newExecID returns "x_" and 16 random hex digits (EXEC.md §1).
func newExecID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "x_" + hex.EncodeToString(b[:])
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func envGet(env []string, name string) (string, bool) {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return v, true
		}
	}
	return "", false
}

type lookErr string

func (e lookErr) Error() string { return string(e) }

// lookPath resolves a program like exec.LookPath, but in the child's PATH.
func lookPath(prog, cwd string, env []string) (string, string, error) {
	if strings.ContainsRune(prog, '/') {
		p := prog
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			return "", "not_found", lookErr("executable not found: " + prog)
		}
		if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
			return "", "permission_denied", lookErr("permission denied: " + prog)
		}
		return p, "", nil
	}
	pathVar, ok := envGet(env, "PATH")
	if !ok {
		pathVar = "/usr/bin:/bin"
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, prog)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, "", nil
		}
	}
	return "", "not_found", lookErr("executable not found: " + prog)
}

func shellPath(shell, cwd string, env []string) (string, string, error) {
	if shell == "sh" {
		if st, err := os.Stat("/bin/sh"); err == nil && !st.IsDir() {
			return "/bin/sh", "", nil
		}
	}
	if filepath.IsAbs(shell) {
		return lookPath(shell, cwd, env)
	}
	switch shell {
	case "sh", "bash", "zsh", "dash":
		return lookPath(shell, cwd, env)
	}
	return "", "not_found", lookErr("unsupported shell: " + shell)
}
