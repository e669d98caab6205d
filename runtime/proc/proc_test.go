//go:build linux

package proc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// testEngine returns an engine with short grace and drain periods.
func testEngine(t *testing.T, mod func(*Config)) *Engine {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Grace = 300 * time.Millisecond
	cfg.Drain = 300 * time.Millisecond
	cfg.WorkDir = t.TempDir()
	if mod != nil {
		mod(&cfg)
	}
	return NewEngine(cfg)
}

func prepare(t *testing.T, e *Engine, r *Request) *Prepared {
	t.Helper()
	if r.MaxOutput == 0 {
		r.MaxOutput = -1
	}
	if r.DefaultOut == 0 {
		r.DefaultOut = 1 << 20
	}
	if !r.HasTimeout && !r.IsJob {
		r.HasTimeout, r.Timeout = true, 20*time.Second
	}
	r.Remaining = -1
	p, err := e.Prepare(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// events collects signal events.
type events struct {
	mu  sync.Mutex
	evs []SignalEvent
}

func (ev *events) add(e SignalEvent) {
	ev.mu.Lock()
	ev.evs = append(ev.evs, e)
	ev.mu.Unlock()
}

func (ev *events) String() string {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var parts []string
	for _, e := range ev.evs {
		s := e.Target + ":" + e.Signal + ":" + e.Reason
		if e.Target == "sweep" {
			s += ":" + strconv.Itoa(e.Count)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// survivors lists live (non-zombie) processes whose environment holds
// A0_EXEC_ID=id.
func survivors(id string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	want := []byte("A0_EXEC_ID=" + id + "\x00")
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

// noSurvivors fails when a process of the id is still alive (after a
// short grace for signals in flight).
func noSurvivors(t *testing.T, id string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		s := survivors(id)
		if len(s) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range s {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("processes of %s survived: %v", id, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runFunc is Run with its event source chosen.
type runFunc func(context.Context, *Spec) (*Result, error)

// bothSources runs f with each source Run can use: poll(2) (Linux with
// pidfd) and the portable goroutine source (other systems, older kernels).
func bothSources(t *testing.T, f func(*testing.T, runFunc)) {
	t.Parallel()
	t.Run("poll", func(t *testing.T) {
		if !pollSupported() {
			t.Skip("no pidfd here")
		}
		t.Parallel()
		f(t, func(ctx context.Context, s *Spec) (*Result, error) { return run(ctx, s, true) })
	})
	t.Run("portable", func(t *testing.T) {
		t.Parallel()
		f(t, func(ctx context.Context, s *Spec) (*Result, error) { return run(ctx, s, false) })
	})
}

func TestRunBasicsAndLeftover(t *testing.T) { bothSources(t, testRunBasicsAndLeftover) }

func testRunBasicsAndLeftover(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "echo out; echo err 1>&2; exit 3"})
	res, err := run(context.Background(), &p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || string(res.Stdout.Head) != "out\n" || string(res.Stderr.Head) != "err\n" || res.LeftoverKilled {
		t.Errorf("result %+v", res)
	}
	// A background child is stopped when the command ends (leftover).
	p = prepare(t, e, &Request{Cmd: "sleep 30 & echo started"})
	ev := &events{}
	p.Spec.OnSignalEvent = ev.add
	start := time.Now()
	res, _ = run(context.Background(), &p.Spec)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
	if !res.LeftoverKilled || res.KillReason != "" || res.ExitCode != 0 || string(res.Stdout.Head) != "started\n" {
		t.Errorf("result %+v", res)
	}
	if got := ev.String(); !strings.HasPrefix(got, "group:SIGTERM:leftover") {
		t.Errorf("events %q", got)
	}
	noSurvivors(t, p.ID)
}

func TestStopSequenceEscalates(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "trap '' TERM; sleep 30", IsJob: true})
	ev := &events{}
	p.Spec.OnSignalEvent = ev.add
	pr, err := Start(&p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if sent := pr.Stop(StopOpts{Reason: "kill"}); sent != "SIGTERM" {
		t.Errorf("sent %q", sent)
	}
	// A second stop joins the sequence and sends nothing.
	if sent := pr.Stop(StopOpts{Reason: "run_end"}); sent != "" {
		t.Errorf("joined stop sent %q", sent)
	}
	<-pr.Done()
	el := time.Since(start)
	if el < 250*time.Millisecond || el > 2*time.Second {
		t.Errorf("stop took %v (grace 300ms)", el)
	}
	res := pr.Result()
	if res.KillReason != "kill" || res.TimedOut || res.Signal != "SIGKILL" || res.ExitCode != 137 || !res.Escalated {
		t.Errorf("result %+v", res)
	}
	if got := ev.String(); got != "group:SIGTERM:kill group:SIGKILL:kill" {
		t.Errorf("events %q", got)
	}
	noSurvivors(t, p.ID)
}

func TestStopKillJoinsAtOnce(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "trap '' TERM; sleep 30", IsJob: true, HasGrace: true, Grace: 20 * time.Second})
	pr, err := Start(&p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	pr.Stop(StopOpts{Reason: "kill"})
	start := time.Now()
	if sent := pr.Stop(StopOpts{Reason: "kill", Signal: "SIGKILL"}); sent != "SIGKILL" {
		t.Errorf("sent %q", sent)
	}
	<-pr.Done()
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("SIGKILL did not end the job at once: %v", el)
	}
	if r := pr.Result(); r.Signal != "SIGKILL" || r.KillReason != "kill" {
		t.Errorf("result %+v", r)
	}
	noSurvivors(t, p.ID)
}

func TestStopWithoutEscalation(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "trap '' TERM; sleep 30", IsJob: true})
	pr, err := Start(&p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if sent := pr.Stop(StopOpts{Reason: "kill", NoEscalate: true}); sent != "SIGTERM" {
		t.Errorf("sent %q", sent)
	}
	select {
	case <-pr.Done():
		t.Fatal("a TERM-ignoring job ended without escalation")
	case <-time.After(500 * time.Millisecond):
	}
	// The sequence is over, so a later stop starts a new one; the first
	// stop still decides the outcome.
	if sent := pr.Stop(StopOpts{Reason: "run_end", Grace: 0, HasGrace: true}); sent != "SIGTERM" {
		t.Errorf("second stop sent %q", sent)
	}
	<-pr.Done()
	if r := pr.Result(); r.KillReason != "kill" || r.Signal != "SIGKILL" {
		t.Errorf("result %+v", r)
	}
	noSurvivors(t, p.ID)
}

func TestInterruptWithTrapExitsCleanly(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "trap 'exit 0' INT; sleep 30; echo never", IsJob: true})
	pr, _ := Start(&p.Spec)
	time.Sleep(100 * time.Millisecond)
	pr.Stop(StopOpts{Reason: "kill", Signal: "SIGINT", NoEscalate: true})
	select {
	case <-pr.Done():
	case <-time.After(3 * time.Second):
		t.Fatal("SIGINT did not end the job")
	}
	if r := pr.Result(); r.ExitCode != 0 || r.KillReason != "kill" || r.Escalated {
		t.Errorf("result %+v", r)
	}
}

func TestTimeoutTrapTerm(t *testing.T) { bothSources(t, testTimeoutTrapTerm) }

func testTimeoutTrapTerm(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	// The shell traps TERM and exits 0: still timed out.
	p := prepare(t, e, &Request{Cmd: "trap 'exit 0' TERM; sleep 60", HasTimeout: true, Timeout: 300 * time.Millisecond})
	start := time.Now()
	res, _ := run(context.Background(), &p.Spec)
	if !res.TimedOut || res.KillReason != "timeout" || res.ExitCode != 0 || res.Signal != "" {
		t.Errorf("result %+v", res)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
	noSurvivors(t, p.ID)
}

func TestDrainTimeoutSweepsEscapee(t *testing.T) { bothSources(t, testDrainTimeoutSweepsEscapee) }

func testDrainTimeoutSweepsEscapee(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	// The pause lets the escapee leave the group before the leader ends
	// (else the leftover probe would still find it there).
	p := prepare(t, e, &Request{Cmd: "setsid sleep 30 & sleep 0.2; echo hi"})
	ev := &events{}
	p.Spec.OnSignalEvent = ev.add
	start := time.Now()
	res, _ := run(context.Background(), &p.Spec)
	if el := time.Since(start); el > 500*time.Millisecond+1500*time.Millisecond {
		t.Errorf("took %v", el)
	}
	if !res.OutputIncomplete || string(res.Stdout.Head) != "hi\n" {
		t.Errorf("result %+v", res)
	}
	if got := ev.String(); !strings.Contains(got, "sweep:SIGKILL:escaped:1") {
		t.Errorf("events %q", got)
	}
	noSurvivors(t, p.ID)
}

func TestOutputLimitStops(t *testing.T) { bothSources(t, testOutputLimitStops) }

func testOutputLimitStops(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "yes", OutputLimit: 100000})
	res, _ := run(context.Background(), &p.Spec)
	if res.KillReason != "output_limit" || res.TimedOut || res.Stdout.Total <= 100000 {
		t.Errorf("result %+v", res)
	}
}

func TestContextCancelHostCancel(t *testing.T) { bothSources(t, testContextCancelHostCancel) }

func testContextCancelHostCancel(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "sleep 30"})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res, _ := run(ctx, &p.Spec)
	if res.KillReason != "host_cancel" || res.Signal != "SIGTERM" {
		t.Errorf("result %+v", res)
	}
	p = prepare(t, e, &Request{Cmd: "sleep 30"})
	ctx2, cancel2 := context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel2(StopReason("budget")) })
	res, _ = run(ctx2, &p.Spec)
	if res.KillReason != "budget" {
		t.Errorf("result %+v", res)
	}
}

