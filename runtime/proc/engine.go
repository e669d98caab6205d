package proc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Engine runs commands under one configuration. It resolves the policy's
// executable entries once, when it is created. An Engine is safe for
// concurrent use.
type Engine struct {
	cfg      Config
	allow    []resolvedEntry
	deny     []resolvedEntry
	baseEnv  []string
	baseLD   map[string]string // LD_*/DYLD_* values at start
	rootReal string
	sbx      *sandboxRun // nil without a sandbox
	mu       sync.Mutex
	execIDs  []string // ids of every exec/job started (for the run-end sweep)
	// secretNames caches whether an env name matches the mask globs.
	secretNames sync.Map
	// bases caches, per env mode, the inherited variables that survive
	// the mode and exec.envDeny (the base environment never changes).
	bases sync.Map // mode -> []envVar
}

// envVar is one variable; kv is "k=v" (built once for the base).
type envVar struct{ k, v, kv string }

// NewEngine returns an engine for cfg.
func NewEngine(cfg Config) *Engine {
	e := &Engine{cfg: cfg}
	if cfg.Sandbox != nil {
		e.sbx = &sandboxRun{sb: cfg.Sandbox}
	}
	e.baseEnv = cfg.BaseEnv
	if e.baseEnv == nil {
		e.baseEnv = os.Environ()
	}
	pathVar := os.Getenv("PATH")
	if cfg.Allow != nil {
		e.allow = resolveEntries(cfg.Allow, pathVar)
	}
	e.deny = resolveEntries(cfg.Deny, pathVar)
	e.baseLD = map[string]string{}
	for _, kv := range e.baseEnv {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "LD_") || strings.HasPrefix(k, "DYLD_") {
			e.baseLD[k] = v
		}
	}
	if cfg.Root != "" {
		if r, err := filepath.EvalSymlinks(cfg.Root); err == nil {
			e.rootReal = r
		} else {
			e.rootReal = cfg.Root
		}
	}
	return e
}

// Config returns the engine's configuration.
func (e *Engine) Config() Config { return e.cfg }

// Error is a failure to prepare or start a command. Kind is
// [KindCapDenied] (policy refusal, E_CAP_DENIED), [KindArgs] (E_TOOL_ARGS)
// or [KindTool] (E_TOOL).
type Error struct {
	Kind   ErrorKind
	Reason Reason
	Msg    string
	// Fields are extra details (executable, path, field), in order.
	Fields [][2]string
}

// Error implements error with Msg.
func (e *Error) Error() string { return e.Msg }

// Request is one command to run, decoded from tool arguments.
type Request struct {
	Cmd       string   // shell command line (cmd mode) ...
	Argv      []string // ... or program and arguments (argv mode)
	Shell     string   // "" = sh
	Cwd       string   // "" = default
	Env       [][2]string
	EnvMode   string // "" = inherit
	EnvRemove []string
	Mask      []string // extra secret env names
	Stdin     []byte
	HasStdin  bool
	Merge     bool

	MaxOutput   int64 // -1 = default
	Truncate    string
	OutputLimit int64
	Timeout     time.Duration // own timeout; 0 = policy maximum
	HasTimeout  bool
	Grace       time.Duration
	HasGrace    bool
	Remaining   time.Duration // run's remaining time budget, -1 = none
	DefaultOut  int64         // default maxOutputBytes for this tool
	IsJob       bool
	// JobID, for a job, is its id when already chosen (a created job
	// that `a0 jobs start` starts); "" draws a new one.
	JobID string

	// Pty runs the command on a pseudo-terminal of Cols x Rows (0: 80 x
	// 24); Login starts it as a login shell (argv[0] "-name");
	// StdinOpen keeps a job's input open for sh.write (pty.go).
	Pty        bool
	Cols, Rows int
	Login      bool
	StdinOpen  bool

	// Secrets lets placeholders name policy secrets (secrets.go); nil
	// leaves them plain text.
	Secrets *SecretUse `json:"-"`
}

