package proc

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Config is the engine configuration: the effective `exec` policy
// (spec/exec.md §8) plus the interpreter's environment and directory. The zero
// value is not useful; start from DefaultConfig.
type Config struct {
	// Allow is the executable allowlist (absolute paths or bare names); nil
	// allows any executable. Deny always refuses.
	Allow, Deny []string
	// AllowShell permits `cmd` mode; Shells lists the shells it may use.
	AllowShell bool
	Shells     []string
	// Root confines working directories ("" = unconfined). Absolute.
	Root string
	// EnvMode is the floor for a call's envMode; EnvAllow and EnvDeny are
	// case-insensitive globs; Mask lists the env-name globs whose values
	// are secret.
	EnvMode                 string
	EnvAllow, EnvDeny, Mask []string
	// EnvAllowCode lists the CodeEnv names an executable allowlist lets
	// a call set or keep (exact names).
	EnvAllowCode []string

	DefaultTimeout, MaxTimeout, MaxJob, MaxWait, Grace, Drain time.Duration
	MaxOutputBytes, MaxStdinBytes                             int64
	MaxJobs, MaxJobsPerRun                                    int
	SweepEscaped                                              bool

	// BaseEnv is the interpreter's environment (os.Environ when nil).
	BaseEnv []string
	// WorkDir is the default working directory.
	WorkDir string

	// StoreDir turns the job store on (spec/exec.md §7): an absolute directory
	// ("" = off). RetainDays, StoreMaxBytes and MaxLogBytes are its
	// retention, size bound and per-stream log bound.
	StoreDir                               string
	RetainDays, StoreMaxBytes, MaxLogBytes int64
	// AllowCrossRun lets the observation tools see other runs' jobs in
	// the store (spec/exec.md §7.5).
	AllowCrossRun bool
	// AllowDetach lets sh.start { detach: true } start jobs a supervisor
	// owns, which outlive the run (spec/exec.md §6.5).
	AllowDetach bool
	// Version is the interpreter version recorded in job metadata.
	Version string

	// Sandbox, when set, confines every command (spec/exec.md
	// §12); nil runs commands unconfined.
	Sandbox *Sandbox
}

// Environment modes of a call's (and the policy's) envMode, from least
// to most strict (spec/exec.md §3.2).
const (
	EnvInherit = "inherit"
	EnvClean   = "clean"
	EnvReplace = "replace"
)

// DefaultShells is the default list of shells `cmd` mode may use
// (`exec.shells`).
var DefaultShells = []string{"sh", "bash", "zsh", "dash", "pwsh", "powershell", "cmd"}

// DefaultMask is the default list of secret env-name globs (`exec.mask`,
// case-insensitive).
var DefaultMask = []string{
	"*TOKEN*", "*SECRET*", "*PASSWORD*", "*PASSWD*", "*PASSPHRASE*", "*API_KEY*",
	"*APIKEY*", "*ACCESS_KEY*", "*PRIVATE_KEY*", "*CREDENTIAL*", "*_KEY",
}

// DefaultStoreDir is the job store folder of a policy's `exec.jobStore`
// without `dir`, relative to the policy file's folder (spec/exec.md
// §7.2). DefaultConfig leaves the store off.
const DefaultStoreDir = ".a0/jobs"

// DefaultConfig returns the defaults of spec/exec.md §8.1 and §7.2: no
// allowlist, no root, the default shells and mask lists, the job store
// off (its retention and size defaults filled in for when a host sets
// StoreDir), no sandbox, and the current directory as WorkDir. These are
// the only copy of the exec defaults: the policy's `exec` section is laid
// over them (runtime/policy), and a test checks them against the spec.
func DefaultConfig() Config {
	wd, _ := os.Getwd()
	return Config{
		AllowShell:     true,
		Shells:         append([]string(nil), DefaultShells...),
		EnvMode:        EnvInherit,
		Mask:           append([]string(nil), DefaultMask...),
		DefaultTimeout: 30 * time.Second,
		MaxTimeout:     600 * time.Second,
		MaxWait:        600 * time.Second,
		Grace:          2 * time.Second,
		Drain:          2 * time.Second,
		MaxOutputBytes: 64 << 20,
		MaxStdinBytes:  8 << 20,
		MaxJobs:        8,
		MaxJobsPerRun:  64,
		SweepEscaped:   true,
		WorkDir:        wd,
		RetainDays:     7,
		StoreMaxBytes:  512 << 20,
		MaxLogBytes:    64 << 20,
	}
}

// resolvedEntry is an allow/deny entry resolved once at engine start.
type resolvedEntry struct {
	name  string   // bare name ("" for an absolute-path entry)
	reals []string // real paths it resolves to
}

func resolveEntries(list []string, pathVar string) []resolvedEntry {
	out := make([]resolvedEntry, 0, len(list))
	for _, e := range list {
		re := resolvedEntry{}
		if filepath.IsAbs(e) {
			if r, err := filepath.EvalSymlinks(e); err == nil {
				re.reals = append(re.reals, r)
			}
		} else {
			re.name = e
			for _, dir := range filepath.SplitList(pathVar) {
				if dir == "" || !filepath.IsAbs(dir) {
					continue
				}
				p := filepath.Join(dir, e)
				if isExecutable(p) {
					if r, err := filepath.EvalSymlinks(p); err == nil {
						re.reals = append(re.reals, r)
					}
				}
			}
		}
		out = append(out, re)
	}
	return out
}

// globMatch matches name against a case-insensitive glob supporting '*'.
func globMatch(glob, name string) bool {
	g, n := upperASCII(glob), upperASCII(name)
	parts := strings.Split(g, "*")
	if len(parts) == 1 {
		return g == n
	}
	if !strings.HasPrefix(n, parts[0]) {
		return false
	}
	n = n[len(parts[0]):]
	for i := 1; i < len(parts)-1; i++ {
		j := strings.Index(n, parts[i])
		if j < 0 {
			return false
		}
		n = n[j+len(parts[i]):]
	}
	return strings.HasSuffix(n, parts[len(parts)-1])
}

// upperASCII upper-cases s, allocating only when s has a lower-case
// letter (env names usually have none).
func upperASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= 0x80 {
			return strings.ToUpper(s)
		}
	}
	return s
}

func anyGlob(globs []string, name string) bool {
	for _, g := range globs {
		if globMatch(g, name) {
			return true
		}
	}
	return false
}
