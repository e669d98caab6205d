package policy

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestMCPSectionErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"not an object", `{"mcp": []}`,
			`"mcp" must be an object whose keys are server names, found an array (line 1, column 9, byte offset 8).`},
		{"name not an identifier", `{"mcp": {"my-notes": {"command": ["x"]}}}`,
			`"mcp.my-notes" is not a valid server name`},
		{"keyword name", `{"mcp": {"if": {"command": ["x"]}}}`, `"mcp.if" is not a valid server name`},
		{"built-in namespace", `{"mcp": {"fs": {"command": ["x"]}}}`, `"mcp.fs" is a built-in tool namespace (fs, http, sh)`},
		{"server not an object", `{"mcp": {"n": "x"}}`, `"mcp.n" must be an object, found a string`},
		{"unknown key with suggestion", `{"mcp": {"n": {"comand": ["x"]}}}`,
			`"mcp.n.comand" is not a known key (did you mean "command"?); valid mcp.n keys: command, env, cwd, tools, timeoutMs, url, envAllow, sandbox (line 1, column 16`},
		{"neither command nor url", `{"mcp": {"n": {"tools": ["a"]}}}`, `"mcp.n" needs "command"`},
		{"both command and url", `{"mcp": {"n": {"command": ["x"], "url": "http://h/mcp"}}}`, `"mcp.n.url" cannot be given with "command"`},
		{"command a string", `{"mcp": {"n": {"command": "node server.js"}}}`, `"mcp.n.command" must be an array of strings, found a string`},
		{"command empty", `{"mcp": {"n": {"command": []}}}`, `"mcp.n.command" must not be empty`},
		{"command empty element", `{"mcp": {"n": {"command": ["node", ""]}}}`, `"mcp.n.command[1]" must not be empty`},
		{"env value not a string", `{"mcp": {"n": {"command": ["x"], "env": {"A": 1}}}}`, `"mcp.n.env.A" must be a string, found a number`},
		{"env bad name", `{"mcp": {"n": {"command": ["x"], "env": {"A=B": "1"}}}}`, `"mcp.n.env.A=B" is not a valid environment variable name`},
		{"cwd empty", `{"mcp": {"n": {"command": ["x"], "cwd": ""}}}`, `"mcp.n.cwd" must not be empty`},
		{"tools not strings", `{"mcp": {"n": {"command": ["x"], "tools": [1]}}}`, `"mcp.n.tools[0]" must be a string, found a number`},
		{"tools collide", `{"mcp": {"n": {"command": ["x"], "tools": ["a-b", "a_b"]}}}`, `"mcp.n.tools[1]" names the A0 tool "n.a_b" that another entry already names`},
		{"timeout zero", `{"mcp": {"n": {"command": ["x"], "timeoutMs": 0}}}`, `"mcp.n.timeoutMs" must be an integer from 1 to 86400000, found 0`},
		{"url scheme", `{"mcp": {"n": {"url": "ftp://h/x"}}}`, `"mcp.n.url" must be an http:// or https:// URL with a host`},
		{"url with env", `{"mcp": {"n": {"url": "https://h/mcp", "env": {"A": "b"}}}}`, `"mcp.n" "env", "envAllow", "cwd" and "sandbox" apply to local servers only`},
		{"url with sandbox", `{"mcp": {"n": {"url": "https://h/mcp", "sandbox": {}}}}`, `"mcp.n" "env", "envAllow", "cwd" and "sandbox" apply to local servers only`},
		{"envAllow suggestion", `{"mcp": {"n": {"command": ["x"], "envAlow": ["A"]}}}`, `"mcp.n.envAlow" is not a known key (did you mean "envAllow"?)`},
		{"envAllow not a list", `{"mcp": {"n": {"command": ["x"], "envAllow": "GITHUB_*"}}}`, `"mcp.n.envAllow" must be an array of strings, found a string`},
		{"envAllow empty name", `{"mcp": {"n": {"command": ["x"], "envAllow": [""]}}}`, `"mcp.n.envAllow[0]" must not be empty`},
		{"envAllow with =", `{"mcp": {"n": {"command": ["x"], "envAllow": ["A=B"]}}}`, `"mcp.n.envAllow[0]" is not an environment variable name or glob`},
		{"sandbox not an object", `{"mcp": {"n": {"command": ["x"], "sandbox": true}}}`, `"mcp.n.sandbox" must be an object, found a boolean`},
		{"sandbox unknown key", `{"mcp": {"n": {"command": ["x"], "sandbox": {"wrte": ["."]}}}}`, `"mcp.n.sandbox.wrte" is not a known key (did you mean "write"?); valid mcp.n.sandbox keys: read, write, network, limits, require`},
		{"sandbox network", `{"mcp": {"n": {"command": ["x"], "sandbox": {"network": "some"}}}}`, `"mcp.n.sandbox.network" must be "deny" or "allow", found "some"`},
		{"sandbox limits key", `{"mcp": {"n": {"command": ["x"], "sandbox": {"limits": {"cpu": 1}}}}}`, `"mcp.n.sandbox.limits.cpu" is not a known key`},
		{"sandbox limits value", `{"mcp": {"n": {"command": ["x"], "sandbox": {"limits": {"openFiles": 0}}}}}`, `"mcp.n.sandbox.limits.openFiles" must be an integer from 1 to`},
		{"unknown top-level key suggests mcp", `{"mpc": {}}`, `(did you mean "mcp"?)`},
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

