//go:build linux

package proc

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadRefusesForeignRecord is the regression test of a record that
// names another job: `a0 jobs kill A` acted on the id state.json holds, so
// a record in A's folder claiming to be job B stopped job B. Load now
// refuses such a record, and a record that does not parse, with a
// DamagedRecordError; a meta.json naming another job is ignored.
func TestLoadRefusesForeignRecord(t *testing.T) {
	idA, idB := "j_00000000000000aa", "j_00000000000000bb"
	tests := []struct {
		name, state, meta string
		wantErr           string // "" : loads
		wantMeta          bool
	}{
		{"own record", `{"id":"` + idA + `","state":"exited"}`, `{"id":"` + idA + `","detached":true}`, "", true},
		{"state names another job", `{"id":"` + idB + `","state":"running"}`, "", `state.json names job "` + idB + `"`, false},
		{"state without an id", `{"state":"running"}`, "", `state.json names job ""`, false},
		{"state not JSON", `{"id":`, "", "state.json: unexpected end of JSON input", false},
		{"state of the wrong type", `[]`, "", "state.json: json: cannot unmarshal array", false},
		{"meta names another job", `{"id":"` + idA + `","state":"running"}`, `{"id":"` + idB + `","detached":true}`, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := OpenStore(Config{StoreDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			jd := filepath.Join(dir, idA)
			if err := os.Mkdir(jd, 0o700); err != nil {
				t.Fatal(err)
			}
			writeRecord(t, jd, "state.json", []byte(tc.state))
			if tc.meta != "" {
				writeRecord(t, jd, "meta.json", []byte(tc.meta))
			}
			sj, err := s.Load(idA)
			if tc.wantErr != "" {
				var de *DamagedRecordError
				if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), idA) {
					t.Fatalf("Load: %v, want a DamagedRecordError with %q", err, tc.wantErr)
				}
				if len(s.List()) != 0 {
					t.Error("List returned the damaged record")
				}
				if _, err := s.StopDetached(idA, StopOpts{}); err == nil {
					t.Error("StopDetached of a damaged record: no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sj.Info().ID != idA || (sj.meta != nil) != tc.wantMeta {
				t.Errorf("loaded id %q, meta %v", sj.Info().ID, sj.meta)
			}
		})
	}
}

func writeRecord(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// fuzzVictims are processes a0 did not start as a job of a dead run: a
// group leader with no job id, and a job leader (its A0_EXEC_ID is the
// fuzzed record's id) whose live parent, this test, reads its output.
type fuzzVictims struct {
	plain, owned *exec.Cmd
	subst        *strings.Replacer
}

const fuzzJobID = "j_0123456789abcdef"

func startVictims(f *testing.F) *fuzzVictims {
	v := &fuzzVictims{}
	v.plain = exec.Command("sleep", "3600")
	// Pdeathsig: a fuzz worker that is killed takes its victims along.
	v.plain.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	v.owned = exec.Command("sleep", "3600")
	v.owned.Env = append(os.Environ(), "A0_EXEC_ID="+fuzzJobID)
	v.owned.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	out, err := v.owned.StdoutPipe()
	if err != nil {
		f.Fatal(err)
	}
	// Pdeathsig fires when the thread that started a child ends: start
	// them from a thread that lives as long as the process.
	started := make(chan error)
	go func() {
		goruntime.LockOSThread()
		for _, c := range []*exec.Cmd{v.plain, v.owned} {
			if err := c.Start(); err != nil {
				started <- err
				return
			}
		}
		started <- nil
		select {}
	}()
	if err := <-started; err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		for _, c := range []*exec.Cmd{v.plain, v.owned} {
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		}
		out.Close()
		v.plain.Wait()
		v.owned.Wait()
	})
	ticks := func(pid int) string {
		t, ok := startTicks(pid)
		if !ok {
			f.Skip("no /proc start ticks")
		}
		return strconv.FormatInt(t, 10)
	}
	self := os.Getpid()
	v.subst = strings.NewReplacer(
		"@PLAIN_TICKS", ticks(v.plain.Process.Pid), "@PLAIN", strconv.Itoa(v.plain.Process.Pid),
		"@OWNED_TICKS", ticks(v.owned.Process.Pid), "@OWNED", strconv.Itoa(v.owned.Process.Pid),
		"@SELF_TICKS", ticks(self), "@SELF", strconv.Itoa(self), "@BOOT", bootID())
	return v
}

