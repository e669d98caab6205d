package proc

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// workDir resolves a relative cwd under the root and refuses one outside
// it, one that does not exist, and one that leaves the root through a
// symbolic link.
func TestPrepareWorkDir(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Root = root
	e := NewEngine(cfg)
	tests := []struct {
		cwd, want, reason string
	}{
		{"", root, ""},
		{"sub", filepath.Join(root, "sub"), ""},
		{"sub/../sub", filepath.Join(root, "sub"), ""},
		{"..", "", "cwd_outside_root"},
		{outside, "", "cwd_outside_root"},
		{"missing", "", "cwd_not_found"},
		{"link", "", "cwd_outside_root"},
	}
	for _, tc := range tests {
		got, err := e.workDir(&Request{Cwd: tc.cwd})
		reason := ""
		if pe, ok := err.(*Error); ok {
			reason = string(pe.Reason)
		} else if err != nil {
			t.Errorf("cwd %q: error %v is not an *Error", tc.cwd, err)
		}
		if got != tc.want || reason != tc.reason {
			t.Errorf("cwd %q: got %q, %q; want %q, %q", tc.cwd, got, reason, tc.want, tc.reason)
		}
	}
}

// setTimeout: a command's timeout is the request's within the policy's
// ceiling, shortened to the remaining time budget ("budget"); a job's is
// capped by exec.maxJobMs.
func TestPrepareTimeout(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DefaultTimeout, cfg.MaxTimeout, cfg.MaxJob = 30*time.Second, 60*time.Second, 10*time.Second
	e := NewEngine(cfg)
	s := time.Second
	tests := []struct {
		name   string
		r      Request
		want   time.Duration
		reason string
	}{
		{"default", Request{Remaining: -1}, 30 * s, "timeout"},
		{"asked", Request{HasTimeout: true, Timeout: 5 * s, Remaining: -1}, 5 * s, "timeout"},
		{"over the ceiling", Request{HasTimeout: true, Timeout: 90 * s, Remaining: -1}, 60 * s, "timeout"},
		{"zero means the ceiling", Request{HasTimeout: true, Remaining: -1}, 60 * s, "timeout"},
		{"budget shorter", Request{HasTimeout: true, Timeout: 5 * s, Remaining: 2 * s}, 2 * s, "budget"},
		{"budget spent", Request{Remaining: 0}, time.Millisecond, "budget"},
		{"job default", Request{IsJob: true, Remaining: -1}, 10 * s, "timeout"},
		{"job asked", Request{IsJob: true, HasTimeout: true, Timeout: 3 * s, Remaining: -1}, 3 * s, "timeout"},
		{"job over the cap", Request{IsJob: true, HasTimeout: true, Timeout: 20 * s, Remaining: 1 * s}, 10 * s, "timeout"},
	}
	for _, tc := range tests {
		p := &Prepared{}
		e.setTimeout(&tc.r, p)
		if p.Spec.Timeout != tc.want || p.Spec.TimeoutReason != tc.reason || p.TimeoutMs != tc.want.Milliseconds() {
			t.Errorf("%s: timeout %v (%s, %d ms), want %v (%s)", tc.name, p.Spec.Timeout, p.Spec.TimeoutReason, p.TimeoutMs, tc.want, tc.reason)
		}
	}
}
