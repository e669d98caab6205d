package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestMCPRunInput: a0_run's "input" object gives a program its declared
// inputs; mismatches are E_INPUT with exit code 2.
func TestMCPRunInput(t *testing.T) {
	cs := mcpSession(t, "")
	src := `input { repo: "str", limit: "int?" }` + "\nreturn { repo: input.repo, limit: input.limit }"
	cases := []struct {
		name   string
		args   map[string]any
		exit   int
		value  string // the value's JSON when exit is 0
		reason string // details.reason of the E_INPUT otherwise
	}{
		{"inputs given", map[string]any{"source": src, "input": map[string]any{"repo": ".", "limit": 3}}, 0, `{"repo":".","limit":3}`, ""},
		{"optional left out", map[string]any{"source": src, "input": map[string]any{"repo": "x"}}, 0, `{"repo":"x","limit":null}`, ""},
		{"null input is none", map[string]any{"source": "return 1", "input": nil}, 0, `1`, ""},
		{"missing required", map[string]any{"source": src}, 2, "", "missing"},
		{"wrong type", map[string]any{"source": src, "input": map[string]any{"repo": ".", "limit": 2.5}}, 2, "", "type"},
		{"undeclared", map[string]any{"source": src, "input": map[string]any{"repo": ".", "lmit": 1}}, 2, "", "undeclared"},
		{"no header", map[string]any{"source": "return 1", "input": map[string]any{"a": 1}}, 2, "", "undeclared"},
		{"not an object", map[string]any{"source": src, "input": []any{1}}, 2, "", "json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, out, text := callTool(t, cs, "a0_run", c.args)
			if out.ExitCode != c.exit {
				t.Fatalf("exit %d, want %d: %s", out.ExitCode, c.exit, text)
			}
			if c.exit == 0 {
				var got, want any
				json.Unmarshal(out.Value, &got)
				json.Unmarshal([]byte(c.value), &want)
				if !reflect.DeepEqual(got, want) || res.IsError {
					t.Errorf("value %s, want %s", out.Value, c.value)
				}
				return
			}
			if !res.IsError || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_INPUT" || out.Diagnostics[0].Hint == "" {
				t.Fatalf("result %+v", out)
			}
			var det struct{ Reason string }
			json.Unmarshal(out.Diagnostics[0].Details, &det)
			if det.Reason != c.reason {
				t.Errorf("reason %q, want %q (%s)", det.Reason, c.reason, out.Diagnostics[0].Details)
			}
		})
	}
	// The schema names "input"; a0_check does not take it.
	lt, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range lt.Tools {
		s, _ := json.Marshal(tool.InputSchema)
		has := strings.Contains(string(s), `"input":{`)
		if has != (tool.Name == "a0_run") {
			t.Errorf("%s input schema %s", tool.Name, s)
		}
	}
}
