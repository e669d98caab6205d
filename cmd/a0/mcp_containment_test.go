package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Under `a0 mcp` (the built binary, stdin the JSON-RPC stream), a link in
// an fs root to /proc/self/fd/0 does not read the protocol stream, a
// magic link is refused without fs roots too, loopback is refused without
// an http section, and the server keeps answering.
func TestMCPContainment(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := os.Stat("/proc/self/fd/0"); err != nil {
		t.Skip("no /proc")
	}
	bin := builtA0(t)
	for _, tc := range []struct {
		name, policy, src, reason string
	}{
		{"stdin link in root", `{"version":1,"allow":["fs.read"],"fs":{"read":["data"]}}`,
			`return call? fs.read { path: "data/in" }`, "outside_root"},
		{"dev stdin without roots", `{"version":1,"allow":["fs.read"]}`,
			`return call? fs.read { path: "/dev/stdin" }`, "magic_link"},
		{"loopback without http section", `{"version":1,"allow":["http.get"]}`,
			`return call? http.get { url: "http://127.0.0.1:1/" }`, "private_address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "data"), 0o755)
			if err := os.Symlink("/proc/self/fd/0", filepath.Join(dir, "data", "in")); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(tc.policy), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, _ := builtMCPSession(ctx, t, bin, dir)
			cap := "fs.read"
			if strings.Contains(tc.src, "http.get") {
				cap = "http.get"
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "a0_run",
				Arguments: map[string]any{"source": "cap { " + cap + ": true }\n" + tc.src}})
			if err != nil {
				t.Fatalf("a0_run: %v", err)
			}
			b, _ := json.Marshal(res.StructuredContent)
			if !res.IsError || !strings.Contains(string(b), `"E_CAP_DENIED"`) || !strings.Contains(string(b), `"reason":"`+tc.reason+`"`) {
				t.Errorf("not refused with %s: %s", tc.reason, b)
			}
			// The stream is intact: the next call is answered.
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "a0_run", Arguments: map[string]any{"source": "return 42"}})
			if err != nil || res.IsError {
				t.Fatalf("next call: %v %+v", err, res)
			}
		})
	}
}
