package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
)

// TestInputMaskMatchesExec: inputs are masked like env — the runtime's
// default list (runtime cannot import proc) is the exec engine's.
func TestInputMaskMatchesExec(t *testing.T) {
	if !slices.Equal(runtime.DefaultInputMask, proc.DefaultMask) {
		t.Errorf("runtime.DefaultInputMask %v differs from proc.DefaultMask %v", runtime.DefaultInputMask, proc.DefaultMask)
	}
}

// TestCommandInputsOrder: files, then --input, then --arg, whatever the
// order on the command line; a later value of a key wins.
func TestCommandInputsOrder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name, text := range map[string]string{"a.json": `{"k": "file-a", "f": 1}`, "b.json": `{"k": "file-b"}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inv, _, _, _, stop := parseArgs([]string{"run", "p.a0", "--arg", "x=arg", "--input", `{"k": "input", "x": "input"}`, "--input-file", "a.json", "--input-file", "b.json"})
	if stop {
		t.Fatal("parse stopped")
	}
	c := &cli{inv: inv}
	in, d := c.commandInputs()
	if d != nil {
		t.Fatal(d.Message)
	}
	got := map[string]string{}
	for k, v := range in {
		switch v := v.(type) {
		case runtime.InputText:
			got[k] = "text:" + string(v)
		default:
			got[k] = value.JSON(v.(value.Value))
		}
	}
	want := map[string]string{"k": `"input"`, "x": "text:arg", "f": "1"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %s, want %s (all: %v)", k, got[k], w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("inputs %v, want %v", got, want)
	}
	// No input flag: no input map at all.
	inv, _, _, _, _ = parseArgs([]string{"run", "p.a0"})
	if in, d := (&cli{inv: inv}).commandInputs(); in != nil || d != nil {
		t.Errorf("no flags: %v %v", in, d)
	}
}
