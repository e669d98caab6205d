//go:build unix

package mcptool_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/tools"
)

// These tests hold MCP servers like commands (spec/mcp.md §5.1, §6):
// environment, confinement, the sweep at stop, result and message size,
// schemas, requests from the server, and masking. Each runs the
// repository's test server (mcptest) as a real process.

// field returns the member k of the record v.
func field(v value.Value, k string) value.Value {
	if r := v.AsRecord(); r != nil {
		x, _ := r.Get(k)
		return x
	}
	return value.NullValue
}

// TestServerEnvironment: a local server gets a minimal environment, its
// entry's env and what its envAllow names — not a0's whole environment
// (it saw GITHUB_PAT and OUTER_SECRET_KEY before) — and allowed values
// whose names look secret are masked in what it returns.
func TestServerEnvironment(t *testing.T) {
	t.Setenv("GITHUB_PAT", "ghp_outer_pat_value")
	t.Setenv("OUTER_SECRET_KEY", "outer-secret-key-value")
	t.Setenv("UNRELATED_VAR", "unrelated")
	t.Setenv("MYAPP_MODE", "fast")
	t.Setenv("DEPLOY_TOKEN", "deploy-token-value")
	t.Setenv("LC_TIME", "C")
	cfg := local(t, t.TempDir())
	cfg.EnvAllow = []string{"myapp_*", "DEPLOY_TOKEN"}
	m, _ := mcptool.NewManager(cfg)
	defer m.Close()
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.environ: true }
return call? notes.environ {}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	r := v.AsRecord()
	for i := 0; i < r.Len(); i++ {
		env[r.Key(i)] = value.ToText(r.At(i))
	}
	for _, k := range []string{"GITHUB_PAT", "OUTER_SECRET_KEY", "UNRELATED_VAR"} {
		if _, ok := env[k]; ok {
			t.Errorf("the server got %s=%s", k, env[k])
		}
	}
	want := map[string]string{
		"PATH": os.Getenv("PATH"), "LC_TIME": "C", "MYAPP_MODE": "fast", "A0_MCPTEST": "1",
		"DEPLOY_TOKEN": "[masked:DEPLOY_TOKEN]", "SECRET_TOKEN": "[masked:SECRET_TOKEN]",
	}
	for k, w := range want {
		if env[k] != w {
			t.Errorf("%s = %q, want %q", k, env[k], w)
		}
	}
	if !strings.HasPrefix(env["A0_EXEC_ID"], "x_") {
		t.Errorf("A0_EXEC_ID = %q", env["A0_EXEC_ID"])
	}
	for k := range env {
		if !knownEnv(k) {
			t.Errorf("unexpected variable %s", k)
		}
	}
}

func knownEnv(k string) bool {
	switch k {
	case "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "A0_EXEC_ID",
		"A0_MCPTEST", "MCP_CALL_LOG", "NOTES_FILE", "SECRET_TOKEN", "MYAPP_MODE", "DEPLOY_TOKEN":
		return true
	}
	return strings.HasPrefix(k, "LC_")
}

