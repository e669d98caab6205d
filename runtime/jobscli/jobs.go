// Package jobscli is `a0 jobs`: the job store at a shell (spec/exec.md
// §6.6). Every subcommand prints exactly one JSON object on stdout:
// { "schemaVersion": 1, "ok": true, "type": "<subcommand>", … }, or
// "ok": false with "error": { code, message, hint }. Jobs started here
// are detached jobs (a supervisor owns them) under the same policy as
// sh.start { detach: true }: the policy comes from the host's resolution
// (Options.Policy), the engine from tools.FromPolicy, the checks from
// proc.Engine.Prepare. cmd/a0 only wires it: Run(args, Options{…}).
package jobscli

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/tools"
	"github.com/a0lang/a0/runtime/trace"
)

// Options configure one `a0 jobs` command.
type Options struct {
	// Stdout takes the command's one JSON object (or the help text);
	// Stderr its one-line diagnostic.
	Stdout, Stderr io.Writer
	// Policy resolves the command's policy: file is the --policy value,
	// "" for the host's usual discovery; wd is the physical working
	// directory the policy's relative paths are resolved against. A
	// command may call it more than once; it should resolve once and
	// return that same resolution afterwards.
	Policy func(file string) (res *policy.Resolved, wd string, err *diag.Diagnostic)
	// Version is the host's version, recorded with the jobs it starts
	// (proc.Config.Version).
	Version string
}

// getwd is the physical working directory.
func getwd() (string, error) { return syscall.Getwd() }

// jobsError is a failed `a0 jobs` command.
type jobsError struct {
	code, msg, hint string
	exit            int
}

func jobsUsage(msg, hint string) *jobsError {
	if hint == "" {
		hint = "a0 jobs --help lists the subcommands and their flags"
	}
	return &jobsError{code: "E_USAGE", msg: msg, hint: hint, exit: diag.ExitUsage}
}

// jobsFlag describes a flag of a subcommand: takes a value, repeatable.
type jobsFlag struct {
	value, repeat bool
}

// jobsSubFlags are the flags of each subcommand, built on first use (not
// at the start of every a0 command).
var jobsSubFlags = sync.OnceValue(func() map[string]map[string]jobsFlag {
	startFlags := map[string]jobsFlag{
		"cwd": {value: true}, "env": {value: true, repeat: true}, "env-file": {value: true},
		"mask": {value: true, repeat: true}, "timeout": {value: true}, "kill-after": {value: true},
		"tag": {value: true}, "shell": {value: true}, "notify-command": {value: true},
		"notify-file": {value: true},
	}
	snapshotFlags := map[string]jobsFlag{
		"snapshot-after": {value: true}, "wait": {}, "tail-lines": {value: true}, "max-bytes": {value: true},
	}
	return map[string]map[string]jobsFlag{
		"run":    merge(startFlags, snapshotFlags, map[string]jobsFlag{"cmd": {value: true}}),
		"create": merge(startFlags, map[string]jobsFlag{"cmd": {value: true}}),
		"start":  snapshotFlags,
		"status": {},
		"tail": {"stream": {value: true}, "lines": {value: true}, "max-bytes": {value: true},
			"offset": {value: true}},
		"wait": {"timeout": {value: true}, "tail-lines": {value: true}, "max-bytes": {value: true}},
		"kill": {"signal": {value: true}, "grace": {value: true}},
		"list": {"state": {value: true}, "tag": {value: true}, "limit": {value: true}},
		"gc":   {"older-than": {value: true}, "dry-run": {}},
		"notify": {"command": {value: true}, "file": {value: true}, "output-pattern": {value: true},
			"output-match-type": {value: true}, "output-stream": {value: true},
			"output-command": {value: true}, "output-file": {value: true}},
	}
})

// globalJobsFlags are accepted before or after the subcommand.
var globalJobsFlags = map[string]jobsFlag{"root": {value: true}, "policy": {value: true}}