// Prepared is a request checked against the policy, ready to spawn.
type Prepared struct {
	Spec             Spec
	ID               string // exec id (x_…) or job id (j_…)
	ResolvedPath     string // real path of the executable
	Cwd              string
	EnvMode          string
	EnvModeTightened bool
	EnvNames         []string // sorted; jobs only (the job store records them)
	MaskNames        []string // sorted names of the mask set
	Shell            string   // the shell in cmd mode ("" in argv mode)
	Masker           *Masker
	TimeoutMs        int64 // effective timeout (0 = none, jobs only)
	GraceMs          int64
	MaxOutput        int64
	// Confined tells whether the command will run confined by the
	// sandbox; SandboxSkipped says why a sandbox with require: false
	// runs it unconfined ("" otherwise).
	Confined       bool
	SandboxSkipped string
}

func randomID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

var envStrictness = map[string]int{"inherit": 0, "clean": 1, "replace": 2}

var cleanNames = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TEMP", "TMP", "TZ", "TERM", "LANG"}

// Prepare checks a request against the policy and builds its spec: the
// working directory, the sandbox, the environment and mask set, the
// executable, then stdin, output and timeouts, each refused on its own
// terms.
func (e *Engine) Prepare(r *Request) (_ *Prepared, rerr error) {
	if err := checkPlaceholderPlaces(r); err != nil {
		return nil, err
	}
	p := &Prepared{}
	if r.IsJob && ValidJobID(r.JobID) {
		p.ID = r.JobID
	} else if r.IsJob {
		p.ID = randomID("j_")
	} else {
		p.ID = randomID("x_")
	}
	// Working directory (spec/exec.md §3.1).
	cwd, err := e.workDir(r)
	if err != nil {
		return nil, err
	}
	p.Cwd = cwd
	// Sandbox: is the kernel able to confine the command?
	confine, err := e.sandboxFor(p)
	if err != nil {
		return nil, err
	}
	if confine != nil {
		// Refused after this point: the folder goes.
		defer func() {
			if rerr != nil {
				confine.cleanup()
			}
		}()
	}
	// Environment (spec/exec.md §3.2, §3.3) and mask set (spec/exec.md §4.3).
	env, err := e.prepareEnv(r, p, confine)
	if err != nil {
		return nil, err
	}
	// Executable (spec/exec.md §3.4, §3.5).
	if r.Argv != nil {
		err = e.resolveArgv(r, p, env, confine)
	} else {
		err = e.resolveShell(r, p, env, confine)
	}
	if err != nil {
		return nil, err
	}
	// Stdin, output, timeouts (spec/exec.md §3.7, §4.4).
	if err := e.setStreams(r, p); err != nil {
		return nil, err
	}
	// Secret placeholders, now that the executable is known.
	if err := e.applySecrets(r, p); err != nil {
		return nil, err
	}
	e.setTimeout(r, p)
	setTerminal(r, p)
	p.Spec.Masker = p.Masker
	p.Spec.Job = r.IsJob
	p.Spec.SweepID, p.Spec.Sweep = p.ID, e.cfg.SweepEscaped
	p.Spec.confine = confine
	p.Confined = confine != nil
	e.mu.Lock()
	e.execIDs = append(e.execIDs, p.ID)
	e.mu.Unlock()
	return p, nil
}

