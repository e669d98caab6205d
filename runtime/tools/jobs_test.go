//go:build linux

package tools_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/tools"
)

// Tests of the exec engine's behaviour (spec/exec.md §4–§7) at the tool
// level, and of the background-job tools. Every test uses short grace and
// drain periods, and checks that nothing it started survives: commands get
// a unique A0T_MARK variable that a /proc scan looks for.

// testCfg is the engine configuration of these tests.
func testCfg(dir string) proc.Config {
	cfg := proc.DefaultConfig()
	cfg.Grace = 300 * time.Millisecond
	cfg.Drain = 300 * time.Millisecond
	cfg.WorkDir = dir
	return cfg
}

// safeSink is a trace sink that may be read while jobs emit.
type safeSink struct {
	mu     sync.Mutex
	events []runtime.TraceEvent
}

func (s *safeSink) Event(ev runtime.TraceEvent) error {
	s.mu.Lock()
	s.events = append(s.events, ev)
	s.mu.Unlock()
	return nil
}

func (s *safeSink) all() []runtime.TraceEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]runtime.TraceEvent(nil), s.events...)
}

// runCfg runs src (the sh.exec capability header is added) with cfg.
func runCfg(t *testing.T, cfg proc.Config, src string) result {
	t.Helper()
	return runCtx(t, context.Background(), cfg, src)
}

func runCtx(t *testing.T, ctx context.Context, cfg proc.Config, src string) result {
	t.Helper()
	env, err := runtime.NewEnv(runtime.WithTools(tools.Standard()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(cfg.WorkDir))
	if err != nil {
		t.Fatal(err)
	}
	full := "cap { sh.exec: true, fs.read: true }\n" + src + "\n"
	prog, ds := env.Compile("t.a0", full)
	if len(ds) > 0 {
		t.Fatalf("static diagnostics: %v\n%s", ds, full)
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	s := &safeSink{}
	res, rerr := prog.Run(ctx, runtime.RunOptions{Trace: s, Exec: &cfg, RunID: "run-test"})
	out := result{res: res, ev: s.all()}
	if rerr != nil {
		e, ok := rerr.(*runtime.Error)
		if !ok {
			t.Fatalf("non-A0 error %v", rerr)
		}
		out.err = e
		return out
	}
	out.v = res.Value
	return out
}

// mark returns a unique marker and the env record entry that sets it.
func mark(t *testing.T) (string, string) {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	m := "m" + hex.EncodeToString(b[:])
	return m, `A0T_MARK: "` + m + `"`
}

// marked lists live (non-zombie) processes whose environment holds
// A0T_MARK=m.
func marked(m string) []int {
	var out []int
	want := []byte("A0T_MARK=" + m + "\x00")
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			s := string(st)
			if i := strings.LastIndexByte(s, ')'); i > 0 && i+2 < len(s) && s[i+2] == 'Z' {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}

// noneLeft fails (and cleans up) when processes with the marker survive.
func noneLeft(t *testing.T, m string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := marked(m)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("processes survived: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func events(r result, names ...string) []runtime.TraceEvent {
	var out []runtime.TraceEvent
	for _, ev := range r.ev {
		for _, n := range names {
			if ev.Event == n {
				out = append(out, ev)
			}
		}
	}
	return out
}

func eventNames(r result) string {
	var names []string
	for _, ev := range r.ev {
		if !strings.HasPrefix(ev.Event, "stmt_") {
			names = append(names, ev.Event)
		}
	}
	return strings.Join(names, " ")
}

func get(v value.Value, path string) value.Value {
	for _, k := range strings.Split(path, ".") {
		v = v.AsRecord().GetOrNull(k)
	}
	return v
}

func js(v value.Value) string { return value.JSON(v) }

func reason(r result) string {
	if r.err == nil {
		return "<no error: " + r.json() + ">"
	}
	return string(r.err.Code) + " " + r.err.Details.AsRecord().GetOrNull("reason").AsString()
}

// ------------------------------------------------ engine behaviour, numbered

// 3. A background child of a foreground command is stopped.
func TestAcceptLeftoverKilled(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	start := time.Now()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "sleep 30 & echo started", env: { `+me+` } } -> a
return [a.stdout, a.leftoverKilled, a.exitCode]`)
	expect(t, r.json(), `["started\n",true,0]`)
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
	noneLeft(t, m)
}

// 4. An escapee holding the pipe: bounded drain, outputIncomplete, swept.
func TestAcceptEscapeeHoldingPipe(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	start := time.Now()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "setsid sleep 30 & sleep 0.1; echo hi", env: { `+me+` } } -> a
return [a.stdout, a.outputIncomplete]`)
	expect(t, r.json(), `["hi\n",true]`)
	if el := time.Since(start); el > 100*time.Millisecond+300*time.Millisecond+time.Second {
		t.Errorf("took %v", el)
	}
	sweeps := 0
	for _, ev := range events(r, "exec_signal") {
		if get(ev.Data, "target").AsString() == "sweep" {
			sweeps++
			expect(t, js(get(ev.Data, "reason")), `"escaped"`)
			expect(t, js(get(ev.Data, "count")), `1`)
		}
	}
	if sweeps != 1 {
		t.Errorf("%d sweep events", sweeps)
	}
	noneLeft(t, m)
}

// 5. A TERM-ignoring command is killed after the grace period.
func TestAcceptTimeoutEscalates(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	cfg := testCfg(realTemp(t))
	start := time.Now()
	r := runCfg(t, cfg, `return do sh.exec { cmd: "trap '' TERM; sleep 60", timeoutMs: 500, graceMs: 300, env: { `+me+` } }`)
	if el := time.Since(start); el > 1500*time.Millisecond {
		t.Errorf("took %v", el)
	}
	expect(t, reason(r), "E_TOOL timeout")
	expect(t, js(r.err.Details.AsRecord().GetOrNull("signal")), `"SIGKILL"`)
	var sigs []string
	for _, ev := range events(r, "exec_signal") {
		sigs = append(sigs, get(ev.Data, "signal").AsString()+"/"+get(ev.Data, "reason").AsString())
		if get(ev.Data, "pid").AsNumber() <= 0 || js(get(ev.Data, "jobId")) != "null" {
			t.Errorf("exec_signal %s", js(ev.Data))
		}
	}
	expect(t, strings.Join(sigs, " "), "SIGTERM/timeout SIGKILL/timeout")
	r = runCfg(t, cfg, `do sh.exec { cmd: "trap '' TERM; sleep 60", timeoutMs: 500, graceMs: 300, onTimeout: "result", env: { `+me+` } } -> a
return [a.timedOut, a.exitCode, a.signal, a.killReason]`)
	expect(t, r.json(), `[true,137,"SIGKILL","timeout"]`)
	noneLeft(t, m)
}

// 6. A command that traps TERM and exits 0 still timed out.
func TestAcceptTimeoutTrapExit(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "trap 'exit 0' TERM; sleep 60", timeoutMs: 300, onTimeout: "result", env: { `+me+` } } -> a
return [a.timedOut, a.exitCode, a.signal]`)
	expect(t, r.json(), `[true,0,null]`)
	noneLeft(t, m)
}

// 7. A 200 MB flood: bounded memory, exact totals, one marker.
func TestAcceptFloodBoundedMemory(t *testing.T) {
	// Not parallel: it measures the heap.
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var s goruntime.MemStats
		for {
			// The live heap: garbage not yet collected is not what the
			// bound is about, and a CPU-starved GC (CI runs packages in
			// parallel) lets it pile up.
			goruntime.GC()
			goruntime.ReadMemStats(&s)
			if s.HeapAlloc > peak {
				peak = s.HeapAlloc
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "head -c 200000000 /dev/zero" } -> a
return { total: a.stdoutTotalBytes, truncated: a.stdoutTruncated, markers: len { in: str.split { in: a.stdout, sep: "[a0: " } } - 1, size: len { in: a.stdout } }`)
	close(stop)
	<-sampled
	if r.err != nil {
		t.Fatal(r.json())
	}
	expect(t, js(get(r.v, "total")), "200000000")
	expect(t, js(get(r.v, "truncated")), "true")
	expect(t, js(get(r.v, "markers")), "1")
	const cap = 10 << 20
	growth := int64(peak) - int64(base)
	t.Logf("peak heap growth %.1f MiB (cap %d MiB)", float64(growth)/(1<<20), cap>>20)
	if growth > 3*cap {
		t.Errorf("peak heap growth %d bytes > 3 × cap", growth)
	}
}

