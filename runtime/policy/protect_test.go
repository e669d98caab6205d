package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
)

// A policy whose exec.sandbox makes the policy file writable (through an
// fs.write root or a sandbox.write root, by its path or its real path) is
// refused when it is loaded: a confined command could otherwise rewrite
// the policy that confines it.
func TestCheckReach(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "proj", "out"), 0o755)
	os.MkdirAll(filepath.Join(dir, "pol"), 0o755)
	os.Symlink(filepath.Join(dir, "proj"), filepath.Join(dir, "projlink"))
	tests := []struct {
		name, policyDir, text string
		refused               bool
	}{
		{"fs.write dot", "proj", `{"fs":{"write":["."]},"exec":{"sandbox":{}}}`, true},
		{"sandbox.write parent", "proj", `{"exec":{"sandbox":{"write":[".."]}}}`, true},
		{"sandbox.write root", "proj", `{"exec":{"sandbox":{"write":["/"]}}}`, true},
		{"write root through a link", "proj", `{"exec":{"sandbox":{"write":["../projlink"]}}}`, true},
		{"policy reached through a link", "projlink", `{"exec":{"sandbox":{"write":["../proj"]}}}`, true},
		{"narrow root", "proj", `{"fs":{"write":["out"]},"exec":{"sandbox":{}}}`, false},
		{"policy outside", "pol", `{"fs":{"write":["../proj"]},"exec":{"sandbox":{}}}`, false},
		{"no sandbox", "proj", `{"fs":{"write":["."]}}`, false},
		{"prefix is not a parent", "proj", `{"exec":{"sandbox":{"write":["../pro"]}}}`, false},
		{"mcp server sandbox.write", "proj", `{"mcp":{"s":{"command":["srv"],"sandbox":{"write":["."]}}}}`, true},
		{"mcp server sandbox with fs.write dot", "proj", `{"fs":{"write":["."]},"mcp":{"s":{"command":["srv"],"sandbox":{}}}}`, true},
		{"mcp server narrow sandbox", "proj", `{"fs":{"write":["out"]},"mcp":{"s":{"command":["srv"],"sandbox":{}}}}`, false},
		{"mcp server unconfined", "proj", `{"fs":{"write":["."]},"mcp":{"s":{"command":["srv"]}}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.policyDir, ProjectFile)
			p, err := Parse(path, []byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			r := &Resolved{Source: SourceProject, Path: path, Policy: p}
			err = r.CheckReach()
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			d, ok := err.(*diag.Diagnostic)
			if !ok || d.Code != diag.EPolicy {
				t.Fatalf("got %v, want E_POLICY", err)
			}
			if !strings.Contains(d.Message, path) && !strings.Contains(d.Message, filepath.Join(dir, "proj", ProjectFile)) || !strings.Contains(d.Message, "write root") {
				t.Errorf("message names neither the file nor the root: %s", d.Message)
			}
			if !strings.Contains(d.Hint, "outside") || !strings.Contains(d.Hint, "narrow") {
				t.Errorf("hint: %s", d.Hint)
			}
			if _, err := r.CheckedReach(); err == nil {
				t.Error("CheckedReach passed")
			}
			if r.AllowAll().CheckReach() != nil {
				t.Error("--unsafe-allow-all ignores exec: no refusal")
			}
		})
	}
}

// Load refuses such a policy found in the working folder (E_POLICY), so
// `a0 run` never starts under it.
func TestLoadRefusesSelfWritableSandbox(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ProjectFile), []byte(`{"allow":["sh.exec"],"fs":{"write":["."]},"exec":{"sandbox":{}}}`), 0o644)
	if _, err := Load(dir, ""); err == nil || !strings.Contains(err.Error(), "write root") {
		t.Fatalf("got %v", err)
	}
}
