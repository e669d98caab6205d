// Package trace writes the JSONL trace of an A0 run (`a0 run --trace`) and
// summarises trace files (`a0 trace`), spec/cli.md §7.
package trace

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/diag"
)

// Writer writes trace events, one compact JSON object per line:
//
//	{"ts":…,"runId":…,"event":…,"span":…,"data":…}
//
// Each line goes to the underlying writer in a single Write call (and is
// flushed when the writer has a Flush method), so a crash loses nothing
// already emitted. The first write error is returned and kept: every later
// Emit returns it without writing. A Writer is safe for concurrent use.
type Writer struct {
	mu    sync.Mutex
	w     io.Writer
	runID string
	now   func() time.Time
	err   error
	buf   []byte
}

// NewWriter returns a Writer for one run. now is the clock (nil:
// time.Now).
func NewWriter(w io.Writer, runID string, now func() time.Time) *Writer {
	if now == nil {
		now = time.Now
	}
	return &Writer{w: w, runID: runID, now: now}
}

// NewRunID returns a random lower-case UUID version 4.
func NewRunID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// RunID returns the run id written on every line.
func (t *Writer) RunID() string { return t.runID }

// FormatTime renders t as JavaScript's Date#toISOString does: UTC with
// milliseconds and "Z" (2026-11-21T20:24:59.777Z).
func FormatTime(t time.Time) string {
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		// Expanded years: ±YYYYYY.
		sign := "+"
		if y < 0 {
			sign, y = "-", -y
		}
		s := "000000" + strconv.Itoa(y)
		return sign + s[len(s)-6:] + t.Format("-01-02T15:04:05.000Z")
	}
	return t.Format("2006-01-02T15:04:05.000Z")
}

// Emit writes one event. spanJSON is the compact JSON of the span object
// and dataJSON that of the data object; an empty string omits the member
// (stmt_start / stmt_end have no data).
func (t *Writer) Emit(event, spanJSON, dataJSON string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return t.err
	}
	b := append(t.buf[:0], `{"ts":"`...)
	b = append(b, FormatTime(t.now())...)
	b = append(b, `","runId":`...)
	b = append(b, diag.QuoteJSON(t.runID)...)
	b = append(b, `,"event":`...)
	b = append(b, diag.QuoteJSON(event)...)
	if spanJSON != "" {
		b = append(b, `,"span":`...)
		b = append(b, spanJSON...)
	}
	if dataJSON != "" {
		b = append(b, `,"data":`...)
		b = append(b, dataJSON...)
	}
	b = append(b, "}\n"...)
	t.buf = b
	n, err := t.w.Write(t.buf)
	if err == nil && n < len(t.buf) {
		err = io.ErrShortWrite
	}
	if err == nil {
		if f, ok := t.w.(interface{ Flush() error }); ok {
			err = f.Flush()
		}
	}
	t.err = err
	return err
}

// Err returns the first write error, if any.
func (t *Writer) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}
