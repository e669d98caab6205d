package tools

import (
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// SandboxConfig turns the effective `exec.sandbox` settings into the exec
// engine's typed sandbox (nil: commands run unconfined). A confined
// command may read the fs read and write roots and the sandbox roots, and
// write the fs write roots and the sandbox write roots.
func SandboxConfig(s *policy.SandboxSettings) *proc.Sandbox {
	if s == nil {
		return nil
	}
	sb := &proc.Sandbox{
		NetworkAllow: s.Network == "allow",
		Require:      s.Require,
		Limits: proc.Limits{
			CPUSeconds: s.CPUSeconds, MemoryBytes: s.MemoryBytes, FileBytes: s.FileBytes,
			OpenFiles: s.OpenFiles, Processes: s.Processes,
		},
	}
	sb.Read = append(append(sb.Read, s.FSRead...), s.Read...)
	sb.Write = append(append(sb.Write, s.FSWrite...), s.Write...)
	return sb
}