// workDir resolves the request's working directory (relative to the
// policy root, else the work directory) and refuses one outside the root,
// missing, or resolving outside the root through a symbolic link.
func (e *Engine) workDir(r *Request) (string, error) {
	cfg := &e.cfg
	def := cfg.Root
	if def == "" {
		def = cfg.WorkDir
	}
	cwd := def
	if r.Cwd != "" {
		cwd = r.Cwd
		if !filepath.IsAbs(cwd) {
			cwd = filepath.Join(def, cwd)
		}
	}
	cwd = filepath.Clean(cwd)
	if cfg.Root != "" && !within(cfg.Root, cwd) {
		return "", &Error{Kind: KindCapDenied, Reason: ReasonCwdOutsideRoot,
			Msg: "working directory " + cwd + " is outside the policy root " + cfg.Root + "; change exec.root in the policy or pick a cwd below it", Fields: [][2]string{{"path", cwd}}}
	}
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		return "", &Error{Kind: KindTool, Reason: ReasonCwdNotFound, Msg: "working directory not found: " + cwd, Fields: [][2]string{{"path", cwd}}}
	}
	if cfg.Root != "" {
		real, err := filepath.EvalSymlinks(cwd)
		if err != nil || !within(e.rootReal, real) {
			return "", &Error{Kind: KindCapDenied, Reason: ReasonCwdOutsideRoot,
				Msg: "working directory " + cwd + " resolves outside the policy root " + cfg.Root + "; change exec.root in the policy or pick a cwd below it", Fields: [][2]string{{"path", cwd}}}
		}
	}
	return cwd, nil
}

// sandboxFor returns the sandbox the command will run in under a policy
// that asks for one: nil when there is none, or when the kernel cannot
// confine and the policy does not require it (p.SandboxSkipped says why).
func (e *Engine) sandboxFor(p *Prepared) (*confinement, error) {
	sb := e.cfg.Sandbox
	if sb == nil {
		return nil, nil
	}
	if st := SandboxStatus(); !st.Available {
		if sb.Require {
			return nil, sandboxUnavailable(st.Missing)
		}
		p.SandboxSkipped = st.Missing
		return nil, nil
	}
	c, err := e.sbx.newConfinement()
	if err != nil {
		return nil, &Error{Kind: KindTool, Reason: ReasonSpawnFailed, Msg: "cannot confine the command: " + err.Error()}
	}
	return c, nil
}

// prepareEnv builds the command's environment, refuses code-loading
// variables under an allowlist, points a confined command's temporary
// folder variables at its private folder, and builds the mask set from
// the secrets the environment holds.
func (e *Engine) prepareEnv(r *Request, p *Prepared, confine *confinement) (*envList, error) {
	env, mode, tightened := e.buildEnv(r, p.Cwd, p.ID)
	p.EnvMode, p.EnvModeTightened = mode, tightened
	if e.cfg.Allow != nil {
		if err := e.checkCodeEnv(env); err != nil {
			return nil, err
		}
	}
	if confine != nil {
		// The private temporary folder is the only temporary folder a
		// confined command may write.
		for _, k := range tempVars {
			env.set(k, confine.tempDir)
		}
	}
	p.Spec.Env = env.list()
	if r.IsJob {
		p.EnvNames = env.names()
	}
	// Mask set (spec/exec.md §4.3).
	secrets := e.secrets(env, r.Mask)
	p.Masker = NewMasker(secrets)
	for _, sc := range secrets {
		p.MaskNames = append(p.MaskNames, sc.Name)
	}
	sort.Strings(p.MaskNames)
	return env, nil
}

// resolveArgv finds the program of an argv request on the command's PATH
// and checks it against the policy (and the sandbox).
func (e *Engine) resolveArgv(r *Request, p *Prepared, env *envList, confine *confinement) error {
	path, found, err := lookPath(r.Argv[0], p.Cwd, env)
	if err != nil {
		return maskError(p.Masker, err)
	}
	real, _ := filepath.EvalSymlinks(path)
	if _, err := e.checkSecretDests(r, path, real); err != nil {
		return err
	}
	if err := e.checkExecutable(found, real, r.Argv[0]); err != nil {
		return maskError(p.Masker, err)
	}
	if confine != nil {
		if err := e.checkSandbox(r.Argv[0], path, real, p.Masker); err != nil {
			return err
		}
	}
	p.Spec.Path = path
	p.Spec.Args = append([]string(nil), r.Argv...)
	p.ResolvedPath = real
	return nil
}

