//go:build linux

package proc

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary serves as the supervisor (TestMain answers
// SupervisorArg), so these tests run real supervisors and real commands.

// detachedRun returns a bound registry of a run whose engine keeps jobs in
// store (created when missing) and allows detached jobs.
func detachedRun(t *testing.T, store, runID string, mod func(*Config)) *Jobs {
	t.Helper()
	e := testEngine(t, func(c *Config) {
		c.StoreDir = store
		c.AllowDetach = true
		if mod != nil {
			mod(c)
		}
	})
	js := NewJobs(e)
	js.Bind(runID, nil)
	return js
}

func startDetached(t *testing.T, js *Jobs, r *Request) *StoredJob {
	t.Helper()
	r.MaxOutput, r.DefaultOut = -1, 1<<20
	sj, err := js.StartDetached(r, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if sj.meta != nil {
			syscall.Kill(-sj.meta.Pgid, syscall.SIGKILL)
			syscall.Kill(sj.meta.OwnerPid, syscall.SIGKILL)
		}
	})
	return sj
}

func waitDone(t *testing.T, js *Jobs, sj *StoredJob, d time.Duration) JobInfo {
	t.Helper()
	st, _ := js.Store()
	if !st.WaitStored(sj, d, nil) {
		_, cerr := os.Stat(filepath.Join(sj.dir, "control.json"))
		t.Logf("supervisor alive %v, control.json: %v", alive(sj.meta.OwnerPid), cerr)
		t.Fatalf("job %s still %s after %v", sj.Info().ID, sj.Info().State, d)
	}
	return sj.Info()
}

func TestDetachedJobOutlivesRun(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", nil)
	// A file the run holds open: the supervisor must not hold it.
	marker := filepath.Join(t.TempDir(), "run-file")
	mf, err := os.Create(marker)
	if err != nil {
		t.Fatal(err)
	}
	defer mf.Close()
	sj := startDetached(t, js, &Request{Cmd: "echo start; sleep 1; echo end"})
	info := sj.Info()
	fdDir := "/proc/" + strconv.Itoa(sj.meta.OwnerPid) + "/fd/"
	fds, _ := os.ReadDir(fdDir)
	for _, fd := range fds {
		target, _ := os.Readlink(fdDir + fd.Name())
		if target == marker || (fd.Name() == "0" || fd.Name() == "1" || fd.Name() == "2") && target != os.DevNull {
			t.Errorf("the supervisor holds fd %s -> %s", fd.Name(), target)
		}
	}
	if info.State != "running" || !info.Detached || info.RunID != "run-1" || sj.meta.OwnerPid == os.Getpid() {
		t.Fatalf("record %+v, owner %d", info, sj.meta.OwnerPid)
	}
	// The run ends: its jobs are stopped and its ids swept, the detached
	// job is not one of them.
	js.CloseAll("run_end")
	time.Sleep(100 * time.Millisecond)
	if !alive(info.Pid) {
		t.Fatal("the detached job died with its run")
	}
	// Another run reads it from the store and waits for it.
	js2 := detachedRun(t, store, "run-2", nil)
	_, stored, err := js2.Lookup(info.ID)
	if err != nil || stored == nil {
		t.Fatalf("lookup: %v %v", stored, err)
	}
	fin := waitDone(t, js2, stored, 5*time.Second)
	if fin.State != "exited" || fin.ExitCode != 0 || !fin.HasExit || fin.StdoutTotal != 10 {
		t.Fatalf("final %+v", fin)
	}
	if got := string(stored.Tail(false, 10, 1000).Data); got != "start\nend\n" {
		t.Fatalf("tail %q", got)
	}
	// The supervisor exits once the job is final.
	deadline := time.Now().Add(2 * time.Second)
	for alive(sj.meta.OwnerPid) {
		if time.Now().After(deadline) {
			t.Fatal("the supervisor outlived its job")
		}
		time.Sleep(10 * time.Millisecond)
	}
	noSurvivors(t, info.ID)
}

