//go:build linux

package proc

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startGroup starts argv in its own session and process group with the
// extra environment entries, and stops the group when the test ends.
func startGroup(t *testing.T, env []string, argv ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	return cmd
}

// alive reports whether pid runs and is not a zombie, from the process
// table.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

// plant writes a running record into dir/<folder> as a job store would,
// naming pid as the leader of group pgid, owned by a dead interpreter.
func plant(t *testing.T, dir, folder, id string, pid, pgid int, deadOwner int) {
	t.Helper()
	jd := filepath.Join(dir, folder)
	if err := os.MkdirAll(jd, 0o700); err != nil {
		t.Fatal(err)
	}
	lt, ok := startTicks(pid)
	if !ok {
		t.Fatalf("no start ticks for %d", pid)
	}
	boot := bootID()
	ownerTicks := int64(12345)
	m := &jobMeta{Schema: 1, ID: id, RunID: "planted", OwnerPid: deadOwner, OwnerStartTicks: &ownerTicks,
		Pid: pid, Pgid: pgid, LeaderStartTicks: &lt, BootID: &boot, StartedAt: FormatTime(time.Now().Add(-time.Minute))}
	st := &jobState{ID: id, RunID: "planted", State: "running", Pid: pid, StartedAt: m.StartedAt}
	if err := writeAtomic(jd, "meta.json", marshal(m)); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(jd, "state.json", marshal(st)); err != nil {
		t.Fatal(err)
	}
}

func deadPid(t *testing.T) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.Process.Pid
}

func storedState(t *testing.T, dir, folder string) string {
	t.Helper()
	st := &jobState{}
	if err := readJSON(filepath.Join(dir, folder, "state.json"), st); err != nil {
		t.Fatal(err)
	}
	return st.State
}

// Records planted in the store name live processes that are not the job's
// (issue 18.1); reconciliation must signal none of them.
func TestReconcileHostileRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dead := deadPid(t)

	// Unrelated processes, each leading its own group, no A0_EXEC_ID.
	victim := startGroup(t, nil, "sleep", "30")
	victim2 := startGroup(t, nil, "sleep", "30")
	// A leader of another job (another id in its environment).
	other := randomID("j_")
	decoy := startGroup(t, []string{"A0_EXEC_ID=" + other}, "sleep", "30")
	// A process that carries the job's id but leads no group: a shell in
	// its own group whose child is the sleep.
	idChild := randomID("j_")
	parent := startGroup(t, []string{"A0_EXEC_ID=" + idChild}, "/bin/sh", "-c", "sleep 30 & wait")
	// A job of a live interpreter (this test, which reads its output),
	// named by a record that claims its owner died.
	idLive := randomID("j_")
	live := exec.Command("sleep", "30")
	live.Env = append(os.Environ(), "A0_EXEC_ID="+idLive)
	live.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	liveOut, err := live.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-live.Process.Pid, syscall.SIGKILL)
		liveOut.Close()
		live.Wait()
	})
	// A genuine job leader, named by records that must not be believed.
	idReal := randomID("j_")
	real := startGroup(t, []string{"A0_EXEC_ID=" + idReal}, "sleep", "30")
	time.Sleep(100 * time.Millisecond)
	child := childOf(t, parent.Process.Pid)

	idA, idB, idC, idE, idF := randomID("j_"), randomID("j_"), randomID("j_"), randomID("j_"), randomID("j_")
	// a: a live pid with its real start time, and an unrelated group.
	plant(t, dir, idA, idA, victim.Process.Pid, victim2.Process.Pid, dead)
	// b: an unrelated group leader without the job's id.
	plant(t, dir, idB, idB, victim.Process.Pid, victim.Process.Pid, dead)
	// c: another job's leader.
	plant(t, dir, idC, idC, decoy.Process.Pid, decoy.Process.Pid, dead)
	// d: the job's id, but not a group leader (its group is the shell's).
	plant(t, dir, idChild, idChild, child, parent.Process.Pid, dead)
	// e: a folder named for one job whose record claims another's id.
	plant(t, dir, idE, idReal, real.Process.Pid, real.Process.Pid, dead)
	// f: a genuine leader, but the record's folder is writable by others.
	plant(t, dir, idReal, idReal, real.Process.Pid, real.Process.Pid, dead)
	if err := os.Chmod(filepath.Join(dir, idReal), 0o777); err != nil {
		t.Fatal(err)
	}
	// h: a live interpreter's job, with a forged dead owner.
	plant(t, dir, idLive, idLive, live.Process.Pid, live.Process.Pid, dead)
	// g: a record whose files are symbolic links.
	plant(t, dir, idF+"x", idF, real.Process.Pid, real.Process.Pid, dead)
	os.Mkdir(filepath.Join(dir, idF), 0o700)
	for _, f := range []string{"meta.json", "state.json"} {
		if err := os.Symlink(filepath.Join(dir, idF+"x", f), filepath.Join(dir, idF, f)); err != nil {
			t.Fatal(err)
		}
	}

	e := testEngine(t, func(c *Config) { c.StoreDir = dir; c.SweepEscaped = true })
	js := NewJobs(e)
	var evs events
	js.Bind("new", func(_ string, ev SignalEvent) { evs.add(ev) })
	defer js.CloseAll("run_end")

	time.Sleep(100 * time.Millisecond)
	for name, pid := range map[string]int{"victim": victim.Process.Pid, "victim2": victim2.Process.Pid,
		"decoy": decoy.Process.Pid, "shell": parent.Process.Pid, "child": child, "real leader": real.Process.Pid,
		"live interpreter's job": live.Process.Pid} {
		if !alive(pid) {
			t.Errorf("%s (pid %d) was killed by reconciliation", name, pid)
		}
	}
	if s := evs.String(); s != "" {
		t.Errorf("signal events %q, want none", s)
	}
	// The owners are gone, so the trusted records become lost; the
	// untrusted ones are left alone.
	for _, id := range []string{idA, idB, idC, idChild} {
		if st := storedState(t, dir, id); st != "lost" {
			t.Errorf("record %s: state %q, want lost", id, st)
		}
	}
	for _, id := range []string{idE, idReal, idF + "x", idLive} {
		if st := storedState(t, dir, id); st != "running" {
			t.Errorf("untrusted or live record %s: state %q, want running", id, st)
		}
	}
}

