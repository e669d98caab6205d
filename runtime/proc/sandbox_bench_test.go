//go:build linux

package proc

import (
	"context"
	"os/exec"
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
// (seccomp), every limit (prlimit at the exec stop, a pids cgroup).
func BenchmarkExecConfined(b *testing.B) {
	benchExec(b, &Sandbox{Limits: Limits{CPUSeconds: 60, MemoryBytes: 4 << 30, FileBytes: 1 << 30, OpenFiles: 1024, Processes: 256}, Require: true})
}

// BenchmarkExecConfinedNoLimits confines each command without limits
// (no exec stop, no cgroup).
func BenchmarkExecConfinedNoLimits(b *testing.B) { benchExec(b, &Sandbox{Require: true}) }

// BenchmarkStartHere and BenchmarkStartElsewhere are the floor under
// the confined spawn's cost: the same `sh -c true` started by the
// goroutine that waits for it, and by another goroutine (no locked
// thread, no confinement) — what any hand-over between goroutines costs
// on the machine.
func BenchmarkStartHere(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := exec.Command("/bin/sh", "-c", "true")
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		c.Wait()
	}
}

func BenchmarkStartElsewhere(b *testing.B) {
	req := make(chan *exec.Cmd)
	done := make(chan error)
	go func() {
		for c := range req {
			done <- c.Start()
		}
	}()
	defer close(req)
	for i := 0; i < b.N; i++ {
		c := exec.Command("/bin/sh", "-c", "true")
		req <- c
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		c.Wait()
	}
}