func TestMaskAcrossReads(t *testing.T) { bothSources(t, testMaskAcrossReads) }

func testMaskAcrossReads(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "printf 's3cr3t-'; sleep 0.2; printf 'value\\n'; printf 's3cr3t-value' 1>&2",
		Env: [][2]string{{"API_TOKEN", "s3cr3t-value"}}})
	res, _ := run(context.Background(), &p.Spec)
	if got := string(res.Stdout.Head); got != "[masked:API_TOKEN]\n" {
		t.Errorf("stdout %q", got)
	}
	if got := string(res.Stderr.Head); got != "[masked:API_TOKEN]" {
		t.Errorf("stderr %q", got)
	}
}

func TestStdinHandling(t *testing.T) { bothSources(t, testStdinHandling) }

func testStdinHandling(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "cat"})
	start := time.Now()
	res, _ := run(context.Background(), &p.Spec)
	if res.Stdout.Total != 0 || time.Since(start) > 2*time.Second {
		t.Errorf("cat without stdin: %+v", res)
	}
	big := bytes.Repeat([]byte("x"), 1<<20)
	p = prepare(t, e, &Request{Cmd: "true", Stdin: big, HasStdin: true})
	start = time.Now()
	res, _ = run(context.Background(), &p.Spec)
	if res.ExitCode != 0 || time.Since(start) > 2*time.Second {
		t.Errorf("1 MiB to true: %+v after %v", res, time.Since(start))
	}
}

