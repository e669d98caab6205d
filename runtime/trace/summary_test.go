package trace

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// ev builds one trace line for run "R".
func ev(event, ts, data string) string {
	s := `{"ts":"` + ts + `","runId":"R","event":"` + event + `","span":{"file":"f.a0","startLine":1,"startCol":1,"endLine":1,"endCol":2}`
	if data != "" {
		s += `,"data":` + data
	}
	return s + "}"
}

func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

const (
	t0 = "2031-02-03T04:05:06.000Z"
	t1 = "2031-02-03T04:05:06.250Z"
)

func TestSummaryRules(t *testing.T) {
	tests := []struct {
		name  string
		input []byte
		check func(t *testing.T, s *Summary)
	}{
		{"counts and tools in order", lines(
			ev("run_start", t0, `{"file":"f.a0","capabilities":["fs.read"]}`),
			ev("tool_start", t0, `{"tool":"sh.exec","args":{},"mode":"effect"}`),
			ev("tool_end", t0, `{"tool":"sh.exec","outcome":"ok","durationMs":3}`),
			ev("tool_start", t0, `{"tool":"fs.read"}`),
			ev("tool_start", t0, `{"tool":"sh.exec"}`),
			ev("evidence", t0, `{"kind":"check","ok":true,"msg":"m"}`),
			ev("budget_exceeded", t0, `{"budget":"maxIterations","limit":1,"actual":2}`),
			ev("run_end", t1, `{"durationMs":250}`),
		), func(t *testing.T, s *Summary) {
			if s.RunID != "R" || s.TotalEvents != 8 || s.ToolInvocations != 3 || s.EvidenceCount != 1 ||
				s.Failures != 0 || s.BudgetExceeded != 1 || !s.HasDuration || s.DurationMs != 250 {
				t.Errorf("%+v", s)
			}
			if got := toolsString(s); got != "sh.exec=2 fs.read=1" {
				t.Errorf("tools %s", got)
			}
		}},
		{"ignored lines", lines(
			"",
			"   \t",
			"not json",
			"\uFEFF"+ev("run_start", t0, `{}`), // BOM: unparsable
			ev("stmt_start", t0, "")+" "+ev("stmt_end", t0, ""), // two values on one line
			`[1,2]`,
			`"text"`,
			`null`,
			`{"runId":"R","event":"stmt_start"}`, // no ts
			`{"ts":"x","event":"stmt_start"}`,    // no runId
			`{"ts":5,"runId":"R","event":"stmt_start"}`,         // ts not a string
			`{"ts":"x","runId":["R"],"event":"stmt_start"}`,     // runId not a string
			`{"ts":"x","runId":"OTHER","event":["stmt_start"]}`, // event not a string
			ev("reduce_start", t0, `{}`), ev("filter_end", t0, `{}`), ev("loop_start", t0, `{}`),
			ev("unknown_event", t0, `{}`),
			`{"ts":"x","runId":"OTHER","event":"loop_end"}`, // ignored events do not count for run IDs
			"  "+ev("stmt_start", t0, "")+"\r",              // whitespace and CR tolerated
			ev("stmt_end", t0, ""),
		), func(t *testing.T, s *Summary) {
			if s.TotalEvents != 2 || s.HasStartTime || s.HasDuration {
				t.Errorf("%+v", s)
			}
		}},
		{"all sixteen events count", lines(
			ev("run_start", t0, "{}"), ev("run_end", t0, "{}"), ev("stmt_start", t0, ""), ev("stmt_end", t0, ""),
			ev("tool_start", t0, "{}"), ev("tool_end", t0, "{}"), ev("evidence", t0, "{}"), ev("budget_exceeded", t0, "{}"),
			ev("for_start", t0, "{}"), ev("for_end", t0, "{}"), ev("fn_call_start", t0, "{}"), ev("fn_call_end", t0, "{}"),
			ev("match_start", t0, "{}"), ev("match_end", t0, "{}"), ev("map_start", t0, "{}"), ev("map_end", t0, "{}"),
		), func(t *testing.T, s *Summary) {
			if s.TotalEvents != 16 || len(KnownEvents) != 16 {
				t.Errorf("%+v", s)
			}
		}},
		{"tool names converted like String()", lines(
			ev("tool_start", t0, ""),
			ev("tool_start", t0, `null`),
			ev("tool_start", t0, `{"tool":null}`),
			ev("tool_start", t0, `"not an object"`),
			ev("tool_start", t0, `[1]`),
			ev("tool_start", t0, `{"tool":""}`),
			ev("tool_start", t0, `{"tool":5}`),
			ev("tool_start", t0, `{"tool":-0}`),
			ev("tool_start", t0, `{"tool":1e21}`),
			ev("tool_start", t0, `{"tool":true}`),
			ev("tool_start", t0, `{"tool":[1,[2,null],"x"]}`),
			ev("tool_start", t0, `{"tool":{"a":1}}`),
			ev("tool_start", t0, `{"tool":"[object Object]"}`),
			ev("tool_start", t0, `{"tool":"10"}`),
			ev("tool_start", t0, `{"tool":"2"}`),
			ev("tool_start", t0, `{"tool":"01"}`),
			ev("tool_start", t0, `{"tool":"4294967295"}`),
			ev("tool_start", t0, `{"tool":"4294967294"}`),
			ev("tool_start", t0, `{"tool":"unknown"}`),
		), func(t *testing.T, s *Summary) {
			want := "0=1 2=1 5=1 10=1 4294967294=1 unknown=6 =1 1e+21=1 true=1 1,2,,x=1 [object Object]=2 01=1 4294967295=1"
			if got := toolsString(s); got != want || s.ToolInvocations != 19 {
				t.Errorf("tools %s\nwant  %s", got, want)
			}
		}},
		{"failures from tool errors and evidence", lines(
			ev("tool_end", t0, `{"outcome":"err","error":"boom"}`),
			ev("tool_end", t0, `{"outcome":"ok"}`),
			ev("tool_end", t0, `{"outcome":["err"]}`),
			ev("tool_end", t0, `"err"`),
			ev("evidence", t0, `{"ok":false}`),
			ev("evidence", t0, `{"ok":0}`),
			ev("evidence", t0, `{"ok":null}`),
			ev("evidence", t0, ``),
			ev("run_end", t0, `{"error":"E_TOOL"}`),
		), func(t *testing.T, s *Summary) {
			if s.Failures != 2 || s.EvidenceCount != 4 {
				t.Errorf("%+v", s)
			}
		}},
		{"run error counts when nothing else failed", lines(
			ev("evidence", t0, `{"ok":true}`),
			ev("run_end", t0, `{"error":"E_TYPE"}`),
			ev("run_end", t0, `{"error":"E_TYPE"}`),
		), func(t *testing.T, s *Summary) {
			if s.Failures != 1 {
				t.Errorf("%+v", s)
			}
		}},
		{"run error after evidence failure", lines(
			ev("run_end", t0, `{"error":"E_ASSERT"}`),
			ev("evidence", t0, `{"ok":false}`),
		), func(t *testing.T, s *Summary) {
			if s.Failures != 1 {
				t.Errorf("%+v", s)
			}
		}},
		{"falsy run errors", lines(
			ev("run_end", t0, `{"error":""}`),
			ev("run_end", t0, `{"error":0}`),
			ev("run_end", t0, `{"error":false}`),
			ev("run_end", t0, `{"error":null}`),
			ev("run_end", t0, `"E_X"`),
		), func(t *testing.T, s *Summary) {
			if s.Failures != 0 {
				t.Errorf("%+v", s)
			}
		}},
		{"truthy run errors", lines(ev("run_end", t0, `{"error":{}}`)), func(t *testing.T, s *Summary) {
			if s.Failures != 1 {
				t.Errorf("%+v", s)
			}
		}},
		{"last times win", lines(
			ev("run_start", "2031-01-01T00:00:00.000Z", "{}"),
			ev("run_end", "2031-01-01T00:00:01.000Z", "{}"),
			ev("run_start", t0, "{}"),
			ev("run_end", t1, "{}"),
		), func(t *testing.T, s *Summary) {
			if s.StartTime != t0 || s.EndTime != t1 || s.DurationMs != 250 || s.EndTimeFirst {
				t.Errorf("%+v", s)
			}
		}},
		{"negative duration and end first", lines(
			ev("run_end", t0, "{}"),
			ev("run_start", t1, "{}"),
		), func(t *testing.T, s *Summary) {
			if !s.EndTimeFirst || s.DurationMs != -250 {
				t.Errorf("%+v", s)
			}
		}},
		{"empty ts means no duration", lines(
			ev("run_start", "", "{}"),
			ev("run_end", t1, "{}"),
		), func(t *testing.T, s *Summary) {
			if !s.HasStartTime || s.HasDuration {
				t.Errorf("%+v", s)
			}
		}},
		{"unparsable time gives NaN", lines(
			ev("run_start", "soon", "{}"),
			ev("run_end", t1, "{}"),
		), func(t *testing.T, s *Summary) {
			if !s.HasDuration || !math.IsNaN(s.DurationMs) {
				t.Errorf("%+v", s)
			}
		}},
		{"short and legacy date forms", lines(
			ev("run_start", "2031", "{}"),
			ev("run_end", "Jan 1 2031 00:00:02 GMT", "{}"),
		), func(t *testing.T, s *Summary) {
			if s.DurationMs != 2000 {
				t.Errorf("%+v", s)
			}
		}},
		{"no trailing newline, CRLF", []byte(ev("run_start", t0, "{}") + "\r\n" + ev("run_end", t1, "{}")), func(t *testing.T, s *Summary) {
			if s.TotalEvents != 2 || s.DurationMs != 250 {
				t.Errorf("%+v", s)
			}
		}},
		{"invalid UTF-8 is replaced, not fatal", []byte("\xff\xfe\n" + ev("stmt_start", t0, "")), func(t *testing.T, s *Summary) {
			if s.TotalEvents != 1 {
				t.Errorf("%+v", s)
			}
		}},
		{"empty run id is a run id", []byte(`{"ts":"","runId":"","event":"stmt_start"}`), func(t *testing.T, s *Summary) {
			if s.RunID != "" || s.TotalEvents != 1 {
				t.Errorf("%+v", s)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Summarize(tc.input)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s)
		})
	}
}