// 9. stdin: the null device without it, fed when given, EPIPE ignored.
func TestAcceptStdin(t *testing.T) {
	t.Parallel()
	start := time.Now()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "cat" } -> none
do sh.exec { cmd: "cat", stdin: "abc" } -> some
let big = "`+strings.Repeat("x", 1<<20)+`"
do sh.exec { cmd: "true", stdin: big } -> ignored
return [none.stdout, some.stdout, ignored.exitCode, len { in: big }]`)
	expect(t, r.json(), `["","abc",0,1048576]`)
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("took %v", el)
	}
}

// 10. merge keeps the arrival order of both streams.
func TestAcceptMergeOrder(t *testing.T) {
	t.Parallel()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "for i in 1 2 3 4 5; do echo o$i; echo e$i 1>&2; done", merge: true } -> m
do sh.start { cmd: "echo o1; echo e1 1>&2; echo o2", merge: true, waitMs: 5000 } -> j
return [m.stdout, m.stderr, m.stderrTotalBytes, j.stdout, j.stderr, j.stderrRange, j.merged]`)
	expect(t, r.json(), `["o1\ne1\no2\ne2\no3\ne3\no4\ne4\no5\ne5\n","",0,"o1\ne1\no2\n","",[0,0],true]`)
}

// 11. Secrets are masked in output (also across a read boundary), traces
// and store files.
func TestAcceptMasking(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.StoreDir = filepath.Join(dir, "store")
	r := runCfg(t, cfg, `do sh.exec { cmd: "echo $API_TOKEN", env: { API_TOKEN: "s3cr3t-value" } } -> a
do sh.exec { cmd: "printf 's3cr3t-'; sleep 0.2; printf 'value\\n'", env: { API_TOKEN: "s3cr3t-value" } } -> b
do sh.start { cmd: "printf 's3cr3t-'; sleep 0.2; printf 'value\\n'; echo s3cr3t-value 1>&2; echo s3cr3t-value", env: { API_TOKEN: "s3cr3t-value" }, waitMs: 5000 } -> j
return [a.stdout, b.stdout, j.stdout, j.stderr, j.cmd]`)
	expect(t, r.json(), `["[masked:API_TOKEN]\n","[masked:API_TOKEN]\n","[masked:API_TOKEN]\n[masked:API_TOKEN]\n","[masked:API_TOKEN]\n","printf 's3cr3t-'; sleep 0.2; printf 'value\\n'; echo [masked:API_TOKEN] 1>&2; echo [masked:API_TOKEN]"]`)
	for _, ev := range r.ev {
		if strings.Contains(value.JSON(ev.Data), "s3cr3t-value") {
			t.Errorf("secret in trace event %s: %s", ev.Event, value.JSON(ev.Data))
		}
	}
	n := 0
	filepath.Walk(cfg.StoreDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n++
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("s3cr3t-value")) {
				t.Errorf("secret in store file %s", p)
			}
		}
		return nil
	})
	if n < 4 {
		t.Errorf("store holds %d files", n)
	}
}

