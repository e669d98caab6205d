package main

import (
	"bytes"
	"context"
	"encoding/json"
	goparser "go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession starts `a0 mcp <args>` in-process (realMain over pipes) in a
// fresh directory with the given project policy ("" for none) and returns
// a connected client session. Cleanup closes the session and checks the
// server exits 0.
func mcpSession(t *testing.T, policy string, args ...string) *mcp.ClientSession {
	cs, _ := mcpSessionStop(t, policy, args...)
	return cs
}

// mcpSessionStop is mcpSession plus a function that closes the client and
// waits for the server to exit (also run at cleanup).
func mcpSessionStop(t *testing.T, policy string, args ...string) (*mcp.ClientSession, func()) {
	t.Helper()
	dir := t.TempDir()
	if policy != "" {
		if err := os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(policy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("HOME", dir)

	inR, inW := io.Pipe()   // client → server
	outR, outW := io.Pipe() // server → client
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := realMain(append([]string{"mcp"}, args...), inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "a0-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %q)", err, stderr.String())
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			// Close the server's stdin first, as a client that goes away
			// does (ClientSession.Close would wait for calls in flight).
			inW.Close()
			select {
			case code := <-done:
				if code != 0 {
					t.Errorf("a0 mcp exited %d, stderr %q", code, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Errorf("a0 mcp did not exit after its stdin was closed")
			}
			cs.Close()
		})
	}
	t.Cleanup(stop)
	return cs, stop
}

// mcpOutput is the structured content of a0_run, a0_check and a0_format.
type mcpOutput struct {
	OK          bool              `json:"ok"`
	ExitCode    int               `json:"exitCode"`
	Value       json.RawMessage   `json:"value"`
	Diagnostics []mcpDiagnostic   `json:"diagnostics"`
	Evidence    []json.RawMessage `json:"evidence"`
	Formatted   string            `json:"formatted"`
	Warnings    []string          `json:"warnings"`
}

type mcpDiagnostic struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Hint    string          `json:"hint"`
	Details json.RawMessage `json:"details"`
}

// callTool calls a tool and decodes its structured content (also checking
// the text content: for a0_run the same JSON, when it fits maxTextBytes,
// for the other tools a summary, not a second copy of it).
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, mcpOutput, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text string
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	var out mcpOutput
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: structured content %s: %v", name, b, err)
		}
		switch {
		case len(res.Content) != 1:
			t.Errorf("%s: %d content items", name, len(res.Content))
		case name == "a0_run" && len(b) <= 64<<10:
			var fromText any
			if err := json.Unmarshal([]byte(text), &fromText); err != nil {
				t.Errorf("%s: the text content is not the result's JSON: %q", name, short(text))
			}
			if tb, _ := json.Marshal(fromText); string(tb) != string(b) {
				t.Errorf("%s: the text content %s is not the structured content %s", name, short(text), short(string(b)))
			}
		case name != "a0_run" && (json.Valid([]byte(text)) || len(text) > 1000):
			t.Errorf("%s: the text content is not one short summary: %q", name, short(text))
		}
	}
	return res, out, text
}