func merge(ms ...map[string]jobsFlag) map[string]jobsFlag {
	out := map[string]jobsFlag{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// jobsArgs is a parsed `a0 jobs` command line.
type jobsArgs struct {
	sub    string
	pos    []string // positional arguments after the subcommand
	argv   []string // after "--"
	dashed bool     // "--" was given
	vals   map[string][]string
	bools  map[string]bool
	help   bool
}

func (a *jobsArgs) val(name string) (string, bool) {
	v, ok := a.vals[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// parseJobsArgs parses `a0 jobs …`: global flags anywhere before "--",
// the subcommand, then its flags and positionals. On a usage error it
// still returns what it parsed (the subcommand names the answer).
func parseJobsArgs(args []string) (*jobsArgs, *jobsError) {
	a := &jobsArgs{vals: map[string][]string{}, bools: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.dashed, a.argv = true, args[i+1:]
			break
		}
		if arg == "-h" || arg == "--help" {
			a.help = true
			continue
		}
		if !strings.HasPrefix(arg, "--") || arg == "-" {
			if strings.HasPrefix(arg, "-") && arg != "-" {
				return a, jobsUsage("unknown option '"+arg+"'", "")
			}
			if a.sub == "" {
				a.sub = arg
			} else {
				a.pos = append(a.pos, arg)
			}
			continue
		}
		name, value, hasValue := strings.Cut(arg[2:], "=")
		f, ok := globalJobsFlags[name]
		if !ok && a.sub != "" {
			f, ok = jobsSubFlags()[a.sub][name]
		}
		if !ok {
			where := "a0 jobs"
			if a.sub != "" {
				where += " " + a.sub
			}
			return a, jobsUsage("unknown option '--"+name+"' for "+where, suggestFlag(name, a.sub))
		}
		if !f.value {
			if hasValue {
				return a, jobsUsage("option '--"+name+"' takes no value", "")
			}
			a.bools[name] = true
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return a, jobsUsage("option '--"+name+"' needs a value", "")
			}
			i++
			value = args[i]
		}
		if _, seen := a.vals[name]; seen && !f.repeat {
			return a, jobsUsage("option '--"+name+"' given twice", "")
		}
		a.vals[name] = append(a.vals[name], value)
	}
	if a.sub != "" && jobsSubFlags()[a.sub] == nil {
		hint := "subcommands: run, create, start, status, tail, wait, kill, list, gc, notify set (a0 jobs --help)"
		if a.sub == "help" {
			hint = "for the help, write a0 jobs --help (or a0 help jobs); " + strings.TrimSuffix(hint, " (a0 jobs --help)")
		} else if s := diag.Suggest(a.sub, slices.Sorted(maps.Keys(jobsSubFlags()))); s != "" {
			hint = "did you mean '" + s + "'? " + hint
		}
		return a, jobsUsage("unknown subcommand '"+a.sub+"'", hint)
	}
	return a, nil
}

// suggestFlag is the hint for an unknown option --name of subcommand sub
// ("" before the subcommand): the nearest flag that would have been
// accepted there, then where the flags are listed.
func suggestFlag(name, sub string) string {
	cands := slices.Collect(maps.Keys(globalJobsFlags))
	cands = append(cands, "help")
	if sub != "" {
		for n := range jobsSubFlags()[sub] {
			cands = append(cands, n)
		}
	}
	hint := "a0 jobs --help lists the subcommands and their flags"
	if s := diag.Suggest(name, cands); s != "" {
		hint = "did you mean --" + s + "? " + hint
	}
	return hint
}

// intFlag reads a non-negative integer flag (def when absent).
func (a *jobsArgs) intFlag(name string, def, lo, hi int64) (int64, *jobsError) {
	v, ok := a.val(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, jobsUsage("--"+name+" must be an integer from "+strconv.FormatInt(lo, 10)+" to "+strconv.FormatInt(hi, 10)+", not '"+v+"'", "")
	}
	return n, nil
}

// jobsOut prints the one JSON object of a command and returns its exit
// code.
func (c *Options) jobsOut(sub string, fields *value.Record, e *jobsError) int {
	r := value.NewRecord(8)
	r.Set("schemaVersion", value.Int(1))
	r.Set("ok", value.BoolOf(e == nil))
	if sub == "" {
		sub = "jobs"
	}
	r.Set("type", value.Str(sub))
	if e != nil {
		d := value.NewRecord(3)
		d.Set("code", value.Str(e.code))
		d.Set("message", value.Str(e.msg))
		d.Set("hint", value.Str(e.hint))
		r.Set("error", value.RecordOf(d))
		io.WriteString(c.Stdout, value.JSON(value.RecordOf(r))+"\n")
		where := "a0 jobs"
		if sub != "jobs" {
			where += " " + sub
		}
		io.WriteString(c.Stderr, where+": "+e.msg+"\n")
		return e.exit
	}
	if fields != nil {
		for _, k := range fields.Keys() {
			v, _ := fields.Get(k)
			r.Set(k, v)
		}
	}
	io.WriteString(c.Stdout, value.JSON(value.RecordOf(r))+"\n")
	return diag.ExitOK
}

// Run runs `a0 jobs <args>` (args after "jobs") and returns its exit
// code: 0 ok, 1 usage, 3 refused by the policy, 4 failure.
func Run(args []string, o Options) int {
	c := &o
	a, perr := parseJobsArgs(args)
	if perr != nil {
		sub := a.sub
		if jobsSubFlags()[sub] == nil {
			sub = ""
		}
		return c.jobsOut(sub, nil, perr)
	}
	if a.help {
		io.WriteString(c.Stdout, helpText)
		return diag.ExitOK
	}
	if a.sub == "" {
		return c.jobsOut("", nil, jobsUsage("no subcommand", "subcommands: run, create, start, status, tail, wait, kill, list, gc, notify set (a0 jobs --help)"))
	}
	sub := a.sub
	if sub == "notify" {
		if len(a.pos) == 0 || a.pos[0] != "set" {
			return c.jobsOut("notify", nil, jobsUsage("notify needs 'set': a0 jobs notify set ID [flags]", ""))
		}
		a.pos = a.pos[1:]
		sub = "notify set"
	}
	if a.dashed && sub != "run" && sub != "create" {
		return c.jobsOut(sub, nil, jobsUsage("'--' and a command are only for run and create", ""))
	}
	j := &jobsRun{c: c, a: a}
	var out *value.Record
	var err *jobsError
	switch sub {
	case "run", "create":
		out, err = j.run(sub == "create")
	case "start":
		out, err = j.start()
	case "status":
		out, err = j.status()
	case "tail":
		out, err = j.tail()
	case "wait":
		out, err = j.wait()
	case "kill":
		out, err = j.kill()
	case "list":
		out, err = j.list()
	case "gc":
		out, err = j.gc()
	case "notify set":
		out, err = j.notifySet()
	}
	return c.jobsOut(sub, out, err)
}

// jobsRun holds one command's state: the policy's exec configuration
// (when needed) and the store.
type jobsRun struct {
	c     *Options
	a     *jobsArgs
	cfg   proc.Config
	store *proc.Store
}

// policyConfig resolves the policy (--policy, else the usual discovery,
// through Options.Policy) into the exec configuration. gate checks that
// the policy grants sh.exec.
func (j *jobsRun) policyConfig(gate bool) *jobsError {
	file, _ := j.a.val("policy")
	res, wd, perr := j.c.Policy(file)
	if perr != nil {
		return &jobsError{code: string(perr.Code), msg: perr.Message, hint: orDefault(perr.Hint, "fix the policy file (a0 policy shows which one applies)"), exit: diag.ExitCap}
	}
	cfg := tools.FromPolicy(res, wd)
	cfg.Exec.Version = j.c.Version
	j.cfg = *cfg.Exec
	if !gate {
		return nil
	}
	where := "the built-in default policy"
	if res.Path != "" {
		where = res.Path
	}
	if !res.Allowed("sh.exec") {
		return &jobsError{code: "E_CAP_DENIED", exit: diag.ExitCap,
			msg:  "Capability 'sh.exec' is not granted by the policy (" + where + ")",
			hint: `add "sh.exec" to "allow" in the policy (or pass --policy FILE)`}
	}
	// exec.allowDetach is not asked for: it keeps programs from leaving
	// processes behind, while a0 jobs is asked for a job that outlives it
	// by whoever runs it. Everything else is sh.start's gate: the
	// command is prepared under the same exec policy and confinement.
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// openStore finds the store — --root, then A0_JOBS_ROOT, then the
// policy's exec.jobStore.dir, then $XDG_DATA_HOME/a0/jobs — and opens it.
// policyRead tells whether the policy was already resolved.
func (j *jobsRun) openStore(policyRead bool) *jobsError {
	root, ok := j.a.val("root")
	if !ok {
		root = os.Getenv("A0_JOBS_ROOT")
	}
	if root == "" {
		if !policyRead {
			if err := j.policyConfig(false); err != nil {
				return err
			}
		} else if j.cfg.StoreDir == "" {
			j.cfg.RetainDays, j.cfg.StoreMaxBytes, j.cfg.MaxLogBytes = 7, 512<<20, 64<<20
		}
		root = j.cfg.StoreDir
	}
	if root == "" {
		base := os.Getenv("XDG_DATA_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return jobsUsage("no job store: set --root DIR or A0_JOBS_ROOT", "pass --root DIR")
			}
			base = filepath.Join(home, ".local", "share")
		}
		root = filepath.Join(base, "a0", "jobs")
	}
	if !filepath.IsAbs(root) {
		wd, err := getwd()
		if err != nil {
			return &jobsError{code: "E_IO", msg: err.Error(), hint: "run a0 jobs from an existing folder", exit: diag.ExitRuntime}
		}
		root = filepath.Join(wd, root)
	}
	if j.cfg.MaxLogBytes == 0 {
		d := proc.DefaultConfig()
		j.cfg.RetainDays, j.cfg.StoreMaxBytes, j.cfg.MaxLogBytes = d.RetainDays, d.StoreMaxBytes, d.MaxLogBytes
	}
	j.cfg.StoreDir = root
	st, err := proc.OpenStore(j.cfg)
	if err != nil {
		return &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "cannot open the job store: " + err.Error(),
			hint: "pass --root DIR with a folder only you can write"}
	}
	j.store = st
	return nil
}

// engineErr maps a refusal or failure of the exec engine.
func engineErr(err error) *jobsError {
	var pe *proc.Error
	if errors.As(err, &pe) {
		switch pe.Kind {
		case proc.KindCapDenied:
			return &jobsError{code: "E_CAP_DENIED", exit: diag.ExitCap, msg: "Capability 'sh.exec' does not allow this call: " + pe.Msg,
				hint: "the policy's exec section decides what a job may run (a0 policy shows it)"}
		case proc.KindArgs:
			return &jobsError{code: "E_TOOL_ARGS", exit: diag.ExitRuntime, msg: pe.Msg, hint: "a0 jobs --help lists the flags"}
		}
		return &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: pe.Msg, hint: "reason: " + string(pe.Reason)}
	}
	var se *proc.StartError
	if errors.As(err, &se) {
		return &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "cannot start the command: " + se.Err.Error(),
			hint: "check the program name and that it is executable (reason: " + string(se.Reason) + ")"}
	}
	return &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: err.Error(), hint: "see the message"}
}