// ------------------------------------------------------------ keeper and views

func TestKeeperRanges(t *testing.T) {
	k := newJobKeeper(10) // head 10, ring 10
	var all []byte
	for i := 0; i < 7; i++ {
		chunk := []byte(strings.Repeat(strconv.Itoa(i), 7))
		all = append(all, chunk...)
		k.write(chunk)
	}
	if k.total != 49 || len(k.head) != 10 || k.ringStart() != 39 {
		t.Fatalf("total %d head %d ringStart %d", k.total, len(k.head), k.ringStart())
	}
	if got := string(k.ringCopy(nil, 41, 49)); got != string(all[41:49]) {
		t.Errorf("ringCopy %q want %q", got, all[41:49])
	}
	v := view{total: k.total, headLen: int64(len(k.head)), ringStart: k.ringStart()}
	// Offset in the dropped middle: gap, starts at the ring.
	a, b, gap := v.readWindow(20, 5)
	if a != 39 || b != 44 || !gap {
		t.Errorf("readWindow(20) = %d %d %v", a, b, gap)
	}
	a, b, gap = v.readWindow(3, 100)
	if a != 3 || b != 10 || gap {
		t.Errorf("readWindow(3) = %d %d %v", a, b, gap)
	}
	a, b = v.snapshotWindow(100)
	if a != 39 || b != 49 {
		t.Errorf("snapshotWindow = %d %d", a, b)
	}
	// With a complete log the whole stream is contiguous.
	v.logLen = 49
	a, b, gap = v.readWindow(20, 5)
	if a != 20 || b != 25 || gap {
		t.Errorf("readWindow with log = %d %d %v", a, b, gap)
	}
	ps := v.plan(k, 5, 45)
	if len(ps) != 3 || ps[0].fromLog || !ps[1].fromLog || ps[1].from != 10 || ps[1].to != 39 || ps[2].fromLog {
		t.Errorf("plan %+v", ps)
	}
}