func TestMCPServer(t *testing.T) {
	f, err := goparser.ParseFile(token.NewFileSet(), "../../runtime/mcpserver/server.go", nil, goparser.PackageClauseOnly|goparser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	cs := mcpSession(t, "") // no policy file: deny-all
	ctx := context.Background()

	if info := cs.InitializeResult().ServerInfo; info.Name != "a0" || info.Version != version {
		t.Errorf("server info %+v", info)
	}

	// tools/list: the five tools, with input and output schemas.
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]*mcp.Tool{}
	for _, tool := range lt.Tools {
		names[tool.Name] = tool
	}
	for _, n := range []string{"a0_run", "a0_check", "a0_format", "a0_help", "a0_tools"} {
		if names[n] == nil {
			t.Fatalf("tools/list lacks %s: %v", n, names)
		}
	}
	// The package documentation (go doc ./runtime/mcpserver) names every
	// tool served.
	for n := range names {
		if !strings.Contains(strings.Join(strings.Fields(f.Doc.Text()), " "), n) {
			t.Errorf("the mcpserver package documentation does not name the tool %s", n)
		}
	}
	if s, _ := json.Marshal(names["a0_run"].InputSchema); !strings.Contains(string(s), `"required":["source"]`) {
		t.Errorf("a0_run input schema %s", s)
	}
	if !strings.Contains(names["a0_run"].Description, "grants no capabilities") {
		t.Errorf("a0_run description does not say what is granted: %q", names["a0_run"].Description)
	}
	if names["a0_run"].OutputSchema == nil || names["a0_check"].OutputSchema == nil {
		t.Errorf("a0_run and a0_check must declare output schemas")
	}

	// a0_run: a value.
	res, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": "let x = 40 + 2  return { answer: x }"})
	if res.IsError || !out.OK || out.ExitCode != 0 || string(out.Value) != `{"answer":42}` || len(out.Diagnostics) != 0 {
		t.Errorf("a0_run: isError %v, %+v value %s", res.IsError, out, out.Value)
	}

	// Record key order and the JavaScript number rule survive (the SDK
	// client decodes structured content into a map, so look at the text,
	// the result's JSON; TestMCPWire looks at the wire).
	_, _, text := callTool(t, cs, "a0_run", map[string]any{"source": `return { z: 1, a: 0.1 + 0.2, m: -0 }`})
	if !strings.Contains(text, `"value":{"z":1,"a":0.30000000000000004,"m":0}`) {
		t.Errorf("value %s", text)
	}

	// The server's policy (deny-all) refuses sh.exec before anything runs.
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{
		"source":   "cap { sh.exec: true }\ndo sh.exec { argv: [\"true\"] } -> r\nreturn r",
		"filename": "job.a0",
	})
	if !res.IsError || out.OK || out.ExitCode != 3 || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_CAP_DENIED" {
		t.Errorf("sh.exec under deny-all: isError %v, %+v", res.IsError, out)
	}
	if string(out.Value) != "null" {
		t.Errorf("failed run value %s", out.Value)
	}

	// Static errors: exit 2 with the check diagnostics.
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": "return { a: nope }"})
	if !res.IsError || out.ExitCode != 2 || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_UNBOUND" {
		t.Errorf("static error: %+v", out)
	}

	// A runtime error carries its details; evidence is returned even then.
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": "check { that: true, msg: \"first\" }\nassert { that: false, msg: \"stop\" }\nreturn 1"})
	if !res.IsError || out.ExitCode != 5 || len(out.Evidence) != 2 || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_ASSERT" {
		t.Errorf("assert: %+v", out)
	}
	// A failed check lets the run finish: a value and exit 5.
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": "check { that: false, msg: \"no\" }\nreturn 7"})
	if !res.IsError || out.ExitCode != 5 || string(out.Value) != "7" || len(out.Evidence) != 1 {
		t.Errorf("failed check: %+v", out)
	}

	// a0_check: E_UNBOUND on an unbound name; ok on a good program.
	res, out, _ = callTool(t, cs, "a0_check", map[string]any{"source": "let a = 1\nreturn { b: missing }"})
	if res.IsError || out.OK || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_UNBOUND" {
		t.Errorf("a0_check: %+v", out)
	}
	_, out, _ = callTool(t, cs, "a0_check", map[string]any{"source": "return 1"})
	if !out.OK || len(out.Diagnostics) != 0 {
		t.Errorf("a0_check ok: %+v", out)
	}

	// a0_format.
	_, out, _ = callTool(t, cs, "a0_format", map[string]any{"source": "# note\nreturn {a:1}"})
	if !out.OK || out.Formatted != "# note\nreturn { a: 1 }\n" || len(out.Warnings) != 0 {
		t.Errorf("a0_format: %+v", out)
	}
	res, out, _ = callTool(t, cs, "a0_format", map[string]any{"source": "return {"})
	if !res.IsError || out.OK || len(out.Diagnostics) == 0 {
		t.Errorf("a0_format parse error: %+v", out)
	}

	// a0_help: the CLI's texts; the tools topic adds the argument schemas.
	_, _, text = callTool(t, cs, "a0_help", map[string]any{})
	if text != quickReference+"\n" {
		t.Errorf("a0_help quick reference: %q", short(text))
	}
	_, _, text = callTool(t, cs, "a0_help", map[string]any{"topic": "tools"})
	if !strings.HasPrefix(text, helpTopicTexts["tools"]) || !strings.Contains(text, "\n  do sh.exec { ") {
		t.Errorf("a0_help tools: %q", short(text))
	}
	res, _, text = callTool(t, cs, "a0_help", map[string]any{"topic": "nope"})
	if !res.IsError || !strings.HasPrefix(text, `Unknown help topic: "nope"`) {
		t.Errorf("a0_help unknown: %v %q", res.IsError, text)
	}

	// Bad arguments are a tool error, not a protocol error.
	res, _, text = callTool(t, cs, "a0_run", map[string]any{"src": "return 1"})
	if !res.IsError || !strings.Contains(text, "invalid arguments") {
		t.Errorf("bad arguments: %v %q", res.IsError, text)
	}

	// The tools index: the built-in namespaces, with counts and names.
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpToolsURI})
	if err != nil {
		t.Fatal(err)
	}
	var index struct {
		Servers []struct {
			Name, Kind, Description, URI string
			Tools                        int
			Names                        []string
		}
	}
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &index); err != nil || len(index.Servers) != 3 {
		t.Fatalf("resource %s: %v", rr.Contents[0].Text, err)
	}
	for _, sv := range index.Servers {
		if sv.Kind != "builtin" || sv.Tools != len(sv.Names) || sv.Tools == 0 || sv.URI != mcpToolsURI+"/"+sv.Name || sv.Description == "" {
			t.Errorf("index entry %+v", sv)
		}
	}
	if n := len(rr.Contents[0].Text); n > 2000 {
		t.Errorf("the index has %d bytes", n)
	}
}

