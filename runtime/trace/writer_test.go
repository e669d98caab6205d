package trace

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/jscompat"
)

func fixedClock(ts ...time.Time) func() time.Time {
	i := 0
	return func() time.Time {
		t := ts[i%len(ts)]
		i++
		return t
	}
}

func TestWriterFormat(t *testing.T) {
	var buf bytes.Buffer
	clock := fixedClock(
		time.Date(2031, 5, 6, 7, 8, 9, 10_000_000, time.UTC),
		time.Date(2031, 5, 6, 9, 8, 9, 999_999_999, time.FixedZone("X", 2*3600)),
		time.Date(2031, 5, 6, 7, 8, 10, 0, time.UTC),
	)
	w := NewWriter(&buf, "0b6f3c2e-1d4a-4e5f-8a9b-0c1d2e3f4a5b", clock)
	span := `{"file":"p.a0","startLine":1,"startCol":1,"endLine":2,"endCol":3}`
	if err := w.Emit("run_start", span, `{"file":"p.a0","capabilities":[]}`); err != nil {
		t.Fatal(err)
	}
	if err := w.Emit("stmt_start", span, ""); err != nil {
		t.Fatal(err)
	}
	if err := w.Emit("odd\"name", "", `{"x":"\u2028<&>"}`); err != nil {
		t.Fatal(err)
	}
	want := `{"ts":"2031-05-06T07:08:09.010Z","runId":"0b6f3c2e-1d4a-4e5f-8a9b-0c1d2e3f4a5b","event":"run_start","span":{"file":"p.a0","startLine":1,"startCol":1,"endLine":2,"endCol":3},"data":{"file":"p.a0","capabilities":[]}}
{"ts":"2031-05-06T07:08:09.999Z","runId":"0b6f3c2e-1d4a-4e5f-8a9b-0c1d2e3f4a5b","event":"stmt_start","span":{"file":"p.a0","startLine":1,"startCol":1,"endLine":2,"endCol":3}}
{"ts":"2031-05-06T07:08:10.000Z","runId":"0b6f3c2e-1d4a-4e5f-8a9b-0c1d2e3f4a5b","event":"odd\"name","data":{"x":"\u2028<&>"}}
`
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if w.RunID() != "0b6f3c2e-1d4a-4e5f-8a9b-0c1d2e3f4a5b" || w.Err() != nil {
		t.Error("RunID / Err")
	}
	// The summarizer reads what the writer writes.
	s, err := Summarize(buf.Bytes())
	if err != nil || s.TotalEvents != 2 || !s.HasStartTime || s.StartTime != "2031-05-06T07:08:09.010Z" {
		t.Errorf("summary %+v, %v", s, err)
	}
}

func TestFormatTime(t *testing.T) {
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 11, 21, 20, 24, 59, 777_000_000, time.UTC), "2026-11-21T20:24:59.777Z"},
		{time.Date(2026, 1, 2, 3, 4, 5, 6_900_000, time.UTC), "2026-01-02T03:04:05.006Z"},
		{time.Date(2026, 1, 1, 0, 30, 0, 0, time.FixedZone("Y", 3600)), "2025-12-31T23:30:00.000Z"},
		{time.Date(12026, 1, 1, 0, 0, 0, 0, time.UTC), "+012026-01-01T00:00:00.000Z"},
		{time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), "-000001-01-01T00:00:00.000Z"},
		{time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "0000-01-01T00:00:00.000Z"},
	}
	for _, tc := range tests {
		if got := FormatTime(tc.t); got != tc.want {
			t.Errorf("FormatTime(%v) = %q, want %q", tc.t, got, tc.want)
		}
		// JavaScript parses what toISOString writes back to the same instant.
		if got, want := jscompat.ParseDate(tc.want), float64(tc.t.UnixMilli()); got != want {
			t.Errorf("ParseDate(%q) = %v, want %v", tc.want, got, want)
		}
	}
}

func TestNewRunID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 200 {
		id := NewRunID()
		if !re.MatchString(id) {
			t.Fatalf("%q is not a lower-case UUID v4", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
	}
}

type failWriter struct {
	n     int // successful writes before failing
	short bool
	calls int
}

var errDiskFull = errors.New("ENOSPC: no space left on device, write")

func (f *failWriter) Write(p []byte) (int, error) {
	f.calls++
	if f.calls > f.n {
		if f.short {
			return len(p) / 2, nil
		}
		return 0, errDiskFull
	}
	return len(p), nil
}

func TestWriterErrors(t *testing.T) {
	fw := &failWriter{n: 1}
	w := NewWriter(fw, "r", nil)
	if err := w.Emit("run_start", "{}", "{}"); err != nil {
		t.Fatal(err)
	}
	if err := w.Emit("stmt_start", "{}", ""); !errors.Is(err, errDiskFull) {
		t.Fatalf("err = %v", err)
	}
	// Sticky: no further write is attempted.
	if err := w.Emit("stmt_end", "{}", ""); !errors.Is(err, errDiskFull) || fw.calls != 2 {
		t.Fatalf("err = %v, calls = %d", err, fw.calls)
	}
	if !errors.Is(w.Err(), errDiskFull) {
		t.Error("Err")
	}
	w = NewWriter(&failWriter{short: true}, "r", nil)
	if err := w.Emit("run_start", "{}", "{}"); err == nil || !strings.Contains(err.Error(), "short write") {
		t.Errorf("short write: %v", err)
	}
}

type flushRecorder struct {
	bytes.Buffer
	flushedAt []int
	flushErr  error
}

func (f *flushRecorder) Flush() error {
	f.flushedAt = append(f.flushedAt, f.Len())
	return f.flushErr
}

func TestWriterFlushesEachLine(t *testing.T) {
	fr := &flushRecorder{}
	w := NewWriter(fr, "r", nil)
	for range 3 {
		if err := w.Emit("stmt_start", "{}", ""); err != nil {
			t.Fatal(err)
		}
	}
	if len(fr.flushedAt) != 3 || fr.flushedAt[2] != fr.Len() || strings.Count(fr.String(), "\n") != 3 {
		t.Errorf("flushes at %v, len %d", fr.flushedAt, fr.Len())
	}
	fr = &flushRecorder{flushErr: errDiskFull}
	w = NewWriter(fr, "r", nil)
	if err := w.Emit("stmt_start", "{}", ""); !errors.Is(err, errDiskFull) {
		t.Errorf("flush error not returned: %v", err)
	}
}

func TestWriterConcurrent(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, "r", nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				_ = w.Emit("tool_end", `{"file":"f"}`, `{"tool":"sh.exec","outcome":"ok","durationMs":1}`)
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if _, ok := parseLine(l); !ok {
			t.Fatalf("interleaved line %q", l)
		}
	}
}
