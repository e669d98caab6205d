package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	a0 "github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/mcptool/mcptest"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/tools"
)

// The test binary is its own MCP server: started with A0_MCPTEST=1 it runs
// mcptest.Main instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("A0_MCPTEST") == "1" {
		mcptest.Main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// local returns the configuration of the test server as server "notes",
// with a call log and a notes file in dir.
func local(t *testing.T, dir string, args ...string) mcptool.ServerConfig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcptool.ServerConfig{
		Name:    "notes",
		Command: append([]string{exe}, args...),
		Env: [][2]string{{"A0_MCPTEST", "1"}, {"MCP_CALL_LOG", filepath.Join(dir, "calls.log")},
			{"NOTES_FILE", filepath.Join(dir, "notes.txt")}, {"SECRET_TOKEN", "hunter2-very-secret"}},
		Dir: dir,
	}
}

// calls returns the tool names the server received.
func calls(dir string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, "calls.log"))
	return strings.Fields(string(b))
}

type sink struct {
	mu  sync.Mutex
	evs []a0.TraceEvent
}

func (s *sink) Event(ev a0.TraceEvent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evs = append(s.evs, ev)
	return nil
}

// runWith compiles src with the manager's tools for it (as `a0 run` does)
// and runs it under grants.
func runWith(t *testing.T, m *mcptool.Manager, grants a0.Grants, src string, tr a0.TraceSink) (value.Value, error) {
	t.Helper()
	p, ds := parser.Parse("t.a0", src, parser.Options{})
	if len(ds) > 0 {
		t.Fatalf("parse: %v", ds)
	}
	used := append(check.UsedTools(p), check.DeclaredCaps(p)...)
	env, err := a0.NewEnv(a0.WithTools(m.Tools(used)...), a0.WithGrants(grants))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", src)
	if len(ds) > 0 {
		return value.Value{}, &a0.Error{Diagnostic: diag.Diagnostic{Code: ds[0].Code, Message: ds[0].Message}}
	}
	res, err := prog.Run(context.Background(), a0.RunOptions{Trace: tr})
	if err != nil {
		return value.Value{}, err
	}
	return res.Value, nil
}