func TestMCPSectionValues(t *testing.T) {
	src := `{"allow": ["notes.search", "web.*"], "deny": ["web.delete"], "mcp": {
  "notes": {"command": ["notes-server", "--db", "n.db"], "env": {"B": "2", "A": "1"}, "cwd": "srv",
            "tools": ["search", "add-note"], "timeoutMs": 5000},
  "web": {"url": "https://mcp.example.com/mcp"}}}`
	p, err := Parse("/p/.a0policy.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: SourceProject, Path: "/p/.a0policy.json", Policy: p}
	ss := r.MCPServers()
	if len(ss) != 2 || ss[0].Name != "notes" || ss[1].Name != "web" {
		t.Fatalf("servers %+v", ss)
	}
	n := ss[0]
	if strings.Join(n.Command, " ") != "notes-server --db n.db" || n.Cwd != filepath.Join("/p", "srv") ||
		n.TimeoutMs != 5000 || len(n.Env) != 2 || n.Env[0] != [2]string{"B", "2"} || strings.Join(n.Tools, ",") != "search,add-note" {
		t.Errorf("notes = %+v", n)
	}
	if ss[1].URL != "https://mcp.example.com/mcp" || ss[1].Cwd != "" {
		t.Errorf("web = %+v", ss[1])
	}
	// The default cwd is the policy file's folder.
	p2, _ := Parse("/q/.a0policy.json", []byte(`{"mcp": {"n": {"command": ["x"]}}}`))
	if got := (&Resolved{Path: "/q/.a0policy.json", Policy: p2}).MCPServers()[0].Cwd; got != "/q" {
		t.Errorf("default cwd %q", got)
	}
	for id, want := range map[string]bool{
		"notes.search": true, "notes.add_note": false, // by name only
		"web.get": true, "web.delete": false, // server.* minus a denied tool
		"other.x": false, "fs.read": false,
	} {
		if got := r.Allowed(id); got != want {
			t.Errorf("Allowed(%s) = %v, want %v", id, got, want)
		}
	}
	// "x.*" grants nothing when no server is named x.
	p3, _ := Parse("/p.json", []byte(`{"allow": ["x.*"]}`))
	if (&Resolved{Policy: p3}).Allowed("x.y") {
		t.Error(`"x.*" granted a tool of an unconfigured server`)
	}
	// --unsafe-allow-all grants the tools of configured servers.
	if aa := r.AllowAll(); !aa.Allowed("web.delete") || aa.Allowed("other.x") {
		t.Error("AllowAll and MCP tools")
	}
}

func TestToolName(t *testing.T) {
	for in, want := range map[string]string{
		"search": "n.search", "get-weather": "n.get_weather", "a.b c": "n.a_b_c",
		"2fa": "n._2fa", "if": "n._if", "": "n._", "é": "n.__",
	} {
		if got := ToolName("n", in); got != want {
			t.Errorf("ToolName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMCPRender(t *testing.T) {
	p, err := Parse("/p/.a0policy.json", []byte(`{"mcp": {"notes": {"command": ["srv", "-v"], "env": {"NOTES_TOKEN": "s3cr3t-value"}, "tools": ["search"], "timeoutMs": 900},
  "web": {"url": "https://mcp.example.com/mcp"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: SourceProject, Path: "/p/.a0policy.json", Policy: p}
	text := Text(r)
	want := `  MCP servers:
    notes:
      command:   ["srv","-v"]
      cwd:       /p
      env:       NOTES_TOKEN
      tools:     search
      timeoutMs: 900
    web:
      url:       https://mcp.example.com/mcp
      tools:     (every tool the server lists)
      timeoutMs: (none: the run's time budget only)
`
	if !strings.HasSuffix(text, want) {
		t.Errorf("text:\n%s\nwant suffix:\n%s", text, want)
	}
	js := JSON(r)
	for _, w := range []string{`"mcp": {`, `"env": [
        "NOTES_TOKEN"
      ]`, `"url": "https://mcp.example.com/mcp"`} {
		if !strings.Contains(js, w) {
			t.Errorf("JSON lacks %s:\n%s", w, js)
		}
	}
	if strings.Contains(text+js, "s3cr3t") {
		t.Error("an env value is shown")
	}
}

// TestMCPEnvAllowAndSandbox: a server's envAllow and its own sandbox, whose
// roots are made absolute against the policy's folder and joined by the
// fs roots, as exec.sandbox's are; --unsafe-allow-all drops it, as it
// drops exec.sandbox.
func TestMCPEnvAllowAndSandbox(t *testing.T) {
	p, err := Parse("/p/.a0policy.json", []byte(`{"fs": {"read": ["docs"]}, "mcp": {
  "n": {"command": ["x"], "envAllow": ["GITHUB_*", "HTTPS_PROXY"], "sandbox": {"read": ["srv"], "write": ["out"], "limits": {"openFiles": 64}}},
  "m": {"command": ["y"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: SourceProject, Path: "/p/.a0policy.json", Policy: p}
	ss := r.MCPServers()
	n, m := ss[0], ss[1]
	if strings.Join(n.EnvAllow, ",") != "GITHUB_*,HTTPS_PROXY" || m.EnvAllow != nil {
		t.Errorf("envAllow %v %v", n.EnvAllow, m.EnvAllow)
	}
	// The fs roots come first, then the server's own.
	sb := n.SandboxConfig
	if sb == nil || strings.Join(sb.Read, ",") != "/p/docs,/p/srv" || strings.Join(sb.Write, ",") != "/p/out" || sb.NetworkAllow ||
		!sb.Require || sb.Limits.OpenFiles != 64 {
		t.Errorf("sandbox %+v", sb)
	}
	if m.SandboxConfig != nil {
		t.Errorf("a server without sandbox got %+v", m.SandboxConfig)
	}
	if aa := r.AllowAll(); aa.MCPServers()[0].SandboxConfig != nil {
		t.Error("--unsafe-allow-all kept the server's sandbox")
	}
	text, js := Text(r), JSON(r)
	for _, w := range []string{"envAllow:  GITHUB_*, HTTPS_PROXY", "sandbox:   read /p/srv; write /p/out; network deny"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	if !strings.Contains(js, `"envAllow": [`) || !strings.Contains(js, `"network": "deny"`) {
		t.Errorf("JSON lacks envAllow or sandbox:\n%s", js)
	}
}