// TestMCPServerPolicy: the grants and limits come from the policy file the
// server found at start; a later change of the file does not matter, and a
// client cannot ask for more.
func TestMCPServerPolicy(t *testing.T) {
	cs := mcpSession(t, `{"version":1,"allow":["sh.exec"],"limits":{"maxToolCalls":1}}`)
	prog := "cap { sh.exec: true }\nbudget { maxToolCalls: 10 }\n" +
		"do sh.exec { argv: [\"echo\", \"hi\"] } -> r\nreturn r.stdout"
	res, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": prog})
	if res.IsError || string(out.Value) != `"hi\n"` {
		t.Fatalf("sh.exec granted: %+v", out)
	}
	// The policy's maxToolCalls ceiling (1) beats the program's budget (10).
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": "cap { sh.exec: true }\nbudget { maxToolCalls: 10 }\n" +
		"do sh.exec { argv: [\"true\"] } -> a\ndo sh.exec { argv: [\"true\"] } -> b\nreturn 1"})
	if !res.IsError || out.ExitCode != 4 || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_BUDGET" {
		t.Errorf("ceiling: %+v", out)
	}
	// Rewriting the policy file does not change the running server.
	if err := os.WriteFile(".a0policy.json", []byte(`{"version":1,"allow":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": prog})
	if res.IsError {
		t.Errorf("policy re-read during the session: %+v", out)
	}
}

// TestMCPServerScopes: the policy's fs roots confine a0_run as they
// confine a0 run.
func TestMCPServerScopes(t *testing.T) {
	cs := mcpSession(t, `{"version":1,"allow":["fs.read"],"fs":{"read":["data"]}}`)
	if err := os.Mkdir("data", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"data/a.txt": "inside", "secret.txt": "outside"} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": "cap { fs.read: true }\nreturn call? fs.read { path: \"data/a.txt\" }"})
	if res.IsError || string(out.Value) != `"inside"` {
		t.Errorf("inside the root: %+v", out)
	}
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": "cap { fs.read: true }\nreturn call? fs.read { path: \"secret.txt\" }"})
	if !res.IsError || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_CAP_DENIED" {
		t.Errorf("outside the root: %+v", out)
	}
}

func TestMCPServerUnsafeAllowAll(t *testing.T) {
	cs := mcpSession(t, "", "--unsafe-allow-all")
	res, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": "cap { sh.exec: true }\ndo sh.exec { argv: [\"true\"] } -> r\nreturn r.exitCode"})
	if res.IsError || string(out.Value) != "0" {
		t.Errorf("--unsafe-allow-all: %+v", out)
	}
}

// TestMCPServerConcurrentCalls: calls are independent runs, also when a
// client sends them at once.
func TestMCPServerConcurrentCalls(t *testing.T) {
	cs := mcpSession(t, "")
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			n := strings.Repeat("1 + ", i) + "0"
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "a0_run",
				Arguments: map[string]any{"source": "let n = " + n + "\ncheck { that: n >= 0, msg: \"n\" }\nreturn n"}})
			if err != nil {
				t.Error(err)
				return
			}
			var out mcpOutput
			b, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(b, &out)
			if string(out.Value) != strconv.Itoa(i) || len(out.Evidence) != 1 {
				t.Errorf("call %d: %s", i, b)
			}
		})
	}
	wg.Wait()
}

func TestMCPInvalidPolicy(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(`{"allow":`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	var out, errb bytes.Buffer
	code := realMain([]string{"mcp"}, strings.NewReader(""), &out, &errb)
	if code != 3 || out.Len() != 0 || !strings.Contains(errb.String(), `"code":"E_POLICY"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// TestMCPBinaryStdio builds a0 and talks to `a0 mcp` over real stdio with
// the SDK's command transport: the "Done when" checks of the MCP server.
func TestMCPBinaryStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, cmd := builtMCPSession(ctx, t, builtA0(t), t.TempDir())
	found := map[string]bool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		found[tool.Name] = true
	}
	if !found["a0_run"] || !found["a0_check"] {
		t.Fatalf("tools %v", found)
	}
	res, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": "let x = 40 + 2  return { answer: x }"})
	if res.IsError || string(out.Value) != `{"answer":42}` {
		t.Errorf("a0_run: %+v", out)
	}
	res, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": "cap { sh.exec: true }\ndo sh.exec { cmd: \"echo hi\" } -> r\nreturn r"})
	if !res.IsError || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_CAP_DENIED" {
		t.Errorf("sh.exec: %+v", out)
	}
	_, out, _ = callTool(t, cs, "a0_check", map[string]any{"source": "return unbound_name"})
	if len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_UNBOUND" {
		t.Errorf("a0_check: %+v", out)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("server exit: %v", cmd.ProcessState)
	}
}

var builtBin struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// builtA0 builds the a0 binary once per test process (with go build, as
// a user would) and returns its path.
func builtA0(t *testing.T) string {
	t.Helper()
	builtBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "a0-built-")
		if err != nil {
			builtBin.err = err
			return
		}
		builtBin.path = filepath.Join(dir, "a0")
		builtBin.out, builtBin.err = exec.Command("go", "build", "-o", builtBin.path, ".").CombinedOutput()
	})
	if builtBin.err != nil {
		t.Fatalf("go build: %v\n%s", builtBin.err, builtBin.out)
	}
	return builtBin.path
}

// builtMCPSession starts `bin mcp` in dir (HOME there too) and connects
// the SDK's client over the command transport; the session is closed at
// the end of the test. cmd is the server process.
func builtMCPSession(ctx context.Context, t *testing.T, bin, dir string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "a0-test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}
