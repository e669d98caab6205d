//go:build linux

package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// spec/cli.md §4.2, spec/exec.md §4.7: SIGINT to `a0 run` while a job runs stops the job
// (host_cancel) before run_end, prints one E_CANCELLED object and exits
// 130 — also when a0 was started with SIGINT ignored; a second SIGINT
// skips the grace period.

// a0Signal starts `a0 run` on src (through sh when ignoreInt, with SIGINT
// ignored) and returns the command and its trace path.
func a0Signal(t *testing.T, src string, ignoreInt bool) (*exec.Cmd, string, *bytes.Buffer) {
	t.Helper()
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("no a0 command on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.a0"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "trace.jsonl")
	args := []string{bin, "run", "--unsafe-allow-all", "--trace", trace, "p.a0"}
	var cmd *exec.Cmd
	if ignoreInt {
		cmd = exec.Command("/bin/sh", "-c", `trap "" INT; exec "$@"`, "sh")
		cmd.Args = append(cmd.Args, args...)
	} else {
		cmd = exec.Command(args[0], args[1:]...)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "NO_COLOR=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, trace, &stderr
}

type traceLine struct {
	Event string         `json:"event"`
	Data  map[string]any `json:"data"`
}

func readTrace(path string) []traceLine {
	b, _ := os.ReadFile(path)
	var out []traceLine
	for _, l := range strings.Split(string(b), "\n") {
		var tl traceLine
		if json.Unmarshal([]byte(l), &tl) == nil {
			out = append(out, tl)
		}
	}
	return out
}

// waitTrace waits until the trace holds an event matching ok.
func waitTrace(t *testing.T, path string, ok func(traceLine) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, l := range readTrace(path) {
			if ok(l) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("trace event did not appear")
}

func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("a0 did not exit within %v", limit)
	}
	return cmd.ProcessState.ExitCode(), time.Since(start)
}

func markedAlive(m string) []int {
	var out []int
	want := []byte("A0T_MARK=" + m + "\x00")
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(env, want) {
			out = append(out, pid)
		}
	}
	return out
}

func newMark() string {
	var b [6]byte
	rand.Read(b[:])
	return "m" + hex.EncodeToString(b[:])
}

func checkCancelled(t *testing.T, code int, stderr string, trace string) {
	t.Helper()
	if code != 130 {
		t.Errorf("exit code %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	var obj map[string]any
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &obj) != nil || obj["code"] != "E_CANCELLED" {
		t.Errorf("stderr %q", stderr)
	}
	var seq []string
	for _, l := range readTrace(trace) {
		switch l.Event {
		case "job_end":
			seq = append(seq, "job_end:"+asString(l.Data["killReason"]))
		case "run_end":
			seq = append(seq, "run_end:"+asString(l.Data["error"]))
		}
	}
	if got := strings.Join(seq, " "); got != "job_end:host_cancel run_end:E_CANCELLED" {
		t.Errorf("trace %s", got)
	}
}

func asString(v any) string {
	s, _ := v.(string)
	return s
}

func TestSIGINTStopsJobs(t *testing.T) {
	t.Parallel()
	for _, ignored := range []bool{false, true} {
		m := newMark()
		cmd, trace, stderr := a0Signal(t, `cap { sh.exec: true }
do sh.start { cmd: "sleep 60", env: { A0T_MARK: "`+m+`" } } -> j
call? sh.wait { id: j.id, timeoutMs: 60000 } -> w
return w
`, ignored)
		waitTrace(t, trace, func(l traceLine) bool { return l.Event == "tool_start" && l.Data["tool"] == "sh.wait" })
		cmd.Process.Signal(syscall.SIGINT)
		code, el := waitExit(t, cmd, 10*time.Second)
		if el > 3*time.Second {
			t.Errorf("ignored=%v: exit took %v", ignored, el)
		}
		checkCancelled(t, code, stderr.String(), trace)
		if left := markedAlive(m); len(left) > 0 {
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Errorf("ignored=%v: job processes survived: %v", ignored, left)
		}
	}
}

func TestSecondSIGINTKillsAtOnce(t *testing.T) {
	t.Parallel()
	m := newMark()
	cmd, trace, stderr := a0Signal(t, `cap { sh.exec: true }
do sh.start { cmd: "trap '' TERM; sleep 60", graceMs: 20000, env: { A0T_MARK: "`+m+`" } } -> j
do sh.exec { cmd: "sleep 0.1" }
call? sh.wait { id: j.id, timeoutMs: 60000 } -> w
return w
`, false)
	waitTrace(t, trace, func(l traceLine) bool { return l.Event == "tool_start" && l.Data["tool"] == "sh.wait" })
	cmd.Process.Signal(syscall.SIGINT)
	waitTrace(t, trace, func(l traceLine) bool { return l.Event == "exec_signal" && l.Data["signal"] == "SIGTERM" })
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	code, el := waitExit(t, cmd, 10*time.Second)
	if el > 3*time.Second {
		t.Errorf("the second SIGINT did not skip the 20 s grace period: exit took %v", el)
	}
	checkCancelled(t, code, stderr.String(), trace)
	var sigs []string
	for _, l := range readTrace(trace) {
		if l.Event == "exec_signal" {
			sigs = append(sigs, asString(l.Data["signal"])+"/"+asString(l.Data["reason"]))
		}
	}
	if got := strings.Join(sigs, " "); got != "SIGTERM/host_cancel SIGKILL/host_cancel" {
		t.Errorf("signals %s", got)
	}
	if left := markedAlive(m); len(left) > 0 {
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Errorf("job processes survived: %v", left)
	}
}

// TestSIGINTCancelsPureRun: a run that calls no tool (and writes no trace)
// installs its handlers after a few milliseconds; a signal then still ends
// it with E_CANCELLED and 128 + N, also when SIGINT was ignored at start.
func TestSIGINTCancelsPureRun(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("no a0 command on PATH")
	}
	for _, ignored := range []bool{false, true} {
		dir := t.TempDir()
		src := "budget { maxIterations: 1000000000 }\nlet n = loop { in: 0, times: 500000000, as: \"x\" } { return x + 1 }\nreturn n\n"
		if err := os.WriteFile(filepath.Join(dir, "p.a0"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		var cmd *exec.Cmd
		if ignored {
			cmd = exec.Command("/bin/sh", "-c", `trap "" INT; exec "$@"`, "sh", bin, "run", "p.a0")
		} else {
			cmd = exec.Command(bin, "run", "p.a0")
		}
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "NO_COLOR=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		code, _ := waitExit(t, cmd, 10*time.Second)
		if code != 130 || !strings.Contains(stderr.String(), `"code":"E_CANCELLED"`) || !strings.Contains(stderr.String(), "Run cancelled by SIGINT.") {
			t.Errorf("ignored=%v: exit %d, stderr %q", ignored, code, stderr.String())
		}
	}
}