// FuzzStoreRecord: the files of a job record (meta.json, state.json,
// notify.json, stdout.log) can be written by any program of this user,
// a policed one included. Whatever they hold, reading the record (Load,
// List, Info, Tail, ReadAt, Notify, Collect) never panics, a loaded
// record is the job of its folder, and reconciling it, stopping it or
// setting its notifications never signals a process a0 did not start as
// that job: the victims stay alive and no signal event is emitted. In
// meta.json and state.json, @PLAIN, @OWNED and @SELF (with _TICKS) and
// @BOOT stand for the victims' and this process's pid, start ticks and
// the boot id, so the fuzzer starts from records that name them exactly.
// Seeds are records as the store writes them.
func FuzzStoreRecord(f *testing.F) {
	v := startVictims(f)
	started := FormatTime(time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC))
	ticks := int64(1)
	boot := "@BOOT"
	meta := func(pid, pgid, owner int, detached bool) string {
		m := &jobMeta{Schema: 1, ID: fuzzJobID, RunID: "r", OwnerPid: owner, OwnerStartTicks: &ticks,
			Pid: pid, Pgid: pgid, LeaderStartTicks: &ticks, BootID: &boot, StartedAt: started, Detached: detached}
		return string(marshal(m))
	}
	state := func(st string, out int64) string {
		info := JobInfo{ID: fuzzJobID, RunID: "r", State: st, Pid: 1, StartedAt: time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC),
			StdoutTotal: out, Cmd: "sleep 1", Cwd: "/"}
		if st != "running" {
			info.FinishedAt, info.HasExit = info.StartedAt.Add(time.Second), true
		}
		return string(marshal(stateOf(info, info.StartedAt, false, false)))
	}
	notify := string(marshal(&Notify{Command: "true", Output: &OutputNotify{Pattern: "ready", Command: "true"}}))
	fill := func(m string) string {
		// The seeds name the victims: pid, group, their start ticks.
		m = strings.Replace(m, `"leaderStartTicks":1`, `"leaderStartTicks":@X_TICKS`, 1)
		return m
	}
	const dead = 999999999
	for _, x := range []string{"PLAIN", "OWNED", "SELF"} {
		for _, detached := range []bool{false, true} {
			m := fill(meta(0, 0, dead, detached))
			m = strings.ReplaceAll(m, "@X", "@"+x)
			m = strings.Replace(m, `"pid":0`, `"pid":@`+x, 1)
			m = strings.Replace(m, `"pgid":0`, `"pgid":@`+x, 1)
			f.Add([]byte(m), []byte(state("running", 5)), []byte(notify), []byte("hello\nworld\n"), int64(0), uint8(0))
			// Owned by this process, alive, with its real start ticks.
			m2 := strings.Replace(strings.Replace(m, `"ownerPid":999999999`, `"ownerPid":@SELF`, 1), `"ownerStartTicks":1`, `"ownerStartTicks":@SELF_TICKS`, 1)
			f.Add([]byte(m2), []byte(state("running", 1<<40)), []byte(`{}`), []byte("é\xff"), int64(3), uint8(1))
		}
	}
	f.Add([]byte(meta(1, 1, dead, true)), []byte(state("exited", -7)), []byte(`{"output":{"pattern":"(","matchType":"regex","command":"x"}}`), []byte(""), int64(-1), uint8(2))
	f.Add([]byte(`{"id":1}`), []byte(`{"id":"`+fuzzJobID+`","state":"running","startedAt":"x","stdoutTotalBytes":9223372036854775807}`), []byte(`[]`), []byte("\n\n\n"), int64(9223372036854775807), uint8(3))
	f.Add([]byte(""), []byte(`{"id":"j_ffffffffffffffff","state":"running"}`), []byte(""), []byte(""), int64(0), uint8(4))

	store := f.TempDir()
	s, err := OpenStore(Config{StoreDir: store, RetainDays: 1})
	if err != nil {
		f.Fatal(err)
	}
	jd := filepath.Join(store, fuzzJobID)
	f.Fuzz(func(t *testing.T, meta, state, notify, log []byte, off int64, mode uint8) {
		if err := os.RemoveAll(jd); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(jd, 0o700); err != nil {
			t.Fatal(err)
		}
		writeRecord(t, jd, "meta.json", []byte(v.subst.Replace(string(meta))))
		writeRecord(t, jd, "state.json", []byte(v.subst.Replace(string(state))))
		if mode&1 == 0 {
			writeRecord(t, jd, "notify.json", notify)
		}
		writeRecord(t, jd, "stdout.log", log)
		if mode&2 != 0 {
			writeRecord(t, jd, "stderr.log", log)
		}
		if mode&4 != 0 { // a record file that is a FIFO
			os.Remove(filepath.Join(jd, "notify.json"))
			syscall.Mkfifo(filepath.Join(jd, "notify.json"), 0o600)
		}
		lines, maxBytes := int(mode>>3)+1, 1+int(uint64(off)%(1<<16))

		var signalled []string
		s.reconcile(true, func(id string, ev SignalEvent) { signalled = append(signalled, ev.Signal+" "+strconv.Itoa(ev.Pid)) })
		if sj, err := s.Load(fuzzJobID); err == nil {
			info := sj.Info()
			if info.ID != fuzzJobID {
				t.Fatalf("record of %s loaded as job %q", fuzzJobID, info.ID)
			}
			for _, stderr := range []bool{false, true} {
				c := sj.Tail(stderr, lines, maxBytes)
				if int64(len(c.Data)) > int64(maxBytes) {
					t.Fatalf("Tail returned %d bytes, max %d", len(c.Data), maxBytes)
				}
				if c, ok := sj.ReadAt(stderr, off, maxBytes); ok && int64(len(c.Data)) > int64(maxBytes) {
					t.Fatalf("ReadAt returned %d bytes, max %d", len(c.Data), maxBytes)
				}
			}
			_ = sj.Notify()
			_ = sj.Reload()
		} else if !errors.Is(err, ErrNoJob) {
			var de *DamagedRecordError
			if !errors.As(err, &de) {
				t.Fatalf("Load: %T %v, want ErrNoJob or a DamagedRecordError", err, err)
			}
		}
		_ = s.List()
		_ = s.Collect(0, true)
		if asked, err := s.StopDetached(fuzzJobID, StopOpts{Signal: "SIGTERM"}); asked {
			t.Fatalf("StopDetached asked a supervisor (err %v)", err)
		}
		if err := s.SetNotify(fuzzJobID, &Notify{Command: "true"}); err == nil {
			t.Fatal("SetNotify succeeded without a supervisor")
		}
		s.ReconcileJob(fuzzJobID)
		if len(signalled) > 0 {
			t.Fatalf("reconciliation signalled %v", signalled)
		}
		for name, c := range map[string]*exec.Cmd{"plain": v.plain, "owned": v.owned} {
			if !alive(c.Process.Pid) {
				t.Fatalf("the %s victim (pid %d) was killed", name, c.Process.Pid)
			}
		}
	})
}
