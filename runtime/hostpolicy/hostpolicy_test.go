package hostpolicy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
)

// TestResolve: --policy FILE is the only policy (a missing one is an
// E_POLICY, never replaced by another), else the project file, else the
// user file; allowAll applies to the result.
func TestResolve(t *testing.T) {
	wd, home := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".a0", "policy.json"), `{"version": 1, "allow": ["http.get"]}`)
	res, d := Resolve(wd, home, false, "")
	if d != nil || !res.Allowed("http.get") || res.Allowed("fs.read") {
		t.Fatalf("user file: %v %v", res, d)
	}
	write(filepath.Join(wd, ".a0policy.json"), `{"version": 1, "allow": ["fs.read"]}`)
	res, d = Resolve(wd, home, false, "")
	if d != nil || !res.Allowed("fs.read") || res.Allowed("http.get") {
		t.Fatalf("project file: %v %v", res, d)
	}
	write(filepath.Join(wd, "strict.json"), `{"version": 1, "allow": []}`)
	res, d = Resolve(wd, home, false, "strict.json")
	if d != nil || res.Allowed("fs.read") || res.Source != SourceFlag || res.Path != filepath.Join(wd, "strict.json") {
		t.Fatalf("--policy: %+v %v", res, d)
	}
	if _, d = Resolve(wd, home, false, "missing.json"); d == nil || d.Code != diag.EPolicy || !strings.Contains(d.Message, "missing.json") {
		t.Fatalf("missing --policy file: %v", d)
	}
	if res, d = Resolve(wd, home, true, "strict.json"); d != nil || !res.Allowed("sh.exec") {
		t.Fatalf("allowAll: %v %v", res, d)
	}
}

