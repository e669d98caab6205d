//go:build linux

package tools_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/tools"
)

// Through the Go API: tools built from a policy with secrets replace a
// placeholder for a listed program, mask the value, read it once per run,
// and refuse an unlisted program with E_CAP_DENIED secret_not_allowed.
func TestSecretsGoAPI(t *testing.T) {
	dir := t.TempDir()
	ctr := filepath.Join(dir, "count")
	src := `{"allow": ["sh.exec"], "exec": {"allowShell": true}, "secrets": {
	  "K": {"from": {"command": ["sh", "-c", "echo x >> ` + ctr + `; printf go-api-secret-%s 77"]}, "to": ["sh.exec:cat"]}}}`
	p, err := policy.Parse(filepath.Join(dir, "p.json"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := &policy.Resolved{Source: policy.SourceProject, Path: filepath.Join(dir, "p.json"), Policy: p}
	env, err := runtime.NewEnv(runtime.WithTools(tools.New(tools.FromPolicy(res, dir))...), runtime.WithGrants(res), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	run := func(body string) (value.Value, error) {
		prog, ds := env.Compile("t.a0", "cap { sh.exec: true }\n"+body)
		if len(ds) > 0 {
			t.Fatalf("static: %v", ds)
		}
		r, err := prog.Run(context.Background(), runtime.RunOptions{})
		if err != nil {
			return value.Value{}, err
		}
		return r.Value, nil
	}
	v, err := run(`do sh.exec { argv: ["cat"], stdin: "a=${secret:K}" } -> a
do sh.exec { argv: ["cat", "-"], stdin: "b=${secret:K}" } -> b
return [a.stdout, b.stdout]`)
	if err != nil {
		t.Fatal(err)
	}
	if got := value.JSON(v); got != `["a=[masked:K]","b=[masked:K]"]` {
		t.Errorf("got %s", got)
	}
	if b, _ := os.ReadFile(ctr); strings.Count(string(b), "x") != 1 {
		t.Errorf("the command source ran %d times in one run, want 1", strings.Count(string(b), "x"))
	}
	_, err = run(`do sh.exec { argv: ["tee"], stdin: "${secret:K}" }
return 1`)
	re, ok := err.(*runtime.Error)
	if !ok || re.Code != "E_CAP_DENIED" || !strings.Contains(value.JSON(re.Details), `"reason":"secret_not_allowed"`) {
		t.Errorf("tee: %v", err)
	}
}
