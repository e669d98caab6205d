package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/tools"
)

// graderCase is one use of examples/grader.a0: the inputs given, the
// process exit code and the criteria that must fail (in the order of the
// program's verdicts).
type graderCase struct {
	name   string
	input  map[string]any
	exit   int
	failed []string
}

// graderCases are the cases a run-command grader offers: a command with
// arguments or a shell string, the exit code, stdout containing, matching
// with each inline flag and not matching, stderr containing, a sub-path
// kept inside the workspace, a timeout, and env.
var graderCases = []graderCase{
	{"argv, defaults", map[string]any{"cmd": []any{"echo", "hello"}}, 0, nil},
	{"shell string", map[string]any{"cmd": "echo one; echo two", "stdoutContains": "two"}, 0, nil},
	{"exit code expected", map[string]any{"cmd": "exit 3", "exitCode": 3}, 0, nil},
	{"exit code wrong", map[string]any{"cmd": "exit 3"}, 5, []string{"exitCode"}},
	{"stdout contains, missing", map[string]any{"cmd": []any{"echo", "abc"}, "stdoutContains": "xyz"}, 5, []string{"stdoutContains"}},
	{"matches (?i)", map[string]any{"cmd": []any{"echo", "Tests: SUCCESS"}, "stdoutMatches": "(?i)success"}, 0, nil},
	{"without (?i) case counts", map[string]any{"cmd": []any{"echo", "Tests: SUCCESS"}, "stdoutMatches": "success"}, 5, []string{"stdoutMatches"}},
	{"matches (?m)", map[string]any{"cmd": "printf 'a\\nok\\nb\\n'", "stdoutMatches": "(?m)^ok$"}, 0, nil},
	{"without (?m) ^ is the start", map[string]any{"cmd": "printf 'a\\nok\\nb\\n'", "stdoutMatches": "^ok$"}, 5, []string{"stdoutMatches"}},
	{"matches (?s)", map[string]any{"cmd": "printf 'begin\\nend\\n'", "stdoutMatches": "(?s)begin.end"}, 0, nil},
	{"without (?s) . stops at newlines", map[string]any{"cmd": "printf 'begin\\nend\\n'", "stdoutMatches": "begin.end"}, 5, []string{"stdoutMatches"}},
	{"does not match", map[string]any{"cmd": []any{"echo", "all fine"}, "stdoutNotMatches": "(?i)error|fail"}, 0, nil},
	{"does not match, but does", map[string]any{"cmd": []any{"echo", "1 FAILED"}, "stdoutNotMatches": "(?i)error|fail"}, 5, []string{"stdoutNotMatches"}},
	{"stderr contains", map[string]any{"cmd": "echo oops >&2", "stderrContains": "oops"}, 0, nil},
	{"stderr contains, stdout does not count", map[string]any{"cmd": "echo oops", "stderrContains": "oops"}, 5, []string{"stderrContains"}},
	{"sub-path", map[string]any{"cmd": []any{"pwd"}, "cwd": "sub/dir", "stdoutMatches": "/sub/dir\\n$"}, 0, nil},
	{"sub-path escaping with ..", map[string]any{"cmd": []any{"pwd"}, "cwd": "sub/../.."}, 5, nil},
	{"absolute sub-path", map[string]any{"cmd": []any{"pwd"}, "cwd": "/etc"}, 5, nil},
	{"timeout", map[string]any{"cmd": []any{"sleep", "10"}, "timeoutMs": 200}, 5, []string{"exitCode", "inTime"}},
	{"env", map[string]any{"cmd": "echo \"$GREETING\"", "env": map[string]any{"GREETING": "hi there"}, "stdoutContains": "hi there"}, 0, nil},
}

// graderSource is the example program.
func graderSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../examples/grader.a0")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// graderWorkspace is a folder with sub/dir in it, made the working
// directory, with a policy granting sh.exec.
func graderWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	return dir
}

// checkGraderValue compares a grader result's failed list with the case.
func checkGraderValue(t *testing.T, c graderCase, value []byte) {
	t.Helper()
	if c.exit != 0 && c.failed == nil {
		return // refused by an assert: no value
	}
	var v struct {
		Passed bool     `json:"passed"`
		Failed []string `json:"failed"`
	}
	if err := json.Unmarshal(value, &v); err != nil {
		t.Fatalf("value %s: %v", value, err)
	}
	want := c.failed
	if want == nil {
		want = []string{}
	}
	if !reflect.DeepEqual(v.Failed, want) || v.Passed != (len(want) == 0) {
		t.Errorf("failed %v passed %v, want failed %v; value %s", v.Failed, v.Passed, want, value)
	}
}

// TestGraderCLI runs the example grader through `a0 run --input`.
func TestGraderCLI(t *testing.T) {
	abs, _ := filepath.Abs("../../examples/grader.a0")
	dir := graderWorkspace(t)
	pol := filepath.Join(dir, "policy.json")
	os.WriteFile(pol, []byte(`{"allow": ["sh.exec"]}`), 0o644)
	for _, c := range graderCases {
		t.Run(c.name, func(t *testing.T) {
			in, _ := json.Marshal(c.input)
			defer func(start time.Time) { processStart = start }(processStart)
			processStart = time.Now()
			var out, errb bytes.Buffer
			code := realMain([]string{"run", "--policy", pol, abs, "--input", string(in)}, strings.NewReader(""), &out, &errb)
			if code != c.exit {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.exit, out.String(), errb.String())
			}
			if c.exit == 5 && c.failed == nil && !strings.Contains(errb.String(), "cwd must be a folder below the working directory") {
				t.Errorf("stderr: %s", errb.String())
			}
			checkGraderValue(t, c, out.Bytes())
		})
	}
}

// TestGraderMCP runs the example grader through `a0 mcp`'s a0_run with an
// input object.
func TestGraderMCP(t *testing.T) {
	src := graderSource(t)
	cs := mcpSession(t, `{"allow": ["sh.exec"]}`)
	wd, _ := os.Getwd()
	os.MkdirAll(filepath.Join(wd, "sub", "dir"), 0o755)
	for _, c := range graderCases {
		t.Run(c.name, func(t *testing.T) {
			_, out, text := callTool(t, cs, "a0_run", map[string]any{"source": src, "filename": "grader.a0", "input": c.input})
			if out.ExitCode != c.exit {
				t.Fatalf("exit %d, want %d: %s", out.ExitCode, c.exit, text)
			}
			checkGraderValue(t, c, out.Value)
		})
	}
}

// TestGraderGo runs the example grader from Go, inputs in RunOptions.Input.
func TestGraderGo(t *testing.T) {
	src := graderSource(t)
	dir := graderWorkspace(t)
	env, err := runtime.NewEnv(runtime.WithTools(tools.New(tools.Config{})...), runtime.WithWorkDir(dir),
		runtime.WithGrants(runtime.GrantFunc(func(c string) bool { return c == "sh.exec" })))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("grader.a0", src)
	if len(ds) > 0 {
		t.Fatal(ds.JSONArray())
	}
	for _, c := range graderCases {
		t.Run(c.name, func(t *testing.T) {
			res, err := prog.Run(context.Background(), runtime.RunOptions{Input: c.input})
			if code := runtime.ExitCode(res, err); code != c.exit {
				t.Fatalf("exit %d, want %d: %v", code, c.exit, err)
			}
			if err == nil {
				checkGraderValue(t, c, []byte(value.JSON(res.Value)))
			}
		})
	}
}