// request builds the engine request of run / create from the flags.
func (j *jobsRun) request(create bool) (*proc.Request, *jobsError) {
	a := j.a
	r := &proc.Request{IsJob: true, MaxOutput: -1, DefaultOut: 1 << 20, Remaining: -1}
	cmd, hasCmd := a.val("cmd")
	switch {
	case hasCmd && a.dashed:
		return nil, jobsUsage("give either --cmd TEXT or -- CMD ARGS…, not both", "")
	case hasCmd:
		r.Cmd = cmd
	case a.dashed && len(a.argv) > 0:
		r.Argv = append([]string(nil), a.argv...)
	default:
		return nil, jobsUsage("no command: use '-- CMD ARGS…' or --cmd \"shell text\"", "for example: a0 jobs run -- make test")
	}
	if len(a.pos) > 0 {
		return nil, jobsUsage("unexpected argument '"+a.pos[0]+"' (put the command after --)", "")
	}
	if cwd, ok := a.val("cwd"); ok {
		if !filepath.IsAbs(cwd) {
			wd, _ := getwd()
			cwd = filepath.Join(wd, cwd)
		}
		r.Cwd = cwd
	}
	if f, ok := a.val("env-file"); ok {
		pairs, err := readEnvFile(f)
		if err != nil {
			return nil, &jobsError{code: "E_IO", exit: diag.ExitRuntime, msg: "cannot read --env-file: " + err.Error(), hint: "lines of NAME=value"}
		}
		r.Env = append(r.Env, pairs...)
	}
	for _, kv := range a.vals["env"] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, jobsUsage("--env must be NAME=value, not '"+kv+"'", "")
		}
		r.Env = append(r.Env, [2]string{k, v})
	}
	r.Mask = a.vals["mask"]
	if s, ok := a.val("shell"); ok {
		r.Shell = s
	}
	t, err := a.intFlag("timeout", 0, 0, 1<<53)
	if err != nil {
		return nil, err
	}
	if t > 0 {
		r.Timeout, r.HasTimeout = time.Duration(t)*time.Millisecond, true
	}
	if _, ok := a.val("kill-after"); ok {
		k, err := a.intFlag("kill-after", 0, 0, 60000)
		if err != nil {
			return nil, err
		}
		r.Grace, r.HasGrace = time.Duration(k)*time.Millisecond, true
	}
	return r, nil
}