// resolveShell checks that a cmd request's shell is allowed (cmd mode and
// the listed shells), finds it, and checks it as an executable (and
// against the sandbox).
func (e *Engine) resolveShell(r *Request, p *Prepared, env *envList, confine *confinement) error {
	cfg := &e.cfg
	shell := r.Shell
	if shell == "" {
		shell = "sh"
	}
	if !cfg.AllowShell {
		return &Error{Kind: KindCapDenied, Reason: ReasonShellNotAllowed,
			Msg: "cmd mode (a shell) is not allowed by the policy; use argv: [...] or set exec.allowShell", Fields: [][2]string{{"executable", shell}}}
	}
	if !shellListed(cfg.Shells, shell) {
		return &Error{Kind: KindCapDenied, Reason: ReasonShellNotAllowed,
			Msg: "shell " + shell + " is not in the policy's exec.shells", Fields: [][2]string{{"executable", shell}}}
	}
	path, found, err := shellPath(shell, p.Cwd, env)
	if err != nil {
		return maskError(p.Masker, err)
	}
	real, _ := filepath.EvalSymlinks(path)
	if _, err := e.checkSecretDests(r, path, real); err != nil {
		return err
	}
	if err := e.checkExecutable(found, real, shell); err != nil {
		if pe, ok := err.(*Error); ok && pe.Reason == ReasonExecutableNotAllowed {
			pe.Reason = ReasonShellNotAllowed
		}
		return err
	}
	if confine != nil {
		if err := e.checkSandbox(shell, path, real, p.Masker); err != nil {
			return err
		}
	}
	p.Spec.Path = path
	p.Spec.Args = []string{path, "-c", r.Cmd}
	p.ResolvedPath = real
	p.Shell = shell
	return nil
}

// setStreams sets stdin (refused over exec.maxStdinBytes), the output
// bound (the request's, capped by the policy), truncation, and the grace
// period of a stop.
func (e *Engine) setStreams(r *Request, p *Prepared) error {
	cfg := &e.cfg
	if r.HasStdin {
		if int64(len(r.Stdin)) > cfg.MaxStdinBytes {
			return &Error{Kind: KindArgs, Reason: ReasonInvalidArgs, Msg: "stdin: larger than the policy's exec.maxStdinBytes", Fields: [][2]string{{"field", "stdin"}}}
		}
		p.Spec.Stdin, p.Spec.HasStdin = r.Stdin, true
	}
	p.Spec.Merge = r.Merge
	out := r.DefaultOut
	if r.MaxOutput >= 0 {
		out = r.MaxOutput
	}
	if out > cfg.MaxOutputBytes {
		out = cfg.MaxOutputBytes
	}
	p.MaxOutput = out
	p.Spec.MaxOutput = int(out)
	p.Spec.Truncate = r.Truncate
	p.Spec.OutputLimit = r.OutputLimit
	p.Spec.Dir = p.Cwd
	grace := cfg.Grace
	if r.HasGrace {
		grace = r.Grace
	}
	p.Spec.Grace = grace
	p.GraceMs = grace.Milliseconds()
	p.Spec.Drain = cfg.Drain
	return nil
}

// setTimeout sets the command's timeout: a command's is the request's
// (default and ceiling from the policy), shortened to the run's remaining
// time budget (then reported as "budget"); a job's is capped by
// exec.maxJobMs.
func (e *Engine) setTimeout(r *Request, p *Prepared) {
	cfg := &e.cfg
	p.Spec.TimeoutReason = "timeout"
	if !r.IsJob {
		t := cfg.DefaultTimeout
		if r.HasTimeout {
			t = r.Timeout
			if t == 0 || t > cfg.MaxTimeout {
				t = cfg.MaxTimeout
			}
		}
		if r.Remaining >= 0 && r.Remaining <= t {
			t = r.Remaining
			p.Spec.TimeoutReason = "budget"
			if t <= 0 {
				t = time.Millisecond
			}
		}
		p.Spec.Timeout = t
		p.TimeoutMs = t.Milliseconds()
	} else {
		t := time.Duration(0)
		if r.HasTimeout {
			t = r.Timeout
		}
		if cfg.MaxJob > 0 && (t == 0 || t > cfg.MaxJob) {
			t = cfg.MaxJob
		}
		p.Spec.Timeout = t
		p.TimeoutMs = t.Milliseconds()
	}
}

