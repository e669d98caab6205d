package trace

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/jscompat"
	"github.com/a0lang/a0/lang/value"
)

// KnownEvents are the event names `a0 trace` counts (spec/cli.md §7.3). Lines
// with any other event — including reduce_*, filter_* and loop_*, which
// `a0 run` writes — are ignored.
var KnownEvents = []string{
	"run_start", "run_end", "stmt_start", "stmt_end", "tool_start", "tool_end",
	"evidence", "budget_exceeded", "for_start", "for_end", "fn_call_start",
	"fn_call_end", "match_start", "match_end", "map_start", "map_end",
}

var knownEvents = func() map[string]bool {
	m := make(map[string]bool, len(KnownEvents))
	for _, e := range KnownEvents {
		m[e] = true
	}
	return m
}()

// Messages of the E_TRACE errors.
const (
	MsgNoEvents      = "No valid trace events found."
	MsgMultipleRunID = "Trace file contains multiple run IDs; provide events from a single run."
)

// ToolCount is one entry of toolsByName.
type ToolCount struct {
	Name  string
	Count int
}

// Summary is the result of `a0 trace`.
type Summary struct {
	RunID           string
	TotalEvents     int
	ToolInvocations int
	// ToolsByName is in JavaScript object key order: index-like names
	// ("0", "12") first in numeric order, then the others in order of first
	// use.
	ToolsByName    []ToolCount
	EvidenceCount  int
	Failures       int
	BudgetExceeded int
	// StartTime / EndTime are the ts of the last run_start / run_end; the
	// Has flags tell whether one was seen (an empty ts still counts as
	// seen, but not for the duration).
	StartTime, EndTime       string
	HasStartTime, HasEndTime bool
	// EndTimeFirst is true when a run_end came before any run_start (the
	// JSON members then appear in that order).
	EndTimeFirst bool
	// DurationMs is end − start as parsed by JavaScript's Date (NaN when
	// either does not parse); HasDuration is false unless both times are
	// non-empty.
	DurationMs  float64
	HasDuration bool
}

// Summarize computes the summary of a trace file's content (spec/cli.md §7.3).
// The error is a *diag.Diagnostic with code E_TRACE.
func Summarize(content []byte) (*Summary, error) {
	return SummarizeReader(bytes.NewReader(content))
}

// headBytes is how much of a file the no-events hint looks at to say
// what the file is instead.
const headBytes = 64 << 10

// SummarizeReader is Summarize of what r yields, read a line at a time: a
// trace of any size is summarised in the memory of its longest line. A
// read error is returned as it is (the caller reports it as E_IO).
func SummarizeReader(r io.Reader) (*Summary, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	z := &summarizer{s: &Summary{}, tools: value.NewRecord(0), first: true}
	var head []byte // the file's first headBytes, for noEventsHint
	var long []byte // a line longer than the reader's buffer, gathered
	for {
		chunk, rerr := br.ReadSlice('\n')
		if rerr == bufio.ErrBufferFull {
			long = append(long, chunk...)
			continue
		}
		if rerr != nil && rerr != io.EOF {
			return nil, rerr
		}
		raw := chunk
		if long != nil {
			raw = append(long, chunk...)
			long = nil
		}
		if len(head) < headBytes {
			head = append(head, raw[:min(len(raw), headBytes-len(head))]...)
		}
		// Lines are split at '\n' only, as strings.Split would; each is
		// decoded on its own, which the WHATWG rule makes the same as
		// decoding the whole file ('\n' never belongs to a sequence).
		if err := z.line(value.DecodeBytes(bytes.TrimSuffix(raw, []byte("\n")))); err != nil {
			return nil, err
		}
		if rerr == io.EOF {
			break
		}
	}
	s := z.s
	if z.first {
		return nil, &diag.Diagnostic{Code: diag.ETrace, Message: MsgNoEvents, Hint: noEventsHint(head)}
	}
	if z.hasRunError && !z.hasToolError && !z.hasEvidenceFailure {
		s.Failures++
	}
	for i := range z.tools.Len() {
		s.ToolsByName = append(s.ToolsByName, ToolCount{z.tools.Key(i), int(z.tools.At(i).AsNumber())})
	}
	if s.StartTime != "" && s.EndTime != "" {
		s.HasDuration = true
		s.DurationMs = jscompat.ParseDate(s.EndTime) - jscompat.ParseDate(s.StartTime)
	}
	return s, nil
}

// summarizer is a summary being built, one line at a time.
type summarizer struct {
	s                                             *Summary
	tools                                         *value.Record // invocations by tool name
	first                                         bool          // no event yet
	hasToolError, hasEvidenceFailure, hasRunError bool
}