// absPath makes a path given at the shell absolute.
func absPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	wd, _ := getwd()
	return filepath.Join(wd, p)
}

// startNotify reads --notify-command and --notify-file (nil when
// neither is given).
func (j *jobsRun) startNotify() *proc.Notify {
	cmd, _ := j.a.val("notify-command")
	file, _ := j.a.val("notify-file")
	if cmd == "" && file == "" {
		return nil
	}
	return &proc.Notify{Command: cmd, File: absPath(file)}
}

// readEnvFile reads NAME=value lines ('#' comments, blank lines and an
// "export " prefix allowed).
func readEnvFile(path string) ([][2]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, errors.New(path + ":" + strconv.Itoa(n) + ": not NAME=value")
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		out = append(out, [2]string{strings.TrimSpace(k), v})
	}
	return out, sc.Err()
}

// snapshotOpts reads --tail-lines and --max-bytes.
func (j *jobsRun) snapshotOpts() (int, int, *jobsError) {
	lines, err := j.a.intFlag("tail-lines", 50, 1, 10000)
	if err != nil {
		return 0, 0, err
	}
	mb, err := j.a.intFlag("max-bytes", 65536, 1, 1048576)
	if err != nil {
		return 0, 0, err
	}
	return int(lines), int(mb), nil
}

