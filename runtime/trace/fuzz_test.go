package trace

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// writtenTrace is a trace as a run writes it, through Writer.
func writtenTrace(t testing.TB, runID string, events [][3]string) []byte {
	var b bytes.Buffer
	clock := time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC)
	w := NewWriter(&b, runID, func() time.Time { clock = clock.Add(125 * time.Millisecond); return clock })
	for _, e := range events {
		if err := w.Emit(e[0], e[1], e[2]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

const fuzzSpan = `{"file":"f.a0","startLine":1,"startCol":1,"endLine":1,"endCol":9}`

// FuzzTraceSummarize: `a0 trace FILE` reads a file anyone may have
// written. For any bytes Summarize never panics; it fails only with an
// E_TRACE diagnostic; a summary's counts agree with each other, and both
// renderings work (the JSON one is JSON with the same counts). Seeds are
// traces written by Writer.
func FuzzTraceSummarize(f *testing.F) {
	run := writtenTrace(f, "6f1c0e1a-2b3c-4d5e-8f90-a1b2c3d4e5f6", [][3]string{
		{"run_start", fuzzSpan, `{"file":"f.a0","capabilities":["fs.read","sh.exec"]}`},
		{"stmt_start", fuzzSpan, ""},
		{"tool_start", fuzzSpan, `{"tool":"sh.exec","args":{"cmd":"ls"},"mode":"effect"}`},
		{"tool_end", fuzzSpan, `{"tool":"sh.exec","outcome":"err","durationMs":3}`},
		{"tool_start", fuzzSpan, `{"tool":"fs.read","args":{"path":"a"}}`},
		{"tool_end", fuzzSpan, `{"tool":"fs.read","outcome":"ok","durationMs":1}`},
		{"evidence", fuzzSpan, `{"kind":"assert","ok":false,"msg":"x"}`},
		{"for_start", fuzzSpan, `{"count":2}`},
		{"for_end", fuzzSpan, `{}`},
		{"fn_call_start", fuzzSpan, `{"fn":"f"}`},
		{"fn_call_end", fuzzSpan, `{"fn":"f"}`},
		{"budget_exceeded", fuzzSpan, `{"budget":"maxToolCalls","limit":1}`},
		{"stmt_end", fuzzSpan, ""},
		{"run_end", fuzzSpan, `{"durationMs":250,"error":{"code":"E_TOOL"}}`},
	})
	f.Add(run)
	f.Add(writtenTrace(f, "r", [][3]string{{"run_end", "", `{}`}, {"run_start", "", `{}`}}))
	f.Add(append(append([]byte("\xEF\xBB\xBF"), run...), writtenTrace(f, "other", [][3]string{{"run_start", "", ""}})...))
	f.Add([]byte(`{"ts":"","runId":"R","event":"tool_start","data":{"tool":{"a":[1]}}}` + "\n" + `{"ts":"x","runId":"R","event":"run_end"}`))
	f.Add([]byte(`{"ts":"2031-02-03T04:05:06Z","runId":"\ud800","event":"tool_start","data":{"tool":"12"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Summarize(data)
		if err != nil {
			var d *diag.Diagnostic
			if !errors.As(err, &d) || d.Code != diag.ETrace || d.Message == "" {
				t.Fatalf("error %T %v is not an E_TRACE diagnostic", err, err)
			}
			_ = d.Text("", diag.Style{})
			return
		}
		sum := 0
		for _, tc := range s.ToolsByName {
			if tc.Count < 1 {
				t.Fatalf("tool %q counted %d times", tc.Name, tc.Count)
			}
			sum += tc.Count
		}
		if sum != s.ToolInvocations || s.TotalEvents < s.ToolInvocations+s.EvidenceCount+s.BudgetExceeded || s.TotalEvents < 1 {
			t.Fatalf("counts disagree: %+v", s)
		}
		_ = s.Text()
		js := s.JSON()
		v, jerr := value.ParseJSON(js)
		if jerr != nil {
			t.Fatalf("JSON summary is not JSON: %v\n%s", jerr, js)
		}
		r := v.AsRecord()
		if r.GetOrNull("totalEvents").AsNumber() != float64(s.TotalEvents) || r.GetOrNull("toolsByName").AsRecord().Len() != len(s.ToolsByName) {
			t.Fatalf("JSON summary disagrees with the summary: %+v\n%s", s, js)
		}
	})
}
