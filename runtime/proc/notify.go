package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Notifications of detached jobs (spec/exec.md §6.7). The supervisor
// runs them: a completion event when the job is final, and an output
// event for every new line that matches a pattern. A sink is a command
// (run through the engine, so under the job's policy and confinement,
// with the event on its stdin) or a file (one NDJSON line appended; with
// exec.sandbox only below a root the job itself may write). Delivery is
// best effort: a failing sink never changes the job's state.

// Notify is a job's notification settings (notify.json in its folder).
type Notify struct {
	Command string        `json:"command,omitempty"`
	File    string        `json:"file,omitempty"`
	Output  *OutputNotify `json:"output,omitempty"`
}

// OutputNotify is an output-match notification.
type OutputNotify struct {
	Pattern   string `json:"pattern"`
	MatchType string `json:"matchType,omitempty"` // contains (default) or regex (RE2)
	Stream    string `json:"stream,omitempty"`    // stdout, stderr or either (default)
	Command   string `json:"command,omitempty"`
	File      string `json:"file,omitempty"`
}

// Check reports what is wrong with n ("" when nothing): an output
// notification needs a pattern that compiles and at least one sink.
func (n *Notify) Check() string {
	if n == nil || n.Output == nil {
		return ""
	}
	o := n.Output
	if o.Pattern == "" {
		return "output.pattern: must be a non-empty string"
	}
	switch o.MatchType {
	case "", "contains":
	case "regex":
		if _, err := regexp.Compile(o.Pattern); err != nil {
			return "output.pattern: not a valid RE2 regular expression: " + err.Error()
		}
	default:
		return "output.matchType: must be contains or regex"
	}
	switch o.Stream {
	case "", "stdout", "stderr", "either":
	default:
		return "output.stream: must be stdout, stderr or either"
	}
	if o.Command == "" && o.File == "" {
		return "output: needs a command or a file sink"
	}
	return ""
}

// Delivery is the result of delivering an event to one sink.
type Delivery struct {
	Sink     string `json:"sink"` // command or file
	OK       bool   `json:"ok"`
	ExitCode *int   `json:"exitCode,omitempty"`
	Error    string `json:"error,omitempty"`
}

// notifier runs one job's notifications inside its supervisor.
type notifier struct {
	e     *Engine
	shell string

	mu      sync.Mutex
	cur     *Notify
	re      *regexp.Regexp
	partial [2][]byte
	queue   []outChunk
	queued  int
	wake    chan struct{}
	dir     string
	job     *Job
	closed  bool
	drained chan struct{}
}

type outChunk struct {
	stderr bool
	data   []byte
}

const maxQueued = 4 << 20 // output waiting for matching; more is dropped

func newNotifier(e *Engine, shell string, n *Notify) *notifier {
	nt := &notifier{e: e, shell: shell, wake: make(chan struct{}, 1), drained: make(chan struct{})}
	nt.set(n)
	return nt
}

// set replaces the settings; matching goes on from the next new output.
func (nt *notifier) set(n *Notify) {
	var re *regexp.Regexp
	if n != nil && n.Output != nil && n.Output.MatchType == "regex" {
		re, _ = regexp.Compile(n.Output.Pattern)
	}
	nt.mu.Lock()
	nt.cur, nt.re = n, re
	nt.mu.Unlock()
}

func (nt *notifier) settings() *Notify {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	return nt.cur
}

// onOutput queues a chunk for matching (called under the job's output
// lock: never blocks).
func (nt *notifier) onOutput(stderr bool, chunk []byte) {
	nt.mu.Lock()
	if nt.cur == nil || nt.cur.Output == nil || nt.queued+len(chunk) > maxQueued {
		nt.mu.Unlock()
		return
	}
	nt.queue = append(nt.queue, outChunk{stderr, append([]byte(nil), chunk...)})
	nt.queued += len(chunk)
	nt.mu.Unlock()
	select {
	case nt.wake <- struct{}{}:
	default:
	}
}

// run matches queued output until close is called and the queue is empty.
func (nt *notifier) run() {
	defer close(nt.drained)
	for {
		nt.mu.Lock()
		q := nt.queue
		nt.queue, nt.queued = nil, 0
		closed := nt.closed
		nt.mu.Unlock()
		for _, c := range q {
			nt.match(c)
		}
		if len(q) == 0 {
			if closed {
				// The streams have ended: a last line without a
				// newline is a line.
				for i, p := range nt.partial {
					if len(p) > 0 {
						nt.matchLine(i == 1, strings.TrimSuffix(string(p), "\r"))
					}
				}
				return
			}
			<-nt.wake
		}
	}
}