// line counts one line of the file; an error ends the summary (two runs).
func (z *summarizer) line(line string) error {
	v, ok := parseLine(line)
	if !ok {
		return nil
	}
	ev := v.AsRecord()
	if ev == nil {
		return nil
	}
	ts, tsOK := stringMember(ev, "ts")
	runID, runOK := stringMember(ev, "runId")
	name, nameOK := stringMember(ev, "event")
	if !tsOK || !runOK || !nameOK || !knownEvents[name] {
		return nil
	}
	if z.first {
		z.s.RunID = runID
		z.first = false
	} else if runID != z.s.RunID {
		return &diag.Diagnostic{Code: diag.ETrace, Message: MsgMultipleRunID,
			Hint: "Summarize one run: each a0 run --trace FILE truncates FILE, so give each run a file of its own."}
	}
	z.s.TotalEvents++
	data := ev.GetOrNull("data").AsRecord() // nil unless data is an object
	switch name {
	case "run_start":
		z.s.StartTime, z.s.HasStartTime = ts, true
	case "run_end":
		if !z.s.HasStartTime && !z.s.HasEndTime {
			z.s.EndTimeFirst = true
		}
		z.s.EndTime, z.s.HasEndTime = ts, true
		if data.GetOrNull("error").Truthy() {
			z.hasRunError = true
		}
	case "tool_start":
		z.s.ToolInvocations++
		tool := "unknown"
		if t := data.GetOrNull("tool"); !t.IsNull() {
			tool = value.ToText(t)
		}
		n, _ := z.tools.Get(tool)
		z.tools.Set(tool, value.Num(n.AsNumber()+1))
	case "tool_end":
		if data.GetOrNull("outcome").AsString() == "err" {
			z.s.Failures++
			z.hasToolError = true
		}
	case "evidence":
		z.s.EvidenceCount++
		if ok := data.GetOrNull("ok"); ok.Kind() == value.Bool && !ok.AsBool() {
			z.s.Failures++
			z.hasEvidenceFailure = true
		}
	case "budget_exceeded":
		z.s.BudgetExceeded++
	}
	return nil
}

func stringMember(r *value.Record, key string) (string, bool) {
	v, ok := r.Get(key)
	if !ok || v.Kind() != value.String {
		return "", false
	}
	return v.AsString(), true
}

// Text renders the summary as `a0 trace` prints it, final newline
// included.
func (s *Summary) Text() string {
	var b strings.Builder
	line := func(label, val string) {
		b.WriteString("  ")
		b.WriteString(label)
		b.WriteString(strings.Repeat(" ", 18-len(label)))
		b.WriteString(val)
		b.WriteByte('\n')
	}
	b.WriteString("Trace Summary\n")
	line("Run ID:", printable(s.RunID))
	line("Total events:", strconv.Itoa(s.TotalEvents))
	line("Tool invocations:", strconv.Itoa(s.ToolInvocations))
	if len(s.ToolsByName) > 0 {
		b.WriteString("  Tools used:\n")
		for _, t := range s.ToolsByName {
			b.WriteString("    ")
			b.WriteString(printable(t.Name))
			b.WriteString(": ")
			b.WriteString(strconv.Itoa(t.Count))
			b.WriteByte('\n')
		}
	}
	line("Evidence events:", strconv.Itoa(s.EvidenceCount))
	line("Failures:", strconv.Itoa(s.Failures))
	line("Budget exceeded:", strconv.Itoa(s.BudgetExceeded))
	if s.HasDuration {
		line("Duration:", value.FormatNumber(s.DurationMs)+"ms")
	}
	return b.String()
}

// JSON renders the summary as `a0 trace --json` prints it (JSON-2), final
// newline included: {runId, totalEvents, toolInvocations, toolsByName,
// evidenceCount, failures, budgetExceeded[, startTime][, endTime][, durationMs]}
// with a NaN duration written as null.
func (s *Summary) JSON() string {
	r := value.NewRecord(10)
	r.Set("runId", value.Str(s.RunID))
	r.Set("totalEvents", value.Int(s.TotalEvents))
	r.Set("toolInvocations", value.Int(s.ToolInvocations))
	tools := value.NewRecord(len(s.ToolsByName))
	for _, t := range s.ToolsByName {
		tools.Set(t.Name, value.Int(t.Count))
	}
	r.Set("toolsByName", value.RecordOf(tools))
	r.Set("evidenceCount", value.Int(s.EvidenceCount))
	r.Set("failures", value.Int(s.Failures))
	r.Set("budgetExceeded", value.Int(s.BudgetExceeded))
	start := func() {
		if s.HasStartTime {
			r.Set("startTime", value.Str(s.StartTime))
		}
	}
	end := func() {
		if s.HasEndTime {
			r.Set("endTime", value.Str(s.EndTime))
		}
	}
	if s.EndTimeFirst {
		end()
		start()
	} else {
		start()
		end()
	}
	if s.HasDuration {
		r.Set("durationMs", value.Num(s.DurationMs))
	}
	return value.JSONIndent(value.RecordOf(r)) + "\n"
}

// printable replaces the lone surrogates a WTF-8 string may hold with
// U+FFFD, as Node does when it writes a string to stdout as UTF-8.
func printable(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 {
				size = 3 // one encoded surrogate
			}
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// noEventsHint is the hint of a file with no trace event: what the file
// is when it is another of a0's files (an evidence file, a policy, a
// program), then the file a0 trace reads.
func noEventsHint(b []byte) string {
	const want = "Give a file written by a0 run --trace FILE: one JSON event per line, each with a known type and a runId."
	t := strings.TrimSpace(string(b))
	switch {
	case t == "":
		return "The file is empty: a run writes its trace with a0 run --trace FILE, one JSON event per line (a run stopped by a static error or an invalid policy writes none)."
	case strings.HasPrefix(t, "[") && (strings.Contains(t, `"kind"`) && strings.Contains(t, `"ok"`) || t == "[]"):
		return "This looks like an evidence file (a0 run --evidence FILE), a JSON list of assert and check records. " + want
	case strings.HasPrefix(t, "{") && strings.Contains(t, `"allow"`):
		return "This looks like a policy file (a0 policy --policy FILE shows it). " + want
	case hasAnyPrefix(t, "cap ", "cap{", "budget ", "budget{", "input ", "let ", "fn ", "return ", "#"):
		return "This looks like an A0 program: run it with a0 run --trace trace.jsonl FILE, then summarise trace.jsonl."
	}
	return want
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
