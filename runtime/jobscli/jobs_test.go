package jobscli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/hostpolicy"
	"github.com/a0lang/a0/runtime/policy"
)

// TestRunAnswers runs Run in process for answers that start no job: the
// help text, usage errors, and status / list / gc of an empty store given
// by --root (which never asks for the policy).
func TestRunAnswers(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	tests := []struct {
		name     string
		args     []string
		exit     int
		typ      string
		code     string // error code, "" when ok
		policied bool   // the Policy callback is called
	}{
		{"no subcommand", nil, diag.ExitUsage, "jobs", "E_USAGE", false},
		{"unknown subcommand", []string{"frob"}, diag.ExitUsage, "jobs", "E_USAGE", false},
		{"unknown flag", []string{"list", "--bogus"}, diag.ExitUsage, "list", "E_USAGE", false},
		{"notify without set", []string{"notify"}, diag.ExitUsage, "notify", "E_USAGE", false},
		{"bad id", []string{"--root", root, "status", "x"}, diag.ExitUsage, "status", "E_USAGE", false},
		{"no such job", []string{"--root", root, "status", "j_0123456789abcdef"}, diag.ExitRuntime, "status", "E_TOOL", false},
		{"empty list", []string{"list", "--root=" + root}, diag.ExitOK, "list", "", false},
		{"gc dry run", []string{"--root", root, "gc", "--dry-run"}, diag.ExitOK, "gc", "", false},
		{"kill needs sh.exec", []string{"--root", root, "kill", "j_0123456789abcdef"}, diag.ExitCap, "kill", "E_CAP_DENIED", true},
		// A missing or malformed id is a usage error before the policy is asked.
		{"kill without id", []string{"--root", root, "kill"}, diag.ExitUsage, "kill", "E_USAGE", false},
		{"kill bad id", []string{"--root", root, "kill", "x"}, diag.ExitUsage, "kill", "E_USAGE", false},
		{"start without id", []string{"--root", root, "start"}, diag.ExitUsage, "start", "E_USAGE", false},
		{"notify set without id", []string{"--root", root, "notify", "set"}, diag.ExitUsage, "notify set", "E_USAGE", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			called := false
			code := Run(tc.args, Options{Stdout: &out, Stderr: &errOut, Version: "test",
				Policy: func(file string) (*policy.Resolved, string, *diag.Diagnostic) {
					called = true
					wd := t.TempDir() // no policy file: the built-in default
					res, d := hostpolicy.Resolve(wd, wd, false, file)
					return res, wd, d
				}})
			if code != tc.exit {
				t.Fatalf("exit %d, want %d (stdout %q, stderr %q)", code, tc.exit, out.String(), errOut.String())
			}
			if called != tc.policied {
				t.Errorf("Policy called: %v, want %v", called, tc.policied)
			}
			var got struct {
				SchemaVersion int    `json:"schemaVersion"`
				OK            bool   `json:"ok"`
				Type          string `json:"type"`
				Error         *struct{ Code, Message, Hint string }
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil || strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("stdout is not one JSON line: %q (%v)", out.String(), err)
			}
			if got.SchemaVersion != 1 || got.Type != tc.typ || got.OK != (tc.code == "") {
				t.Errorf("answer %+v, want type %q ok %v", got, tc.typ, tc.code == "")
			}
			if tc.code != "" {
				if got.Error == nil || got.Error.Code != tc.code || got.Error.Hint == "" {
					t.Errorf("error %+v, want code %s with a hint", got.Error, tc.code)
				}
				if !strings.HasPrefix(errOut.String(), "a0 jobs") {
					t.Errorf("stderr %q, want one a0 jobs line", errOut.String())
				}
			}
		})
	}
}

// TestRunHelp: --help prints Help() and nothing else.
func TestRunHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"list", "--help"}, Options{Stdout: &out, Stderr: &errOut}); code != diag.ExitOK {
		t.Fatalf("exit %d", code)
	}
	if out.String() != Help() || errOut.Len() != 0 || !strings.HasPrefix(Help(), "Usage: a0 jobs ") {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}

// TestUsageHints: a mistyped subcommand or flag is answered with the
// nearest one that exists there.
func TestUsageHints(t *testing.T) {
	tests := []struct {
		args    []string
		message string
		hint    string // the hint starts with it
	}{
		{[]string{"rn"}, "unknown subcommand 'rn'", "did you mean 'run'? subcommands: run, create,"},
		{[]string{"stauts", "j_0123456789abcdef"}, "unknown subcommand 'stauts'", "did you mean 'status'?"},
		{[]string{"frobnicate"}, "unknown subcommand 'frobnicate'", "subcommands: run, create,"},
		{[]string{"help"}, "unknown subcommand 'help'", "for the help, write a0 jobs --help (or a0 help jobs); subcommands: run,"},
		{[]string{"run", "--tagg", "x", "--", "true"}, "unknown option '--tagg' for a0 jobs run", "did you mean --tag? a0 jobs --help"},
		{[]string{"list", "--stat", "running"}, "unknown option '--stat' for a0 jobs list", "did you mean --state?"},
		{[]string{"--rooot", "x", "list"}, "unknown option '--rooot' for a0 jobs", "did you mean --root?"},
		{[]string{"list", "--polcy", "p.json"}, "unknown option '--polcy' for a0 jobs list", "did you mean --policy?"},
		{[]string{"list", "--zzzzzzzz"}, "unknown option '--zzzzzzzz' for a0 jobs list", "a0 jobs --help lists"},
		{[]string{"notify", "set"}, "a0 jobs notify set needs exactly one job id", "a0 jobs list shows the ids"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Run(tc.args, Options{Stdout: &out, Stderr: &errOut, Version: "test",
				Policy: func(string) (*policy.Resolved, string, *diag.Diagnostic) {
					t.Fatal("the policy was asked for")
					return nil, "", nil
				}})
			if code != diag.ExitUsage {
				t.Fatalf("exit %d, want %d (stdout %q)", code, diag.ExitUsage, out.String())
			}
			var got struct {
				Error struct{ Code, Message, Hint string }
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("stdout %q: %v", out.String(), err)
			}
			if got.Error.Message != tc.message || !strings.HasPrefix(got.Error.Hint, tc.hint) {
				t.Errorf("error %+v, want message %q and a hint starting %q", got.Error, tc.message, tc.hint)
			}
		})
	}
}
