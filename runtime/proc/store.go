package proc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The job store (spec/exec.md §7): one directory per job under the store
// directory, holding meta.json (written once after the spawn), state.json
// (written at start and when terminal, atomically by temp file + rename)
// and the masked logs stdout.log / stderr.log, each bounded by
// maxLogBytes. Directories are 0700, files 0600. Store contents are
// informational; only reconciliation trusts them, and it re-checks the
// processes they name.

const storeSchema = 1

// Store is an open job store.
type Store struct {
	dir                               string
	retainDays, maxBytes, maxLogBytes int64
	now                               func() time.Time
}

// OpenStore opens (creating it if needed) the store of cfg; nil, nil when
// cfg has no store.
func OpenStore(cfg Config) (*Store, error) {
	if cfg.StoreDir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(cfg.StoreDir, 0o700); err != nil {
		return nil, err
	}
	// Whoever can write the store can plant records that reconciliation
	// acts on: only a folder private to this user is used.
	fi, err := os.Stat(cfg.StoreDir)
	if err != nil {
		return nil, err
	}
	if why := notPrivate(cfg.StoreDir, fi); why != "" {
		return nil, &UnsafeStoreError{Dir: cfg.StoreDir, Why: why}
	}
	s := &Store{dir: cfg.StoreDir, retainDays: cfg.RetainDays, maxBytes: cfg.StoreMaxBytes, maxLogBytes: cfg.MaxLogBytes, now: time.Now}
	if s.maxLogBytes <= 0 {
		s.maxLogBytes = 64 << 20
	}
	return s, nil
}

// UnsafeStoreError is the refusal of a job store folder that another user
// owns or that group or others may write.
type UnsafeStoreError struct {
	Dir string
	Why string
}

// Error implements error: why the job store folder is refused, and the fix.
func (e *UnsafeStoreError) Error() string {
	return "refusing the job store folder: " + e.Why + "; make it private to this user (chmod 700 " + e.Dir +
		", owned by you) or set exec.jobStore.dir to a folder only you can write"
}

// StoreErrorReason is the E_TOOL reason of a failure to open the store:
// store_unsafe for a refused folder, else io_error.
func StoreErrorReason(err error) Reason {
	var u *UnsafeStoreError
	if errors.As(err, &u) {
		return ReasonStoreUnsafe
	}
	return ReasonIOError
}

// Dir returns the store directory.
func (s *Store) Dir() string { return s.dir }

// jobMeta is meta.json.
type jobMeta struct {
	Schema           int      `json:"schema"`
	ID               string   `json:"id"`
	RunID            string   `json:"runId"`
	Tag              *string  `json:"tag"`
	Cmd              *string  `json:"cmd,omitempty"`
	Argv             []string `json:"argv,omitempty"`
	Shell            *string  `json:"shell"`
	ResolvedPath     string   `json:"resolvedPath"`
	Cwd              string   `json:"cwd"`
	EnvNames         []string `json:"envNames"`
	EnvMode          string   `json:"envMode"`
	MaskNames        []string `json:"maskNames"`
	TimeoutMs        *int64   `json:"timeoutMs"`
	GraceMs          int64    `json:"graceMs"`
	Merged           bool     `json:"merged"`
	StartedAt        string   `json:"startedAt"`
	OwnerPid         int      `json:"ownerPid"`
	OwnerStartTicks  *int64   `json:"ownerStartTicks"`
	Pid              int      `json:"pid"`
	Pgid             int      `json:"pgid"`
	LeaderStartTicks *int64   `json:"leaderStartTicks"`
	BootID           *string  `json:"bootId"`
	A0Version        *string  `json:"a0Version"`
	// Detached: ownerPid is the job's supervisor (spec/exec.md §6.5).
	Detached bool `json:"detached,omitempty"`
}