// childOf returns the first child of pid (from /proc/<pid>/task/*/children).
func childOf(t *testing.T, pid int) int {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.Atoi(f[0])
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d has no child", pid)
	return 0
}

// A store folder that others may write is refused before anything in it
// is read, so a record planted there kills nothing.
func TestStoreRefusesUnsafeFolder(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "jobs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	id := randomID("j_")
	leader := startGroup(t, []string{"A0_EXEC_ID=" + id}, "sleep", "30")
	time.Sleep(50 * time.Millisecond)
	plant(t, dir, id, id, leader.Process.Pid, leader.Process.Pid, deadPid(t))
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}

	e := testEngine(t, func(c *Config) { c.StoreDir = dir })
	js := NewJobs(e)
	var evs events
	js.Bind("new", func(_ string, ev SignalEvent) { evs.add(ev) })
	defer js.CloseAll("run_end")
	st, err := js.Store()
	var u *UnsafeStoreError
	if st != nil || !errors.As(err, &u) {
		t.Fatalf("store %v, error %v; want a refusal", st, err)
	}
	msg := err.Error()
	for _, want := range []string{dir, "writable by group or others", "chmod 700", "exec.jobStore.dir"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not name %q", msg, want)
		}
	}
	if r := StoreErrorReason(err); r != "store_unsafe" {
		t.Errorf("reason %q", r)
	}
	if !alive(leader.Process.Pid) || evs.String() != "" {
		t.Errorf("a refused store's record was acted on: alive %v, events %q", alive(leader.Process.Pid), evs.String())
	}
	if s := storedState(t, dir, id); s != "running" {
		t.Errorf("a refused store was written: state %q", s)
	}

	// A folder of another user is refused too (only root can make one).
	if os.Geteuid() != 0 {
		return
	}
	foreign := filepath.Join(base, "foreign")
	if err := os.Mkdir(foreign, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(foreign, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, err = OpenStore(Config{StoreDir: foreign})
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Errorf("foreign folder: %v", err)
	}
}

// A stored job's log that is a symbolic link (to a file outside the store)
// or a FIFO is never read: reading another run's job must not become a way
// around the fs scopes, nor hang.
func TestStoredJobLogNotFollowed(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "jobs")
	secret := filepath.Join(base, "secret.txt")
	if err := os.WriteFile(secret, []byte("TOP SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(Config{StoreDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	write := func(id string) string {
		jd := filepath.Join(dir, id)
		if err := os.Mkdir(jd, 0o700); err != nil {
			t.Fatal(err)
		}
		fin := FormatTime(time.Now())
		st := &jobState{ID: id, RunID: "other", State: "exited", StartedAt: fin, FinishedAt: &fin, StdoutTotalBytes: 11}
		if err := writeAtomic(jd, "state.json", marshal(st)); err != nil {
			t.Fatal(err)
		}
		return jd
	}
	linked := randomID("j_")
	if err := os.Symlink(secret, filepath.Join(write(linked), "stdout.log")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(linked); !errors.Is(err, ErrNoJob) {
		t.Errorf("a record with a linked log: %v, want ErrNoJob", err)
	}
	for _, sj := range s.List() {
		if c := sj.Tail(false, 10, 1<<20); strings.Contains(string(c.Data), "SECRET") {
			t.Errorf("the linked file was read: %q", c.Data)
		}
	}

	fifo := randomID("j_")
	if err := syscall.Mkfifo(filepath.Join(write(fifo), "stdout.log"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(fifo); !errors.Is(err, ErrNoJob) {
		t.Errorf("a record with a FIFO log: %v, want ErrNoJob", err)
	}
	// Reading the FIFO directly neither hangs nor succeeds.
	done := make(chan bool, 1)
	go func() {
		f, err := openLog(filepath.Join(dir, fifo, "stdout.log"))
		if err == nil {
			f.Close()
		}
		done <- err == nil
	}()
	select {
	case opened := <-done:
		if opened {
			t.Error("openLog opened a FIFO")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a FIFO log hangs")
	}
}

// A FIFO planted as a record's state.json does not hang the run that opens
// the store (reconciliation and retention read every record).
func TestStoreFIFORecordDoesNotHang(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "jobs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	jd := filepath.Join(dir, randomID("j_"))
	if err := os.Mkdir(jd, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"state.json", "meta.json"} {
		if err := syscall.Mkfifo(filepath.Join(jd, f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e := testEngine(t, func(c *Config) { c.StoreDir = dir })
	js := NewJobs(e)
	done := make(chan struct{})
	go func() {
		js.Bind("new", func(string, SignalEvent) {})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("opening a store with a FIFO record hangs")
	}
	js.CloseAll("run_end")
}