func toolsString(s *Summary) string {
	var parts []string
	for _, tc := range s.ToolsByName {
		parts = append(parts, tc.Name+"="+strconv.Itoa(tc.Count))
	}
	return strings.Join(parts, " ")
}

func TestSummaryErrors(t *testing.T) {
	tests := []struct {
		name  string
		input []byte
		want  string
	}{
		{"empty file", nil, MsgNoEvents},
		{"blank lines", []byte("\n \n\t\r\n"), MsgNoEvents},
		{"bad json", []byte("{\nnope\n"), MsgNoEvents},
		{"non-objects", []byte("[]\n1\n\"s\"\nnull\ntrue\n"), MsgNoEvents},
		{"missing fields", []byte(`{"ts":"a","event":"run_start"}` + "\n" + `{"runId":"a","event":"run_start"}`), MsgNoEvents},
		{"unknown events only", lines(ev("reduce_start", t0, "{}"), ev("loop_end", t0, "{}"), ev("filter_start", t0, "{}")), MsgNoEvents},
		{"bom only line", []byte("\uFEFF" + ev("run_start", t0, "{}")), MsgNoEvents},
		{"two runs", []byte(ev("run_start", t0, "{}") + "\n" + strings.Replace(ev("run_end", t0, "{}"), `"R"`, `"S"`, 1)), MsgMultipleRunID},
		{"two runs late", lines(ev("stmt_start", t0, ""), ev("stmt_end", t0, ""), `{"ts":"","runId":"R2","event":"map_end"}`), MsgMultipleRunID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Summarize(tc.input)
			var d *diag.Diagnostic
			if !errors.As(err, &d) || d.Code != diag.ETrace || d.Message != tc.want || d.Span != nil {
				t.Fatalf("err = %#v", err)
			}
			if diag.ExitCode(d.Code, false) != 4 {
				t.Error("E_TRACE exits 4")
			}
			hint := "Give a file written by a0 run --trace FILE: one JSON event per line, each with a known type and a runId."
			if tc.want == MsgMultipleRunID {
				hint = "Summarize one run: each a0 run --trace FILE truncates FILE, so give each run a file of its own."
			}
			if strings.TrimSpace(string(tc.input)) == "" {
				hint = "The file is empty: a run writes its trace with a0 run --trace FILE, one JSON event per line (a run stopped by a static error or an invalid policy writes none)."
			}
			if got, want := d.Text("", diag.Style{}), "error[E_TRACE]: "+tc.want+"\n  --> <unknown>\n  hint: "+hint; got != want {
				t.Errorf("pretty = %q", got)
			}
			if got, want := d.JSON(diag.FormCLI), `{"code":"E_TRACE","message":"`+tc.want+`"}`; got != want {
				t.Errorf("json = %q", got)
			}
		})
	}
}