func (nt *notifier) close() {
	nt.mu.Lock()
	nt.closed = true
	nt.mu.Unlock()
	select {
	case nt.wake <- struct{}{}:
	default:
	}
	<-nt.drained
}

// match splits a chunk into lines and delivers an event for each match.
func (nt *notifier) match(c outChunk) {
	i := 0
	if c.stderr {
		i = 1
	}
	data := append(nt.partial[i], c.data...)
	for {
		k := bytes.IndexByte(data, '\n')
		if k < 0 {
			break
		}
		line := strings.TrimSuffix(string(data[:k]), "\r")
		data = data[k+1:]
		nt.matchLine(c.stderr, line)
	}
	if len(data) > 64<<10 {
		data = data[len(data)-64<<10:] // a line this long is matched by its end
	}
	nt.partial[i] = append([]byte(nil), data...)
}

func (nt *notifier) matchLine(stderr bool, line string) {
	nt.mu.Lock()
	n, re := nt.cur, nt.re
	nt.mu.Unlock()
	if n == nil || n.Output == nil {
		return
	}
	o := n.Output
	stream := "stdout"
	if stderr {
		stream = "stderr"
	}
	if o.Stream != "" && o.Stream != "either" && o.Stream != stream {
		return
	}
	var hit bool
	if re != nil {
		hit = re.MatchString(line)
	} else {
		hit = strings.Contains(line, o.Pattern)
	}
	if !hit {
		return
	}
	mt := o.MatchType
	if mt == "" {
		mt = "contains"
	}
	ev := nt.event("job.output.matched", nt.job.Info())
	ev.Pattern, ev.MatchType, ev.Stream, ev.Line = &o.Pattern, &mt, &stream, &line
	path := filepath.Join(nt.dir, "output_event.json")
	_ = writeAtomic(nt.dir, "output_event.json", marshal(ev))
	ev.Deliveries = nt.deliver(ev, o.Command, o.File, path)
	appendLine(filepath.Join(nt.dir, "notification_events.ndjson"), marshal(ev))
}

// Event is a notification event (spec/exec.md §6.7).
type Event struct {
	SchemaVersion int      `json:"schemaVersion"`
	EventType     string   `json:"eventType"`
	JobID         string   `json:"jobId"`
	State         string   `json:"state"`
	ExitCode      *int     `json:"exitCode"`
	Signal        *string  `json:"signal"`
	Cmd           *string  `json:"cmd"`
	Argv          []string `json:"argv"`
	Cwd           string   `json:"cwd"`
	StartedAt     string   `json:"startedAt"`
	FinishedAt    *string  `json:"finishedAt"`
	DurationMs    int64    `json:"durationMs"`
	StdoutLogPath string   `json:"stdoutLogPath"`
	StderrLogPath *string  `json:"stderrLogPath"`
	Pattern       *string  `json:"pattern,omitempty"`
	MatchType     *string  `json:"matchType,omitempty"`
	Stream        *string  `json:"stream,omitempty"`
	Line          *string  `json:"line,omitempty"`
	// Deliveries is each sink's result (in the job folder's copies).
	Deliveries []Delivery `json:"deliveries,omitempty"`
}

func (nt *notifier) event(kind string, info JobInfo) *Event {
	st := stateOf(info, time.Now(), false, false)
	ev := &Event{SchemaVersion: 1, EventType: kind, JobID: info.ID, State: info.State, ExitCode: st.ExitCode,
		Signal: st.Signal, Cmd: st.Cmd, Argv: st.Argv, Cwd: info.Cwd, StartedAt: st.StartedAt,
		FinishedAt: st.FinishedAt, DurationMs: info.DurationMs,
		StdoutLogPath: filepath.Join(nt.dir, "stdout.log")}
	if !info.Merged {
		p := filepath.Join(nt.dir, "stderr.log")
		ev.StderrLogPath = &p
	}
	return ev
}

