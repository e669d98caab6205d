//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a0lang/a0/runtime/proc"
)

// SIGTERM ends `a0 run` promptly while fs.read waits on a FIFO that a
// writer holds open without writing (it used to block forever, deaf to
// the signal): exit 143 with E_CANCELLED.
func TestSIGTERMDuringFIFORead(t *testing.T) {
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("no a0 command on PATH")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(`{"allow":["fs.read"],"fs":{"read":["."],"readSpecial":true}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "p.a0"), []byte("cap { fs.read: true }\ncall? fs.read { path: \"pipe\" } -> x\nreturn x\n"), 0o644)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cmd := exec.Command(bin, "run", "p.a0")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "NO_COLOR=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer cmd.Process.Kill()
	time.Sleep(500 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("a0 ended before the signal: %v %s", err, stderr.String())
	default:
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("a0 still runs 5 s after SIGTERM")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a0 took %v to end after SIGTERM", d)
	}
	if code := cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("exit %d, want 143: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "E_CANCELLED") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// A run that does not end after a signal cancelled it is ended anyway:
// the watchdog exits with 128 + the signal number once the shutdown bound
// has passed, and never when the run ends in time.
func TestRunSignalsWatchdog(t *testing.T) {
	_, cancel := context.WithCancelCause(context.Background())
	s := newRunSignals(cancel, proc.NewKillSwitch())
	codes := make(chan int, 1)
	s.exit = func(code int) { codes <- code }
	s.exitAfter = 100 * time.Millisecond
	s.watchdog(syscall.SIGTERM)
	select {
	case code := <-codes:
		if code != 143 {
			t.Errorf("exit %d, want 143", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog did not end a run that hangs")
	}
	s2 := newRunSignals(cancel, proc.NewKillSwitch())
	s2.exit = func(code int) { codes <- code }
	s2.exitAfter = 100 * time.Millisecond
	s2.watchdog(syscall.SIGTERM)
	s2.stop()
	select {
	case code := <-codes:
		t.Errorf("the watchdog exited (%d) after the run ended", code)
	case <-time.After(500 * time.Millisecond):
	}
}