// confinedPolicy returns the server configurations of a policy whose
// server "notes" is the test server, for a policy file in dir.
func confinedPolicy(t *testing.T, dir, mcpExtra, execSection string) []mcptool.ServerConfig {
	t.Helper()
	exe, _ := os.Executable()
	exeJSON := strconv.Quote(exe)
	src := `{"allow": ["notes.*"], ` + execSection + `"mcp": {"notes": {"command": [` + exeJSON + `], "env": {"A0_MCPTEST": "1"}` + mcpExtra + `}}}`
	p, err := policy.Parse(filepath.Join(dir, ".a0policy.json"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := &policy.Resolved{Source: policy.SourceProject, Path: filepath.Join(dir, ".a0policy.json"), Policy: p}
	return mcptool.FromPolicy(res.MCPServers(), *tools.FromPolicy(res, dir).Exec, nil, nil)
}

// TestConfinedServer: under exec.sandbox, or the server's own sandbox, a
// server runs confined like a command: it writes inside its write roots
// only, and cannot reach the network when the sandbox denies it.
func TestConfinedServer(t *testing.T) {
	if runtime.GOOS != "linux" || !proc.SandboxStatus().Available {
		t.Skip("no Landlock")
	}
	exe, _ := os.Executable()
	exeDir := strconv.Quote(filepath.Dir(exe))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	addr := strconv.Quote(ln.Addr().String())
	prog := func(inside, outside string) string {
		return `cap { notes.writefile: true, notes.dial: true }
let in = try { return do notes.writefile { path: ` + strconv.Quote(inside) + ` } } catch { e } { return e.message }
let out = try { return do notes.writefile { path: ` + strconv.Quote(outside) + ` } } catch { e } { return e.message }
let net = try { return call? notes.dial { addr: ` + addr + ` } } catch { e } { return e.message }
return { in: in, out: out, net: net }`
	}
	for _, tc := range []struct {
		name              string
		mcpExtra, execSec string
		confined          bool
	}{
		{"exec.sandbox", ``, `"exec": {"sandbox": {"read": [` + exeDir + `], "write": ["in"]}}, `, true},
		{"the server's own sandbox", `, "sandbox": {"read": [` + exeDir + `], "write": ["in"]}`, ``, true},
		{"the server's sandbox wins over exec.sandbox", `, "sandbox": {"read": [` + exeDir + `], "write": ["in"]}`,
			`"exec": {"sandbox": {"read": [` + exeDir + `], "write": ["elsewhere"], "network": "allow"}}, `, true},
		{"no sandbox: unconfined", ``, ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			os.Mkdir(filepath.Join(dir, "in"), 0o755)
			os.Mkdir(filepath.Join(dir, "elsewhere"), 0o755)
			m, err := mcptool.NewManager(confinedPolicy(t, dir, tc.mcpExtra, tc.execSec)...)
			if err != nil {
				t.Fatal(err)
			}
			v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), prog(filepath.Join(dir, "in", "ok.txt"), filepath.Join(outside, "escape.txt")), nil)
			m.Close()
			if err != nil {
				t.Fatal(err)
			}
			in, out, netRes := value.ToText(field(v, "in")), value.ToText(field(v, "out")), value.ToText(field(v, "net"))
			if in != "written" {
				t.Errorf("write inside the root: %s", in)
			}
			_, statErr := os.Stat(filepath.Join(outside, "escape.txt"))
			if tc.confined {
				if out == "written" || statErr == nil || !strings.Contains(out, "permission denied") {
					t.Errorf("write outside the roots: %q (file exists: %v)", out, statErr == nil)
				}
				if netRes == "connected" {
					t.Errorf("network deny did not hold: %s", netRes)
				}
			} else if out != "written" || netRes != "connected" {
				t.Errorf("unconfined server: out %q, net %q", out, netRes)
			}
		})
	}
}

// execIDProcs returns the pids of processes whose environment carries
// A0_EXEC_ID=id (Linux).
func execIDProcs(id string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			continue
		}
		for _, kv := range strings.Split(string(b), "\x00") {
			if kv == "A0_EXEC_ID="+id {
				out = append(out, pid)
			}
		}
	}
	return out
}