// finished delivers the completion event and keeps it, with each sink's
// result, in completion_event.json.
func (nt *notifier) finished() {
	n := nt.settings()
	if n == nil || n.Command == "" && n.File == "" {
		return
	}
	ev := nt.event("job.finished", nt.job.Info())
	path := filepath.Join(nt.dir, "completion_event.json")
	_ = writeAtomic(nt.dir, "completion_event.json", marshal(ev))
	ev.Deliveries = nt.deliver(ev, n.Command, n.File, path)
	_ = writeAtomic(nt.dir, "completion_event.json", marshal(ev))
}

// deliver sends ev to the command and file sinks that are set.
func (nt *notifier) deliver(ev *Event, command, file, path string) []Delivery {
	var out []Delivery
	line := marshal(ev)
	if command != "" {
		out = append(out, nt.runSink(command, ev, line, path))
	}
	if file != "" {
		d := Delivery{Sink: "file"}
		if err := nt.appendSink(file, line); err != nil {
			d.Error = err.Error()
		} else {
			d.OK = true
		}
		out = append(out, d)
	}
	return out
}

// runSink runs a command sink through the job's shell, prepared by the
// supervisor's engine (the job's policy, masking and confinement), with
// the event on stdin, for at most 30 s.
func (nt *notifier) runSink(command string, ev *Event, line []byte, path string) Delivery {
	d := Delivery{Sink: "command"}
	r := &Request{Cmd: command, Shell: nt.shell, Stdin: line, HasStdin: true, MaxOutput: 64 << 10, DefaultOut: 64 << 10,
		Timeout: 30 * time.Second, HasTimeout: true, Remaining: -1,
		Env: [][2]string{{"A0_JOB_ID", ev.JobID}, {"A0_EVENT_TYPE", ev.EventType}, {"A0_EVENT_PATH", path}}}
	p, err := nt.e.Prepare(r)
	if err != nil {
		d.Error = err.Error()
		return d
	}
	res, err := nt.e.Run(context.Background(), p)
	if err != nil {
		d.Error = err.Error()
		return d
	}
	code := res.ExitCode
	d.ExitCode = &code
	d.OK = code == 0 && res.Signal == "" && !res.TimedOut
	if !d.OK {
		d.Error = "the command failed"
		if res.TimedOut {
			d.Error = "the command timed out after 30 s"
		}
	}
	return d
}

// appendSink appends one line to a file sink. With a sandbox the file
// must lie below a root the job itself may write (its folder resolved).
func (nt *notifier) appendSink(file string, line []byte) error {
	if !filepath.IsAbs(file) {
		return errors.New("the file sink must be an absolute path")
	}
	if sb := nt.e.cfg.Sandbox; sb != nil {
		dir, err := filepath.EvalSymlinks(filepath.Dir(file))
		if err != nil {
			return err
		}
		ok := false
		for _, root := range sb.Write {
			if r, err := filepath.EvalSymlinks(root); err == nil && within(r, dir) {
				ok = true
			}
		}
		if !ok {
			return errors.New(file + " is outside the sandbox's write roots (exec.sandbox)")
		}
	}
	return appendLine(file, line)
}

func appendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readNotify reads notify.json of a job folder (nil when absent).
func readNotify(dir string) *Notify {
	n := &Notify{}
	if readJSON(filepath.Join(dir, "notify.json"), n) != nil || n.Check() != "" {
		return nil
	}
	return n
}

// SetNotify replaces a running detached job's notifications: it writes
// notify.json and tells the supervisor (SIGUSR2) after the checks of
// StopDetached. Matching goes on from the next new output.
func (s *Store) SetNotify(id string, n *Notify) error {
	if msg := n.Check(); msg != "" {
		return errors.New(msg)
	}
	sj, err := s.Load(id)
	if err != nil {
		return err
	}
	m := sj.meta
	if m == nil || !m.Detached || m.ID != id {
		return errors.New("job " + id + " is not a detached job; only a supervisor runs notifications")
	}
	if sj.state.State != "running" {
		return errors.New("job " + id + " has already ended (" + sj.state.State + ")")
	}
	if !supervisorOf(m) {
		s.ReconcileJob(id)
		return errors.New("the supervisor of job " + id + " is gone; the job is lost")
	}
	if err := writeAtomic(sj.dir, "notify.json", marshal(n)); err != nil {
		return err
	}
	return signalNotify(m.OwnerPid)
}

// Notify returns a stored job's notification settings (nil: none).
func (j *StoredJob) Notify() *Notify { return readNotify(j.dir) }
