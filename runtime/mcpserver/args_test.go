package mcpserver

import (
	"strings"
	"testing"
)

// TestMCPArgErrorsArePlain: argument errors name the property and the
// JSON kind it needs, never a Go type or struct field.
func TestMCPArgErrorsArePlain(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`{"source": 5}`, `invalid arguments: "source" must be a string, not a number`},
		{`{"source": "x", "file": "a"}`, `invalid arguments: unknown property "file"; this tool takes "source" and "filename"`},
		{`[1]`, `invalid arguments: the arguments must be a JSON object with "source" and "filename"`},
		{`{"topic": true}`, ``},
	}
	for _, tc := range tests {
		var in mcpSourceInput
		var err error
		if strings.Contains(tc.raw, "topic") {
			var h mcpHelpInput
			err = decodeArgs([]byte(tc.raw), &h)
			tc.want = `invalid arguments: "topic" must be a string, not a boolean`
		} else {
			err = decodeArgs([]byte(tc.raw), &in)
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v\nwant %s", tc.raw, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "mcp")) {
			t.Errorf("%s: implementation words in %q", tc.raw, err)
		}
	}
}