func TestSnapshotLines(t *testing.T) {
	for _, c := range []struct {
		data  string
		lines int
		want  string
	}{
		{"a\nb\nc\n", 2, "b\nc\n"},
		{"a\nb\nc", 2, "b\nc"},
		{"finished\n", 50, "finished\n"},
		{"a\nb\n", 1, "b\n"},
		{"", 5, ""},
	} {
		got := snapshot([]byte(c.data), 0, int64(len(c.data)), c.lines)
		if string(got.Data) != c.want || got.End != int64(len(c.data)) || got.Start != int64(len(c.data)-len(c.want)) {
			t.Errorf("snapshot(%q, %d) = %q [%d,%d]", c.data, c.lines, got.Data, got.Start, got.End)
		}
	}
	// A cut in the middle of a character moves the start forward.
	got := snapshot([]byte("\xa9xyz"), 5, 9, 10)
	if string(got.Data) != "xyz" || got.Start != 6 {
		t.Errorf("cut: %q %d", got.Data, got.Start)
	}
	// readChunk moves the end back over an incomplete character while the
	// stream may grow.
	rc := readChunk([]byte("ab\xc3"), 0, 3, false, 3, true)
	if string(rc.Data) != "ab" || rc.End != 2 {
		t.Errorf("readChunk %q %d", rc.Data, rc.End)
	}
	rc = readChunk([]byte("ab\xc3"), 0, 3, false, 3, false)
	if string(rc.Data) != "ab\xc3" || rc.End != 3 {
		t.Errorf("readChunk final %q %d", rc.Data, rc.End)
	}
}

// ------------------------------------------------------------ jobs

