package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestREPLInputCommand: :input binds `input` for the session, from JSON or
// an A0 record of literals; code is refused with E_INPUT.
func TestREPLInputCommand(t *testing.T) {
	replDir(t)
	cases := []struct {
		name, stdin string
		out         []string // stdout lines
		codes       []string // diagnostic codes on stderr
		exit        int
	}{
		{"A0 record", ":input { repo: \".\", limit: -10, tags: [\"a\", null] }\ninput.repo\ninput.limit\n",
			[]string{"input bound: repo, limit, tags", `"."`, "-10"}, nil, 0},
		{"JSON object, rebinding", ":input {\"repo\": \"x\"}\n:input {\"repo\": \"y\", \"n\": 1.5}\ninput\n",
			[]string{"input bound: repo", "input bound: repo, n", `{"repo":"y","n":1.5}`}, nil, 0},
		{"show", ":input\n:input { a: true }\n:input\n",
			[]string{"no input bound (:input { name: value, ... } binds one)", "input bound: a", `input = {"a":true}`}, nil, 0},
		{"statements use it", ":input { n: 4 }\nfn sq {} { return input.n * input.n }\nsq {}\n",
			[]string{"input bound: n", "16"}, nil, 0},
		{"a name is code", ":input { a: x }\n", nil, []string{"E_INPUT"}, 2},
		{"an operator is code", ":input { a: 1 + 2 }\n", nil, []string{"E_INPUT"}, 2},
		{"a call is code", ":input { a: len { in: [] } }\n", nil, []string{"E_INPUT"}, 2},
		{"not a record", ":input [1, 2]\n", nil, []string{"E_INPUT"}, 2},
		{"reset forgets it", ":input { a: 1 }\n:reset\ninput\n", []string{"input bound: a", "session reset"}, []string{"E_UNBOUND"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := pipedREPL(t, c.stdin)
			var lines []string
			if s := strings.TrimRight(out, "\n"); s != "" {
				lines = strings.Split(s, "\n")
			}
			if !reflect.DeepEqual(lines, c.out) {
				t.Errorf("stdout %q, want %q", lines, c.out)
			}
			if got := diagCodes(t, errOut); !reflect.DeepEqual(got, c.codes) {
				t.Errorf("stderr codes %q, want %q (%s)", got, c.codes, errOut)
			}
			if code != c.exit {
				t.Errorf("exit %d, want %d", code, c.exit)
			}
		})
	}
}

// TestREPLInputTraced: after :input, each input's run_start records the
// bound inputs, secret names masked.
func TestREPLInputTraced(t *testing.T) {
	dir := replDir(t)
	_, errOut, code := pipedREPL(t, ":input { user: \"ann\", db_password: \"hunter2hunter2\" }\ninput.user\n", "--trace", "t.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "t.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"input":{"user":"ann","db_password":"[masked:db_password]"}`) || strings.Contains(string(b), "hunter2") {
		t.Errorf("trace:\n%s", b)
	}
}
