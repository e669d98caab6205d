package trace

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// SummarizeReader reads a line at a time what Summarize is given whole:
// the summaries and errors agree, over lines longer than the reader's
// buffer, invalid UTF-8 at line ends, a missing final newline, and a
// reader that yields one byte at a time.
func TestSummarizeReaderAgrees(t *testing.T) {
	ev := func(event, data string) string {
		return `{"ts":"2026-01-01T00:00:00.000Z","runId":"r1","event":"` + event + `","data":` + data + "}\n"
	}
	big := strings.Repeat("x", 200<<10)
	cases := map[string]string{
		"plain":      ev("run_start", "{}") + ev("tool_start", `{"tool":"fs.read"}`) + ev("tool_end", `{"outcome":"err"}`) + ev("run_end", "{}"),
		"long line":  ev("run_start", "{}") + ev("tool_start", `{"tool":"fs.read","args":"`+big+`"}`) + ev("run_end", "{}"),
		"bad utf8":   ev("run_start", "{}") + "\xe2\x82\n" + ev("evidence", `{"ok":false}`),
		"no newline": strings.TrimSuffix(ev("run_start", "{}")+ev("run_end", "{}"), "\n"),
		"two runs":   ev("run_start", "{}") + strings.Replace(ev("run_end", "{}"), `"r1"`, `"r2"`, 1),
		"empty":      "",
		"evidence":   `[{"kind":"check","ok":true}]`,
	}
	// Independent of Summarize: events, tool invocations, failures.
	counts := map[string][3]int{"plain": {4, 1, 1}, "long line": {3, 1, 0}, "bad utf8": {2, 0, 1}, "no newline": {2, 0, 0}}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			want, werr := Summarize([]byte(text))
			got, gerr := SummarizeReader(iotest.OneByteReader(bytes.NewReader([]byte(text))))
			if n, ok := counts[name]; ok && (gerr != nil || [3]int{got.TotalEvents, got.ToolInvocations, got.Failures} != n) {
				t.Fatalf("counts %+v, %v; want events, tools, failures %v", got, gerr, n)
			}
			if !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("reader: %+v, %v\nwhole: %+v, %v", got, gerr, want, werr)
			}
		})
	}
}