// TestServerHelpersSwept: a helper the server starts with setsid (out of
// its process group) is killed when the manager closes, found by the
// server's A0_EXEC_ID, as a command's are at run end.
func TestServerHelpersSwept(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sweep reads /proc")
	}
	for _, confined := range []bool{false, true} {
		t.Run("confined="+strconv.FormatBool(confined), func(t *testing.T) {
			cfg := local(t, t.TempDir())
			if confined {
				if !proc.SandboxStatus().Available {
					t.Skip("no Landlock")
				}
				exe, _ := os.Executable()
				cfg.Sandbox = &proc.Sandbox{Read: []string{filepath.Dir(exe)}, Write: []string{cfg.Dir}, Require: true}
			}
			m, _ := mcptool.NewManager(cfg)
			v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.spawn: true }
return do notes.spawn {}`, nil)
			if err != nil {
				m.Close()
				t.Fatal(err)
			}
			pid := int(field(v, "pid").AsNumber())
			id := value.ToText(field(v, "execId"))
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if pid <= 0 || !strings.HasPrefix(id, "x_") {
				m.Close()
				t.Fatalf("spawn returned %s", value.JSON(v))
			}
			// The helper may still be in its exec (setsid, then sleep),
			// when /proc shows no environment yet: wait for it a little.
			ps := execIDProcs(id)
			for wait := time.Now().Add(2 * time.Second); len(ps) < 2 && time.Now().Before(wait); ps = execIDProcs(id) {
				time.Sleep(10 * time.Millisecond)
			}
			if len(ps) < 2 {
				t.Errorf("before close, processes with the id: %v (want the server and its helper)", ps)
			}
			m.Close()
			deadline := time.Now().Add(3 * time.Second)
			for {
				ps := execIDProcs(id)
				if len(ps) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("processes with A0_EXEC_ID=%s left after Close: %v", id, ps)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// TestResultOverLimit: a result over a0's limit is discarded while it is
// read — the call fails with output_limit naming the limit — and the
// server stays usable (it was killed and reported as mcp_server before).
func TestResultOverLimit(t *testing.T) {
	cfg := local(t, t.TempDir(), "bad")
	m, _ := mcptool.NewManager(cfg)
	defer m.Close()
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.big: true, notes.echo: true }
let e = try { return call? notes.big { mb: 20 } } catch { e } { return e }
let small = call? notes.big { mb: 1 }
return { e: e, after: call? notes.echo { a: 1 }, small: small }`, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := field(v, "e")
	if c, r := value.ToText(field(e, "code")), value.ToText(field(field(e, "details"), "reason")); c != "E_TOOL" || r != "output_limit" {
		t.Errorf("got %s", value.JSON(e))
	}
	if msg := value.ToText(field(e, "message")); !strings.Contains(msg, strconv.Itoa(mcptool.DefaultMaxResult)) {
		t.Errorf("message does not name the limit: %s", msg)
	}
	if value.ToText(field(v, "after")) != "map[a:1]" || len(value.ToText(field(v, "small"))) != 1<<20 {
		t.Errorf("server not usable after the discarded result: %s", value.JSON(field(v, "after")))
	}
	if got := strings.Join(calls(cfg.Dir), ","); got != "big,big,echo" {
		t.Errorf("server saw %q: it was restarted or missed a call", got)
	}
}

// TestRefusedSchemas: input schemas whose references loop, or that nest
// too deep, make their tools not callable, with the reason, instead of
// killing a0 (a stack overflow at listing time before) or failing the
// whole listing; the other tools of the server, a recursive tree schema
// among them, stay usable.
func TestRefusedSchemas(t *testing.T) {
	for _, tc := range []struct {
		list string
		want map[string]string
	}{
		{"selfref,mutual,tree", map[string]string{
			"notes.selfref": "references loop back to #",
			"notes.mutual":  "references loop back to #/$defs/",
			"notes.tree":    "",
			"notes.echo":    "",
		}},
		{"deep", map[string]string{"notes.deep": "nested more than 64 levels deep", "notes.echo": ""}},
	} {
		t.Run(tc.list, func(t *testing.T) {
			cfg := local(t, t.TempDir(), "bad")
			cfg.Env = append(cfg.Env, [2]string{"MCP_BAD_SCHEMAS", tc.list})
			m, _ := mcptool.NewManager(cfg)
			defer m.Close()
			infos, err := m.List(context.Background(), "notes")
			if err != nil {
				t.Fatal(err)
			}
			refused := map[string]string{}
			for _, in := range infos {
				refused[in.Name] = in.NotCallable
			}
			for name, want := range tc.want {
				got, ok := refused[name]
				if !ok || (want == "") != (got == "") || !strings.Contains(got, want) {
					t.Errorf("%s: not callable %q, want %q", name, got, want)
				}
				if want == "" {
					continue
				}
				v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { `+name+`: true }
return try { return call? `+name+` {} } catch { e } { return e }`, nil)
				if err != nil {
					t.Fatal(err)
				}
				if value.ToText(field(v, "code")) != "E_TOOL" || value.ToText(field(field(v, "details"), "reason")) != "schema_refused" ||
					!strings.Contains(value.ToText(field(v, "message")), "cannot be called: its input schema") || !strings.Contains(value.ToText(field(v, "message")), want) {
					t.Errorf("%s: %s", name, value.JSON(v))
				}
			}
			if _, ok := tc.want["notes.tree"]; !ok {
				return
			}
			v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.tree: true }
let bad = try { return call? notes.tree { kids: [{ name: 1 }] } } catch { e } { return e.code }
return [bad, call? notes.tree { name: "r", kids: [{ name: "k", kids: [] }] }]`, nil)
			if err != nil {
				t.Fatal(err)
			}
			if l := v.AsList(); len(l) != 2 || value.ToText(l[0]) != "E_TOOL_ARGS" || !strings.Contains(value.ToText(l[1]), "name:r") {
				t.Errorf("tree: %s", value.JSON(v))
			}
		})
	}
}

// TestServerRequestFlood: a server that sends a0 many requests without
// reading its input does not grow a0's memory (it reached 1.5–2.4 GB
// before): a0 handles a few at a time and drops the rest, and the run
// ends.
func TestServerRequestFlood(t *testing.T) {
	m, _ := mcptool.NewManager(local(t, t.TempDir(), "bad"))
	defer m.Close()
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.flood: true }
budget { timeMs: 60000 }
return call? notes.flood { n: 400000 }`, nil)
	close(stop)
	<-sampled
	if err != nil || value.ToText(v) != "flooded" {
		t.Errorf("got %s %v", value.JSON(v), err)
	}
	t.Logf("flood of 400000 requests: %v, peak heap %d MiB", time.Since(start), peak.Load()>>20)
	if p := peak.Load(); p > 128<<20 {
		t.Errorf("heap reached %d MiB during the flood, want < 128", p>>20)
	}
}

// TestMaskingDecoded: secrets are masked in the decoded result — its
// text and its structured content, also when the server writes the
// secret with JSON escapes (a quote, a backslash, non-ASCII) — and in
// JSON-RPC error messages, which were not masked at all before.
func TestMaskingDecoded(t *testing.T) {
	const secret = `pa"ss\wörd-✓-s3cr3t`
	cfg := local(t, t.TempDir(), "bad")
	cfg.Env = append(cfg.Env, [2]string{"QUOTED_SECRET", secret})
	m, _ := mcptool.NewManager(cfg)
	defer m.Close()
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.secret: true, notes.secreterr: true, notes.secrettext: true }
let r = call? notes.secret {}
let e = try { return call? notes.secreterr {} } catch { e } { return e }
return { r: r, e: e, t: call? notes.secrettext {} }`, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := value.JSON(v)
	for _, leak := range []string{"s3cr3t", "wörd", `w\u00f6rd`} {
		if strings.Contains(got, leak) {
			t.Errorf("secret leaked: %s", got)
		}
	}
	r := field(v, "r")
	if value.ToText(field(r, "token")) != "[masked:QUOTED_SECRET]" || value.JSON(field(r, "list")) != `["a","[masked:QUOTED_SECRET]"]` {
		t.Errorf("structured content: %s", value.JSON(r))
	}
	e := field(v, "e")
	if msg := value.ToText(field(e, "message")); value.ToText(field(field(e, "details"), "reason")) != "mcp_error" ||
		!strings.Contains(msg, "backend refused key [masked:QUOTED_SECRET]") {
		t.Errorf("error: %s", value.JSON(e))
	}
	if txt := value.ToText(field(v, "t")); txt != "before [masked:QUOTED_SECRET] after" {
		t.Errorf("text: %q", txt)
	}
}

// TestConfinedServerNotReadable: a confined server whose executable lies
// outside every root it may read does not start; the message names the
// key to change, the server's own when it has a sandbox.
func TestConfinedServerNotReadable(t *testing.T) {
	if runtime.GOOS != "linux" || !proc.SandboxStatus().Available {
		t.Skip("no Landlock")
	}
	dir := t.TempDir()
	m, err := mcptool.NewManager(confinedPolicy(t, dir, `, "sandbox": {"write": ["."]}`, ``)...)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	v, err := runWith(t, m, grantsOf(t, `["notes.*"]`, `[]`), `cap { notes.echo: true }
return try { return call? notes.echo {} } catch { e } { return e.message }`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg := value.ToText(v); !strings.Contains(msg, "could not start") || !strings.Contains(msg, "mcp.notes.sandbox.read") {
		t.Errorf("got %s", msg)
	}
}