// buildEnv builds the child's environment (spec/exec.md §3.2).
func (e *Engine) buildEnv(r *Request, cwd, id string) (*envList, string, bool) {
	cfg := &e.cfg
	mode := r.EnvMode
	if mode == "" {
		mode = "inherit"
	}
	tightened := false
	if envStrictness[cfg.EnvMode] > envStrictness[mode] {
		mode = cfg.EnvMode
		tightened = true
	}
	base := e.base(mode)
	env := &envList{vars: make([]envVar, len(base), len(base)+len(r.Env)+2)}
	copy(env.vars, base)
	for _, k := range r.EnvRemove {
		env.del(k)
	}
	pwdSet := false
	for _, kv := range r.Env {
		env.set(kv[0], kv[1])
		if kv[0] == "PWD" {
			pwdSet = true
		}
	}
	if _, ok := env.get("PWD"); ok && !pwdSet {
		env.set("PWD", cwd)
	}
	env.set("A0_EXEC_ID", id)
	return env, mode, tightened
}

// base returns the inherited variables mode keeps, envDeny applied.
func (e *Engine) base(mode string) []envVar {
	if b, ok := e.bases.Load(mode); ok {
		return b.([]envVar)
	}
	var out []envVar
	seen := map[string]int{}
	if mode != "replace" {
		for _, kv := range e.baseEnv {
			k, v, _ := strings.Cut(kv, "=")
			if mode == "clean" && !contains(cleanNames, k) && !strings.HasPrefix(k, "LC_") && !anyGlob(e.cfg.EnvAllow, k) {
				continue
			}
			if anyGlob(e.cfg.EnvDeny, k) {
				continue
			}
			if i, ok := seen[k]; ok {
				out[i].v, out[i].kv = v, kv // a repeated name keeps its first place, last value
				continue
			}
			seen[k] = len(out)
			out = append(out, envVar{k, v, kv})
		}
	}
	e.bases.Store(mode, out)
	return out
}

func (e *Engine) secrets(env *envList, extra []string) []Secret {
	var out []Secret
	for _, ev := range env.vars {
		if e.IsSecretName(ev.k, extra) {
			out = append(out, Secret{Name: ev.k, Value: ev.v})
		}
	}
	return out
}

// IsSecretName reports whether an env name's value is masked: it matches
// the policy's mask globs or the call's extra names.
func (e *Engine) IsSecretName(name string, extra []string) bool {
	if contains(extra, name) {
		return true
	}
	if v, ok := e.secretNames.Load(name); ok {
		return v.(bool)
	}
	// Env names repeat from call to call: match the globs once per name.
	secret := anyGlob(e.cfg.Mask, name)
	e.secretNames.Store(name, secret)
	return secret
}

// SecretsFor returns the mask set a request would get (for redacting its
// trace event before it runs).
func (e *Engine) SecretsFor(r *Request) []Secret {
	env, _, _ := e.buildEnv(r, e.cfg.WorkDir, "")
	return e.secrets(env, r.Mask)
}

// Run runs a prepared command to completion.
func (e *Engine) Run(ctx context.Context, p *Prepared) (*Result, error) {
	return Run(ctx, &p.Spec)
}

// ExecIDs returns the ids of every command prepared by the engine.
func (e *Engine) ExecIDs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.execIDs...)
}