func startJob(t *testing.T, js *Jobs, r *Request, ev *events) *Job {
	t.Helper()
	r.IsJob = true
	p := prepare(t, js.engine, r)
	o := JobOptions{Cmd: r.Cmd, Argv: r.Argv}
	if ev != nil {
		o.OnSignal = func(_ *Job, e SignalEvent) { ev.add(e) }
	}
	j, err := js.Start(p, o)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestJobsLifecycleAndCloseAll(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	js := NewJobs(e)
	t.Cleanup(func() { js.CloseAll("run_end") })
	runEv := &events{}
	js.Bind("run-1", func(_ string, ev SignalEvent) { runEv.add(ev) })
	quick := startJob(t, js, &Request{Cmd: "echo one; echo two 1>&2"}, nil)
	<-quick.Done()
	info := quick.Info()
	if info.State != "exited" || !info.HasExit || info.ExitCode != 0 || info.StdoutTotal != 4 || info.StderrTotal != 4 || info.RunID != "run-1" {
		t.Errorf("quick %+v", info)
	}
	if c := quick.Tail(false, 50, 100); string(c.Data) != "one\n" || c.Start != 0 || c.End != 4 {
		t.Errorf("tail %q %d %d", c.Data, c.Start, c.End)
	}
	ev := &events{}
	long := startJob(t, js, &Request{Cmd: "sleep 30"}, ev)
	// An escapee holding no pipe, started by a foreground exec of the run.
	p := prepare(t, e, &Request{Cmd: "setsid sh -c 'sleep 30' >/dev/null 2>&1 & sleep 0.2"})
	if _, err := Run(context.Background(), &p.Spec); err != nil {
		t.Fatal(err)
	}
	if len(survivors(p.ID)) == 0 {
		t.Fatal("the escapee is not running")
	}
	if info := long.Info(); info.State != "running" || info.HasExit || !info.FinishedAt.IsZero() {
		t.Errorf("long %+v", info)
	}
	js.CloseAll("run_end")
	if info := long.Info(); info.State != "killed" || info.KillReason != "run_end" || info.Signal != "SIGTERM" {
		t.Errorf("after CloseAll %+v", info)
	}
	if got := ev.String(); got != "group:SIGTERM:run_end" {
		t.Errorf("job events %q", got)
	}
	if got := runEv.String(); !strings.HasPrefix(got, "sweep:SIGKILL:escaped:") || strings.Contains(got, " ") {
		t.Errorf("run events %q", got)
	}
	noSurvivors(t, p.ID)
	noSurvivors(t, long.ID)
	if _, err := js.Start(prepare(t, e, &Request{Cmd: "true", IsJob: true}), JobOptions{}); err == nil {
		t.Error("a job started after CloseAll")
	}
}

func TestJobLimits(t *testing.T) {
	t.Parallel()
	e := testEngine(t, func(c *Config) { c.MaxJobs = 2; c.MaxJobsPerRun = 3 })
	js := NewJobs(e)
	js.Bind("r", nil)
	defer js.CloseAll("run_end")
	a := startJob(t, js, &Request{Cmd: "sleep 30"}, nil)
	startJob(t, js, &Request{Cmd: "sleep 30"}, nil)
	_, err := js.Start(prepare(t, e, &Request{Cmd: "true", IsJob: true}), JobOptions{})
	if pe, ok := err.(*Error); !ok || pe.Reason != "job_limit" {
		t.Fatalf("third running job: %v", err)
	}
	a.Stop(StopOpts{Reason: "kill"})
	<-a.Done()
	startJob(t, js, &Request{Cmd: "true"}, nil)
	_, err = js.Start(prepare(t, e, &Request{Cmd: "true", IsJob: true}), JobOptions{})
	if pe, ok := err.(*Error); !ok || pe.Reason != "job_limit" {
		t.Fatalf("fourth job of the run: %v", err)
	}
}

// ------------------------------------------------------------ store

func TestStoreFiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "jobs")
	e := testEngine(t, func(c *Config) { c.StoreDir = dir; c.MaxLogBytes = 10 })
	js := NewJobs(e)
	t.Cleanup(func() { js.CloseAll("run_end") })
	js.Bind("run-s", nil)
	j := startJob(t, js, &Request{Cmd: "printf 'x%s\\n' \"$API_TOKEN\"; printf 'e' 1>&2", Env: [][2]string{{"API_TOKEN", "s3cr3t-value"}}}, nil)
	<-j.Done()
	js.CloseAll("run_end")
	jd := filepath.Join(dir, j.ID)
	for path, mode := range map[string]os.FileMode{dir: 0o700, jd: 0o700, filepath.Join(jd, "meta.json"): 0o600,
		filepath.Join(jd, "state.json"): 0o600, filepath.Join(jd, "stdout.log"): 0o600, filepath.Join(jd, "stderr.log"): 0o600} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s: mode %v", path, st.Mode().Perm())
		}
	}
	ents, _ := os.ReadDir(jd)
	if len(ents) != 4 {
		t.Errorf("job dir holds %d files (temp files left?)", len(ents))
	}
	for _, ent := range ents {
		b, _ := os.ReadFile(filepath.Join(jd, ent.Name()))
		if bytes.Contains(b, []byte("s3cr3t-value")) {
			t.Errorf("%s holds the secret", ent.Name())
		}
	}
	out, _ := os.ReadFile(filepath.Join(jd, "stdout.log"))
	if string(out) != "x[masked:A" {
		t.Errorf("stdout.log %q (maxLogBytes 10)", out)
	}
	sj, err := js.store.Load(j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !sj.state.StdoutLogTruncated || sj.state.StderrLogTruncated || sj.state.State != "exited" || !sj.state.Completed || sj.state.StdoutTotalBytes != 20 {
		t.Errorf("state %+v", sj.state)
	}
	m := sj.meta
	if m == nil || m.Schema != 1 || m.RunID != "run-s" || m.Pid != j.Pid() || m.Pgid != j.Pid() || m.OwnerPid != os.Getpid() ||
		m.OwnerStartTicks == nil || m.LeaderStartTicks == nil || m.BootID == nil || m.Shell == nil || *m.Shell != "sh" ||
		len(m.MaskNames) == 0 || m.Cmd == nil {
		t.Errorf("meta %+v", m)
	}
	// A stored job reads its output from the log.
	if c := sj.Tail(true, 50, 100); string(c.Data) != "e" {
		t.Errorf("stored stderr tail %q", c.Data)
	}
	if c, ok := sj.ReadAt(false, 2, 100); !ok || string(c.Data) != "masked:A" || c.Start != 2 || c.End != 10 || c.Gap {
		t.Errorf("stored ReadAt %q %d %v", c.Data, c.Start, ok)
	}
}