func TestSummaryOutputs(t *testing.T) {
	input := lines(
		ev("run_start", t0, `{"file":"f.a0","capabilities":["fs.read","sh.exec"]}`),
		ev("stmt_start", t0, ""),
		ev("tool_start", t0, `{"tool":"sh.exec"}`),
		ev("tool_end", t0, `{"tool":"sh.exec","outcome":"err","durationMs":1,"error":"x"}`),
		ev("tool_start", t0, `{"tool":"7"}`),
		ev("tool_start", t0, `{"tool":"fs.read"}`),
		ev("evidence", t0, `{"kind":"assert","ok":false,"msg":"m"}`),
		ev("run_end", t1, `{"durationMs":250,"error":"E_ASSERT","message":"m"}`),
	)
	s, err := Summarize(input)
	if err != nil {
		t.Fatal(err)
	}
	wantText := `Trace Summary
  Run ID:           R
  Total events:     8
  Tool invocations: 3
  Tools used:
    7: 1
    sh.exec: 1
    fs.read: 1
  Evidence events:  1
  Failures:         2
  Budget exceeded:  0
  Duration:         250ms
`
	if got := s.Text(); got != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", got, wantText)
	}
	wantJSON := `{
  "runId": "R",
  "totalEvents": 8,
  "toolInvocations": 3,
  "toolsByName": {
    "7": 1,
    "sh.exec": 1,
    "fs.read": 1
  },
  "evidenceCount": 1,
  "failures": 2,
  "budgetExceeded": 0,
  "startTime": "2031-02-03T04:05:06.000Z",
  "endTime": "2031-02-03T04:05:06.250Z",
  "durationMs": 250
}
`
	if got := s.JSON(); got != wantJSON {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, wantJSON)
	}

	// Minimal: no tools, no times; end before start; NaN duration.
	s, _ = Summarize([]byte(`{"ts":"x","runId":"id\u0001\ud800","event":"stmt_start"}`))
	wantText = "Trace Summary\n  Run ID:           id\x01\uFFFD\n  Total events:     1\n  Tool invocations: 0\n" +
		"  Evidence events:  0\n  Failures:         0\n  Budget exceeded:  0\n"
	if got := s.Text(); got != wantText {
		t.Errorf("text:\n%q\nwant:\n%q", got, wantText)
	}
	wantJSON = "{\n  \"runId\": \"id\\u0001\\ud800\",\n  \"totalEvents\": 1,\n  \"toolInvocations\": 0,\n  \"toolsByName\": {},\n" +
		"  \"evidenceCount\": 0,\n  \"failures\": 0,\n  \"budgetExceeded\": 0\n}\n"
	if got := s.JSON(); got != wantJSON {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, wantJSON)
	}
	s, _ = Summarize(lines(ev("run_end", "later", "{}"), ev("run_start", t0, "{}")))
	if got := s.JSON(); !strings.Contains(got, "  \"endTime\": \"later\",\n  \"startTime\": \""+t0+"\",\n  \"durationMs\": null\n}") {
		t.Errorf("JSON:\n%s", got)
	}
	if got := s.Text(); !strings.HasSuffix(got, "  Duration:         NaNms\n") {
		t.Errorf("text:\n%s", got)
	}
}