func TestDetachedSupervisorKilledIsLost(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", nil)
	// The shell's child holds no pipe of the supervisor's but the
	// group's; all of it must go.
	sj := startDetached(t, js, &Request{Cmd: "sleep 60 & sleep 60; wait"})
	info := sj.Info()
	pgid := sj.meta.Pgid
	if err := syscall.Kill(sj.meta.OwnerPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for alive(sj.meta.OwnerPid) {
		if time.Now().After(deadline) {
			t.Fatal("supervisor still alive")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !alive(info.Pid) {
		t.Fatal("the job died with its supervisor before reconciliation")
	}
	// The next run reconciles.
	js2 := detachedRun(t, store, "run-2", nil)
	_, stored, _ := js2.Lookup(info.ID)
	if got := stored.Info(); got.State != "lost" || got.KillReason != "owner_died" || !got.Completed() {
		t.Fatalf("after reconciliation %+v", got)
	}
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		// Zombies reaped by init may linger a moment.
		time.Sleep(200 * time.Millisecond)
		if len(survivors(info.ID)) > 0 {
			t.Fatalf("process group %d still has members: %v", pgid, survivors(info.ID))
		}
	}
	noSurvivors(t, info.ID)
}

func TestDetachedTimeoutTrapTerm(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", nil)
	start := time.Now()
	sj := startDetached(t, js, &Request{Cmd: "trap '' TERM; echo ready; sleep 60", HasTimeout: true, Timeout: 300 * time.Millisecond})
	fin := waitDone(t, js, sj, 5*time.Second)
	if fin.State != "timed_out" || !fin.TimedOut || fin.KillReason != "timeout" || fin.Signal != "SIGKILL" {
		t.Fatalf("final %+v", fin)
	}
	// timeout 300 ms + grace 300 ms, then the kill.
	if el := time.Since(start); el < 550*time.Millisecond || el > 4*time.Second {
		t.Fatalf("took %v", el)
	}
	noSurvivors(t, fin.ID)
}

func TestDetachedStopEscalates(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", nil)
	sj := startDetached(t, js, &Request{Cmd: "trap 'echo got-term' TERM; echo ready; while :; do sleep 0.05; done"})
	st, _ := js.Store()
	// Let the trap be installed.
	for i := 0; i < 200 && sj.Info().StdoutTotal == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if asked, err := st.StopDetached(sj.Info().ID, StopOpts{Signal: "SIGTERM", Grace: 200 * time.Millisecond, HasGrace: true}); err != nil || !asked {
		t.Fatal(asked, err)
	}
	fin := waitDone(t, js, sj, 5*time.Second)
	if fin.State != "killed" || fin.KillReason != "kill" || fin.Signal != "SIGKILL" {
		t.Fatalf("final %+v", fin)
	}
	if out := string(sj.Tail(false, 10, 1000).Data); !strings.Contains(out, "got-term") {
		t.Fatalf("the TERM was not delivered first: %q", out)
	}
	noSurvivors(t, fin.ID)
}

func TestDetachedRefusals(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	// A command outside the allowlist is refused by the supervisor's
	// engine, with the engine's own refusal.
	js := detachedRun(t, store, "run-1", func(c *Config) { c.Allow = []string{"echo"}; c.AllowShell = false })
	_, err := js.StartDetached(&Request{Argv: []string{"sleep", "1"}, MaxOutput: -1, DefaultOut: 1 << 20}, "", nil)
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != "cap_denied" {
		t.Fatalf("outside exec.allow: %v", err)
	}
	if ents, _ := os.ReadDir(store); len(ents) > 1 {
		t.Fatalf("a refused job left records: %v", ents)
	}
	// No store: the refusal names the key.
	e := testEngine(t, func(c *Config) { c.AllowDetach = true })
	js2 := NewJobs(e)
	js2.Bind("run-2", nil)
	_, err = js2.StartDetached(&Request{Cmd: "true", MaxOutput: -1, DefaultOut: 1 << 20}, "", nil)
	if !errors.As(err, &pe) || pe.Reason != "store_unavailable" || !strings.Contains(pe.Msg, "exec.jobStore") {
		t.Fatalf("no store: %v", err)
	}
	// A missing executable comes back as a start error.
	js3 := detachedRun(t, store, "run-3", nil)
	_, err = js3.StartDetached(&Request{Argv: []string{"/nonexistent/prog"}, MaxOutput: -1, DefaultOut: 1 << 20}, "", nil)
	if err == nil {
		t.Fatal("a missing program started")
	}
}

func TestDetachedJobConfined(t *testing.T) {
	if !SandboxStatus().Available {
		t.Skip("no Landlock here: " + SandboxStatus().Missing)
	}
	root := t.TempDir()
	rw := filepath.Join(root, "rw")
	outside := filepath.Join(root, "outside")
	os.MkdirAll(rw, 0o755)
	os.MkdirAll(outside, 0o755)
	store := filepath.Join(root, "store")
	js := detachedRun(t, store, "run-1", func(c *Config) {
		c.Sandbox = &Sandbox{Write: []string{rw}, Require: true}
		c.WorkDir = rw
	})
	sj := startDetached(t, js, &Request{Cmd: "echo in > " + rw + "/ok; echo out > " + outside + "/bad; echo $TMPDIR"})
	fin := waitDone(t, js, sj, 5*time.Second)
	if !fin.Confined {
		t.Fatalf("not confined: %+v", fin)
	}
	if _, err := os.Stat(filepath.Join(rw, "ok")); err != nil {
		t.Fatalf("write inside the root: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "bad")); err == nil {
		t.Fatal("a detached job wrote outside its roots")
	}
	if tmp := strings.TrimSpace(string(sj.Tail(false, 1, 1000).Data)); tmp == "" || tmp == os.TempDir() {
		t.Fatalf("no private TMPDIR: %q", tmp)
	}
}

func TestDetachedJobMasksSecrets(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", func(c *Config) {
		c.BaseEnv = append(os.Environ(), "DEPLOY_TOKEN=hunter2-secret-value")
	})
	sj := startDetached(t, js, &Request{Cmd: "echo token=$DEPLOY_TOKEN id=$A0_EXEC_ID"})
	fin := waitDone(t, js, sj, 5*time.Second)
	out := string(sj.Tail(false, 1, 1000).Data)
	if strings.Contains(out, "hunter2") || !strings.Contains(out, "id="+fin.ID) {
		t.Fatalf("output %q", out)
	}
	log, _ := os.ReadFile(filepath.Join(store, fin.ID, "stdout.log"))
	if strings.Contains(string(log), "hunter2") {
		t.Fatalf("the log holds the secret: %q", log)
	}
}

// A stop asked the moment the job is started reaches a supervisor that
// already listens (it would otherwise die of SIGUSR1 and leave the job
// lost).
func TestDetachedStopRightAfterStart(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", nil)
	sj := startDetached(t, js, &Request{Cmd: "sleep 60"})
	st, _ := js.Store()
	if asked, err := st.StopDetached(sj.Info().ID, StopOpts{Signal: "SIGTERM"}); err != nil || !asked {
		t.Fatal(asked, err)
	}
	fin := waitDone(t, js, sj, 5*time.Second)
	if fin.State != "killed" || fin.Signal != "SIGTERM" {
		t.Fatalf("final %+v", fin)
	}
}

func waitSupervisorGone(t *testing.T, sj *StoredJob) {
	t.Helper()
	for i := 0; i < 500 && alive(sj.meta.OwnerPid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(sj.meta.OwnerPid) {
		t.Fatal("the supervisor did not exit")
	}
}

func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %v: %q", path, err, l)
		}
		out = append(out, m)
	}
	return out
}