// createdSpec is spec.json of a created job: what start needs.
type createdSpec struct {
	Request proc.Request
	EnvFile string // re-read at start
	Tag     string
	Notify  *proc.Notify
}

// run is `a0 jobs run`; with create, `a0 jobs create` records the job
// (state created) for `a0 jobs start`.
func (j *jobsRun) run(create bool) (*value.Record, *jobsError) {
	envFile, _ := j.a.val("env-file")
	if create {
		// The env file is read when the job starts.
		delete(j.a.vals, "env-file")
	}
	req, err := j.request(create)
	if err != nil {
		return nil, err
	}
	tag, _ := j.a.val("tag")
	if tag != "" && !validJobTag(tag) {
		return nil, jobsUsage("--tag must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', '-'", "")
	}
	if err := j.policyConfig(true); err != nil {
		return nil, err
	}
	if err := j.openStore(true); err != nil {
		return nil, err
	}
	if create {
		return j.create(req, absPath(envFile), tag)
	}
	return j.startReq(req, tag, j.startNotify())
}

// startReq starts a detached job and answers after the snapshot delay.
func (j *jobsRun) startReq(req *proc.Request, tag string, n *proc.Notify) (*value.Record, *jobsError) {
	after, err := j.a.intFlag("snapshot-after", 10000, 0, 1<<53)
	if err != nil {
		return nil, err
	}
	lines, maxBytes, err := j.snapshotOpts()
	if err != nil {
		return nil, err
	}
	js := proc.NewJobs(proc.NewEngine(j.cfg))
	js.BindStore(trace.NewRunID())
	sj, serr := js.StartDetached(req, tag, n)
	if serr != nil {
		return nil, engineErr(serr)
	}
	wait := time.Duration(after) * time.Millisecond
	if j.a.bools["wait"] {
		wait = -1
	}
	if wait != 0 {
		j.store.WaitStored(sj, wait, nil)
	}
	return jobOut(sj, true, lines, maxBytes), nil
}

// create records a job in state created.
func (j *jobsRun) create(req *proc.Request, envFile, tag string) (*value.Record, *jobsError) {
	id := proc.NewJobID()
	req.JobID = id
	m := proc.NewMasker(proc.NewEngine(j.cfg).SecretsFor(req))
	info := proc.JobInfo{ID: id, Tag: tag, StartedAt: time.Now(), Cwd: req.Cwd, Detached: true}
	if info.Cwd == "" {
		info.Cwd, _ = getwd()
	}
	if req.Argv != nil {
		for _, a := range req.Argv {
			info.Argv = append(info.Argv, m.String(a))
		}
	} else {
		info.Cmd = m.String(req.Cmd)
	}
	if req.HasTimeout {
		info.TimeoutMs = req.Timeout.Milliseconds()
	}
	spec, err := json.Marshal(&createdSpec{Request: *req, EnvFile: envFile, Tag: tag, Notify: j.startNotify()})
	if err != nil {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: err.Error(), hint: "see the message"}
	}
	if err := j.store.CreateJob(info, spec); err != nil {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "cannot record the job: " + err.Error(), hint: "check the job store folder"}
	}
	sj, lerr := j.store.Load(id)
	if lerr != nil {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "cannot read the job back: " + lerr.Error(), hint: "check the job store folder"}
	}
	return jobOut(sj, false, 0, 0), nil
}

