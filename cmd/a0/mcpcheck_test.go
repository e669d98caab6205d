package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPCheckFromSchemaCache: a0_check of `a0 mcp` judges the calls of a
// server it has not started (an allowlist keeps it lazy) by the schema
// cache an earlier `a0 tools` wrote, and reports every mistake at once.
func TestMCPCheckFromSchemaCache(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	shared := t.TempDir()
	bin := filepath.Join(shared, "mcptestserver") // testscript.Main runs mcptest.Main under this name
	if err := os.Symlink(exe, bin); err != nil {
		t.Skip("no symlinks:", err)
	}
	t.Setenv("A0_JOBS_ROOT", filepath.Join(shared, "store"))
	t.Setenv("A0_MCP_SCHEMA_CACHE", "")
	policy := `{"allow":["notes.*"],"mcp":{"notes":{"command":["` + bin + `"],"cwd":"` + shared + `","tools":["search","report","add-note"]}}}`

	// a0 tools starts the server once and writes the cache.
	first := t.TempDir()
	if err := os.WriteFile(filepath.Join(first, ".a0policy.json"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(first)
	var out, errb bytes.Buffer
	if code := realMain([]string{"tools"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("a0 tools: exit %d: %s %s", code, out.String(), errb.String())
	}
	if _, err := os.Stat(filepath.Join(shared, "store", "mcp-schemas.json")); err != nil {
		t.Fatal(err)
	}

	cs := mcpSession(t, policy)
	_, res, _ := callTool(t, cs, "a0_check", map[string]any{"source": `cap { notes.search: true, notes.report: true, notes.add_note: true }
let r = call? notes.search { q: 1, limit: 0 }
let p = call? notes.report { format: "xml", cont: 2 }
let n = call? notes.add_note { text: "x" }
return [r.hitz, p, n]`})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Code)
	}
	want := "E_TOOL_ARGS E_TOOL_ARGS E_TOOL_ARGS E_UNKNOWN_ARG E_CALL_EFFECT E_PATH"
	if res.OK || strings.Join(got, " ") != want {
		t.Errorf("a0_check: %s, want %s: %+v", strings.Join(got, " "), want, res.Diagnostics)
	}
	if n := countServers(t, bin); n != 0 {
		t.Errorf("%d servers started by a0_check, want 0", n)
	}
}