func TestDetachedNotifications(t *testing.T) {
	tmp := t.TempDir()
	store := filepath.Join(tmp, "store")
	js := detachedRun(t, store, "run-1", nil)
	n := &Notify{
		Command: "cat > " + tmp + "/stdin.json; echo \"$A0_JOB_ID $A0_EVENT_TYPE $A0_EVENT_PATH\" > " + tmp + "/env.txt",
		File:    tmp + "/done.ndjson",
		Output:  &OutputNotify{Pattern: "ERR[0-9]+", MatchType: "regex", Stream: "stderr", File: tmp + "/match.ndjson"},
	}
	r := &Request{Cmd: "echo ERR1; echo ERR2 >&2; echo fine >&2; printf 'ERR33 tail' >&2; exit 4", MaxOutput: -1, DefaultOut: 1 << 20}
	sj, err := js.StartDetached(r, "", n)
	if err != nil {
		t.Fatal(err)
	}
	fin := waitDone(t, js, sj, 5*time.Second)
	waitSupervisorGone(t, sj)
	if fin.State != "exited" || fin.ExitCode != 4 {
		t.Fatalf("final %+v", fin)
	}
	// Output matches: stderr only, a last line without a newline too.
	m := readLines(t, tmp+"/match.ndjson")
	if len(m) != 2 || m[0]["line"] != "ERR2" || m[1]["line"] != "ERR33 tail" {
		t.Fatalf("matches %v", m)
	}
	for _, e := range m {
		if e["eventType"] != "job.output.matched" || e["pattern"] != "ERR[0-9]+" || e["matchType"] != "regex" || e["stream"] != "stderr" || e["jobId"] != fin.ID {
			t.Fatalf("match event %v", e)
		}
	}
	if kept := readLines(t, filepath.Join(store, fin.ID, "notification_events.ndjson")); len(kept) != 2 {
		t.Fatalf("kept match events %v", kept)
	}
	// Completion: every documented field, in the file sink and on the
	// command's stdin, and kept with the deliveries.
	done := readLines(t, tmp+"/done.ndjson")
	if len(done) != 1 {
		t.Fatalf("completion lines %v", done)
	}
	ev := done[0]
	for _, k := range []string{"schemaVersion", "eventType", "jobId", "state", "exitCode", "signal", "cmd", "argv", "cwd", "startedAt", "finishedAt", "durationMs", "stdoutLogPath", "stderrLogPath"} {
		if _, ok := ev[k]; !ok {
			t.Errorf("completion event lacks %s: %v", k, ev)
		}
	}
	if ev["eventType"] != "job.finished" || ev["state"] != "exited" || ev["exitCode"] != 4.0 || ev["stdoutLogPath"] != filepath.Join(store, fin.ID, "stdout.log") {
		t.Fatalf("completion event %v", ev)
	}
	in := map[string]any{}
	b, _ := os.ReadFile(tmp + "/stdin.json")
	if err := json.Unmarshal(b, &in); err != nil || in["jobId"] != fin.ID || in["eventType"] != "job.finished" {
		t.Fatalf("command stdin %q", b)
	}
	env, _ := os.ReadFile(tmp + "/env.txt")
	if want := fin.ID + " job.finished " + filepath.Join(store, fin.ID, "completion_event.json") + "\n"; string(env) != want {
		t.Fatalf("command env %q, want %q", env, want)
	}
	kept := map[string]any{}
	b, _ = os.ReadFile(filepath.Join(store, fin.ID, "completion_event.json"))
	json.Unmarshal(b, &kept)
	dl, _ := kept["deliveries"].([]any)
	if len(dl) != 2 || dl[0].(map[string]any)["ok"] != true || dl[1].(map[string]any)["ok"] != true {
		t.Fatalf("kept completion event %s", b)
	}
}