func grantsOf(t *testing.T, allow, deny string) a0.Grants {
	t.Helper()
	p, err := policy.Parse("p.json", []byte(`{"allow":`+allow+`,"deny":`+deny+`,"mcp":{"notes":{"command":["x"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return &policy.Resolved{Source: policy.SourceProject, Path: "/p.json", Policy: p}
}

func errCode(err error) string {
	if e, ok := err.(*a0.Error); ok {
		return string(e.Code)
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}

// serverProcs returns the pids of running copies of the test binary other
// than this process (Linux).
func serverProcs(t *testing.T) []int {
	t.Helper()
	exe, _ := os.Executable()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if target, err := os.Readlink("/proc/" + e.Name() + "/exe"); err == nil && target == exe {
			stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				continue // a zombie awaiting its parent's wait
			}
			out = append(out, pid)
		}
	}
	return out
}

func waitNoProcs(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		ps := serverProcs(t)
		if len(ps) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server processes left: %v", ps)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCalls(t *testing.T) {
	all := grantsOf(t, `["notes.*"]`, `[]`)
	tests := []struct {
		name   string
		grants a0.Grants
		src    string
		want   string // JSON of the value, or the error code
		msg    string // substring of the error message
		calls  []string
	}{
		{name: "read tool, structured content in the server's member order", src: `cap { notes.search: true }
return call? notes.search { q: "x" }`,
			want: `{"query":"x","hits":[{"title":"first x","score":2},{"title":"second","score":1}],"count":2}`, calls: []string{"search"}},
		{name: "effect tool with do, hyphenated name", src: `cap { notes.add_note: true }
return do notes.add_note { text: "hello" }`, want: `"added: hello"`, calls: []string{"add-note"}},
		{name: "call? on an effect tool is refused before the server sees it", src: `cap { notes.add_note: true }
return call? notes.add_note { text: "hello" }`, want: "E_CALL_EFFECT", msg: "Use 'do' instead"},
		{name: "several items: a list; non-text as records", src: `cap { notes.multi: true }
return call? notes.multi {}`, want: `["one","two",{"type":"image","mimeType":"image/png","data":"UE5H"}]`, calls: []string{"multi"}},
		{name: "no items: null", src: `cap { notes.empty: true }
return call? notes.empty {}`, want: `null`, calls: []string{"empty"}},
		{name: "single text item: a string", src: `cap { notes.echo: true }
return call? notes.echo { b: 1, a: [true] }`, want: `"{\"b\":1,\"a\":[true]}"`, calls: []string{"echo"}},
		{name: "schema: wrong type", src: `cap { notes.search: true }
return call? notes.search { q: 3 }`, want: "E_TOOL_ARGS", msg: `: q: type: 3 has type "integer", want "string"`},
		{name: "schema: missing required key", src: `cap { notes.search: true }
return call? notes.search { limit: 2 }`, want: "E_TOOL_ARGS", msg: ": q: required: the argument is missing"},
		{name: "schema: unknown key", src: `cap { notes.search: true }
return call? notes.search { q: "a", extra: 1 }`, want: "E_TOOL_ARGS", msg: ": extra: additionalProperties: the schema allows no such argument"},
		{name: "schema: minimum", src: `cap { notes.search: true }
return call? notes.search { q: "a", limit: 0 }`, want: "E_TOOL_ARGS", msg: ": limit: minimum: 0 is less than 1"},
		{name: "isError is a catchable E_TOOL with the server's text", src: `cap { notes.fail: true }
return try { return call? notes.fail {} } catch { e } { return [e.code, e.message, e.details.server] }`,
			want: `["E_TOOL","Tool 'notes.fail' failed: disk full","notes"]`, calls: []string{"fail"}},
		{name: "grant by name", grants: grantsOf(t, `["notes.search"]`, `[]`), src: `cap { notes.search: true }
return call? notes.search { q: "y" }`, want: `{"query":"y","hits":[{"title":"first y","score":2},{"title":"second","score":1}],"count":2}`, calls: []string{"search"}},
		{name: "a tool not granted by name", grants: grantsOf(t, `["notes.search"]`, `[]`), src: `cap { notes.add_note: true }
return do notes.add_note { text: "x" }`, want: "E_CAP_DENIED"},
		{name: "deny of a tool wins over server.*", grants: grantsOf(t, `["notes.*"]`, `["notes.add_note"]`), src: `cap { notes.add_note: true }
return do notes.add_note { text: "x" }`, want: "E_CAP_DENIED"},
		{name: "deny of server.*", grants: grantsOf(t, `["notes.search"]`, `["notes.*"]`), src: `cap { notes.search: true }
return call? notes.search { q: "x" }`, want: "E_CAP_DENIED"},
		{name: "undeclared capability", src: `return call? notes.search { q: "x" }`, want: "E_UNDECLARED_CAP"},
		{name: "a tool the server does not have", src: `cap { notes.nope: true }
return call? notes.nope {}`, want: "E_UNKNOWN_TOOL", msg: "has no such tool"},
		{name: "a tool of an unknown server", src: `cap { other.x: true }
return call? other.x {}`, want: "E_UNKNOWN_CAP"},
		{name: "a bytes member of a result is not a write", src: `cap { notes.record: true }
budget { maxBytesWritten: 1 }
return call? notes.record { bytes: 100, z: 1, a: 2 }`, want: `{"bytes":100,"z":1,"a":2}`, calls: []string{"record"}},
		{name: "secrets of the server's env are masked in results", src: `cap { notes.env: true }
return call? notes.env { name: "SECRET_TOKEN" }`, want: `"[masked:SECRET_TOKEN]"`, calls: []string{"env"}},
		{name: "maxToolCalls counts MCP calls", src: `cap { notes.echo: true }
budget { maxToolCalls: 2 }
let a = call? notes.echo {}
let b = call? notes.echo {}
return call? notes.echo {}`, want: "E_BUDGET", msg: "maxToolCalls", calls: []string{"echo", "echo"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m, err := mcptool.NewManager(local(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			g := tc.grants
			if g == nil {
				g = all
			}
			v, err := runWith(t, m, g, tc.src, nil)
			m.Close()
			if strings.HasPrefix(tc.want, "E_") {
				if errCode(err) != tc.want {
					t.Fatalf("got %v (%v), want %s", value.JSON(v), err, tc.want)
				}
				if !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("message %q lacks %q", err.Error(), tc.msg)
				}
			} else {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if got := value.JSON(v); got != tc.want {
					t.Errorf("got %s\nwant %s", got, tc.want)
				}
			}
			if got := strings.Join(calls(dir), ","); got != strings.Join(tc.calls, ",") {
				t.Errorf("server saw %q, want %q", got, strings.Join(tc.calls, ","))
			}
			waitNoProcs(t)
		})
	}
}

func TestServerFailures(t *testing.T) {
	all := grantsOf(t, `["notes.*"]`, `[]`)
	t.Run("crash mid-call, then a restart", func(t *testing.T) {
		dir := t.TempDir()
		m, _ := mcptool.NewManager(local(t, dir))
		defer m.Close()
		v, err := runWith(t, m, all, `cap { notes.crash: true, notes.echo: true }
let e = try { return call? notes.crash {} } catch { e } { return e }
return { e: e, after: call? notes.echo { n: 1 } }`, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := v.AsRecord()
		e, _ := r.Get("e")
		msg := value.JSON(e)
		for _, want := range []string{`"E_TOOL"`, "MCP server 'notes'", "exit status 3", "[masked:SECRET_TOKEN]", `"server":"notes"`} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %s lacks %s", msg, want)
			}
		}
		if strings.Contains(msg, "hunter2") {
			t.Errorf("secret leaked: %s", msg)
		}
		if after, _ := r.Get("after"); value.JSON(after) != `"{\"n\":1}"` {
			t.Errorf("after = %s", value.JSON(after))
		}
	})
	for _, tc := range []struct{ name, arg, msg string }{
		{"server exits at start", "exit", `exit status 2; stderr: \"cannot open the database`},
		{"command not found", "", "could not start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := local(t, t.TempDir(), tc.arg)
			if tc.arg == "" {
				cfg.Command = []string{filepath.Join(t.TempDir(), "no-such-server")}
			}
			m, _ := mcptool.NewManager(cfg)
			defer m.Close()
			v, err := runWith(t, m, all, `cap { notes.x: true }
return try { return call? notes.x {} } catch { e } { return e }`, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := value.JSON(v)
			if !strings.Contains(got, `"code":"E_TOOL"`) || !strings.Contains(got, tc.msg) || !strings.Contains(got, "MCP server 'notes'") {
				t.Errorf("got %s, want E_TOOL with %q", got, tc.msg)
			}
		})
	}
	waitNoProcs(t)
}

func TestCancellation(t *testing.T) {
	all := grantsOf(t, `["notes.*"]`, `[]`)
	t.Run("timeMs cancels a slow call in flight", func(t *testing.T) {
		dir := t.TempDir()
		m, _ := mcptool.NewManager(local(t, dir))
		start := time.Now()
		_, err := runWith(t, m, all, `cap { notes.slow: true }
budget { timeMs: 300 }
return call? notes.slow { ms: 20000, ignoreCancel: true }`, nil)
		m.Close()
		if errCode(err) != "E_BUDGET" {
			t.Fatalf("got %v, want E_BUDGET", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %v", d)
		}
		waitNoProcs(t)
	})
	t.Run("timeMs cancels a start that never answers", func(t *testing.T) {
		m, _ := mcptool.NewManager(local(t, t.TempDir(), "hang"))
		start := time.Now()
		_, err := runWith(t, m, all, `cap { notes.x: true }
budget { timeMs: 300 }
return call? notes.x {}`, nil)
		m.Close()
		if errCode(err) != "E_BUDGET" {
			t.Fatalf("got %v, want E_BUDGET", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v", d)
		}
		waitNoProcs(t)
	})
	t.Run("a start that times out is tried once per call", func(t *testing.T) {
		dir := t.TempDir()
		cfg := local(t, dir, "hang")
		cfg.Env = append(cfg.Env, [2]string{"MCP_START_LOG", filepath.Join(dir, "starts.log")})
		cfg.StartTimeout = 300 * time.Millisecond
		m, _ := mcptool.NewManager(cfg)
		v, err := runWith(t, m, all, `cap { notes.x: true }
return try { return call? notes.x {} } catch { e } { return e.message }`, nil)
		m.Close()
		if err != nil || !strings.Contains(value.ToText(v), "no answer to the MCP handshake in time") {
			t.Errorf("got %v %v", value.JSON(v), err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "starts.log")); string(b) != "start\n" {
			t.Errorf("starts %q, want one", b)
		}
		waitNoProcs(t)
	})
	for _, ignore := range []bool{false, true} {
		t.Run("timeoutMs, server ignores cancellation: "+strconv.FormatBool(ignore), func(t *testing.T) {
			cfg := local(t, t.TempDir())
			cfg.Timeout = 200 * time.Millisecond
			m, _ := mcptool.NewManager(cfg)
			defer m.Close()
			v, err := runWith(t, m, all, `cap { notes.slow: true, notes.echo: true }
let e = try { return call? notes.slow { ms: 20000, ignoreCancel: `+strconv.FormatBool(ignore)+` } } catch { e } { return e.details.reason }
return [e, call? notes.echo {}]`, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := value.JSON(v); got != `["timeout","{}"]` {
				t.Errorf("got %s", got)
			}
		})
	}
	waitNoProcs(t)
}

func TestLifecycle(t *testing.T) {
	all := grantsOf(t, `["notes.*"]`, `[]`)
	dir := t.TempDir()
	m, _ := mcptool.NewManager(local(t, dir))
	// A program that never calls the server never starts it.
	v, err := runWith(t, m, all, `cap { notes.search: true }
fn f {} { return call? notes.search { q: "x" } }
return 1`, nil)
	if err != nil || value.JSON(v) != "1" {
		t.Fatalf("got %v %v", v, err)
	}
	if ps := serverProcs(t); runtime.GOOS == "linux" && len(ps) != 0 {
		t.Fatalf("a server started: %v", ps)
	}
	// Runs of one session share the started server; Close stops it.
	for i := 0; i < 2; i++ {
		if _, err := runWith(t, m, all, `cap { notes.echo: true }
return call? notes.echo {}`, nil); err != nil {
			t.Fatal(err)
		}
		if ps := serverProcs(t); runtime.GOOS == "linux" && len(ps) != 1 {
			t.Fatalf("run %d: server processes %v, want one", i, ps)
		}
	}
	m.Close()
	waitNoProcs(t)
	// After Close nothing starts again.
	v, err = runWith(t, m, all, `cap { notes.echo: true }
return try { return call? notes.echo {} } catch { e } { return e.code }`, nil)
	if err != nil || value.JSON(v) != `"E_TOOL"` {
		t.Errorf("after Close: %v %v", value.JSON(v), err)
	}
	waitNoProcs(t)
}

func TestNamesAndListing(t *testing.T) {
	all := grantsOf(t, `["notes.*"]`, `[]`)
	cfg := local(t, t.TempDir())
	cfg.Env = append(cfg.Env, [2]string{"MCP_COLLIDE", "1"})
	m, _ := mcptool.NewManager(cfg)
	defer m.Close()
	infos, err := m.List(context.Background(), "notes")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range infos {
		names = append(names, in.Name+":"+in.Mode.String())
	}
	want := "notes.add_note:effect notes.crash:read notes.dial:read notes.echo:read notes.empty:read notes.env:read notes.environ:read notes.fail:read notes.forecast:read notes.multi:read notes.record:read notes.report:read notes.search:read notes.slow:read notes.spawn:effect notes.steps:read notes.writefile:effect notes.x_y:read"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("listed %s\nwant   %s", got, want)
	}
	_, err = runWith(t, m, all, `cap { notes.x_y: true }
return call? notes.x_y {}`, nil)
	if errCode(err) != "E_TOOL" || !strings.Contains(err.Error(), "'x-y', 'x.y'") {
		t.Errorf("collision: %v", err)
	}
	// A listed server exposes its real tools only: an unknown one is static.
	_, err = runWith(t, m, all, `cap { notes.nope: true }
return call? notes.nope {}`, nil)
	if errCode(err) != "E_UNKNOWN_CAP" {
		t.Errorf("unknown tool of a listed server: %v", err)
	}
	// And call? on its effect tools is found statically.
	tl := m.Tools(nil)
	env, _ := a0.NewEnv(a0.WithTools(tl...))
	if _, ds := env.Compile("t.a0", `cap { notes.add_note: true }
return call? notes.add_note { text: "x" }`); len(ds) != 1 || ds[0].Code != "E_CALL_EFFECT" {
		t.Errorf("static check: %v", ds)
	}
}

func TestAllowlist(t *testing.T) {
	cfg := local(t, t.TempDir())
	cfg.Tools = []string{"search", "add-note"}
	m, _ := mcptool.NewManager(cfg)
	defer m.Close()
	if got := a0.ToolNames(m.Tools([]string{"notes.echo"})); strings.Join(got, ",") != "notes.add_note,notes.search" {
		t.Errorf("tools %v", got)
	}
	_, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.echo: true }
return call? notes.echo {}`, nil)
	if errCode(err) != "E_UNKNOWN_CAP" {
		t.Errorf("a tool outside the allowlist: %v", err)
	}
}

func TestTraceNamesServer(t *testing.T) {
	m, _ := mcptool.NewManager(local(t, t.TempDir()))
	defer m.Close()
	tr := &sink{}
	if _, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.echo: true }
return call? notes.echo { a: 1 }`, tr); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range tr.evs {
		if strings.HasPrefix(ev.Event, "tool_") {
			r := ev.Data.AsRecord()
			s, _ := r.Get("server")
			tool, _ := r.Get("tool")
			got = append(got, ev.Event+":"+value.ToText(tool)+"@"+value.ToText(s))
		}
	}
	if strings.Join(got, " ") != "tool_start:notes.echo@notes tool_end:notes.echo@notes" {
		t.Errorf("trace %v", got)
	}
}

func TestStreamableHTTP(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCP_CALL_LOG", filepath.Join(dir, "calls.log"))
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.New() }, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	all := grantsOf(t, `["notes.*"]`, `[]`)
	for _, tc := range []struct {
		name  string
		scope tools.HTTPScope
		want  string
	}{
		{"loopback refused without allowPrivate", tools.HTTPScope{}, "E_CAP_DENIED"},
		{"host not in http.allow", tools.HTTPScope{Allow: []string{"example.com"}, AllowPrivate: true}, "E_CAP_DENIED"},
		{"allowed", tools.HTTPScope{AllowPrivate: true}, `{"query":"h","hits":[{"title":"first h","score":2},{"title":"second","score":1}],"count":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := mcptool.NewManager(mcptool.ServerConfig{Name: "notes", URL: srv.URL, HTTPClient: tc.scope.Client(), CheckURL: tc.scope.CheckURL})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			v, err := runWith(t, m, all, `cap { notes.search: true }
return call? notes.search { q: "h" }`, nil)
			got := errCode(err)
			if got == "" {
				got = value.JSON(v)
			}
			// structuredContent keeps the server's member order over
			// HTTP too.
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	if got := strings.Join(calls(dir), ","); got != "search" {
		t.Errorf("server saw %q, want one search", got)
	}
}

// TestConcurrentRuns: runs sharing a manager (as a0 mcp's calls do) share
// one server process, started once.
func TestConcurrentRuns(t *testing.T) {
	dir := t.TempDir()
	cfg := local(t, dir)
	cfg.Env = append(cfg.Env, [2]string{"MCP_START_LOG", filepath.Join(dir, "starts.log")})
	m, _ := mcptool.NewManager(cfg)
	g := grantsOf(t, `["notes.*"]`, `[]`)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := runWith(t, m, g, `cap { notes.echo: true }
return call? notes.echo { i: `+strconv.Itoa(i)+` }`, nil)
			if err == nil && value.ToText(v) != `{"i":`+strconv.Itoa(i)+`}` {
				err = errors.New("wrong value " + value.JSON(v))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	m.Close()
	if b, _ := os.ReadFile(filepath.Join(dir, "starts.log")); string(b) != "start\n" {
		t.Errorf("starts %q, want one", b)
	}
	waitNoProcs(t)
}

// TestMinimalServer: a hand-written server on an older protocol version,
// whose result holds a content type a0 does not know (kept as it is).
func TestMinimalServer(t *testing.T) {
	m, _ := mcptool.NewManager(local(t, t.TempDir(), "raw"))
	defer m.Close()
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.odd: true }
let a = call? notes.odd {}
let b = call? notes.odd {}
return [a, b]`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := value.JSON(v), `[["a",{"type":"hologram","uri":"x:1"}],["a",{"type":"hologram","uri":"x:1"}]]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestNullIDError: a server's error with id null (its answer to a request
// whose id it could not read) fails the one call in flight at once, with
// the server's message, instead of leaving it to wait for its timeout;
// the server is used as usual after.
func TestNullIDError(t *testing.T) {
	cfg := local(t, t.TempDir(), "raw")
	cfg.Timeout = time.Minute
	m, _ := mcptool.NewManager(cfg)
	defer m.Close()
	start := time.Now()
	_, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.odd: true }
return call? notes.odd { unreadable: true }`, nil)
	if err == nil || !strings.Contains(err.Error(), "the request could not be read") {
		t.Fatalf("got %v, want the server's error", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the call failed after %v", d)
	}
	t.Logf("%v", err)
	if _, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.odd: true }
return call? notes.odd {}`, nil); err != nil {
		t.Errorf("the next call: %v", err)
	}
}

// TestRemoteHostile: a remote server whose tools/list answer (an event
// stream) holds a schema nested 10 000 levels deep: the tool is listed
// not callable, as for a local server, and the others work; a result over
// the limit fails its call with output_limit.
func TestRemoteHostile(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 9999) + `{"type":"string"}` + strings.Repeat("}}", 9999)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.NewDecoder(r.Body).Decode(&m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var res string
		switch m.Method {
		case "initialize":
			res = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"0"}}`
		case "tools/list":
			res = `{"tools":[{"name":"deep","inputSchema":` + deep + `},{"name":"echo","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object"}},{"name":"big","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object"}}]}`
		case "tools/call":
			if m.Params.Name == "echo" {
				res = `{"content":[{"type":"text","text":"echoed"}]}`
			} else {
				res = `{"content":[{"type":"text","text":"` + strings.Repeat("x", 2<<20) + `"}]}`
			}
		default:
			res = `{}`
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", m.ID, res)
	}))
	defer srv.Close()
	scope := tools.HTTPScope{AllowPrivate: true}
	m, err := mcptool.NewManager(mcptool.ServerConfig{Name: "notes", URL: srv.URL, HTTPClient: scope.Client(), CheckURL: scope.CheckURL, MaxResult: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	infos, err := m.List(context.Background(), "notes")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, in := range infos {
		got[in.Name] = in.NotCallable
	}
	if len(got) != 3 || !strings.Contains(got["notes.deep"], "nested more than 64 levels deep") || got["notes.echo"] != "" {
		t.Errorf("listed %v", got)
	}
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.echo: true, notes.big: true }
let e = try { return call? notes.big {} } catch { e } { return e.details.reason }
return [call? notes.echo {}, e]`, nil)
	if err != nil || value.JSON(v) != `["echoed","output_limit"]` {
		t.Errorf("got %s %v", value.JSON(v), err)
	}
}
