package proc

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Store operations for `a0 jobs` (spec/exec.md §6.6).

// Reconcile marks lost the running records whose owner (interpreter or
// supervisor) died, stopping their groups when they are provably the
// jobs' (spec/exec.md §7.4).
func (s *Store) Reconcile() { s.reconcile(true, func(string, SignalEvent) {}) }

// ReconcileJob reconciles one record (a command that reads one job
// needs no more).
func (s *Store) ReconcileJob(id string) {
	if ValidJobID(id) {
		s.reconcileOne(id, bootID(), true, func(string, SignalEvent) {})
	}
}

// NewJobID returns a fresh job id (j_ and 16 hex digits).
func NewJobID() string { return randomID("j_") }

// CreateJob records a job that is defined but not started (state
// created, spec/exec.md §6.6): its folder, state.json and spec.json,
// which holds what starting it needs (written by the caller, read back
// with StoredJob.Spec). info.StartedAt is the creation time.
func (s *Store) CreateJob(info JobInfo, spec []byte) error {
	if !ValidJobID(info.ID) {
		return errors.New("not a job id: " + info.ID)
	}
	dir := filepath.Join(s.dir, info.ID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	info.State = "created"
	if err := writeAtomic(dir, "spec.json", spec); err != nil {
		os.RemoveAll(dir)
		return err
	}
	if err := s.writeState(dir, stateOf(info, s.now(), false, false)); err != nil {
		os.RemoveAll(dir)
		return err
	}
	return nil
}

// isCreated reports whether dir is a trusted record of job id in state
// created.
func (s *Store) isCreated(dir, id string) bool {
	st := &jobState{}
	return s.trusted(dir) && readJSON(filepath.Join(dir, "state.json"), st) == nil && st.ID == id && st.State == "created"
}

// Spec reads spec.json of a created job.
func (j *StoredJob) Spec() ([]byte, error) {
	f, err := openLog(filepath.Join(j.dir, "spec.json"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 16<<20))
}

// DropSpec removes spec.json once the job has started (it may hold
// environment values).
func (j *StoredJob) DropSpec() { os.Remove(filepath.Join(j.dir, "spec.json")) }

// GCEntry is one job of a gc report.
type GCEntry struct {
	ID     string `json:"id"`
	State  string `json:"state"`
	Action string `json:"action"` // deleted, would_delete or skipped
	Reason string `json:"reason"`
	Bytes  int64  `json:"bytes"`
}

// GCReport is what Collect did (or would do).
type GCReport struct {
	Deleted    int       `json:"deleted"`
	Skipped    int       `json:"skipped"`
	FreedBytes int64     `json:"freedBytes"`
	Jobs       []GCEntry `json:"jobs"`
}

// Collect deletes the terminal jobs that finished more than olderThan
// ago (with dryRun it only reports them as would_delete). Running and
// created jobs, records that are not this user's own, and records that
// cannot be read are never deleted (skipped, with the reason). Entries
// are in id order.
func (s *Store) Collect(olderThan time.Duration, dryRun bool) *GCReport {
	rep := &GCReport{Jobs: []GCEntry{}}
	cutoff := s.now().Add(-olderThan)
	for _, id := range s.listDirs() {
		dir := filepath.Join(s.dir, id)
		e := GCEntry{ID: id, Action: "skipped", Bytes: dirSize(dir)}
		st := &jobState{}
		switch {
		case !s.trusted(dir):
			e.Reason = "untrusted"
		case readJSON(filepath.Join(dir, "state.json"), st) != nil || st.ID != id:
			e.Reason = "unreadable"
		case st.State == "running":
			e.State, e.Reason = st.State, "running"
		case st.State == "created":
			e.State, e.Reason = st.State, "created"
		case st.FinishedAt == nil || !parseTime(*st.FinishedAt).Before(cutoff):
			e.State, e.Reason = st.State, "too_recent"
		default:
			e.State, e.Reason = st.State, "older_than"
			if dryRun {
				e.Action = "would_delete"
			} else if os.RemoveAll(dir) == nil {
				e.Action = "deleted"
				rep.Deleted++
				rep.FreedBytes += e.Bytes
			} else {
				e.Reason = "remove_failed"
			}
		}
		if e.Action == "skipped" {
			rep.Skipped++
		}
		rep.Jobs = append(rep.Jobs, e)
	}
	sort.Slice(rep.Jobs, func(i, j int) bool { return rep.Jobs[i].ID < rep.Jobs[j].ID })
	return rep
}