// 12. envMode replace and clean.
func TestAcceptEnvModes(t *testing.T) {
	t.Setenv("MY_TOKEN", "inherited-token")
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { argv: ["/usr/bin/env"], envMode: "replace" } -> rep
do sh.exec { argv: ["/usr/bin/env"], envMode: "clean" } -> clean
return [rep.stdout, clean.stdout]`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	items := r.v.AsList()
	rep := strings.Split(strings.TrimSpace(items[0].AsString()), "\n")
	if len(rep) != 1 || !strings.HasPrefix(rep[0], "A0_EXEC_ID=x_") {
		t.Errorf("replace: %q", rep)
	}
	clean := items[1].AsString()
	if !strings.Contains(clean, "\nPATH=") && !strings.HasPrefix(clean, "PATH=") || strings.Contains(clean, "MY_TOKEN") {
		t.Errorf("clean: %q", clean)
	}
}

// 13. A same-named program on a PATH set in env is not the allowed one.
func TestAcceptAllowlistFakeGit(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	write(t, filepath.Join(dir, "bin", "git"), []byte("#!/bin/sh\necho fake\n"))
	os.Chmod(filepath.Join(dir, "bin", "git"), 0o755)
	cfg := testCfg(dir)
	cfg.Allow = []string{"git"}
	cfg.AllowShell = false
	r := runCfg(t, cfg, `return do sh.exec { argv: ["git", "--version"], env: { PATH: "`+filepath.Join(dir, "bin")+`" } }`)
	expect(t, reason(r), "E_CAP_DENIED executable_not_allowed")
	r = runCfg(t, cfg, `return do sh.start { argv: ["git", "--version"], env: { PATH: "`+filepath.Join(dir, "bin")+`" } }`)
	expect(t, reason(r), "E_CAP_DENIED executable_not_allowed")
}

// 14. cwd through a symlink leaving the root; a missing cwd.
func TestAcceptCwdRules(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	os.MkdirAll(filepath.Join(dir, "root", "in"), 0o755)
	os.MkdirAll(filepath.Join(dir, "outside"), 0o755)
	os.Symlink(filepath.Join(dir, "outside"), filepath.Join(dir, "root", "link"))
	cfg := testCfg(dir)
	cfg.Root = filepath.Join(dir, "root")
	r := runCfg(t, cfg, `return do sh.exec { cmd: "pwd", cwd: "link" }`)
	expect(t, reason(r), "E_CAP_DENIED cwd_outside_root")
	r = runCfg(t, cfg, `return do sh.start { cmd: "pwd", cwd: "link" }`)
	expect(t, reason(r), "E_CAP_DENIED cwd_outside_root")
	r = runCfg(t, cfg, `return do sh.exec { cmd: "pwd", cwd: "missing" }`)
	expect(t, reason(r), "E_TOOL cwd_not_found")
	r = runCfg(t, cfg, `do sh.exec { cmd: "pwd -P", cwd: "in" } -> a
return a.stdout`)
	expect(t, r.json(), q(filepath.Join(dir, "root", "in")+"\n"))
}

// 15. A missing program: not_found in argv mode, exit 127 in a shell.
func TestAcceptNotFound(t *testing.T) {
	t.Parallel()
	cfg := testCfg(realTemp(t))
	r := runCfg(t, cfg, `return do sh.exec { argv: ["no-such-program-a0t"] }`)
	expect(t, reason(r), "E_TOOL not_found")
	r = runCfg(t, cfg, `return do sh.start { argv: ["no-such-program-a0t"] }`)
	expect(t, reason(r), "E_TOOL not_found")
	r = runCfg(t, cfg, `do sh.exec { cmd: "no-such-program-a0t" } -> a
return a.exitCode`)
	expect(t, r.json(), "127")
}

// 16. The run's time budget stops a command: E_BUDGET after tool_end.
func TestAcceptTimeBudget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ budget, args string }{
		{"1000", `, timeoutMs: 5000`},
		{"400", ``},
	} {
		m, me := mark(t)
		start := time.Now()
		r := runCfg(t, testCfg(realTemp(t)), `budget { timeMs: `+c.budget+` }
do sh.exec { cmd: "sleep 10", env: { `+me+` }`+c.args+` } -> r
return r`)
		limit, _ := strconv.Atoi(c.budget)
		if el := time.Since(start); el < time.Duration(limit)*time.Millisecond || el > time.Duration(limit)*time.Millisecond+time.Second {
			t.Errorf("budget %s: took %v", c.budget, el)
		}
		if r.err == nil || r.err.Code != "E_BUDGET" {
			t.Fatalf("budget %s: %s", c.budget, r.json())
		}
		if got := eventNames(r); !strings.Contains(got, "tool_start exec_signal tool_end budget_exceeded run_end") {
			t.Errorf("events %s", got)
			for _, ev := range events(r, "exec_signal") {
				t.Log(js(ev.Data))
			}
		}
		for _, ev := range events(r, "tool_end") {
			expect(t, js(get(ev.Data, "exec.killReason")), `"budget"`)
		}
		noneLeft(t, m)
	}
	// A wait that the budget ends: tool_end, then E_BUDGET; the job is
	// stopped at run end.
	m, me := mark(t)
	r := runCfg(t, testCfg(realTemp(t)), `budget { timeMs: 400 }
do sh.start { cmd: "sleep 30", env: { `+me+` } } -> j
call? sh.wait { id: j.id, timeoutMs: 10000 } -> w
return w`)
	if r.err == nil || r.err.Code != "E_BUDGET" {
		t.Fatalf("wait: %s", r.json())
	}
	if got := eventNames(r); !strings.Contains(got, "tool_end budget_exceeded exec_signal job_end run_end") {
		t.Errorf("events %s", got)
	}
	ends := events(r, "job_end")
	if len(ends) != 1 || js(get(ends[0].Data, "killReason")) != `"run_end"` {
		t.Errorf("job_end %v", ends)
	}
	for _, ev := range events(r, "tool_end") {
		if get(ev.Data, "tool").AsString() == "sh.wait" {
			expect(t, js(get(ev.Data, "exec.waitTimedOut")), "true")
		}
	}
	noneLeft(t, m)
}

// 17. Run end stops jobs: job_end (run_end) precedes run_end.
func TestAcceptRunEndStopsJobs(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	start := time.Now()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.start { cmd: "sleep 60", env: { `+me+` }, tag: "sleeper" } -> j
return [j.state, j.completed, j.tag]`)
	expect(t, r.json(), `["running",false,"sleeper"]`)
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
	got := eventNames(r)
	if !strings.HasSuffix(got, "job_start tool_end exec_signal job_end run_end") {
		t.Errorf("events %s", got)
	}
	ends := events(r, "job_end")
	expect(t, js(get(ends[0].Data, "killReason")), `"run_end"`)
	expect(t, js(get(ends[0].Data, "state")), `"killed"`)
	sig := events(r, "exec_signal")[0]
	expect(t, js(get(sig.Data, "reason")), `"run_end"`)
	starts := events(r, "tool_start")
	if sig.Span != starts[0].Span || ends[0].Span != starts[0].Span {
		t.Error("run-end events do not carry sh.start's span")
	}
	noneLeft(t, m)
}

