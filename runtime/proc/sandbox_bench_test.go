//go:build linux

package proc

import (
	"context"
	"testing"
)

// benchExec runs `sh -c true` through Prepare and Run, as sh.exec does.
func benchExec(b *testing.B, sb *Sandbox) {
	if sb != nil && !SandboxStatus().Available {
		b.Skip("no Landlock here")
	}
	cfg := DefaultConfig()
	cfg.WorkDir = b.TempDir()
	cfg.Sandbox = sb
	e := NewEngine(cfg)
	b.Cleanup(e.CloseSandbox)
	for i := 0; i < b.N; i++ {
		p, err := e.Prepare(&Request{Cmd: "true", MaxOutput: -1, Remaining: -1, DefaultOut: 1 << 20})
		if err != nil {
			b.Fatal(err)
		}
		res, err := e.Run(context.Background(), p)
		if err != nil || res.ExitCode != 0 {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkExecUnconfined is the baseline of BenchmarkExecConfined.
func BenchmarkExecUnconfined(b *testing.B) { benchExec(b, nil) }

// BenchmarkExecConfined confines each command: Landlock, network deny
// (seccomp), every limit (rlimits and a pids cgroup, set by the child
// before execve).
func BenchmarkExecConfined(b *testing.B) {
	benchExec(b, &Sandbox{Limits: Limits{CPUSeconds: 60, MemoryBytes: 4 << 30, FileBytes: 1 << 30, OpenFiles: 1024, Processes: 256}, Require: true})
}

// BenchmarkExecConfinedNoLimits confines each command without limits.
func BenchmarkExecConfinedNoLimits(b *testing.B) { benchExec(b, &Sandbox{Require: true}) }
