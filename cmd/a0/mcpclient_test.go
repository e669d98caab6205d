package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPServerCallsMCPServers: `a0 mcp` given MCP servers in its policy
// lets a0_run programs call their tools; the servers live for the session
// and stop with it.
func TestMCPServerCallsMCPServers(t *testing.T) {
	bin := testServerBin(t)
	cs, stop := mcpSessionStop(t, `{"allow":["notes.*"],"mcp":{"notes":{"command":["`+bin+`"]}}}`)
	for i := 0; i < 2; i++ {
		_, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": `cap { notes.search: true }
return call? notes.search { q: "m" }`})
		if !out.OK || string(out.Value) != `{"count":2,"hits":[{"score":2,"title":"first m"},{"score":1,"title":"second"}],"query":"m"}` &&
			string(out.Value) != `{"query":"m","hits":[{"title":"first m","score":2},{"title":"second","score":1}],"count":2}` {
			t.Fatalf("run %d: %+v %s", i, out, out.Value)
		}
	}
	// call? on an effect tool is found by a0_check (the server was listed
	// when the session started).
	_, out, _ := callTool(t, cs, "a0_check", map[string]any{"source": `cap { notes.add_note: true }
return call? notes.add_note { text: "x" }`})
	if out.OK || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_CALL_EFFECT" {
		t.Errorf("a0_check: %+v", out)
	}
	if n := countServers(t, bin); n != 1 {
		t.Errorf("%d servers during the session, want 1", n)
	}
	stop()
	if n := countServers(t, bin); n != 0 {
		t.Errorf("%d servers left after the session", n)
	}
}

// countServers counts live processes whose argv[0] is bin (Linux).
func countServers(t *testing.T, bin string) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	n := 0
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(b) == 0 {
			continue
		}
		argv0 := string(b)
		if i := indexNUL(b); i >= 0 {
			argv0 = string(b[:i])
		}
		if argv0 == bin {
			n++
		}
	}
	return n
}

func indexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

// TestMCPExample builds examples/mcp's notes server and runs the example
// program twice, as the README shows.
func TestMCPExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	src, _ := filepath.Abs("../../examples/mcp")
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "notes-mcp"), "./notes-server")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range []string{".a0policy.json", "shopping.a0"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	for i, want := range []string{"true", "false"} {
		var out, errb bytes.Buffer
		// timeMs counts from the process start: in this test process,
		// from the start of this run.
		defer func(start time.Time) { processStart = start }(processStart)
		processStart = time.Now()
		if code := realMain([]string{"run", "shopping.a0"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, errb.String())
		}
		if !strings.Contains(out.String(), `"added": `+want) || !strings.Contains(out.String(), `"buy milk"`) {
			t.Errorf("run %d: %s", i, out.String())
		}
	}
}

// TestREPLCallsMCPServers: in a0 repl the policy's MCP servers live for
// the session (one server process for several inputs) and stop with it.
func TestREPLCallsMCPServers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mcptestserver")
	if err := os.Symlink(exe, bin); err != nil {
		t.Skip("no symlinks:", err)
	}
	pol := `{"allow":["notes.*"],"mcp":{"notes":{"command":["` + bin + `"],"env":{"MCP_CALL_LOG":"calls.log","MCP_START_LOG":"starts.log"}},` +
		`"lazy":{"command":["` + bin + `"],"tools":["echo"],"env":{"MCP_START_LOG":"lazy.log"}}}}`
	if err := os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(pol), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	in := `call? notes.echo { n: 1 }
call? notes.echo { n: 2 }
call? notes.add_note { text: "x" }
`
	var out, errb bytes.Buffer
	code := realMain([]string{"repl"}, strings.NewReader(in), &out, &errb)
	if code != 2 || out.String() != "\"{\\\"n\\\":1}\"\n\"{\\\"n\\\":2}\"\n" || !strings.Contains(errb.String(), "E_CALL_EFFECT") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "calls.log")); string(b) != "echo\necho\n" {
		t.Errorf("server saw %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "starts.log")); string(b) != "start\n" {
		t.Errorf("server starts %q, want one", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "lazy.log")); err == nil {
		t.Error("a server with a tools allowlist started though no input called it")
	}
	if n := countServers(t, bin); n != 0 {
		t.Errorf("%d servers left after the session", n)
	}
}

// testServerBin returns a path that runs the repository's test MCP server:
// a symlink named mcptestserver to this test binary (testscript.Main runs
// mcptest.Main under that name). The test is skipped without symlinks.
func testServerBin(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "mcptestserver")
	if err := os.Symlink(exe, bin); err != nil {
		t.Skip("no symlinks:", err)
	}
	return bin
}