// 19. 200 short jobs started and waited leave no zombie children.
func TestAcceptManyJobsNoZombies(t *testing.T) {
	// Not parallel: it counts this process's zombie children.
	cfg := testCfg(realTemp(t))
	cfg.MaxJobsPerRun = 200
	r := runCfg(t, cfg, `let states = loop { in: 0, times: 200, as: "i" } {
  do sh.start { cmd: "true" } -> j
  call? sh.wait { id: j.id } -> w
  return w.state
}
call? sh.jobs { state: "terminal", limit: 500 } -> all
return [states, all.count]`)
	expect(t, r.json(), `["exited",200]`)
	r = runCfg(t, cfg, `return do sh.start { cmd: "true" }`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	self := os.Getpid()
	deadline := time.Now().Add(2 * time.Second)
	for {
		var zombies []int
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
			if err != nil {
				continue
			}
			s := string(b)
			i := strings.LastIndexByte(s, ')')
			f := strings.Fields(s[i+2:])
			if ppid, _ := strconv.Atoi(f[1]); ppid == self && f[0] == "Z" {
				pid, _ := strconv.Atoi(e.Name())
				zombies = append(zombies, pid)
			}
		}
		if len(zombies) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("zombie children: %v", zombies)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// maxJobsPerRun is enforced.
	cfg.MaxJobsPerRun = 2
	r = runCfg(t, cfg, `do sh.start { cmd: "true" } -> a
do sh.start { cmd: "true" } -> b
do sh.start { cmd: "true" } -> c
return c`)
	expect(t, reason(r), "E_TOOL job_limit")
}

// 20. A wait that times out is data.
func TestAcceptWaitTimeout(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	start := time.Now()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.start { cmd: "echo started; sleep 30", env: { `+me+` } } -> j
call? sh.wait { id: j.id, timeoutMs: 100 } -> w
call? sh.wait { id: j.id, timeoutMs: 0 } -> look
return [w.waitTimedOut, w.state, w.completed, w.exitCode, w.stdout, look.waitTimedOut]`)
	expect(t, r.json(), `[true,"running",false,null,"started\n",true]`)
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
	noneLeft(t, m)
}

// 21. sh.tail with an offset across a dropped middle.
func TestAcceptTailGap(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	// seq 1 20000 prints 108894 bytes; 1000 are kept at each end.
	src := `do sh.start { cmd: "seq 1 20000", maxOutputBytes: 1000, waitMs: 5000 } -> j
call? sh.tail { id: j.id, stream: "stdout", offset: 5000, maxBytes: 100 } -> a
call? sh.tail { id: j.id, stream: "stdout", offset: a.nextOffset, maxBytes: 100 } -> b
call? sh.tail { id: j.id, stream: "stdout", offset: 0, maxBytes: 10 } -> c
call? sh.tail { id: j.id, stream: "stdout", offset: 108894 } -> d
call? sh.tail { id: j.id, lines: 2 } -> e
return [[a.gap, a.stdoutRange, a.nextOffset, a.stderrRange], [b.gap, b.stdoutRange], [c.gap, c.stdout, c.nextOffset], [d.stdout, d.nextOffset, d.gap], [e.stdout, e.stdoutRange, e.nextOffset, e.gap, e.stderr]]`
	r := runCfg(t, testCfg(dir), src)
	expect(t, r.json(), `[[true,[107894,107994],107994,null],[false,[107994,108094]],[false,"1\n2\n3\n4\n5\n",10],["",108894,false],["19999\n20000\n",[108882,108894],null,false,""]]`)
	// With the job store the log keeps the middle: no gap.
	cfg := testCfg(dir)
	cfg.StoreDir = filepath.Join(dir, "store")
	r = runCfg(t, cfg, `do sh.start { cmd: "seq 1 20000", maxOutputBytes: 1000, waitMs: 5000 } -> j
call? sh.tail { id: j.id, stream: "stdout", offset: 5000, maxBytes: 12 } -> a
return [a.gap, a.stdout, a.stdoutRange]`)
	expect(t, r.json(), `[false,"22\n1223\n1224",[5000,5012]]`)
	// An offset beyond the total is E_TOOL_ARGS, raised while the tool runs.
	r = runCfg(t, testCfg(dir), `do sh.start { cmd: "printf abc", waitMs: 5000 } -> j
return call? sh.tail { id: j.id, stream: "stdout", offset: 4 }`)
	expect(t, reason(r), "E_TOOL_ARGS invalid_args")
	expect(t, js(r.err.Details.AsRecord().GetOrNull("field")), `"offset"`)
	if len(events(r, "tool_start")) != 2 {
		t.Error("the offset error was not raised after tool_start")
	}
}

// 22. sh.kill on a finished job is not an error.
func TestAcceptKillFinished(t *testing.T) {
	t.Parallel()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.start { cmd: "exit 4", waitMs: 5000 } -> j
do sh.kill { id: j.id } -> k
return [k.signalSent, k.escalated, k.state, k.exitCode]`)
	expect(t, r.json(), `[null,false,"exited",4]`)
}

// 23. A killed interpreter's job is marked lost by the next start, and its
// group is gone.
func TestAcceptOwnerDied(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	store := filepath.Join(dir, "store")
	m, _ := mark(t)
	helper := exec.Command(os.Args[0], "-test.run=^TestOwnerHelperProcess$", "-test.count=1")
	helper.Env = append(os.Environ(), "A0T_HELPER_STORE="+store, "A0T_HELPER_MARK="+m, "A0T_HELPER_DIR="+dir)
	helper.Dir = dir
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		helper.Process.Kill()
		helper.Wait()
	}()
	// Wait for the helper's job to run.
	var jobID string
	deadline := time.Now().Add(10 * time.Second)
	for jobID == "" {
		if time.Now().After(deadline) {
			t.Fatal("the helper's job did not start")
		}
		time.Sleep(20 * time.Millisecond)
		ents, _ := os.ReadDir(store)
		for _, e := range ents {
			if _, err := os.Stat(filepath.Join(store, e.Name(), "state.json")); err == nil && len(marked(m)) > 0 {
				jobID = e.Name()
			}
		}
	}
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	if len(marked(m)) == 0 {
		t.Fatal("the job died with its owner; nothing to reconcile")
	}
	cfg := testCfg(dir)
	cfg.StoreDir = store
	cfg.AllowCrossRun = true
	r := runCfg(t, cfg, `call? sh.status { id: "`+jobID+`" } -> s
call? sh.jobs { scope: "store" } -> all
return [s.state, s.killReason, s.completed, s.runId, all.count]`)
	expect(t, r.json(), `["lost","owner_died",true,"helper-run",1]`)
	var reasons []string
	for _, ev := range events(r, "exec_signal") {
		reasons = append(reasons, get(ev.Data, "target").AsString()+"/"+get(ev.Data, "reason").AsString()+"/"+get(ev.Data, "jobId").AsString())
	}
	expect(t, strings.Join(reasons, " "), "group/owner_died/"+jobID)
	noneLeft(t, m)
	// sh.kill never signals another run's job.
	r = runCfg(t, cfg, `return do sh.kill { id: "`+jobID+`" }`)
	expect(t, reason(r), "E_CAP_DENIED cross_run_not_allowed")
}

// TestOwnerHelperProcess is the interpreter TestAcceptOwnerDied kills: it
// starts a job with the store on and waits. It works in the parent test's
// directory: being killed, it could not remove a temporary one of its own.
func TestOwnerHelperProcess(t *testing.T) {
	store := os.Getenv("A0T_HELPER_STORE")
	if store == "" {
		t.Skip("helper process only")
	}
	cfg := testCfg(os.Getenv("A0T_HELPER_DIR"))
	cfg.StoreDir = store
	env, _ := runtime.NewEnv(runtime.WithTools(tools.Standard()...), runtime.WithGrants(runtime.AllowAll))
	prog, _ := env.Compile("h.a0", `cap { sh.exec: true }
do sh.start { cmd: "sleep 60", env: { A0T_MARK: "`+os.Getenv("A0T_HELPER_MARK")+`" } } -> j
call? sh.wait { id: j.id, timeoutMs: 60000 } -> w
return w`)
	prog.Run(context.Background(), runtime.RunOptions{Exec: &cfg, RunID: "helper-run"})
}