// fakeRecord writes a running record owned by ownerPid for a leader.
func fakeRecord(t *testing.T, dir, id string, ownerPid int, ownerTicks int64, leader int, boot string) {
	t.Helper()
	jd := filepath.Join(dir, id)
	if err := os.MkdirAll(jd, 0o700); err != nil {
		t.Fatal(err)
	}
	lt, _ := startTicks(leader)
	m := &jobMeta{Schema: 1, ID: id, RunID: "old", OwnerPid: ownerPid, OwnerStartTicks: &ownerTicks, Pid: leader, Pgid: leader,
		LeaderStartTicks: &lt, BootID: &boot, StartedAt: FormatTime(time.Now().Add(-time.Minute))}
	st := &jobState{ID: id, RunID: "old", State: "running", Pid: leader, StartedAt: m.StartedAt}
	if err := writeAtomic(jd, "meta.json", marshal(m)); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(jd, "state.json", marshal(st)); err != nil {
		t.Fatal(err)
	}
}

func spawnLeader(t *testing.T, id string) *exec.Cmd {
	t.Helper()
	// A leader with a group member and an escapee (another session).
	cmd := exec.Command("/bin/sh", "-c", "sleep 30 & setsid sleep 30 & sleep 30")
	cmd.Env = append(os.Environ(), "A0_EXEC_ID="+id)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		sweep(map[string]bool{id: true})
		cmd.Wait()
		noSurvivors(t, id)
	})
	return cmd
}

