//go:build linux

package tools_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime/internal/testhook"
	"github.com/a0lang/a0/runtime/proc"
)

// The sandbox at the tool level: tool_end says the command was confined;
// without Landlock, require gives E_TOOL sandbox_unavailable and
// require: false runs it with an exec_unconfined event.
func TestSandboxToolLevel(t *testing.T) {
	if !proc.SandboxStatus().Available {
		t.Skip("no Landlock here")
	}
	dir := t.TempDir()
	cfg := testCfg(dir)
	cfg.Sandbox = &proc.Sandbox{Require: true}
	r := runCfg(t, cfg, `do sh.exec { cmd: "echo hi > x.txt; echo $?" } -> r
return r.stdout`)
	if r.err != nil || r.v.AsString() != "2\n" {
		t.Fatalf("confined write into the working directory (not a root): %s", r.json())
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); err == nil {
		t.Error("the confined command wrote outside its roots")
	}
	ends := events(r, "tool_end")
	if len(ends) != 1 || !strings.Contains(js(ends[0].Data), `"confined":true`) {
		t.Errorf("tool_end does not say confined: %v", ends)
	}

	restore := testhook.SetNoLandlock(true)
	defer restore()
	r = runCfg(t, cfg, `do sh.exec { cmd: "true" }
return 1`)
	if got := reason(r); got != "E_TOOL sandbox_unavailable" {
		t.Errorf("require without Landlock: %s", got)
	}
	cfg.Sandbox = &proc.Sandbox{Require: false}
	r = runCfg(t, cfg, `do sh.exec { cmd: "echo ran" } -> r
return r.stdout`)
	if r.err != nil || r.v.AsString() != "ran\n" {
		t.Fatalf("require false: %s", r.json())
	}
	if ev := events(r, "exec_unconfined"); len(ev) != 1 || !strings.Contains(js(ev[0].Data), "Landlock") {
		t.Errorf("no exec_unconfined event: %s", eventNames(r))
	}
	if ends := events(r, "tool_end"); len(ends) != 1 || !strings.Contains(js(ends[0].Data), `"confined":false`) {
		t.Errorf("tool_end does not say unconfined: %v", ends)
	}
}