// jobState is state.json: the job record's fields plus bookkeeping.
type jobState struct {
	ID                 string   `json:"id"`
	RunID              string   `json:"runId"`
	Tag                *string  `json:"tag"`
	State              string   `json:"state"`
	Completed          bool     `json:"completed"`
	Pid                int      `json:"pid"`
	StartedAt          string   `json:"startedAt"`
	FinishedAt         *string  `json:"finishedAt"`
	DurationMs         int64    `json:"durationMs"`
	ExitCode           *int     `json:"exitCode"`
	Signal             *string  `json:"signal"`
	TimedOut           bool     `json:"timedOut"`
	KillReason         *string  `json:"killReason"`
	LeftoverKilled     bool     `json:"leftoverKilled"`
	StdoutTotalBytes   int64    `json:"stdoutTotalBytes"`
	StderrTotalBytes   int64    `json:"stderrTotalBytes"`
	Merged             bool     `json:"merged"`
	Cmd                *string  `json:"cmd"`
	Argv               []string `json:"argv"`
	Cwd                string   `json:"cwd"`
	TimeoutMs          *int64   `json:"timeoutMs"`
	UpdatedAt          string   `json:"updatedAt"`
	StdoutLogTruncated bool     `json:"stdoutLogTruncated"`
	StderrLogTruncated bool     `json:"stderrLogTruncated"`
	Detached           bool     `json:"detached,omitempty"`
	Confined           bool     `json:"confined,omitempty"`
}

// FormatTime renders t as RFC 3339 UTC with milliseconds.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func derefStr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func stateOf(info JobInfo, updated time.Time, outTrunc, errTrunc bool) *jobState {
	st := &jobState{
		ID: info.ID, RunID: info.RunID, Tag: strPtr(info.Tag), State: info.State,
		Completed: info.Completed(), Pid: info.Pid, StartedAt: FormatTime(info.StartedAt),
		DurationMs: info.DurationMs, Signal: strPtr(info.Signal), TimedOut: info.TimedOut,
		KillReason: strPtr(info.KillReason), LeftoverKilled: info.LeftoverKilled,
		StdoutTotalBytes: info.StdoutTotal, StderrTotalBytes: info.StderrTotal, Merged: info.Merged,
		Argv: info.Argv, Cwd: info.Cwd, UpdatedAt: FormatTime(updated),
		StdoutLogTruncated: outTrunc, StderrLogTruncated: errTrunc, Detached: info.Detached, Confined: info.Confined,
	}
	if !info.FinishedAt.IsZero() {
		st.FinishedAt = strPtr(FormatTime(info.FinishedAt))
	}
	if info.HasExit {
		c := info.ExitCode
		st.ExitCode = &c
	}
	if info.Argv == nil {
		c := info.Cmd
		st.Cmd = &c
	}
	if info.TimeoutMs > 0 {
		t := info.TimeoutMs
		st.TimeoutMs = &t
	}
	return st
}

func (st *jobState) info() JobInfo {
	info := JobInfo{
		ID: st.ID, RunID: st.RunID, Tag: derefStr(st.Tag), State: st.State, Pid: st.Pid,
		StartedAt: parseTime(st.StartedAt), DurationMs: st.DurationMs, Signal: derefStr(st.Signal),
		TimedOut: st.TimedOut, KillReason: derefStr(st.KillReason), LeftoverKilled: st.LeftoverKilled,
		StdoutTotal: st.StdoutTotalBytes, StderrTotal: st.StderrTotalBytes, Merged: st.Merged,
		Cmd: derefStr(st.Cmd), Argv: st.Argv, Cwd: st.Cwd, Detached: st.Detached, Confined: st.Confined,
	}
	if st.FinishedAt != nil {
		info.FinishedAt = parseTime(*st.FinishedAt)
	}
	if st.ExitCode != nil {
		info.ExitCode, info.HasExit = *st.ExitCode, true
	}
	if st.TimeoutMs != nil {
		info.TimeoutMs = *st.TimeoutMs
	}
	return info
}

func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return b.Bytes()
}

// writeAtomic writes dir/name by writing a temporary file in dir and
// renaming it over the old one.
func writeAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// createJobDir creates the job's directory and its log files.
func (s *Store) createJobDir(id string, merged bool) (string, [2]*jobLog, error) {
	var logs [2]*jobLog
	dir := filepath.Join(s.dir, id)
	if err := os.Mkdir(dir, 0o700); err != nil {
		if !errors.Is(err, fs.ErrExist) || !s.isCreated(dir, id) {
			return "", logs, err
		}
		// A created job (a0 jobs create) starts in its own folder.
	}
	names := []string{"stdout.log", "stderr.log"}
	for i, n := range names {
		if i == 1 && merged {
			break
		}
		path := filepath.Join(dir, n)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			if logs[0] != nil {
				logs[0].close()
			}
			os.RemoveAll(dir)
			return "", [2]*jobLog{}, err
		}
		logs[i] = &jobLog{path: path, f: f, max: s.maxLogBytes}
	}
	return dir, logs, nil
}

