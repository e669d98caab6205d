//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInputBeforePrompt: at a terminal, a wrong input is reported
// before a0 run asks for capabilities (nothing to answer for a run that
// cannot start).
func TestRunInputBeforePrompt(t *testing.T) {
	dir := t.TempDir()
	src := "input { n: \"int\" }\ncap { fs.read: true }\nreturn input.n\n"
	if err := os.WriteFile(filepath.Join(dir, "p.a0"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, cmd := startPty(t, dir, "run", "p.a0", "--arg", "n=abc")
	p.expect(`"code":"E_INPUT"`)
	var ee *exec.ExitError
	if err := cmd.Wait(); err == nil || !errorsAs(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("run: %v", err)
	}
	p.mu.Lock()
	out := p.buf.String()
	p.mu.Unlock()
	if strings.Contains(out, "Allow for this run?") {
		t.Errorf("asked for a capability before the input check:\n%s", out)
	}
}