func within(root, p string) bool {
	if p == root {
		return true
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func shellListed(shells []string, shell string) bool {
	for _, s := range shells {
		if s == shell || filepath.IsAbs(shell) && s == filepath.Base(shell) {
			return true
		}
	}
	return false
}

// checkExecutable applies the allow/deny rules of spec/exec.md §3.5. found is
// the path as found (before symlinks), real its real path.
func (e *Engine) checkExecutable(found, real, asWritten string) error {
	name := filepath.Base(found)
	for _, d := range e.deny {
		if (d.name != "" && d.name == name) || contains(d.reals, real) {
			return &Error{Kind: KindCapDenied, Reason: ReasonExecutableDenied,
				Msg: "executable " + asWritten + " (" + real + ") is denied by the policy's exec.deny", Fields: [][2]string{{"executable", asWritten}, {"path", real}}}
		}
	}
	if e.cfg.Allow == nil {
		return nil
	}
	for _, a := range e.allow {
		if a.name == "" && contains(a.reals, real) {
			return nil
		}
		if a.name != "" && a.name == name && contains(a.reals, real) {
			return nil
		}
	}
	return &Error{Kind: KindCapDenied, Reason: ReasonExecutableNotAllowed,
		Msg: "executable " + asWritten + " (" + real + ") is not in the policy's exec.allow; add it there to run it", Fields: [][2]string{{"executable", asWritten}, {"path", real}}}
}

// envList is an environment under construction, in order (a few dozen
// variables: a slice is cheaper than a map here).
type envList struct {
	vars []envVar
}

func (l *envList) find(k string) int {
	for i := range l.vars {
		if l.vars[i].k == k {
			return i
		}
	}
	return -1
}

// set replaces a variable's value in place, or appends it.
func (l *envList) set(k, v string) {
	if i := l.find(k); i >= 0 {
		l.vars[i] = envVar{k, v, k + "=" + v}
		return
	}
	l.vars = append(l.vars, envVar{k, v, k + "=" + v})
}

func (l *envList) del(k string) {
	if i := l.find(k); i >= 0 {
		l.vars = append(l.vars[:i], l.vars[i+1:]...)
	}
}

func (l *envList) get(k string) (string, bool) {
	if i := l.find(k); i >= 0 {
		return l.vars[i].v, true
	}
	return "", false
}

func (l *envList) list() []string {
	out := make([]string, len(l.vars))
	for i := range l.vars {
		out[i] = l.vars[i].kv
	}
	return out
}

func (l *envList) names() []string {
	out := make([]string, len(l.vars))
	for i := range l.vars {
		out[i] = l.vars[i].k
	}
	sort.Strings(out)
	return out
}

// lookPath resolves a program in the child's PATH (spec/exec.md §3.4). It
// returns the absolute path to execute and the path as found.
func lookPath(prog, cwd string, env *envList) (string, string, error) {
	if strings.ContainsRune(prog, '/') {
		p := prog
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			return "", "", &Error{Kind: KindTool, Reason: ReasonNotFound, Msg: "executable not found: " + prog, Fields: [][2]string{{"executable", prog}}}
		}
		if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
			return "", "", &Error{Kind: KindTool, Reason: ReasonPermissionDenied, Msg: "not executable: " + prog, Fields: [][2]string{{"executable", prog}}}
		}
		return p, p, nil
	}
	pathVar, ok := env.get("PATH")
	if !ok {
		pathVar = "/usr/bin:/bin"
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, prog)
		if isExecutable(p) {
			return p, p, nil
		}
	}
	return "", "", &Error{Kind: KindTool, Reason: ReasonNotFound, Msg: "executable not found in PATH: " + prog, Fields: [][2]string{{"executable", prog}}}
}

func shellPath(shell, cwd string, env *envList) (string, string, error) {
	if shell == "sh" {
		if isExecutable("/bin/sh") {
			return "/bin/sh", "/bin/sh", nil
		}
	}
	return lookPath(shell, cwd, env)
}