// TestGrantHint: a capability the policy does not grant gets the whole
// allow line to write; one it denies gets the deny entry to remove; a
// denial with a reason (a path outside the roots) gets none.
func TestGrantHint(t *testing.T) {
	wd := t.TempDir()
	path := filepath.Join(wd, "p.json")
	if err := os.WriteFile(path, []byte(`{"version": 1, "allow": ["fs.read"], "deny": ["sh.exec"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, d := Resolve(wd, t.TempDir(), false, "p.json")
	if d != nil {
		t.Fatal(d)
	}
	env, err := runtime.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	denied := func(src string) *runtime.Error {
		t.Helper()
		prog, ds := env.Compile("t.a0", src)
		if len(ds) > 0 {
			t.Fatal(ds)
		}
		_, err := prog.Run(context.Background(), runtime.RunOptions{Grants: res})
		e, _ := runtime.ErrorOf(err)
		if e.Code != diag.ECapDenied {
			t.Fatalf("%s: %v", src, err)
		}
		return e
	}
	e := denied("cap { http.get: true, fs.write: true }\nreturn 1")
	if h := GrantHint(e, res, []string{"http.get", "fs.write"}); !strings.Contains(h, `"allow": ["fs.read", "http.get", "fs.write"]`) || !strings.Contains(h, path) {
		t.Errorf("not granted: %q", h)
	}
	e = denied("cap { sh.exec: true }\nreturn 1")
	if h := GrantHint(e, res, []string{"sh.exec"}); !strings.Contains(h, "denies 'sh.exec'") {
		t.Errorf("denied: %q", h)
	}
	// A missing capability first, a denied one next: the allow line alone
	// would not grant the denied one, so the hint says to undeny it too.
	e = denied("cap { http.get: true, sh.exec: true }\nreturn 1")
	if h := GrantHint(e, res, []string{"http.get", "sh.exec"}); !strings.Contains(h, `"allow": ["fs.read", "http.get", "sh.exec"], and take 'sh.exec' out of its "deny" list (deny wins over allow)`) {
		t.Errorf("missing then denied: %q", h)
	}
	if h := GrantHint(&runtime.Error{Diagnostic: diag.Diagnostic{Code: diag.ETool}}, res, nil); h != "" {
		t.Errorf("not a denial: %q", h)
	}

	// A misspelt allow entry grants nothing: the hint names it and writes
	// the allow line with the entry corrected, not kept beside it.
	if err := os.WriteFile(path, []byte(`{"version": 1, "allow": ["fs.read", "sh.exce", "notes.*"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, d = Resolve(wd, t.TempDir(), false, "p.json")
	if d != nil {
		t.Fatal(d)
	}
	e = denied("cap { sh.exec: true }\nreturn 1")
	if h := GrantHint(e, res, []string{"sh.exec"}); !strings.Contains(h, `'sh.exce' in its allow list names no capability (did you mean 'sh.exec'?)`) ||
		!strings.Contains(h, `"allow": ["fs.read", "sh.exec", "notes.*"]`) {
		t.Errorf("typo: %q", h)
	}
	// An entry far from the missing capability is kept, as before.
	e = denied("cap { http.get: true }\nreturn 1")
	if h := GrantHint(e, res, []string{"http.get"}); !strings.Contains(h, `"allow": ["fs.read", "sh.exce", "notes.*", "http.get"]`) || strings.Contains(h, "did you mean") {
		t.Errorf("no typo: %q", h)
	}
	// Another tool's word for a capability (shell) counts as a typo of it.
	if err := os.WriteFile(path, []byte(`{"version": 1, "allow": ["shell"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, d = Resolve(wd, t.TempDir(), false, "p.json")
	if d != nil {
		t.Fatal(d)
	}
	e = denied("cap { sh.exec: true }\nreturn 1")
	if h := GrantHint(e, res, []string{"sh.exec"}); !strings.Contains(h, `'shell' in its allow list names no capability (did you mean 'sh.exec'?). Write "allow": ["sh.exec"]`) {
		t.Errorf("alias: %q", h)
	}
}

// TestMCPNamespaceHints: an unknown capability or tool outside the
// built-in namespaces, for which the policy names no MCP server, gets a
// hint saying where servers are named; the other diagnostics, and the
// code, message and span of every one, are left as they were.
func TestMCPNamespaceHints(t *testing.T) {
	dir := t.TempDir()
	pf := filepath.Join(dir, "p.json")
	if err := os.WriteFile(pf, []byte(`{"allow": ["notes.*"], "mcp": {"notes": {"command": ["true"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	withNotes, d := Resolve(dir, dir, false, pf)
	if d != nil {
		t.Fatal(d)
	}
	none, d := Resolve(dir, dir, false, "")
	if d != nil {
		t.Fatal(d)
	}
	const valid = "Valid capabilities: fs.read, fs.write, http.get, sh.exec"
	tests := []struct {
		name      string
		code      diag.Code
		msg, hint string
		res       *policy.Resolved
		want      string // the hint after
	}{
		{"no policy", diag.EUnknownCap, "Unknown capability 'notes.search'.", valid, none,
			valid + ". A tool of an MCP server 'notes' needs that server in the policy's \"mcp\" section; no policy file is in effect here: run from the folder of the .a0policy.json that names it, or pass --policy FILE."},
		{"no resolution", diag.EUnknownTool, "Unknown tool 'gh.pr_list'.", "", nil,
			"A tool of an MCP server 'gh' needs that server in the policy's \"mcp\" section; no policy file is in effect here: run from the folder of the .a0policy.json that names it, or pass --policy FILE."},
		{"a policy without that server", diag.EUnknownTool, "Unknown tool 'gh.pr_list'.", "Valid tools: fs.read", withNotes,
			"Valid tools: fs.read. A tool of an MCP server 'gh' needs that server in the policy's \"mcp\" section; the policy in effect (" + pf + ") names no server 'gh': run from the folder of the .a0policy.json that names it, or pass --policy FILE."},
		{"the server is configured", diag.EUnknownTool, "Unknown tool 'notes.serch'.", "Valid tools: notes.search", withNotes, "Valid tools: notes.search"},
		{"a built-in namespace", diag.EUnknownCap, "Unknown capability 'fs.delete'.", valid, none, valid},
		{"a close name is suggested", diag.EUnknownCap, "Unknown capability 'nots.search'.", valid + ". Did you mean 'notes.search'?", none, valid + ". Did you mean 'notes.search'?"},
		{"no namespace", diag.EUnknownTool, "Unknown tool 'foo'.", "Valid tools: fs.read", none, "Valid tools: fs.read"},
		{"another code", diag.EUnknownFn, "Unknown function 'notes.x'.", "h", none, "h"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sp := diag.Span{File: "f.a0", Start: diag.Pos{Line: 1, Col: 7}, End: diag.Pos{Line: 1, Col: 19}}
			d := diag.New(tc.code, sp, tc.msg, tc.hint)
			MCPNamespaceHints(diag.List{d}, tc.res)
			if d.Hint != tc.want {
				t.Errorf("hint\n%q, want\n%q", d.Hint, tc.want)
			}
			if d.Code != tc.code || d.Message != tc.msg || d.Span == nil || *d.Span != sp {
				t.Errorf("the diagnostic changed: %+v", d)
			}
		})
	}
}