func validJobTag(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// jobOut is { job } with the record (and a snapshot).
func jobOut(v proc.JobView, snapshot bool, lines, maxBytes int) *value.Record {
	rec := tools.JobRecord(v.Info())
	if snapshot {
		tools.AddSnapshot(rec, v, lines, maxBytes)
	}
	out := value.NewRecord(1)
	out.Set("job", value.RecordOf(rec))
	return out
}

// start is `a0 jobs start ID`: a created job starts under the policy in
// effect now, its env file read again.
func (j *jobsRun) start() (*value.Record, *jobsError) {
	if _, err := j.jobID(); err != nil {
		return nil, err
	}
	if err := j.policyConfig(true); err != nil {
		return nil, err
	}
	sj, err := j.load()
	if err != nil {
		return nil, err
	}
	info := sj.Info()
	if info.State != "created" {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "job " + info.ID + " is " + info.State + ", not created; only a created job starts",
			hint: "a0 jobs create -- CMD… makes one; a0 jobs run starts a new job at once"}
	}
	b, rerr := sj.Spec()
	spec := &createdSpec{}
	if rerr == nil {
		rerr = json.Unmarshal(b, spec)
	}
	if rerr != nil || spec.Request.JobID != info.ID {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "cannot read what job " + info.ID + " should run", hint: "create it again"}
	}
	req := &spec.Request
	req.IsJob, req.Remaining = true, -1
	if spec.EnvFile != "" {
		pairs, err := readEnvFile(spec.EnvFile)
		if err != nil {
			return nil, &jobsError{code: "E_IO", exit: diag.ExitRuntime, msg: "cannot read --env-file: " + err.Error(), hint: "lines of NAME=value"}
		}
		req.Env = append(pairs, req.Env...)
	}
	out, jerr := j.startReq(req, spec.Tag, spec.Notify)
	if jerr == nil {
		sj.DropSpec()
	}
	return out, jerr
}

// notifySet is `a0 jobs notify set ID [flags]`: the flags given replace
// those settings of the running job; the others are kept.
func (j *jobsRun) notifySet() (*value.Record, *jobsError) {
	if _, err := j.jobID(); err != nil {
		return nil, err
	}
	if err := j.policyConfig(true); err != nil {
		return nil, err
	}
	sj, err := j.load()
	if err != nil {
		return nil, err
	}
	n := sj.Notify()
	if n == nil {
		n = &proc.Notify{}
	}
	if v, ok := j.a.val("command"); ok {
		n.Command = v
	}
	if v, ok := j.a.val("file"); ok {
		n.File = absPath(v)
	}
	out := n.Output
	if out == nil {
		out = &proc.OutputNotify{}
	}
	touched := false
	for flag, field := range map[string]*string{"output-pattern": &out.Pattern, "output-match-type": &out.MatchType,
		"output-stream": &out.Stream, "output-command": &out.Command, "output-file": &out.File} {
		if v, ok := j.a.val(flag); ok {
			if flag == "output-file" {
				v = absPath(v)
			}
			*field, touched = v, true
		}
	}
	if touched {
		n.Output = out
	}
	if msg := n.Check(); msg != "" {
		return nil, jobsUsage("notify set: "+msg, "--output-pattern needs --output-command or --output-file")
	}
	if err := j.store.SetNotify(sj.Info().ID, n); err != nil {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "notify set: " + err.Error(), hint: "only a running detached job takes notifications"}
	}
	rec := jobOut(sj, false, 0, 0)
	rec.Set("notify", notifyValue(n))
	return rec, nil
}

// notifyValue is a job's notification settings as a value.
func notifyValue(n *proc.Notify) value.Value {
	r := value.NewRecord(3)
	r.Set("command", nullableStr(n.Command))
	r.Set("file", nullableStr(n.File))
	if o := n.Output; o != nil {
		or := value.NewRecord(5)
		or.Set("pattern", value.Str(o.Pattern))
		or.Set("matchType", value.Str(orDefault(o.MatchType, "contains")))
		or.Set("stream", value.Str(orDefault(o.Stream, "either")))
		or.Set("command", nullableStr(o.Command))
		or.Set("file", nullableStr(o.File))
		r.Set("output", value.RecordOf(or))
	} else {
		r.Set("output", value.NullValue)
	}
	return value.RecordOf(r)
}

