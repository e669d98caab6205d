package proc

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkOSExecFloor is the os/exec floor: exec.Command("true").Run().
func BenchmarkOSExecFloor(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if err := exec.Command("/usr/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRun measures proc.Run for `true` with capture, group and
// leftover handling (no policy preparation).
func BenchmarkRun(b *testing.B) {
	s := &Spec{Path: "/usr/bin/true", Args: []string{"true"}, Dir: os.TempDir(), Env: os.Environ(),
		MaxOutput: 1 << 20, Timeout: 30 * time.Second, Grace: time.Second, Drain: time.Second}
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare measures policy preparation of an argv request.
func BenchmarkPrepare(b *testing.B) {
	e := NewEngine(DefaultConfig())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := e.Prepare(&Request{Argv: []string{"true"}, MaxOutput: -1, Remaining: -1, DefaultOut: 1 << 20}); err != nil {
			b.Fatal(err)
		}
	}
}