// jobLog is one stream's log file, written as output arrives (under the
// process's output lock) until maxLogBytes or a write failure.
type jobLog struct {
	path      string
	f         *os.File
	n         int64 // bytes in the file
	max       int64
	truncated bool
}

func (l *jobLog) write(p []byte) {
	if l == nil || l.f == nil {
		return
	}
	if room := l.max - l.n; int64(len(p)) > room {
		p = p[:room]
		l.truncated = true
	}
	if len(p) > 0 {
		w, err := l.f.Write(p)
		l.n += int64(w)
		if err != nil {
			l.truncated = true
		}
	}
	if l.truncated {
		l.f.Close()
		l.f = nil
	}
}

func (l *jobLog) close() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// readLog reads [a, b) of a log file.
func readLog(path string, a, b int64) []byte {
	if b <= a {
		return nil
	}
	f, err := openLog(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, b-a)
	n, _ := f.ReadAt(buf, a)
	return buf[:n]
}

func (s *Store) writeMeta(dir string, m *jobMeta) error {
	return writeAtomic(dir, "meta.json", marshal(m))
}

func (s *Store) writeState(dir string, st *jobState) error {
	return writeAtomic(dir, "state.json", marshal(st))
}

// ValidJobID reports whether id has the job id form (j_ + 16 lowercase
// hex digits).
func ValidJobID(id string) bool {
	if len(id) != 18 || id[:2] != "j_" {
		return false
	}
	for i := 2; i < len(id); i++ {
		if c := id[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// StoredJob is a job read from the store (another run's, or a record left
// by a dead interpreter).
type StoredJob struct {
	dir   string
	meta  *jobMeta
	state *jobState
}

// ErrNoJob reports an id the store does not hold.
var ErrNoJob = errors.New("job not found")

// readJSON reads a record file: never through a symbolic link, only a
// regular file (a planted FIFO must not hang the run), at most 1 MiB.
func readJSON(path string, v any) error {
	f, err := openLog(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Load reads one job; ErrNoJob when the store has no such job.
func (s *Store) Load(id string) (*StoredJob, error) {
	if !ValidJobID(id) {
		return nil, ErrNoJob
	}
	dir := filepath.Join(s.dir, id)
	if !s.trusted(dir) {
		return nil, ErrNoJob // not a record this user's a0 wrote
	}
	st := &jobState{}
	if err := readJSON(filepath.Join(dir, "state.json"), st); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNoJob
		}
		return nil, &DamagedRecordError{ID: id, Problem: "state.json: " + err.Error()}
	}
	if st.ID != id {
		// Callers act on the record's id (a0 jobs kill stops
		// Info().ID): a record naming another job must not redirect
		// them to it.
		return nil, &DamagedRecordError{ID: id, Problem: "state.json names job " + strconv.Quote(st.ID)}
	}
	sj := &StoredJob{dir: dir, state: st}
	m := &jobMeta{}
	if readJSON(filepath.Join(dir, "meta.json"), m) == nil && m.ID == id {
		sj.meta = m
	}
	return sj, nil
}

// DamagedRecordError is a job record whose state.json cannot be used: it
// does not parse, or it names another job than its folder.
type DamagedRecordError struct {
	ID      string
	Problem string
}

// Error names the job and what is wrong with its record.
func (e *DamagedRecordError) Error() string {
	return "the record of job " + e.ID + " is damaged (" + e.Problem + ")"
}

// List reads every job of the store (unreadable records are skipped).
func (s *Store) List() []*StoredJob {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	var out []*StoredJob
	for _, e := range ents {
		if !e.IsDir() || !ValidJobID(e.Name()) {
			continue
		}
		if sj, err := s.Load(e.Name()); err == nil {
			out = append(out, sj)
		}
	}
	return out
}

// Reload re-reads state.json.
func (j *StoredJob) Reload() error {
	st := &jobState{}
	if err := readJSON(filepath.Join(j.dir, "state.json"), st); err != nil {
		return err
	}
	j.state = st
	return nil
}

func (j *StoredJob) logSize(stderr bool) (string, int64) {
	name := "stdout.log"
	if stderr {
		name = "stderr.log"
	}
	p := filepath.Join(j.dir, name)
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return p, 0
	}
	return p, st.Size()
}

// Info returns the stored record. A running job's totals are at least its
// log sizes (state.json is only written at start and end).
func (j *StoredJob) Info() JobInfo {
	info := j.state.info()
	if info.State == "running" {
		if _, n := j.logSize(false); n > info.StdoutTotal {
			info.StdoutTotal = n
		}
		if !info.Merged {
			if _, n := j.logSize(true); n > info.StderrTotal {
				info.StderrTotal = n
			}
		}
		info.DurationMs = time.Since(info.StartedAt).Milliseconds()
	}
	return info
}

func (j *StoredJob) view(stderr bool) (view, string) {
	info := j.Info()
	total := info.StdoutTotal
	if stderr {
		total = info.StderrTotal
	}
	path, n := j.logSize(stderr)
	if n > total {
		n = total
	}
	return view{total: total, ringStart: total, logLen: n}, path
}

// Tail returns the output snapshot of one stream (spec/exec.md §6.2).
func (j *StoredJob) Tail(stderr bool, lines, maxBytes int) Chunk {
	v, path := j.view(stderr)
	a, b := v.snapshotWindow(maxBytes)
	data := readLog(path, a, b)
	return snapshot(data, a, b, lines)
}

// ReadAt reads forward from a byte offset (sh.tail's offset); ok is false
// when off is beyond the stream's total.
func (j *StoredJob) ReadAt(stderr bool, off int64, maxBytes int) (Chunk, bool) {
	v, path := j.view(stderr)
	if off > v.total {
		return Chunk{}, false
	}
	a, b, gap := v.readWindow(off, maxBytes)
	data := readLog(path, a, b)
	return readChunk(data, a, b, gap, v.total, j.state.State == "running"), true
}

// gc applies retention (spec/exec.md §7.3), at most once an hour (recorded in
// <dir>/.gc): terminal jobs finished more than retainDays ago are deleted,
// then the oldest terminal jobs while the store is above maxBytes.
func (s *Store) gc() {
	now := s.now()
	marker := filepath.Join(s.dir, ".gc")
	if st, err := os.Stat(marker); err == nil && now.Sub(st.ModTime()) < time.Hour && st.ModTime().Before(now.Add(time.Minute)) {
		return
	}
	if err := os.WriteFile(marker, []byte(FormatTime(now)+"\n"), 0o600); err != nil {
		return
	}
	_ = os.Chtimes(marker, now, now)
	type entry struct {
		dir      string
		finished time.Time
		size     int64
	}
	var terminal []entry
	var total int64
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	cutoff := now.Add(-time.Duration(s.retainDays) * 24 * time.Hour)
	for _, e := range ents {
		if !e.IsDir() || !ValidJobID(e.Name()) {
			continue
		}
		dir := filepath.Join(s.dir, e.Name())
		size := dirSize(dir)
		st := &jobState{}
		if readJSON(filepath.Join(dir, "state.json"), st) != nil || st.State == "running" || st.FinishedAt == nil {
			total += size
			continue
		}
		fin := parseTime(*st.FinishedAt)
		if fin.Before(cutoff) {
			os.RemoveAll(dir)
			continue
		}
		total += size
		terminal = append(terminal, entry{dir, fin, size})
	}
	if s.maxBytes <= 0 || total <= s.maxBytes {
		return
	}
	sort.Slice(terminal, func(i, j int) bool { return terminal[i].finished.Before(terminal[j].finished) })
	for _, t := range terminal {
		if total <= s.maxBytes {
			break
		}
		if os.RemoveAll(t.dir) == nil {
			total -= t.size
		}
	}
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// reconcile marks `lost` every running record whose owner is no longer
// alive (spec/exec.md §7.4). Records are written by whoever can write the store,
// so nothing in them is believed that can be checked instead: a record is
// skipped unless its folder and files belong to this user and only it may
// write them, and its ids match its folder's name. On the same boot a
// leader is killed (with its group) only when it still runs with its
// recorded start ticks, leads its own group, and carries the job's
// A0_EXEC_ID (leaderOfJob), and its parent does not hold its output pipes
// (a live interpreter does: such a record is left alone); then, with
// sweepOn, a sweep kills the members that escaped the group. emit receives those exec_signal events (reason
// owner_died).
func (s *Store) reconcile(sweepOn bool, emit func(jobID string, ev SignalEvent)) {
	boot := bootID()
	for _, e := range s.listDirs() {
		s.reconcileOne(e, boot, sweepOn, emit)
	}
}

// reconcileOne reconciles the record of job id (see reconcile).
func (s *Store) reconcileOne(e, boot string, sweepOn bool, emit func(jobID string, ev SignalEvent)) {
	dir := filepath.Join(s.dir, e)
	if !s.trusted(dir) {
		return
	}
	st := &jobState{}
	if readJSON(filepath.Join(dir, "state.json"), st) != nil || st.State != "running" || st.ID != e {
		return
	}
	m := &jobMeta{}
	if readJSON(filepath.Join(dir, "meta.json"), m) != nil || m.ID != e {
		return
	}
	if ownerAlive(m, boot) {
		return
	}
	sameBoot := boot != "" && m.BootID != nil && *m.BootID == boot
	leader := sameBoot && m.LeaderStartTicks != nil && m.Pgid == m.Pid && isJobLeader(m)
	if leader && parentHoldsPipe(m.Pid) {
		// The leader's parent still reads its output: its
		// interpreter lives, whatever the record says.
		return
	}
	if leader {
		emit(m.ID, SignalEvent{Signal: "SIGKILL", Reason: "owner_died", Target: "group", Pid: m.Pgid})
		signalGroup(m.Pgid, "SIGKILL")
		// Let the kill land, so the sweep only finds escapees.
		waitGroupEmpty(m.Pgid, 500*time.Millisecond, nil)
		if sweepOn {
			if n := sweep(map[string]bool{m.ID: true}); n > 0 {
				emit(m.ID, SignalEvent{Signal: "SIGKILL", Reason: "owner_died", Target: "sweep", Pid: m.Pgid, Count: n})
			}
		}
	}
	now := s.now()
	fin := FormatTime(now)
	st.State, st.Completed = "lost", true
	st.FinishedAt = &fin
	reason := "owner_died"
	st.KillReason = &reason
	if t := parseTime(st.StartedAt); !t.IsZero() {
		st.DurationMs = now.Sub(t).Milliseconds()
	}
	st.UpdatedAt = fin
	_ = s.writeState(dir, st)
}

// isJobLeader reports whether the record's leader still runs with its
// recorded start ticks and is provably the job's (leaderOfJob); the start
// ticks are read again after the other checks, so a pid reused meanwhile
// is not taken for the leader.
func isJobLeader(m *jobMeta) bool {
	if t, ok := startTicks(m.Pid); !ok || t != *m.LeaderStartTicks {
		return false
	}
	if !leaderOfJob(m.Pid, m.Pgid, m.ID) {
		return false
	}
	t, ok := startTicks(m.Pid)
	return ok && t == *m.LeaderStartTicks
}

// trusted reports whether a job folder and its files (those that exist)
// are this user's own, not symbolic links, and writable by no one else.
// Reconciliation and reads of stored jobs (sh.status, sh.tail, sh.jobs of
// another run) only use trusted records, so a planted link cannot make
// a0 read a file outside the store.
func (s *Store) trusted(dir string) bool {
	for _, p := range []string{dir, filepath.Join(dir, "meta.json"), filepath.Join(dir, "state.json"),
		filepath.Join(dir, "stdout.log"), filepath.Join(dir, "stderr.log"), filepath.Join(dir, "spec.json"),
		filepath.Join(dir, "notify.json")} {
		fi, err := os.Lstat(p)
		if err != nil && p != dir && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 || notPrivate(p, fi) != "" {
			return false
		}
		if p == dir && !fi.IsDir() || p != dir && !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

func (s *Store) listDirs() []string {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && ValidJobID(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// ownerAlive: same boot and ownerPid runs with the recorded start ticks;
// where start ticks are unavailable, the pid alone decides.
func ownerAlive(m *jobMeta, boot string) bool {
	if boot != "" && m.BootID != nil && *m.BootID != boot {
		return false
	}
	if m.OwnerStartTicks != nil {
		t, ok := startTicks(m.OwnerPid)
		return ok && t == *m.OwnerStartTicks && !zombie(m.OwnerPid)
	}
	return processAlive(m.OwnerPid)
}

// ownerIdentity is this interpreter's pid, start ticks and boot id.
func ownerIdentity() (int, *int64, *string) {
	pid := os.Getpid()
	var ticks *int64
	if t, ok := startTicks(pid); ok {
		ticks = &t
	}
	return pid, ticks, strPtr(bootID())
}

func a0Version(cfg Config) *string {
	if cfg.Version != "" {
		return &cfg.Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v := strings.TrimPrefix(bi.Main.Version, "v")
		return &v
	}
	return nil
}