func TestDetachedNotificationSinkFails(t *testing.T) {
	tmp := t.TempDir()
	store := filepath.Join(tmp, "store")
	js := detachedRun(t, store, "run-1", nil)
	n := &Notify{Command: "exit 7", File: tmp + "/missing/dir/done.ndjson"}
	sj, err := js.StartDetached(&Request{Cmd: "echo ok", MaxOutput: -1, DefaultOut: 1 << 20}, "", n)
	if err != nil {
		t.Fatal(err)
	}
	fin := waitDone(t, js, sj, 5*time.Second)
	waitSupervisorGone(t, sj)
	_ = sj.Reload()
	if got := sj.Info(); got.State != "exited" || got.ExitCode != 0 || fin.State != "exited" {
		t.Fatalf("a failing sink changed the job: %+v", got)
	}
	kept := map[string]any{}
	b, _ := os.ReadFile(filepath.Join(store, fin.ID, "completion_event.json"))
	json.Unmarshal(b, &kept)
	dl, _ := kept["deliveries"].([]any)
	if len(dl) != 2 {
		t.Fatalf("deliveries %s", b)
	}
	c, f := dl[0].(map[string]any), dl[1].(map[string]any)
	if c["sink"] != "command" || c["ok"] != false || c["exitCode"] != 7.0 || f["sink"] != "file" || f["ok"] != false || f["error"] == "" {
		t.Fatalf("deliveries %s", b)
	}
	// A bad pattern is refused before anything starts.
	_, err = js.StartDetached(&Request{Cmd: "true", MaxOutput: -1, DefaultOut: 1 << 20}, "", &Notify{Output: &OutputNotify{Pattern: "(", MatchType: "regex", File: "/tmp/x"}})
	if err == nil || !strings.Contains(err.Error(), "RE2") {
		t.Fatalf("bad regex: %v", err)
	}
}