// jobID is the one positional argument, a job id. The subcommands that
// consult the policy check it first: a missing or malformed id is a usage
// error (exit 1) whatever the policy says.
func (j *jobsRun) jobID() (string, *jobsError) {
	if len(j.a.pos) != 1 {
		sub := j.a.sub
		if sub == "notify" {
			sub = "notify set"
		}
		return "", jobsUsage("a0 jobs "+sub+" needs exactly one job id", "a0 jobs list shows the ids")
	}
	id := j.a.pos[0]
	if !proc.ValidJobID(id) {
		return "", jobsUsage("'"+id+"' is not a job id (j_ followed by 16 lowercase hex digits)", "a0 jobs list shows the ids")
	}
	return id, nil
}

// load opens the store and reads the job named by the one positional
// argument (after reconciling the store, so a dead owner's job reads
// lost).
func (j *jobsRun) load() (*proc.StoredJob, *jobsError) {
	id, jerr := j.jobID()
	if jerr != nil {
		return nil, jerr
	}
	if err := j.openStore(false); err != nil {
		return nil, err
	}
	j.store.ReconcileJob(id)
	sj, err := j.store.Load(id)
	if errors.Is(err, proc.ErrNoJob) {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "no job " + id + " in the job store " + j.store.Dir(),
			hint: "a0 jobs list shows the store's jobs; --root DIR picks another store"}
	}
	if err != nil {
		return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "cannot read job " + id + ": " + err.Error(), hint: "the record may be damaged; a0 jobs gc removes old records"}
	}
	return sj, nil
}

func (j *jobsRun) status() (*value.Record, *jobsError) {
	sj, err := j.load()
	if err != nil {
		return nil, err
	}
	return jobOut(sj, false, 0, 0), nil
}

func (j *jobsRun) tail() (*value.Record, *jobsError) {
	stream, ok := j.a.val("stream")
	if !ok {
		stream = "both"
	}
	if stream != "stdout" && stream != "stderr" && stream != "both" {
		return nil, jobsUsage("--stream must be stdout, stderr or both", "")
	}
	lines, err := j.a.intFlag("lines", 50, 1, 10000)
	if err != nil {
		return nil, err
	}
	mb, err := j.a.intFlag("max-bytes", 65536, 1, 1048576)
	if err != nil {
		return nil, err
	}
	_, hasOff := j.a.val("offset")
	off, err := j.a.intFlag("offset", 0, 0, 1<<53)
	if err != nil {
		return nil, err
	}
	if hasOff && stream == "both" {
		return nil, jobsUsage("--offset needs --stream stdout or --stream stderr", "")
	}
	sj, err := j.load()
	if err != nil {
		return nil, err
	}
	rec, msg := tools.TailRecord(sj, stream, int(lines), int(mb), off, hasOff)
	if msg != "" {
		return nil, jobsUsage("--offset: "+msg, "")
	}
	return rec, nil
}

func (j *jobsRun) wait() (*value.Record, *jobsError) {
	t, err := j.a.intFlag("timeout", -1, 0, 1<<53)
	if err != nil {
		return nil, err
	}
	lines, maxBytes, err := j.snapshotOpts()
	if err != nil {
		return nil, err
	}
	sj, err := j.load()
	if err != nil {
		return nil, err
	}
	d := time.Duration(-1)
	if t >= 0 {
		d = time.Duration(t) * time.Millisecond
	}
	done := j.store.WaitStored(sj, d, nil)
	out := jobOut(sj, true, lines, maxBytes)
	out.Set("waitTimedOut", value.BoolOf(!done))
	return out, nil
}

func (j *jobsRun) kill() (*value.Record, *jobsError) {
	sig, ok := j.a.val("signal")
	if !ok {
		sig = "TERM"
	}
	sig = strings.TrimPrefix(strings.ToUpper(sig), "SIG")
	switch sig {
	case "TERM", "INT", "HUP", "KILL":
	default:
		return nil, jobsUsage("--signal must be TERM, INT, HUP or KILL", "")
	}
	_, hasGrace := j.a.val("grace")
	grace, err := j.a.intFlag("grace", 0, 0, 60000)
	if err != nil {
		return nil, err
	}
	if _, err := j.jobID(); err != nil {
		return nil, err
	}
	if err := j.policyConfig(true); err != nil {
		return nil, err
	}
	sj, err := j.load()
	if err != nil {
		return nil, err
	}
	info := sj.Info()
	sent := ""
	if !info.Completed() {
		if !info.Detached {
			return nil, &jobsError{code: "E_CAP_DENIED", exit: diag.ExitCap,
				msg:  "Capability 'sh.exec' does not allow this call: job " + info.ID + " belongs to a running a0 run; only that run may signal it",
				hint: "stop the run that started it, or start jobs with detach: true / a0 jobs run"}
		}
		o := proc.StopOpts{Signal: "SIG" + sig}
		g := j.cfg.Grace
		if hasGrace {
			g = time.Duration(grace) * time.Millisecond
		}
		o.Grace, o.HasGrace = g, true
		asked, err := j.store.StopDetached(info.ID, o)
		if err != nil {
			return nil, &jobsError{code: "E_TOOL", exit: diag.ExitRuntime, msg: "cannot signal job " + info.ID + ": " + err.Error(), hint: "a0 jobs status shows its state"}
		}
		if asked {
			sent = "SIG" + sig
			j.store.WaitStored(sj, g+j.cfg.Drain+500*time.Millisecond, nil)
		} else {
			_ = sj.Reload()
		}
	}
	out := jobOut(sj, false, 0, 0)
	info = sj.Info()
	escalated := sent != "" && sent != "SIGKILL" && info.Signal == "SIGKILL"
	out.Set("signalSent", nullableStr(sent))
	out.Set("escalated", value.BoolOf(escalated))
	return out, nil
}

