//go:build linux

package proc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeEnvRefused: under an allowlist, an env variable that makes the
// allowed program's interpreter run other code is refused (issue 13.1):
// ldd is a bash script, and bash runs BASH_ENV.
func TestCodeEnvRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := []string{"PATH=" + os.Getenv("PATH"), "PYTHONPATH=/somewhere"}
	allowLdd := func(c *Config) { c.Allow = []string{"ldd", "true"}; c.BaseEnv = base; c.WorkDir = dir }
	cases := []struct {
		name   string
		mod    func(*Config)
		req    Request
		refuse string // the refused name ("" = allowed)
	}{
		{"BASH_ENV set", allowLdd, Request{Argv: []string{"ldd", "--version"}, EnvMode: "replace",
			Env: [][2]string{{"BASH_ENV", "$(echo pwned > pwned.txt)"}}}, "BASH_ENV"},
		{"exported function", allowLdd, Request{Argv: []string{"true"}, EnvMode: "replace", Env: [][2]string{{"BASH_FUNC_ls%%", "() { id; }"}}}, "BASH_FUNC_ls%%"},
		{"git config entry", allowLdd, Request{Argv: []string{"true"}, EnvMode: "replace", Env: [][2]string{{"GIT_CONFIG_KEY_0", "core.pager"}}}, "GIT_CONFIG_KEY_0"},
		{"kept from the interpreter", allowLdd, Request{Argv: []string{"true"}}, "PYTHONPATH"},
		{"removed", allowLdd, Request{Argv: []string{"true"}, EnvRemove: []string{"PYTHONPATH"}}, ""},
		{"replace mode drops it", allowLdd, Request{Argv: []string{"true"}, EnvMode: "replace"}, ""},
		{"allowed by envAllowCode", func(c *Config) { allowLdd(c); c.EnvAllowCode = []string{"PYTHONPATH", "NODE_OPTIONS"} },
			Request{Argv: []string{"true"}, Env: [][2]string{{"NODE_OPTIONS", "--require x"}}}, ""},
		{"no allowlist", func(c *Config) { c.BaseEnv = base }, Request{Argv: []string{"true"}, Env: [][2]string{{"BASH_ENV", "x"}}}, ""},
	}
	for _, tc := range cases {
		e := testEngine(t, tc.mod)
		r := tc.req
		r.MaxOutput, r.Remaining = -1, -1
		_, err := e.Prepare(&r)
		if tc.refuse == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		pe, ok := err.(*Error)
		if !ok || pe.Kind != "cap_denied" || pe.Reason != "env_not_allowed" || !strings.Contains(pe.Msg, tc.refuse) ||
			!strings.Contains(pe.Msg, "exec.envAllowCode") || len(pe.Fields) != 1 || pe.Fields[0][1] != "env."+tc.refuse {
			t.Errorf("%s: got %v, want env_not_allowed for %s", tc.name, err, tc.refuse)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned.txt")); err == nil {
		t.Error("BASH_ENV ran")
	}
}

// TestNotFoundMasksArgv0: a secret the program put in argv[0] is not
// echoed by the "executable not found" refusal (issue 13.8).
func TestNotFoundMasksArgv0(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-very-secret"
	e := testEngine(t, func(c *Config) { c.BaseEnv = []string{"PATH=/usr/bin:/bin", "MY_TOKEN=" + secret} })
	for _, argv0 := range []string{"run-" + secret, "./bin/" + secret} {
		_, err := e.Prepare(&Request{Argv: []string{argv0}, MaxOutput: -1, Remaining: -1})
		pe, ok := err.(*Error)
		if !ok || pe.Reason != "not_found" {
			t.Fatalf("%s: %v", argv0, err)
		}
		if strings.Contains(pe.Msg, secret) || strings.Contains(pe.Fields[0][1], secret) {
			t.Errorf("secret echoed: %q %q", pe.Msg, pe.Fields)
		}
		if !strings.Contains(pe.Msg, "MY_TOKEN") {
			t.Errorf("no mask marker: %q", pe.Msg)
		}
	}
}
