//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPServerShutdownStopsRuns: when the client goes away, the server
// cancels the runs still going and exits only after their cleanup, so no
// command outlives it.
func TestMCPServerShutdownStopsRuns(t *testing.T) {
	cs, stop := mcpSessionStop(t, `{"version":1,"allow":["sh.exec"]}`)
	dir, _ := os.Getwd()
	pidFile := filepath.Join(dir, "pid")
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "a0_run", Arguments: map[string]any{
		"source": "cap { sh.exec: true }\ndo sh.exec { cmd: \"echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 60\" } -> r\nreturn r",
	}})
	var pid int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
	}
	if pid == 0 {
		t.Fatal("the command did not start")
	}
	start := time.Now()
	stop()
	if err := syscall.Kill(pid, 0); err == nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("command %d still running after the server exited", pid)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("shutdown took %v", d)
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// waitPidFile waits for the command a test started to write its pid.
func waitPidFile(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 {
				t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
				return pid
			}
		}
	}
	t.Fatal("the command did not start")
	return 0
}

// mcpSleepCall is an a0_run call whose command writes its pid and sleeps;
// pre runs in the shell first.
func mcpSleepCall(id, pre string) string {
	src := "cap { sh.exec: true }\ndo sh.exec { cmd: \"" + pre + "echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 60\" } -> r\nreturn r"
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "tools/call",
		"params": map[string]any{"name": "a0_run", "arguments": map[string]any{"source": src}}})
	return string(b)
}

// TestMCPWireSignal: SIGTERM, SIGINT or SIGHUP while a call runs cancels
// the run (its command is stopped) and the server exits 0 promptly. Before,
// the server waited for the call to finish on its own (the SDK waits for
// its handlers, and the runs were cancelled only after that).
func TestMCPWireSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			w := startMCPWire(t, `{"version":1,"allow":["sh.exec"]}`)
			w.send(mcpSleepCall("1", ""))
			pid := waitPidFile(t, filepath.Join(w.dir, "pid"))
			start := time.Now()
			w.cmd.Process.Signal(sig)
			if !w.waitExit(5 * time.Second) {
				t.Fatalf("a0 mcp still running 5 s after %v", sig)
			}
			if code := w.exitCode(); code != 0 {
				t.Errorf("exit %d after %v, want 0", code, sig)
			}
			if alive(pid) {
				t.Errorf("command %d outlives the server", pid)
			}
			t.Logf("%v: exited after %v", sig, time.Since(start))
		})
	}
}

// TestMCPWireSecondSignal: a second signal does not wait for the stop
// sequences' grace period (here a command that ignores SIGTERM): the
// command is killed and the server exits at once, 128 + the signal.
func TestMCPWireSecondSignal(t *testing.T) {
	w := startMCPWire(t, `{"version":1,"allow":["sh.exec"],"exec":{"graceMs":10000}}`)
	w.send(mcpSleepCall("1", "trap '' TERM; "))
	pid := waitPidFile(t, filepath.Join(w.dir, "pid"))
	w.cmd.Process.Signal(syscall.SIGTERM)
	if w.waitExit(300 * time.Millisecond) {
		t.Fatalf("exited (%d) before the grace period of a command that ignores SIGTERM", w.exitCode())
	}
	start := time.Now()
	w.cmd.Process.Signal(syscall.SIGTERM)
	if !w.waitExit(2 * time.Second) {
		t.Fatal("a0 mcp still running 2 s after the second signal")
	}
	if code := w.exitCode(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit %d, want %d", code, 128+int(syscall.SIGTERM))
	}
	for deadline := time.Now().Add(time.Second); alive(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("command %d outlives the server", pid)
	}
	t.Logf("exited %v after the second signal", time.Since(start))
}

