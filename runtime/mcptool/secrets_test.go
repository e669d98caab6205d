package mcptool_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
)

// A placeholder in a server's env gets the secret's value (the server
// sees it), the source variable is not inherited even when envAllow
// names it, and results mask the value.
func TestServerEnvSecret(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("A0_MCP_SECRET_SRC", "mcp-secret-value-424242")
	src := `{"allow": ["notes.*"], "mcp": {"notes": {"command": ["x"], "env": {"API_AUTH": "Bearer ${secret:API}"}}},
	  "secrets": {"API": {"from": {"env": "A0_MCP_SECRET_SRC"}, "to": ["mcp:notes"]}}}`
	p, err := policy.Parse(filepath.Join(dir, "p.json"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := &policy.Resolved{Source: policy.SourceProject, Path: filepath.Join(dir, "p.json"), Policy: p}
	cfg := local(t, dir)
	cfg.Env = append(cfg.Env, [2]string{"API_AUTH", "Bearer ${secret:API}"}, [2]string{"PLAIN", "x ${secret:API} y"})
	cfg.EnvAllow = []string{"A0_MCP_*"}
	cfg.Secrets = mcptool.NewSecretReader(res.Secrets())
	m, err := mcptool.NewManager(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	grants := grantsOf(t, `["notes.*"]`, `[]`)
	for _, tc := range []struct{ name, want string }{
		{"API_AUTH", `"Bearer [masked:API]"`},
		{"PLAIN", `"x [masked:API] y"`},
		{"A0_MCP_SECRET_SRC", `""`},
	} {
		v, err := runWith(t, m, grants, "cap { notes.env: true }\nreturn call? notes.env { name: \""+tc.name+"\" }", nil)
		if err != nil {
			t.Fatal(err)
		}
		got := value.JSON(v)
		if strings.Contains(got, "mcp-secret-value") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// environ shows every variable: the value appears masked only.
	v, err := runWith(t, m, grants, "cap { notes.environ: true }\nreturn call? notes.environ {}", nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := value.JSON(v); strings.Contains(s, "mcp-secret-value") || !strings.Contains(s, "[masked:API]") {
		t.Errorf("environ: %s", s)
	}
}
