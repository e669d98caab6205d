package mcptool

import (
	"bufio"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime/mcpwire"
)

func intID(n int64) mcpwire.ID { return mcpwire.Int64ID(n) }

// readLines reads l to its end: the lines it passes, and the answers
// that stand for discarded lines (encoded), one a line; over lists the
// ids of those answers.
func readLines(t *testing.T, l *lineLimiter) (out string, over []mcpwire.ID) {
	t.Helper()
	var b strings.Builder
	for {
		line, repl, err := l.next()
		for _, m := range repl {
			r := m.(*mcpwire.Response)
			if errors.Is(r.Error, mcpwire.ErrMessageTooLarge) {
				over = append(over, r.ID)
			}
			data, _ := mcpwire.EncodeMessage(m)
			b.Write(append(data, '\n'))
		}
		if line != nil {
			b.Write(append(line, '\n'))
		}
		if err != nil {
			return b.String(), over
		}
	}
}

func TestSchemaProblem(t *testing.T) {
	deep := strings.Repeat(`{"allOf":[`, 40) + `{}` + strings.Repeat(`]}`, 40)
	tests := []struct {
		name, schema, want string
		unsure             bool
	}{
		{"plain", `{"type":"object","properties":{"q":{"type":"string"}}}`, "", false},
		{"self $ref", `{"$ref":"#"}`, "loop back to # ", false},
		{"mutual through $defs", `{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, "loop back to #/$defs/a", false},
		{"through anyOf", `{"anyOf":[{"type":"string"},{"$ref":"#"}]}`, "loop back to #", false},
		{"through not", `{"$defs":{"n":{"not":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}`, "loop back to #/$defs/n", false},
		{"through if/then", `{"if":{"$ref":"#"},"then":{}}`, "loop back to #", false},
		{"draft-07 definitions", `{"definitions":{"x":{"$ref":"#/definitions/x"}},"type":"object"}`, "loop back to #/definitions/x", false},
		{"anchor loop", `{"$defs":{"a":{"$anchor":"A","$ref":"#A"}},"type":"object"}`, "loop back to #/$defs/a", false},
		{"escaped pointer", `{"$defs":{"a/b":{"$ref":"#/$defs/a~1b"}},"type":"object"}`, "loop back to #/$defs/a~1b", false},
		{"recursive through properties: fine", `{"type":"object","properties":{"next":{"$ref":"#"}}}`, "", false},
		{"recursive through items: fine", `{"type":"array","items":{"$ref":"#"}}`, "", false},
		{"ref to the root's $id", `{"$id":"https://x.example/s","$ref":"https://x.example/s"}`, "loop back to #", false},
		{"another document: unsure", `{"$ref":"https://x.example/other.json"}`, "", true},
		{"nested $id: unsure", `{"$defs":{"a":{"$id":"https://x.example/a","$ref":"a"}}}`, "", true},
		{"too deep", deep, "nested more than 64 levels deep", false},
		{"deep but allowed", strings.Repeat(`{"allOf":[`, 30) + `{}` + strings.Repeat(`]}`, 30), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, unsure := schemaProblem([]byte(tc.schema))
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) || unsure != tc.unsure {
				t.Errorf("got %q unsure=%v, want %q unsure=%v", got, unsure, tc.want, tc.unsure)
			}
			if got == "" && !unsure && compileSchema([]byte(tc.schema)) == nil && tc.name != "ref to the root's $id" {
				t.Logf("accepted but not compiled: %s", tc.schema)
			}
		})
	}
}

func TestSanitizeToolsList(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 200) + `{}` + strings.Repeat(`}}`, 200)
	res := `{"tools":[{"name":"ok","inputSchema":{"type":"object"}},{"name":"deep","description":"d","inputSchema":` + deep +
		`,"annotations":{"readOnlyHint":true}},{"name":"out","inputSchema":{},"outputSchema":` + deep + `}],"nextCursor":"c"}`
	out, refused := sanitizeToolsList([]byte(res))
	if len(refused) != 1 || !strings.Contains(refused["deep"], "64 levels") {
		t.Errorf("refused %v", refused)
	}
	var v struct {
		Tools []struct {
			Name         string
			InputSchema  map[string]any
			OutputSchema any
			Annotations  map[string]any
		}
		NextCursor string
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(v.Tools) != 3 || v.Tools[1].InputSchema["type"] != "object" || v.Tools[1].Annotations["readOnlyHint"] != true ||
		v.Tools[2].OutputSchema != nil || v.NextCursor != "c" {
		t.Errorf("sanitized: %s", out)
	}
}

// TestLineLimiter: an over-long line is discarded and answered for the
// request it answers, found by its id at the start or the end, or for
// every pending request; the lines after it pass unchanged.
func TestLineLimiter(t *testing.T) {
	big := strings.Repeat("x", 300)
	tests := []struct {
		name, line string
		want       []int64
	}{
		{"id first", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + big + `"}]}}`, []int64{2}},
		{"id last", `{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"` + big + `"}],"x":{"id":3}},"id":1}`, []int64{1}},
		{"no id", `{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"` + big + `"}]}}`, []int64{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &connState{pending: map[mcpwire.ID]*pendingReq{}, incoming: map[mcpwire.ID]bool{}}
			for _, id := range []int64{1, 2} {
				st.pending[intID(id)] = &pendingReq{method: "tools/call"}
			}
			after := `{"jsonrpc":"2.0","id":9,"result":{}}`
			l := &lineLimiter{r: bufio.NewReaderSize(strings.NewReader(tc.line+"\n"+after+"\n"), 64), limit: 200, st: st}
			b, over := readLines(t, l)
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			if len(lines) != len(tc.want)+1 || lines[len(lines)-1] != after {
				t.Fatalf("out:\n%s", b)
			}
			got := map[mcpwire.ID]bool{}
			for _, id := range over {
				got[id] = true
			}
			for _, id := range tc.want {
				if !got[intID(id)] {
					t.Errorf("id %d not answered as over the limit", id)
				}
			}
			if len(over) != len(tc.want) {
				t.Errorf("over %v", over)
			}
			for _, ln := range lines[:len(tc.want)] {
				if !strings.Contains(ln, `"code":-32099`) || !strings.Contains(ln, "limit of 200 bytes") {
					t.Errorf("replacement %s", ln)
				}
			}
		})
	}
}

// TestAdmit: requests of the server beyond maxServerRequests in flight,
// notifications other than progress and log messages, and batches are
// dropped before they are decoded.
func TestAdmit(t *testing.T) {
	st := &connState{pending: map[mcpwire.ID]*pendingReq{}, incoming: map[mcpwire.ID]bool{}}
	var in strings.Builder
	for i := 0; i < 20; i++ {
		in.WriteString(`{"jsonrpc":"2.0","id":` + strings.Repeat("1", i+1) + `,"method":"ping"}` + "\n")
	}
	in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n") // a repeated id
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}` + "\n")
	in.WriteString(`[{"jsonrpc":"2.0","id":77,"method":"ping"}]` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":5,"result":{}}` + "\n")
	l := &lineLimiter{r: bufio.NewReader(strings.NewReader(in.String())), limit: 1 << 20, st: st}
	b, _ := readLines(t, l)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != maxServerRequests+2 || !strings.Contains(lines[len(lines)-2], `notifications/message`) || !strings.Contains(lines[len(lines)-1], `"result"`) {
		t.Errorf("passed:\n%s", b)
	}
	if len(st.incoming) != maxServerRequests || st.dropped != 20-maxServerRequests+3 {
		t.Errorf("incoming %d, dropped %d", len(st.incoming), st.dropped)
	}
}