func TestReconcile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	boot := bootID()
	// A dead owner: the pid of a process that has exited.
	dead := exec.Command("true")
	dead.Run()
	deadPid := dead.Process.Pid
	selfTicks, _ := startTicks(os.Getpid())

	idDead, idLive, idReboot := randomID("j_"), randomID("j_"), randomID("j_")
	leaderDead := spawnLeader(t, idDead)
	leaderLive := spawnLeader(t, idLive)
	leaderReboot := spawnLeader(t, idReboot)
	time.Sleep(50 * time.Millisecond)
	fakeRecord(t, dir, idDead, deadPid, 12345, leaderDead.Process.Pid, boot)
	fakeRecord(t, dir, idLive, os.Getpid(), selfTicks, leaderLive.Process.Pid, boot)
	fakeRecord(t, dir, idReboot, deadPid, 12345, leaderReboot.Process.Pid, "another-boot")

	e := testEngine(t, func(c *Config) { c.StoreDir = dir })
	js := NewJobs(e)
	var mu sync.Mutex
	var got []string
	js.Bind("new", func(jobID string, ev SignalEvent) {
		mu.Lock()
		got = append(got, jobID+":"+ev.Target+":"+ev.Signal+":"+ev.Reason)
		mu.Unlock()
	})
	defer js.CloseAll("run_end")
	state := func(id string) *jobState {
		st := &jobState{}
		if err := readJSON(filepath.Join(dir, id, "state.json"), st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := state(idDead); st.State != "lost" || derefStr(st.KillReason) != "owner_died" || st.FinishedAt == nil || !st.Completed {
		t.Errorf("dead owner's job: %+v", st)
	}
	noSurvivors(t, idDead)
	mu.Lock()
	want := idDead + ":group:SIGKILL:owner_died " + idDead + ":sweep:SIGKILL:owner_died"
	if strings.Join(got, " ") != want {
		t.Errorf("events %q\nwant %q", strings.Join(got, " "), want)
	}
	mu.Unlock()
	if st := state(idLive); st.State != "running" {
		t.Errorf("live owner's job: %+v", st)
	}
	if len(survivors(idLive)) == 0 {
		t.Error("a live owner's job was signalled")
	}
	// After a reboot nothing is signalled: the record only becomes lost.
	if st := state(idReboot); st.State != "lost" {
		t.Errorf("rebooted job: %+v", st)
	}
	if len(survivors(idReboot)) == 0 {
		t.Error("a job from another boot was signalled")
	}
}

func TestRetention(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	now := time.Now()
	write := func(id, state string, finished time.Time, size int) {
		jd := filepath.Join(dir, id)
		os.MkdirAll(jd, 0o700)
		st := &jobState{ID: id, State: state, StartedAt: FormatTime(finished.Add(-time.Second))}
		if state != "running" {
			f := FormatTime(finished)
			st.FinishedAt = &f
		}
		writeAtomic(jd, "state.json", marshal(st))
		os.WriteFile(filepath.Join(jd, "stdout.log"), bytes.Repeat([]byte("x"), size), 0o600)
	}
	old, recent1, recent2, run := randomID("j_"), randomID("j_"), randomID("j_"), randomID("j_")
	write(old, "exited", now.Add(-10*24*time.Hour), 10)
	write(recent1, "killed", now.Add(-2*time.Hour), 3000)
	write(recent2, "exited", now.Add(-1*time.Hour), 3000)
	write(run, "running", now.Add(-20*24*time.Hour), 3000)
	s := &Store{dir: dir, retainDays: 7, maxBytes: 7000, maxLogBytes: 1 << 20, now: time.Now}
	s.gc()
	exists := func(id string) bool { _, err := os.Stat(filepath.Join(dir, id)); return err == nil }
	if exists(old) || exists(recent1) || !exists(recent2) || !exists(run) {
		t.Errorf("after gc: old %v recent1 %v recent2 %v running %v", exists(old), exists(recent1), exists(recent2), exists(run))
	}
	// At most once an hour.
	write(old, "exited", now.Add(-10*24*time.Hour), 10)
	s.gc()
	if !exists(old) {
		t.Error("gc ran twice within an hour")
	}
	if st, err := os.Stat(filepath.Join(dir, ".gc")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf(".gc marker: %v", err)
	}
}

// ValidJobID accepts exactly the ids ^j_[0-9a-f]{16}$ describes.
func TestValidJobID(t *testing.T) {
	re := regexp.MustCompile(`^j_[0-9a-f]{16}$`)
	for _, id := range []string{"j_0123456789abcdef", "j_0123456789ABCDEF", "j_0123456789abcde", "j_0123456789abcdef0",
		"x_0123456789abcdef", "j-0123456789abcdef", "", "j_", "j_0123456789abcdeg", "j_0123456789abcdé", "j_0123456789abcdef\n"} {
		if got, want := ValidJobID(id), re.MatchString(id); got != want {
			t.Errorf("ValidJobID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestRunNoFDLeak(t *testing.T) { bothSources(t, testRunNoFDLeak) }

// testRunNoFDLeak: pipes, pidfd and eventfd are all closed after a run,
// whether the command ends on its own, is timed out or leaves a child.
func testRunNoFDLeak(t *testing.T, run runFunc) {
	e := testEngine(t, nil)
	count := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		return len(ents)
	}
	reqs := []*Request{
		{Cmd: "echo out; echo err 1>&2"},
		{Cmd: "sleep 5", HasTimeout: true, Timeout: 50 * time.Millisecond},
		{Cmd: "sleep 30 & echo started"},
		{Argv: []string{"cat"}, Stdin: []byte("in"), HasStdin: true, Merge: true},
	}
	// Warm up (the runtime's own descriptors, the pidfd probe).
	for _, r := range reqs {
		run(context.Background(), &prepare(t, e, r).Spec)
	}
	// Parallel tests open descriptors too: allow a little noise, but not
	// one per run.
	before := count()
	for i := 0; i < 20; i++ {
		for _, r := range reqs {
			if _, err := run(context.Background(), &prepare(t, e, r).Spec); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The other parallel tests' descriptors come and go; a leak of this
	// test's runs stays. So the count is given a few seconds to settle.
	after := count()
	for deadline := time.Now().Add(3 * time.Second); after > before+8 && time.Now().Before(deadline); after = count() {
		time.Sleep(50 * time.Millisecond)
	}
	if after > before+8 {
		t.Errorf("descriptors: %d before, %d after 80 runs", before, after)
	}
}
