package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPPolicyFlag: `a0 mcp --policy FILE` serves under that file, and a
// denial in a0_run says how to grant.
func TestMCPPolicyFlag(t *testing.T) {
	pol := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(pol, []byte(`{"version":1,"allow":["sh.exec"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := mcpSession(t, "", "--policy", pol)
	prog := "cap { sh.exec: true }\ndo sh.exec { argv: [\"echo\", \"hi\"] } -> r\nreturn r.stdout"
	res, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": prog})
	if res.IsError || string(out.Value) != `"hi\n"` {
		t.Fatalf("granted by --policy: %+v", out)
	}
	_, out, text := callTool(t, cs, "a0_run", map[string]any{"source": "cap { fs.read: true }\nreturn call? fs.read { path: \"x\" }"})
	if len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "E_CAP_DENIED" {
		t.Fatalf("denial: %+v", out)
	}
	if hint := out.Diagnostics[0].Hint; !strings.Contains(hint, `Add it to the policy in effect, `+pol) || !strings.Contains(hint, "--unsafe-allow-all") {
		t.Errorf("denial without the grant hint: %q", hint)
	}
	if !strings.Contains(text, "E_CAP_DENIED") || !strings.Contains(text, `"hint":"Add it to the policy in effect`) {
		t.Errorf("the text does not give the hint: %q", text)
	}
}

// TestMCPPolicyFlagMissing: a named policy that does not exist stops the
// server with E_POLICY (exit 3); nothing falls back to another policy.
func TestMCPPolicyFlagMissing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	var out, errb bytes.Buffer
	code := realMain([]string{"mcp", "--policy", "missing.json"}, strings.NewReader(""), &out, &errb)
	if code != 3 || out.Len() != 0 || !strings.Contains(errb.String(), `"code":"E_POLICY","message":"Policy file 'missing.json' (given with --policy) does not exist."`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
