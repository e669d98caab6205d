package tools

import (
	"time"

	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// ExecConfig turns the effective policy `exec` settings into the exec
// engine's configuration. workDir is the run's working directory.
func ExecConfig(s policy.ExecSettings, workDir string) proc.Config {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	cfg := proc.DefaultConfig()
	cfg.Allow = s.Allow
	cfg.Deny = s.Deny
	cfg.AllowShell = s.AllowShell
	cfg.Shells = s.Shells
	cfg.Root = s.Root
	cfg.EnvMode = s.EnvMode
	cfg.EnvAllow = s.EnvAllow
	cfg.EnvDeny = s.EnvDeny
	cfg.Mask = s.Mask
	cfg.DefaultTimeout = ms(s.DefaultTimeoutMs)
	cfg.MaxTimeout = ms(s.MaxTimeoutMs)
	cfg.MaxJob = ms(s.MaxJobMs)
	cfg.MaxWait = ms(s.MaxWaitMs)
	cfg.Grace = ms(s.GraceMs)
	cfg.Drain = ms(s.DrainMs)
	cfg.MaxOutputBytes = s.MaxOutputBytes
	cfg.MaxStdinBytes = s.MaxStdinBytes
	cfg.MaxJobs = int(s.MaxJobs)
	cfg.MaxJobsPerRun = int(s.MaxJobsPerRun)
	cfg.SweepEscaped = s.SweepEscaped
	if js := s.JobStore; js != nil {
		cfg.StoreDir = js.Dir
		cfg.RetainDays = js.RetainDays
		cfg.StoreMaxBytes = js.MaxBytes
		cfg.MaxLogBytes = js.MaxLogBytes
	}
	cfg.AllowCrossRun = s.AllowCrossRun
	cfg.AllowDetach = s.AllowDetach
	cfg.EnvAllowCode = s.EnvAllowCode
	cfg.Sandbox = SandboxConfig(s.Sandbox)
	if workDir != "" {
		cfg.WorkDir = workDir
	}
	return cfg
}
