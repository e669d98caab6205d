package proc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStartedCountsStartup: proc.Started lies before the first package
// initialization — the exec and the Go runtime's start-up count — but
// never before the process was created, as seen by the parent that
// started it: the child (the test binary again) reports how long ago it
// started, and that is at most the parent's wall time around the whole
// child and more than what the child's own clock saw after init.
func TestStartedCountsStartup(t *testing.T) {
	if os.Getenv("A0_STARTED_TEST") != "" {
		fromInit := time.Since(procInit)
		os.Stdout.WriteString(strconv.FormatInt(time.Since(Started()).Nanoseconds(), 10) + " " + strconv.FormatInt(fromInit.Nanoseconds(), 10) + "\n")
		return
	}
	exe, _ := os.Executable()
	for i := 0; i < 5; i++ {
		c := exec.Command(exe, "-test.run=^TestStartedCountsStartup$")
		c.Env = append(os.Environ(), "A0_STARTED_TEST=1")
		t0 := time.Now()
		out, err := c.Output()
		wall := time.Since(t0)
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		f := strings.Fields(string(out))
		if len(f) < 2 {
			t.Fatalf("child printed %q", out)
		}
		since, _ := strconv.ParseInt(f[0], 10, 64)
		fromInit, _ := strconv.ParseInt(f[1], 10, 64)
		if since <= 0 || time.Duration(since) > wall {
			t.Errorf("child started %v before its report, but the parent saw it live %v in all", time.Duration(since), wall)
		}
		if (runtime.GOOS == "linux" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64")) && since <= fromInit {
			t.Errorf("Started (%v ago) is not before package proc's initialization (%v ago)", time.Duration(since), time.Duration(fromInit))
		}
	}
}
