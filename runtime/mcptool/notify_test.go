package mcptool_test

import (
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/mcptool"
)

// TestServerNotifications: the progress and the log messages a server
// sends during a call are events of the call in the trace (mcp_progress,
// mcp_log), in order, with the server's secrets masked. Before, a0 sent
// no progress token, never set a logging level and dropped both.
func TestServerNotifications(t *testing.T) {
	m, _ := mcptool.NewManager(local(t, t.TempDir()))
	defer m.Close()
	tr := &sink{}
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.steps: true }
return call? notes.steps { steps: 3, ms: 10, leak: true }`, tr)
	if err != nil || value.ToText(v) != "done" {
		t.Fatalf("%v %v", value.JSON(v), err)
	}
	var got []string
	for _, ev := range tr.evs {
		switch ev.Event {
		case mcptool.ProgressEvent, mcptool.LogEvent, "tool_start", "tool_end":
			d := ev.Data
			if ev.Event == "tool_start" || ev.Event == "tool_end" {
				d = value.Value{}
			}
			s := ev.Event
			if d.AsRecord() != nil {
				s += " " + value.JSON(d)
			}
			got = append(got, s)
		}
	}
	want := []string{
		"tool_start",
		`mcp_progress {"server":"notes","tool":"notes.steps","progress":1,"total":3,"message":"step 1 of 3"}`,
		`mcp_log {"server":"notes","tool":"notes.steps","level":"info","logger":"steps","data":{"secret":"[masked:SECRET_TOKEN]","step":1}}`,
		`mcp_progress {"server":"notes","tool":"notes.steps","progress":2,"total":3,"message":"step 2 of 3"}`,
		`mcp_log {"server":"notes","tool":"notes.steps","level":"info","logger":"steps","data":{"secret":"[masked:SECRET_TOKEN]","step":2}}`,
		`mcp_progress {"server":"notes","tool":"notes.steps","progress":3,"total":3,"message":"step 3 of 3"}`,
		`mcp_log {"server":"notes","tool":"notes.steps","level":"warning","logger":"steps","data":{"secret":"[masked:SECRET_TOKEN]","step":3}}`,
		"tool_end",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, ev := range tr.evs {
		if strings.Contains(value.JSON(ev.Data), "hunter2") {
			t.Errorf("secret in the trace: %s %s", ev.Event, value.JSON(ev.Data))
		}
	}
}