func nullableStr(s string) value.Value {
	if s == "" {
		return value.NullValue
	}
	return value.Str(s)
}

func (j *jobsRun) list() (*value.Record, *jobsError) {
	state, ok := j.a.val("state")
	if !ok {
		state = "all"
	}
	switch state {
	case "running", "terminal", "created", "all":
	default:
		return nil, jobsUsage("--state must be running, terminal, created or all", "")
	}
	limit, err := j.a.intFlag("limit", 50, 1, 100000)
	if err != nil {
		return nil, err
	}
	if len(j.a.pos) > 0 {
		return nil, jobsUsage("unexpected argument '"+j.a.pos[0]+"'", "")
	}
	if err := j.openStore(false); err != nil {
		return nil, err
	}
	j.store.Reconcile()
	tag, hasTag := j.a.val("tag")
	var views []proc.JobView
	for _, sj := range j.store.List() {
		views = append(views, sj)
	}
	proc.SortNewestFirst(views)
	items := []value.Value{}
	truncated := false
	for _, v := range views {
		info := v.Info()
		switch {
		case state == "running" && info.State != "running",
			state == "created" && info.State != "created",
			state == "terminal" && !info.Completed():
			continue
		case hasTag && info.Tag != tag:
			continue
		}
		if int64(len(items)) == limit {
			truncated = true
			break
		}
		items = append(items, value.RecordOf(tools.JobRecord(info)))
	}
	out := value.NewRecord(3)
	out.Set("jobs", value.ListOf(items))
	out.Set("count", value.Int(len(items)))
	out.Set("truncated", value.BoolOf(truncated))
	return out, nil
}

// parseAge reads 30d, 24h, 60m or 3600s.
func parseAge(s string) (time.Duration, bool) {
	if len(s) < 2 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	if err != nil || n < 0 || n > 1<<31 {
		return 0, false
	}
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'h': time.Hour, 'm': time.Minute, 's': time.Second}[s[len(s)-1]]
	if unit == 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

func (j *jobsRun) gc() (*value.Record, *jobsError) {
	if len(j.a.pos) > 0 {
		return nil, jobsUsage("unexpected argument '"+j.a.pos[0]+"'", "")
	}
	if err := j.openStore(false); err != nil {
		return nil, err
	}
	age := time.Duration(j.cfg.RetainDays) * 24 * time.Hour
	if s, ok := j.a.val("older-than"); ok {
		d, ok := parseAge(s)
		if !ok {
			return nil, jobsUsage("--older-than must be a number and a unit: 30d, 24h, 60m or 3600s", "")
		}
		age = d
	}
	j.store.Reconcile()
	rep := j.store.Collect(age, j.a.bools["dry-run"])
	out := value.NewRecord(5)
	out.Set("dryRun", value.BoolOf(j.a.bools["dry-run"]))
	out.Set("deleted", value.Int(rep.Deleted))
	out.Set("skipped", value.Int(rep.Skipped))
	out.Set("freedBytes", value.Num(float64(rep.FreedBytes)))
	items := make([]value.Value, len(rep.Jobs))
	for i, e := range rep.Jobs {
		r := value.NewRecord(5)
		r.Set("id", value.Str(e.ID))
		r.Set("state", nullableStr(e.State))
		r.Set("action", value.Str(e.Action))
		r.Set("reason", value.Str(e.Reason))
		r.Set("bytes", value.Num(float64(e.Bytes)))
		items[i] = value.RecordOf(r)
	}
	out.Set("jobs", value.ListOf(items))
	return out, nil
}
