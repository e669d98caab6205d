package termout

import (
	"encoding/json"
	"fmt"
	"testing"
)

// The names the test had in cmd/a0.
var (
	termSafe     = Safe
	jsonTermSafe = SafeJSON
)

// TestTermSafe: the escaping of server text for a terminal.
func TestTermSafe(t *testing.T) {
	for _, tc := range []struct {
		in, want, wantNL string
	}{
		{"plain text, ünïcode ✓ 😀", "plain text, ünïcode ✓ 😀", "plain text, ünïcode ✓ 😀"},
		{"a\nb", `a\x0ab`, "a\nb"},
		{"osc52 \x1b]52;c;aGk=\x07 end", `osc52 \x1b]52;c;aGk=\x07 end`, `osc52 \x1b]52;c;aGk=\x07 end`},
		{"cr\rtab\tnul\x00bs\x08", `cr\x0dtab\x09nul\x00bs\x08`, `cr\x0dtab\x09nul\x00bs\x08`},
		{"del\x7f c1\u0085\u009b", `del\x7f c1\u0085\u009b`, `del\x7f c1\u0085\u009b`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`, `ls\u2028ps\u2029`},
		{"\u202a\u202b\u202c\u202d\u202e|\u2066\u2067\u2068\u2069", `\u202a\u202b\u202c\u202d\u202e|\u2066\u2067\u2068\u2069`, `\u202a\u202b\u202c\u202d\u202e|\u2066\u2067\u2068\u2069`},
		{"zwj\u200d lrm\u200e ok", "zwj\u200d lrm\u200e ok", "zwj\u200d lrm\u200e ok"},
		{"bad \xff\xfe utf8 \xc2", `bad \xff\xfe utf8 \xc2`, `bad \xff\xfe utf8 \xc2`},
	} {
		if got := termSafe(tc.in, false); got != tc.want {
			t.Errorf("termSafe(%q, false) = %q, want %q", tc.in, got, tc.want)
		}
		if got := termSafe(tc.in, true); got != tc.wantNL {
			t.Errorf("termSafe(%q, true) = %q, want %q", tc.in, got, tc.wantNL)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{`{"a":"x\u001by"}`, `{"a":"x\u001by"}`},
		{"{\"a\":\"del\x7f c1\u009b ls\u2028 rlo\u202e fsi\u2068 é\"}", `{"a":"del\u007f c1\u009b ls\u2028 rlo\u202e fsi\u2068 é"}`},
	} {
		got := jsonTermSafe(tc.in)
		if got != tc.want {
			t.Errorf("jsonTermSafe(%q) = %q, want %q", tc.in, got, tc.want)
		}
		var a, b any
		if json.Unmarshal([]byte(tc.in), &a) != nil || json.Unmarshal([]byte(got), &b) != nil || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("jsonTermSafe(%q) changed the value: %v vs %v", tc.in, a, b)
		}
	}
}