// notify set on a running job: matching starts with the next new output,
// never replaying what came before.
func TestDetachedNotifySetLater(t *testing.T) {
	tmp := t.TempDir()
	store := filepath.Join(tmp, "store")
	js := detachedRun(t, store, "run-1", nil)
	sj := startDetached(t, js, &Request{Cmd: "echo MARK early; while [ ! -e " + tmp + "/go ]; do sleep 0.02; done; echo MARK late; echo other"})
	for i := 0; i < 300 && sj.Info().StdoutTotal == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	st, _ := js.Store()
	if err := st.SetNotify(sj.Info().ID, &Notify{File: tmp + "/done.ndjson", Output: &OutputNotify{Pattern: "MARK", File: tmp + "/m.ndjson"}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the supervisor reads notify.json
	os.WriteFile(tmp+"/go", nil, 0o600)
	waitDone(t, js, sj, 5*time.Second)
	waitSupervisorGone(t, sj)
	m := readLines(t, tmp+"/m.ndjson")
	if len(m) != 1 || m[0]["line"] != "MARK late" || m[0]["stream"] != "stdout" || m[0]["matchType"] != "contains" {
		t.Fatalf("matches %v", m)
	}
	if d := readLines(t, tmp+"/done.ndjson"); len(d) != 1 || d[0]["eventType"] != "job.finished" {
		t.Fatalf("completion %v", d)
	}
	if err := st.SetNotify(sj.Info().ID, &Notify{File: tmp + "/x"}); err == nil {
		t.Fatal("notify set on a finished job")
	}
}

// A process that left the job's group and holds none of its pipes is
// swept by the supervisor once the job is final (A0_EXEC_ID holds).
func TestDetachedSweepsEscapee(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", nil)
	sj := startDetached(t, js, &Request{Cmd: "setsid sleep 30 </dev/null >/dev/null 2>&1 & echo started"})
	fin := waitDone(t, js, sj, 5*time.Second)
	if fin.State != "exited" {
		t.Fatalf("final %+v", fin)
	}
	waitSupervisorGone(t, sj)
	noSurvivors(t, fin.ID)
}

// A wait on the store wakes when state.json is replaced (inotify), not
// at the next step of its backoff.
func TestWaitStoredWakesOnChange(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	js := detachedRun(t, store, "run-1", nil)
	sj := startDetached(t, js, &Request{Cmd: "sleep 1.2"})
	fin := waitDone(t, js, sj, 5*time.Second)
	if late := time.Since(fin.FinishedAt); late > 150*time.Millisecond {
		t.Fatalf("the wait returned %v after the job ended", late)
	}
}

// watchState reports a state.json replaced by a rename at once.
func TestWatchStateSeesRename(t *testing.T) {
	dir := t.TempDir()
	changed, stop, ok := watchState(dir)
	if !ok {
		t.Skip("no inotify")
	}
	defer stop()
	start := time.Now()
	if err := writeAtomic(dir, "state.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(time.Second):
		t.Fatal("no change reported")
	}
	if el := time.Since(start); el > 200*time.Millisecond {
		t.Fatalf("reported after %v", el)
	}
}