func TestParseLine(t *testing.T) {
	ok := []struct{ in, json string }{
		{` {"a":1,"b":[true,false,null],"a":2} ` + "\r", `{"a":2,"b":[true,false,null]}`},
		{`{"2":1,"x":1,"1":1}`, `{"1":1,"2":1,"x":1}`},
		{`"\ud83d\ude00\ud800\u0041\/"`, "\"\U0001F600\\ud800A/\""},
		{`-0.5e-3`, `-0.0005`},
		{`1e400`, `null`},
		{`[]`, `[]`},
		{`{}`, `{}`},
	}
	for _, tc := range ok {
		v, good := parseLine(tc.in)
		if !good {
			t.Errorf("parseLine(%q) failed", tc.in)
			continue
		}
		if got := jsonOf(v); got != tc.json {
			t.Errorf("parseLine(%q) = %s, want %s", tc.in, got, tc.json)
		}
	}
	for _, in := range []string{``, ` `, `{} {}`, `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `+1`, `"a` + "\t" + `"`, `"\x"`, `"\u12"`, `tru`, `nul`, `{a:1}`, `'s'`, "\uFEFF{}", "\u00a0{}", `NaN`, `[`} {
		if _, good := parseLine(in); good {
			t.Errorf("parseLine(%q) should fail", in)
		}
	}
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	if _, good := parseLine(deep); good {
		t.Error("very deep nesting should be refused, not crash")
	}
}

func jsonOf(v value.Value) string { return value.JSON(v) }

// TestNoEventsHint: a file with no trace event that is another of a0's
// files (evidence, a policy, a program, an empty trace) is named as such.
func TestNoEventsHint(t *testing.T) {
	tests := []struct{ file, want string }{
		{"", "The file is empty: "},
		{"[{\"kind\": \"check\", \"ok\": true}]", "This looks like an evidence file (a0 run --evidence FILE)"},
		{"{\"version\": 1, \"allow\": []}", "This looks like a policy file"},
		{"cap { fs.read: true }\nreturn 1\n", "This looks like an A0 program: run it with a0 run --trace trace.jsonl FILE"},
		{"garbage\n", "Give a file written by a0 run --trace FILE"},
	}
	for _, tc := range tests {
		_, err := Summarize([]byte(tc.file))
		d, ok := err.(*diag.Diagnostic)
		if !ok || d.Message != MsgNoEvents || !strings.HasPrefix(d.Hint, tc.want) {
			t.Errorf("%q: got %v, want a hint starting %q", tc.file, err, tc.want)
		}
	}
}
