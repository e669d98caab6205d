//go:build unix

package policy

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestSecretsSectionErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"not an object", `{"secrets": []}`, `"secrets" must be an object whose keys are secret names, found an array (line 1, column 13`},
		{"bad name", `{"secrets": {"my-tok": {"from": {"env": "A"}, "to": ["sh.exec:gh"]}}}`, `"secrets.my-tok" is not a valid secret name`},
		{"entry not an object", `{"secrets": {"T": "x"}}`, `"secrets.T" must be an object with "from" and "to"`},
		{"unknown key with suggestion", `{"secrets": {"T": {"form": {"env": "A"}, "to": ["sh.exec:gh"]}}}`, `"secrets.T.form" is not a known key (did you mean "from"?); valid secrets.T keys: from, to`},
		{"no from", `{"secrets": {"T": {"to": ["sh.exec:gh"]}}}`, `"secrets.T" needs "from"`},
		{"no to", `{"secrets": {"T": {"from": {"env": "A"}}}}`, `"secrets.T" needs "to"`},
		{"empty to", `{"secrets": {"T": {"from": {"env": "A"}, "to": []}}}`, `"secrets.T.to" must list at least one destination`},
		{"two sources", `{"secrets": {"T": {"from": {"env": "A", "file": "f"}, "to": ["sh.exec:gh"]}}}`, `"secrets.T.from" must have exactly one of "env", "file" or "command"`},
		{"unknown source with suggestion", `{"secrets": {"T": {"from": {"enf": "A"}, "to": ["sh.exec:gh"]}}}`, `"secrets.T.from.enf" is not a known key (did you mean "env"?)`},
		{"env empty", `{"secrets": {"T": {"from": {"env": ""}, "to": ["sh.exec:gh"]}}}`, `"secrets.T.from.env" must not be empty`},
		{"env with =", `{"secrets": {"T": {"from": {"env": "A=B"}, "to": ["sh.exec:gh"]}}}`, `"secrets.T.from.env" is not an environment variable name`},
		{"command empty", `{"secrets": {"T": {"from": {"command": []}, "to": ["sh.exec:gh"]}}}`, `"secrets.T.from.command" must not be empty`},
		{"command relative path", `{"secrets": {"T": {"from": {"command": ["bin/pass"]}, "to": ["sh.exec:gh"]}}}`, `"secrets.T.from.command[0]" must be an absolute path or a bare name`},
		{"destination kind suggestion", `{"secrets": {"T": {"from": {"env": "A"}, "to": ["sh.exe:gh"]}}}`, `"secrets.T.to[0]" must start with "sh.exec:", "http.get:" or "mcp:", found "sh.exe:gh" (did you mean "sh.exec:"?)`},
		{"destination program path", `{"secrets": {"T": {"from": {"env": "A"}, "to": ["sh.exec:bin/gh"]}}}`, `"secrets.T.to[0]" names the program must be an absolute path or a bare name`},
		{"destination host", `{"secrets": {"T": {"from": {"env": "A"}, "to": ["http.get:https://x"]}}}`, `"secrets.T.to[0]" names the host, which must be a host name`},
		{"mcp server undefined", `{"mcp": {"notes": {"command": ["x"]}}, "secrets": {"T": {"from": {"env": "A"}, "to": ["sh.exec:gh", "mcp:note"]}}}`, `"secrets.T.to[1]" names the MCP server "note", which the mcp section does not define (did you mean "mcp:notes"?)`},
		{"mcp env names an undefined secret", `{"mcp": {"notes": {"command": ["x"], "env": {"K": "${secret:T}"}}}}`, `"mcp.notes.env.K" names the secret T, which the secrets section does not define`},
		{"mcp env secret not allowed", `{"mcp": {"notes": {"command": ["x"], "env": {"K": "${secret:T}"}}}, "secrets": {"T": {"from": {"env": "A"}, "to": ["sh.exec:gh"]}}}`, `"mcp.notes.env.K" names the secret T, whose "to" does not list "mcp:notes" (secret_not_allowed)`},
		{"top-level suggestion", `{"secret": {}}`, `(did you mean "secrets"?)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("/p/.a0policy.json", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
			if pe, ok := err.(*Error); !ok || pe.Code() != "E_POLICY" || pe.Offset < 0 {
				t.Errorf("not a positioned E_POLICY: %#v", err)
			}
		})
	}
}

func TestSecretsSectionValid(t *testing.T) {
	src := `{"mcp": {"notes": {"command": ["x"], "env": {"K": "Bearer ${secret:T}"}}},
	 "secrets": {"T": {"from": {"file": "tok"}, "to": ["sh.exec:gh", "http.get:*.example.com", "mcp:notes"]}}}`
	p, err := Parse("/p/.a0policy.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: SourceProject, Path: "/p/.a0policy.json", Policy: p}
	s := r.Secrets()
	if len(s) != 1 || s[0].Name != "T" || s[0].Source() != "file /p/tok" {
		t.Fatalf("secrets %+v", s)
	}
	if got := s[0].Destinations(DestHTTP); len(got) != 1 || got[0] != "*.example.com" {
		t.Errorf("http destinations %v", got)
	}
	if got := s[0].Destinations(DestExec); len(got) != 1 || got[0] != "gh" {
		t.Errorf("exec destinations %v", got)
	}
}

func TestSecretRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tok"), []byte("from-a-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, MaxSecretBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("A0_POLICY_SECRET_TEST", "from-the-env")
	tests := []struct {
		name    string
		s       Secret
		want    string
		wantErr string
	}{
		{"env", Secret{Env: "A0_POLICY_SECRET_TEST"}, "from-the-env", ""},
		{"env unset", Secret{Env: "A0_POLICY_SECRET_UNSET"}, "", "is not set"},
		{"file, relative, newline dropped", Secret{File: "tok"}, "from-a-file", ""},
		{"file empty", Secret{File: "empty"}, "", "is empty"},
		{"file too large", Secret{File: "big"}, "", "larger than 64 KiB"},
		{"file a directory", Secret{File: "d"}, "", "not a regular file"},
		{"file missing", Secret{File: "nope"}, "", "cannot open the file"},
		{"file a FIFO without a writer (no hang)", Secret{File: "fifo"}, "", "not a regular file"},
		{"file a link to a device", Secret{File: "zero"}, "", "not a regular file"},
		{"command", Secret{Command: []string{"printf", "%s\\n", "from-a-command"}}, "from-a-command", ""},
		{"command fails", Secret{Command: []string{"sh", "-c", "printf leaked; echo -value; exit 3"}}, "", "failed (exit status 3)"},
		{"command missing", Secret{Command: []string{"a0-no-such-program"}}, "", "cannot be run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s
			s.Name, s.base = "T", dir
			got, err := s.Read()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %s", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "leaked-value") {
					t.Errorf("the error holds the command's output: %v", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestSecretsReport(t *testing.T) {
	src := `{"exec": {"sandbox": {"network": "allow"}}, "secrets": {"T": {"from": {"env": "A0_REPORT_SRC"}, "to": ["sh.exec:bash", "http.get:api.example.com"]}}}`
	p, err := Parse("/p/.a0policy.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("A0_REPORT_SRC", "report-secret-value")
	r := &Resolved{Source: SourceProject, Path: "/p/.a0policy.json", Policy: p}
	for _, out := range []string{Text(r), JSON(r)} {
		if strings.Contains(out, "report-secret-value") {
			t.Fatalf("the report shows the value:\n%s", out)
		}
		for _, want := range []string{"A0_REPORT_SRC", "sh.exec:bash", "http.get:api.example.com", "a shell or launcher", "exec.sandbox.network is"} {
			if !strings.Contains(out, want) {
				t.Errorf("report lacks %s:\n%s", want, out)
			}
		}
	}
}