// 24. No exec result has a top-level bytes key; maxBytesWritten is not
// charged.
func TestAcceptNoBytesKey(t *testing.T) {
	t.Parallel()
	r := runCfg(t, testCfg(realTemp(t)), `budget { maxBytesWritten: 0 }
do sh.exec { cmd: "echo hi" } -> a
do sh.start { cmd: "echo hi", waitMs: 5000 } -> b
call? sh.status { id: b.id } -> c
call? sh.tail { id: b.id } -> d
call? sh.wait { id: b.id } -> e
do sh.kill { id: b.id } -> f
call? sh.jobs {} -> g
return [a, b, c, d, e, f, g]`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	for i, it := range r.v.AsList() {
		if it.AsRecord().Has("bytes") {
			t.Errorf("result %d has a bytes key", i)
		}
	}
}

// 25. A multi-call binary: allowing echo does not allow ls.
func TestAcceptMultiCallBinary(t *testing.T) {
	// Not parallel: it puts a directory on this process's PATH, which the
	// allowlist is resolved against.
	dir := realTemp(t)
	bin := filepath.Join(dir, "bin")
	write(t, filepath.Join(bin, "multi"), []byte("#!/bin/sh\necho \"$(basename \"$0\"):$*\"\n"))
	os.Chmod(filepath.Join(bin, "multi"), 0o755)
	os.Symlink("multi", filepath.Join(bin, "echo"))
	os.Symlink("multi", filepath.Join(bin, "ls"))
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	cfg := testCfg(dir)
	cfg.Allow = []string{"echo"}
	cfg.AllowShell = false
	r := runCfg(t, cfg, `do sh.exec { argv: ["echo", "hi"] } -> a
return a.stdout`)
	expect(t, r.json(), `"echo:hi\n"`)
	r = runCfg(t, cfg, `return do sh.exec { argv: ["ls"] }`)
	expect(t, reason(r), "E_CAP_DENIED executable_not_allowed")
	r = runCfg(t, cfg, `return do sh.exec { cmd: "echo hi" }`)
	expect(t, reason(r), "E_CAP_DENIED shell_not_allowed")
	r = runCfg(t, cfg, `return do sh.start { cmd: "echo hi" }`)
	expect(t, reason(r), "E_CAP_DENIED shell_not_allowed")
}

// 26. An escapee holding no pipe is swept at run end.
func TestAcceptRunEndSweep(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "setsid sh -c 'sleep 30' >/dev/null 2>&1 & sleep 0.1", env: { `+me+` } } -> a
return [a.exitCode, a.outputIncomplete, a.leftoverKilled]`)
	expect(t, r.json(), `[0,false,false]`)
	var sweep []runtime.TraceEvent
	for _, ev := range events(r, "exec_signal") {
		if get(ev.Data, "target").AsString() == "sweep" {
			sweep = append(sweep, ev)
		}
	}
	if len(sweep) != 1 || js(get(sweep[0].Data, "jobId")) != "null" || js(get(sweep[0].Data, "pid")) != "null" || get(sweep[0].Data, "count").AsNumber() < 1 {
		t.Errorf("sweep events %v", sweep)
	}
	if got := eventNames(r); !strings.HasSuffix(got, "exec_signal run_end") {
		t.Errorf("events %s", got)
	}
	noneLeft(t, m)
}

// ------------------------------------------------------------ job tools

func TestJobRecordShape(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := runCfg(t, testCfg(dir), `do sh.start { argv: ["sh", "-c", "echo out; echo err 1>&2; exit 2"], tag: "t-1.x", waitMs: 5000, timeoutMs: 9000 } -> j
call? sh.status { id: j.id } -> s
return [j, s]`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	j, s := r.v.AsList()[0].AsRecord(), r.v.AsList()[1].AsRecord()
	expect(t, strings.Join(j.Keys(), ","), "id,runId,tag,state,completed,pid,startedAt,finishedAt,durationMs,exitCode,signal,timedOut,killReason,leftoverKilled,stdoutTotalBytes,stderrTotalBytes,merged,cmd,argv,cwd,timeoutMs,stdout,stderr,stdoutRange,stderrRange")
	expect(t, strings.Join(s.Keys(), ","), "id,runId,tag,state,completed,pid,startedAt,finishedAt,durationMs,exitCode,signal,timedOut,killReason,leftoverKilled,stdoutTotalBytes,stderrTotalBytes,merged,cmd,argv,cwd,timeoutMs")
	expect(t, js(j.GetOrNull("runId")), `"run-test"`)
	expect(t, js(j.GetOrNull("state")), `"exited"`)
	expect(t, js(j.GetOrNull("exitCode")), `2`)
	expect(t, js(j.GetOrNull("cmd")), `null`)
	expect(t, js(j.GetOrNull("argv")), `["sh","-c","echo out; echo err 1>&2; exit 2"]`)
	expect(t, js(j.GetOrNull("cwd")), q(dir))
	expect(t, js(j.GetOrNull("timeoutMs")), `9000`)
	expect(t, js(j.GetOrNull("stdout")), `"out\n"`)
	expect(t, js(j.GetOrNull("stderrRange")), `[0,4]`)
	if !regexpMatch(`^j_[0-9a-f]{16}$`, j.GetOrNull("id").AsString()) ||
		!regexpMatch(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, j.GetOrNull("startedAt").AsString()) ||
		!regexpMatch(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, j.GetOrNull("finishedAt").AsString()) {
		t.Errorf("record %s", js(value.RecordOf(j)))
	}
	// Trace data of the job tools.
	got := map[string]string{}
	for _, ev := range events(r, "tool_end", "job_start", "job_end") {
		key := ev.Event
		if ev.Event == "tool_end" {
			key = get(ev.Data, "tool").AsString()
			got[key] = strings.Join(get(ev.Data, "exec").AsRecord().Keys(), ",")
			continue
		}
		got[key] = strings.Join(ev.Data.AsRecord().Keys(), ",")
	}
	expect(t, got["sh.start"], "jobId,state,pid,resolvedPath,limits")
	expect(t, got["sh.status"], "jobId,state")
	expect(t, got["job_start"], "jobId,tag,pid,resolvedPath,cwd,timeoutMs")
	expect(t, got["job_end"], "jobId,state,exitCode,signal,killReason,durationMs,stdoutTotalBytes,stderrTotalBytes,leftoverKilled")
}

func regexpMatch(re, s string) bool {
	ok, _ := regexp.MatchString(re, s)
	return ok
}

func TestJobKillAndTimeout(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	start := time.Now()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.start { cmd: "trap '' TERM; sleep 60", env: { `+me+` } } -> a
do sh.start { cmd: "trap 'exit 0' INT; sleep 60", env: { `+me+` } } -> b
do sh.start { cmd: "trap '' TERM; sleep 60", env: { `+me+` } } -> d
do sh.exec { cmd: "sleep 0.2" }
do sh.kill { id: a.id, graceMs: 200 } -> ka
do sh.kill { id: b.id, signal: "INT", escalate: false } -> kb
do sh.kill { id: d.id, signal: "KILL" } -> kd
do sh.start { cmd: "sleep 60", timeoutMs: 200, env: { `+me+` } } -> c
call? sh.wait { id: c.id } -> wc
return [[ka.state, ka.signalSent, ka.escalated, ka.killReason, ka.signal], [kb.state, kb.signalSent, kb.escalated, kb.exitCode], [wc.state, wc.timedOut, wc.killReason, wc.timeoutMs], [kd.signalSent, kd.signal]]`)
	expect(t, r.json(), `[["killed","SIGTERM",true,"kill","SIGKILL"],["killed","SIGINT",false,0],["timed_out",true,"timeout",200],["SIGKILL","SIGKILL"]]`)
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("took %v", el)
	}
	// The kill's signals carry the sh.kill call's span and the job id.
	for _, ev := range events(r, "exec_signal") {
		if get(ev.Data, "jobId").Kind() != value.String || get(ev.Data, "pgid").AsNumber() <= 0 {
			t.Errorf("exec_signal %s", js(ev.Data))
		}
	}
	noneLeft(t, m)
}