// TestMCPWireDuplicateAndCancel: a request reusing the id of a call in
// progress is refused (-32600, with that id) instead of never being
// answered; a cancelled call gets no response (MCP) and its command stops;
// its id can then be reused.
func TestMCPWireDuplicateAndCancel(t *testing.T) {
	w := startMCPWire(t, `{"version":1,"allow":["sh.exec"]}`)
	w.send(mcpSleepCall("5", ""))
	pid := waitPidFile(t, filepath.Join(w.dir, "pid"))
	// A malformed line does not end the session nor cancel the call.
	w.send(`{"jsonrpc":`)
	if m := w.next(10 * time.Second); m == nil || string(m["id"]) != "null" {
		t.Fatalf("malformed line: %v", m)
	}
	time.Sleep(100 * time.Millisecond)
	if !alive(pid) {
		t.Fatal("a malformed line stopped the call in progress")
	}
	w.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	m := w.next(10 * time.Second)
	if m == nil {
		t.Fatal("no answer to a request reusing the id of a call in progress")
	}
	if code, msg := wireError(m); code != -32600 || string(m["id"]) != "5" || !strings.Contains(msg, "in use") {
		t.Errorf("duplicate id: id %s, %d %q", m["id"], code, msg)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"test"}}`)
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("command %d still running after the cancel", pid)
		}
	}
	time.Sleep(200 * time.Millisecond)
	w.send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if m := w.next(10 * time.Second); m == nil || string(m["id"]) != "6" {
		t.Fatalf("want only the answer to 6, got %v", m)
	}
	w.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	if m := w.next(10 * time.Second); m == nil || string(m["id"]) != "5" || m["result"] == nil {
		t.Fatalf("id 5 reused after the cancel: %v", m)
	}
}

// children lists the processes whose parent is pid.
func children(pid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 2 && f[1] == strconv.Itoa(pid) && f[0] != "Z" {
			out = append(out, child)
		}
	}
	return out
}

// rssMB is the resident memory of process pid in MB.
func rssMB(pid int) int {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return kb / 1024
		}
	}
	return -1
}

// TestMCPWireCancelStorm: 500 calls in flight, then all cancelled: the
// server answers the next request and every command is gone within a few
// seconds, and no cancelled call gets a response. Before, each run's
// memory monitor stopped the world every 10 ms and this took 25 s.
func TestMCPWireCancelStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 500 commands")
	}
	const n = 500
	w := startMCPWire(t, `{"version":1,"allow":["sh.exec"]}`)
	src, _ := json.Marshal("cap { sh.exec: true }\ndo sh.exec { argv: [\"sleep\", \"60\"] } -> r\nreturn r")
	for i := 1; i <= n; i++ {
		w.send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"a0_run","arguments":{"source":` + string(src) + `}}}`)
	}
	for deadline := time.Now().Add(30 * time.Second); len(children(w.cmd.Process.Pid)) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d commands started", len(children(w.cmd.Process.Pid)), n)
		}
	}
	start := time.Now()
	for i := 1; i <= n; i++ {
		w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + strconv.Itoa(i) + `}}`)
	}
	w.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	m := w.next(30 * time.Second)
	if m == nil || string(m["id"]) != `"after"` {
		t.Fatalf("after the cancels: %v", m)
	}
	pong := time.Since(start)
	for deadline := time.Now().Add(30 * time.Second); len(children(w.cmd.Process.Pid)) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d commands still running", len(children(w.cmd.Process.Pid)))
		}
	}
	gone := time.Since(start)
	t.Logf("%d calls cancelled: ping answered after %v, all commands gone after %v", n, pong, gone)
	if gone > 10*time.Second { // 25 s before, on an idle machine
		t.Errorf("cancelling %d calls took %v", n, gone)
	}
	if m := w.next(300 * time.Millisecond); m != nil {
		t.Errorf("a cancelled call was answered: %v", m)
	}
}

// TestMCPWireReleasesMemory: after a run that built a 128 MiB value the
// server's resident memory is back under 200 MB within seconds (it held
// 1.7 GB before).
func TestMCPWireReleasesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 128 MiB value")
	}
	w := startMCPWire(t, "")
	raw := w.call("1", "a0_run", `{"source":"let s = loop { in: \"x\", times: 27, as: \"a\" } { return a + a }\nreturn s"}`)
	if sc, _, _ := wireResult(t, raw); string(sc["truncated"]) != "true" || atoi(string(sc["size"])) < 1<<27 {
		t.Fatalf("result: %s", short(raw))
	}
	pid := w.cmd.Process.Pid
	peak := rssMB(pid)
	start := time.Now()
	for rssMB(pid) >= 200 {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("resident memory %d MB 5 s after the run", rssMB(pid))
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("resident memory %d MB at the answer, %d MB after %v", peak, rssMB(pid), time.Since(start))
}

// TestMCPWireClosedStdout: a client that closes its end of the server's
// stdout does not kill the server with SIGPIPE at its next answer (which
// left the commands of the other calls running); the calls in flight are
// cancelled and their commands stopped.
func TestMCPWireClosedStdout(t *testing.T) {
	w := startMCPWire(t, `{"version":1,"allow":["sh.exec"]}`)
	w.send(mcpSleepCall("1", ""))
	pid := waitPidFile(t, filepath.Join(w.dir, "pid"))
	w.out.Close()
	// The next answer meets the closed pipe.
	w.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("command %d still running after stdout was closed", pid)
		}
	}
	w.in.Close()
	if !w.waitExit(5 * time.Second) {
		t.Fatal("a0 mcp still running after stdin closed")
	}
	if ws, ok := w.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Errorf("a0 mcp died of %v", ws.Signal())
	}
}

// TestMCPWireSignalStopsJobs: the signal's cancellation also stops the
// background jobs of the runs in flight, as at run end.
func TestMCPWireSignalStopsJobs(t *testing.T) {
	w := startMCPWire(t, `{"version":1,"allow":["sh.exec"]}`)
	src := "cap { sh.exec: true }\n" +
		"do sh.start { cmd: \"echo $$ > job.tmp && mv job.tmp job && exec sleep 60\", tag: \"bg\" } -> job\n" +
		"do sh.exec { cmd: \"echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 60\" } -> r\nreturn r"
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "a0_run", "arguments": map[string]any{"source": src}}})
	w.send(string(b))
	job := waitPidFile(t, filepath.Join(w.dir, "job"))
	pid := waitPidFile(t, filepath.Join(w.dir, "pid"))
	w.cmd.Process.Signal(syscall.SIGTERM)
	if !w.waitExit(5 * time.Second) {
		t.Fatal("a0 mcp still running 5 s after SIGTERM")
	}
	if code := w.exitCode(); code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, p := range []int{job, pid} {
		if alive(p) {
			t.Errorf("process %d outlives the server", p)
		}
	}
}