func TestJobToolErrors(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	for _, c := range []struct{ src, want string }{
		{`return call? sh.status { id: "j_0123456789abcdef" }`, "E_TOOL job_not_found"},
		{`return call? sh.status { id: "nope" }`, "E_TOOL_ARGS invalid_args"},
		{`return call? sh.status {}`, "E_TOOL_ARGS invalid_args"},
		{`return call? sh.status { id: "j_0123456789abcdef", extra: 1 }`, "E_TOOL_ARGS invalid_args"},
		{`return call? sh.tail { id: "j_0123456789abcdef", offset: 3 }`, "E_TOOL_ARGS invalid_args"},
		{`return call? sh.tail { id: "j_0123456789abcdef", lines: 0 }`, "E_TOOL_ARGS invalid_args"},
		{`return call? sh.wait { id: "j_0123456789abcdef", timeoutMs: -1 }`, "E_TOOL_ARGS invalid_args"},
		{`return do sh.kill { id: "j_0123456789abcdef", signal: "USR1" }`, "E_TOOL_ARGS invalid_args"},
		{`return call? sh.jobs { limit: 501 }`, "E_TOOL_ARGS invalid_args"},
		{`return call? sh.jobs { scope: "store" }`, "E_CAP_DENIED cross_run_not_allowed"},
		{`return do sh.start { cmd: "true", truncate: "head" }`, "E_TOOL_ARGS invalid_args"},
		{`return do sh.start { cmd: "true", tag: "a b" }`, "E_TOOL_ARGS invalid_args"},
		{`return do sh.start {}`, "E_TOOL_ARGS invalid_args"},
		{`return do sh.start { cmd: "true", detach: true }`, "E_CAP_DENIED detach_not_allowed"},
	} {
		r := runCfg(t, cfg, c.src)
		if got := reason(r); got != c.want {
			t.Errorf("%s: got %s (%s)", c.src, got, r.json())
		}
	}
	r := runCfg(t, cfg, `return call? sh.status { id: "j_0123456789abcdef", extra: 1 }`)
	expect(t, r.err.Message, "Invalid arguments for tool 'sh.status': sh.status takes { id }; got extra.")
	r = runCfg(t, cfg, `return do sh.start {}`)
	expect(t, r.err.Message, "Invalid arguments for tool 'sh.start': cmd: sh.start requires a 'cmd' or 'argv' argument")
	cfg.AllowCrossRun = true
	r = runCfg(t, cfg, `return call? sh.jobs { scope: "store" }`)
	expect(t, reason(r), "E_TOOL store_unavailable")
}

func TestJobDetached(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.AllowDetach = true
	// Without a store the refusal names the key.
	r := runCfg(t, cfg, `return do sh.start { cmd: "true", detach: true }`)
	expect(t, reason(r), "E_TOOL store_unavailable")
	if !strings.Contains(r.err.Message, "exec.jobStore") {
		t.Errorf("message %q", r.err.Message)
	}
	cfg.StoreDir = filepath.Join(dir, "store")
	// A command the policy refuses is refused for a detached job too.
	deny := cfg
	deny.Deny = []string{"sleep"}
	r = runCfg(t, deny, `return do sh.start { argv: ["sleep", "1"], detach: true }`)
	expect(t, reason(r), "E_CAP_DENIED executable_denied")
	// Run 1 starts the job and ends; the job goes on.
	r = runCfg(t, cfg, `do sh.start { cmd: "echo one; sleep 0.6; echo two", detach: true, tag: "build" } -> j
call? sh.status { id: j.id } -> s
call? sh.jobs {} -> mine
return [j.id, j.state, j.detached, s.state, mine.count]`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	id := r.v.AsList()[0].AsString()
	expect(t, js(r.v), `["`+id+`","running",true,"running",1]`)
	// Run 2 reads it (the test runs share a run id; another run's
	// detached job needs exec.allowCrossRun as any other's).
	cfg.AllowCrossRun = true
	start := time.Now()
	r = runCfg(t, cfg, `call? sh.tail { id: "`+id+`" } -> t
call? sh.wait { id: "`+id+`", timeoutMs: 5000 } -> w
call? sh.jobs { scope: "store", tag: "build" } -> l
return [t.state, w.state, w.exitCode, w.stdout, w.waitTimedOut, l.count]`)
	expect(t, r.json(), `["running","exited",0,"one\ntwo\n",false,1]`)
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("wait took %v", el)
	}
	// Run 3 starts a job that traps TERM; run 4 kills it.
	r = runCfg(t, cfg, `do sh.start { cmd: "trap '' TERM; echo ready; sleep 60", detach: true } -> j
return j.id`)
	id = r.v.AsString()
	noKill := cfg
	noKill.AllowDetach = false
	r = runCfg(t, noKill, `return do sh.kill { id: "`+id+`" }`)
	expect(t, reason(r), "E_CAP_DENIED cross_run_not_allowed")
	r = runCfg(t, cfg, `do sh.kill { id: "`+id+`", graceMs: 200 } -> k
return [k.state, k.killReason, k.signalSent, k.signal, k.escalated]`)
	expect(t, r.json(), `["killed","kill","SIGTERM","SIGKILL",true]`)
}

func TestJobCrossRun(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.StoreDir = filepath.Join(dir, "store")
	r := runCfg(t, cfg, `do sh.start { cmd: "echo one; echo two", tag: "old", waitMs: 5000 } -> j
return j.id`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	id := r.v.AsString()
	r = runCfg(t, cfg, `return call? sh.status { id: "`+id+`" }`)
	expect(t, reason(r), "E_CAP_DENIED cross_run_not_allowed")
	cfg.AllowCrossRun = true
	r = runCfg(t, cfg, `call? sh.status { id: "`+id+`" } -> s
call? sh.tail { id: "`+id+`", lines: 1 } -> tl
call? sh.wait { id: "`+id+`" } -> w
call? sh.jobs { scope: "store", tag: "old" } -> l
call? sh.jobs {} -> mine
return [s.state, s.tag, tl.stdout, w.waitTimedOut, w.stdout, l.count, mine.count]`)
	expect(t, r.json(), `["exited","old","two\n",false,"one\ntwo\n",1,0]`)
	r = runCfg(t, cfg, `return do sh.kill { id: "`+id+`" }`)
	expect(t, reason(r), "E_CAP_DENIED cross_run_not_allowed")
}

func TestJobOutputLimitAndJobsList(t *testing.T) {
	t.Parallel()
	r := runCfg(t, testCfg(realTemp(t)), `do sh.start { cmd: "yes", outputLimitBytes: 10000, waitMs: 5000, tag: "a" } -> y
do sh.start { cmd: "sleep 30", tag: "b" } -> s
call? sh.jobs { state: "running" } -> running
call? sh.jobs { state: "terminal" } -> terminal
call? sh.jobs { limit: 1 } -> first
call? sh.jobs { tag: "a" } -> tagged
return [y.state, y.killReason, running.count, terminal.count, first.count, first.truncated, get { in: first.jobs, path: "0.tag" }, get { in: tagged.jobs, path: "0.id" } == y.id]`)
	expect(t, r.json(), `["killed","output_limit",1,1,1,true,"b",true]`)
}

func TestJobToolsStatic(t *testing.T) {
	t.Parallel()
	env, _ := runtime.NewEnv(runtime.WithTools(tools.Standard()...))
	_, ds := env.Compile("t.a0", "cap { sh.exec: true }\ncall? sh.start { cmd: \"x\" } -> a\ncall? sh.kill { id: \"x\" } -> b\ndo sh.staus { id: \"x\" } -> c\nreturn a\n")
	var codes []string
	for _, d := range ds {
		codes = append(codes, string(d.Code))
		if d.Code == "E_UNKNOWN_TOOL" && !strings.Contains(d.Hint, "sh.exec, sh.start, sh.status, sh.tail, sh.wait, sh.kill, sh.jobs") {
			t.Errorf("hint %q", d.Hint)
		}
	}
	expect(t, strings.Join(codes, " "), "E_CALL_EFFECT E_CALL_EFFECT E_UNKNOWN_TOOL")
	_, ds = env.Compile("t.a0", "call? sh.status { id: \"x\" } -> a\nreturn a\n")
	if len(ds) != 1 || ds[0].Code != "E_UNDECLARED_CAP" {
		t.Errorf("diagnostics %v", ds)
	}
}

// A job's store record is updated when it ends.
func TestJobStoreState(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.StoreDir = filepath.Join(dir, "store")
	r := runCfg(t, cfg, `do sh.start { cmd: "echo hi", waitMs: 5000 } -> j
return j.id`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	b, err := os.ReadFile(filepath.Join(cfg.StoreDir, r.v.AsString(), "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	json.Unmarshal(b, &st)
	if st["state"] != "exited" || st["completed"] != true || st["stdoutTotalBytes"] != 3.0 || st["updatedAt"] == nil {
		t.Errorf("state.json %s", b)
	}
}

// A session (the REPL) is one run: jobs live across inputs, survive a
// cancelled input, and are stopped when the session closes.
func TestJobsAcrossSessionInputs(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	cfg := testCfg(realTemp(t))
	env, err := runtime.NewEnv(runtime.WithTools(tools.Standard()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(cfg.WorkDir))
	if err != nil {
		t.Fatal(err)
	}
	s := env.NewSession()
	opts := runtime.RunOptions{Exec: &cfg}
	eval := func(ctx context.Context, src string) (*runtime.Result, error) {
		res, ds, err := s.Eval(ctx, "in.a0", src, opts)
		if len(ds) > 0 {
			t.Fatalf("diagnostics %v", ds)
		}
		return res, err
	}
	_, err = eval(context.Background(), `do sh.start { cmd: "sleep 30", env: { `+me+` } } -> j
let id = j.id
return id`)
	if err != nil {
		t.Fatal(err)
	}
	// A cancelled input (Ctrl-C during a wait) does not stop the job.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = eval(ctx, `return call? sh.wait { id: id, timeoutMs: 10000 }`)
	if e, ok := err.(*runtime.Error); !ok || e.Code != "E_CANCELLED" {
		t.Fatalf("cancelled wait: %v", err)
	}
	res, err := eval(context.Background(), `call? sh.status { id: id } -> st
return st.state`)
	if err != nil || res.Value.AsString() != "running" {
		t.Fatalf("status after a cancelled input: %v %v", res, err)
	}
	if len(marked(m)) == 0 {
		t.Fatal("the job died with the cancelled input")
	}
	s.Close()
	noneLeft(t, m)
}

// sh.wait on another run's running job polls its record in the background;
// the poller must be done with the record when the wait returns (run with
// -race: the wait's timeout and the poll tick coincide).
func TestJobCrossRunWaitTimeouts(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.StoreDir = filepath.Join(dir, "store")
	cfg.AllowCrossRun = true
	owner := make(chan result, 1)
	go func() {
		owner <- runCfg(t, cfg, `do sh.start { cmd: "sleep 3" } -> j
call? sh.wait { id: j.id, timeoutMs: 10000 } -> w
return w.state`)
	}()
	var id string
	for deadline := time.Now().Add(10 * time.Second); id == ""; {
		if time.Now().After(deadline) {
			t.Fatal("the owner's job did not start")
		}
		time.Sleep(20 * time.Millisecond)
		ents, _ := os.ReadDir(cfg.StoreDir)
		for _, e := range ents {
			if _, err := os.Stat(filepath.Join(cfg.StoreDir, e.Name(), "state.json")); err == nil && proc.ValidJobID(e.Name()) {
				id = e.Name()
			}
		}
	}
	r := runCfg(t, cfg, `let ws = for { in: range { from: 0, to: 8 }, as: "i" } {
  return call? sh.wait { id: "`+id+`", timeoutMs: 100 }
}
let w = get { in: ws, path: "[7]" }
return [w.state, w.waitTimedOut]`)
	expect(t, r.json(), `["running",true]`)
	if o := <-owner; o.err != nil || o.v.AsString() != "exited" {
		t.Fatalf("owner run: %s", o.json())
	}
}

// sh.start accepts exactly the tags ^[A-Za-z0-9._-]{1,64}$ describes.
func TestJobTagForm(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	for _, tag := range []string{"a", "build-1.x_Y", strings.Repeat("a", 64), strings.Repeat("a", 65), "", "a b", "é", "a\n", "a/b"} {
		args := value.NewRecord(2)
		args.Set("cmd", value.Str("true"))
		args.Set("tag", value.Str(tag))
		got := !strings.Contains(strings.Join((tools.ShStart{}).CheckArgs(args), ";"), "tag:")
		if want := re.MatchString(tag); got != want {
			t.Errorf("tag %q accepted %v, want %v", tag, got, want)
		}
	}
}

// A command the kernel refuses to start is E_TOOL spawn_failed, with the
// system error in Node's words rather than Go's "fork/exec …".
func TestExecSpawnFailed(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("\x00\x01 not a program"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{`do sh.exec { argv: ["./bad"] }`, `do sh.start { argv: ["./bad"] }`} {
		r := runCfg(t, testCfg(dir), `return `+stmt)
		expect(t, reason(r), "E_TOOL spawn_failed")
		if r.err != nil {
			expect(t, r.err.Message, "Tool '"+strings.Fields(stmt)[1]+"' failed: cannot start the command: ENOEXEC: exec format error, spawn '"+bad+"'")
		}
	}
}

// A host's own deadline ends a run without a time budget as a
// cancellation, not as E_BUDGET (the engine stops the command with reason
// "budget" for any deadline).
func TestExecHostDeadlineIsCancellation(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`return do sh.exec { cmd: "sleep 5" }`,
		`do sh.start { cmd: "sleep 5" } -> j
return call? sh.wait { id: j.id, timeoutMs: 5000 }`,
		"budget { timeMs: 30000 }\n" + `return do sh.exec { cmd: "sleep 5" }`,
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		r := runCtx(t, ctx, testCfg(realTemp(t)), src)
		cancel()
		if r.err == nil || r.err.Code != "E_CANCELLED" {
			t.Errorf("%s: %s", src, r.json())
		}
	}
}

func TestJobDetachedNotify(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.AllowDetach = true
	cfg.StoreDir = filepath.Join(dir, "store")
	r := runCfg(t, cfg, `return do sh.start { cmd: "true", notify: { file: "x.ndjson" } }`)
	expect(t, reason(r), "E_TOOL_ARGS invalid_args")
	r = runCfg(t, cfg, `return do sh.start { cmd: "true", detach: true, notify: { output: { pattern: "x" } } }`)
	expect(t, reason(r), "E_TOOL_ARGS invalid_args")
	r = runCfg(t, cfg, `do sh.start { cmd: "echo WARN out; echo WARN err >&2; echo done", detach: true,
  notify: { file: "done.ndjson", output: { pattern: "WARN", stream: "stderr", file: "warn.ndjson" } } } -> j
call? sh.wait { id: j.id } -> w
return w.state`)
	expect(t, r.json(), `"exited"`)
	// The supervisor delivers the completion event as it exits.
	var done []byte
	for i := 0; i < 200; i++ {
		if done, _ = os.ReadFile(filepath.Join(dir, "done.ndjson")); len(done) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(string(done), `"eventType":"job.finished"`) {
		t.Fatalf("completion: %q", done)
	}
	warn, _ := os.ReadFile(filepath.Join(dir, "warn.ndjson"))
	if strings.Count(string(warn), "\n") != 1 || !strings.Contains(string(warn), `"line":"WARN err"`) {
		t.Fatalf("matches: %q", warn)
	}
}

func TestJobShNotify(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.AllowDetach = true
	cfg.StoreDir = filepath.Join(dir, "store")
	r := runCfg(t, cfg, `do sh.start { cmd: "echo HIT early; while [ ! -e go ]; do sleep 0.02; done; echo HIT late", detach: true } -> j
call? sh.wait { id: j.id, timeoutMs: 300 } -> early
do sh.notify { id: j.id, file: "done.ndjson", output: { pattern: "HIT", file: "hit.ndjson" } } -> n
return [n.state, n.detached]`)
	expect(t, r.json(), `["running",true]`)
	time.Sleep(100 * time.Millisecond)
	os.WriteFile(filepath.Join(dir, "go"), nil, 0o600)
	var done []byte
	for i := 0; i < 300 && len(done) == 0; i++ {
		done, _ = os.ReadFile(filepath.Join(dir, "done.ndjson"))
		time.Sleep(10 * time.Millisecond)
	}
	hit, _ := os.ReadFile(filepath.Join(dir, "hit.ndjson"))
	if len(done) == 0 || strings.Count(string(hit), "\n") != 1 || !strings.Contains(string(hit), `"line":"HIT late"`) {
		t.Fatalf("completion %q, matches %q", done, hit)
	}
	// An attached job takes none; bad settings are argument errors.
	r = runCfg(t, cfg, `do sh.start { cmd: "sleep 5" } -> j
return do sh.notify { id: j.id, file: "x" }`)
	expect(t, reason(r), "E_TOOL not_detached")
	r = runCfg(t, cfg, `return do sh.notify { id: "j_0123456789abcdef", output: { pattern: "(", matchType: "regex", file: "x" } }`)
	expect(t, reason(r), "E_TOOL_ARGS invalid_args")
}

// TestExecCancelWaitsForStopSequence: the built-in tools are
// runtime.Awaited, so a run whose sh.exec command ignores SIGTERM returns
// only after the whole stop sequence (a grace period longer than
// runtime.ToolStopGrace), with the command gone; a host tool would have
// been abandoned after ToolStopGrace instead.
func TestExecCancelWaitsForStopSequence(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	cfg.Grace = runtime.ToolStopGrace + 500*time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	r := runCtx(t, ctx, cfg, `return do sh.exec { cmd: "echo $$ > pid; trap '' TERM; sleep 30" }`)
	took := time.Since(start)
	if r.err == nil || r.err.Code != "E_CANCELLED" {
		t.Fatalf("%s", r.json())
	}
	if took < 300*time.Millisecond+cfg.Grace {
		t.Errorf("Run returned after %v, before the stop sequence's grace (%v) ended", took, cfg.Grace)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid <= 0 {
		t.Fatalf("pid %q", b)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("command %d still alive after Run returned", pid)
	}
}

// panicSink panics on the events of finishing jobs, which are written from
// the jobs' own goroutines.
type panicSink struct{}

func (panicSink) Event(ev runtime.TraceEvent) error {
	if strings.HasPrefix(ev.Event, "job_") && ev.Event != "job_start" {
		panic("sink " + ev.Event)
	}
	return nil
}

// TestPanickingSinkInBackground: a host's trace or observe sink that
// panics on an event a background job writes (job_end, from the job's
// goroutine) does not end the host process: the panic is the sink's
// error (a trace sink's makes the run E_IO, an observer's is ignored).
func TestPanickingSinkInBackground(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cfg := testCfg(dir)
	env, err := runtime.NewEnv(runtime.WithTools(tools.Standard()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, observe := range []bool{false, true} {
		opts := runtime.RunOptions{Exec: &cfg}
		if observe {
			opts.Observe = panicSink{}
		} else {
			opts.Trace = panicSink{}
		}
		s := env.NewSession()
		_, ds, err := s.Eval(context.Background(), "<in>", "cap { sh.exec: true }\ndo sh.start { cmd: \"echo hi\" } -> j\nj.id", opts)
		if len(ds) > 0 || err != nil {
			t.Fatalf("%v %v", ds, err)
		}
		time.Sleep(300 * time.Millisecond) // the job ends, its job_end reaches the sink
		_, _, err = s.Eval(context.Background(), "<in>", "1 + 1", opts)
		if observe && err != nil {
			t.Errorf("observer: %v", err)
		}
		s.Close()
	}
}
