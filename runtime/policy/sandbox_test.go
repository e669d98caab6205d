package policy

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime/internal/testhook"
)

func TestSandboxDecode(t *testing.T) {
	p, err := Parse("/proj/.a0policy.json", []byte(`{"allow": ["sh.exec"],
		"fs": {"read": ["src"], "write": ["out"]},
		"exec": {"envAllowCode": ["PYTHONPATH"], "sandbox": {"read": ["tools", "/opt/go"], "write": ["cache"], "network": "allow",
		"limits": {"cpuSeconds": 10, "memoryBytes": 1000000, "fileBytes": 5, "openFiles": 64, "processes": 32}, "require": false}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: "project", Path: "/proj/.a0policy.json", Policy: p}
	s := r.Exec()
	sb := s.Sandbox
	if sb == nil {
		t.Fatal("no sandbox settings")
	}
	// The fs roots come first, then the sandbox's own.
	if !slices.Equal(sb.Read, []string{"/proj/src", "/proj/tools", "/opt/go"}) || !slices.Equal(sb.Write, []string{"/proj/out", "/proj/cache"}) ||
		!sb.NetworkAllow || sb.Require || sb.Limits.CPUSeconds != 10 || sb.Limits.MemoryBytes != 1000000 || sb.Limits.FileBytes != 5 ||
		sb.Limits.OpenFiles != 64 || sb.Limits.Processes != 32 {
		t.Errorf("settings = %+v", sb)
	}
	if !slices.Equal(s.EnvAllowCode, []string{"PYTHONPATH"}) {
		t.Errorf("envAllowCode = %q", s.EnvAllowCode)
	}
	// Defaults: network deny, require true, no limits.
	p, _ = Parse("/proj/.a0policy.json", []byte(`{"exec": {"sandbox": {}}}`))
	sb = (&Resolved{Path: "/proj/.a0policy.json", Policy: p}).Exec().Sandbox
	if sb == nil || sb.NetworkAllow || !sb.Require || sb.Limits.Any() || len(sb.Read) != 0 {
		t.Errorf("defaults = %+v", sb)
	}
	// No sandbox key: nil (commands unconfined), and the text report is
	// unchanged.
	p, _ = Parse("/proj/.a0policy.json", []byte(`{"exec": {}}`))
	r = &Resolved{Path: "/proj/.a0policy.json", Policy: p}
	if r.Exec().Sandbox != nil || strings.Contains(Text(r), "Sandbox") || strings.Contains(JSON(r), "sandbox") {
		t.Error("a policy without exec.sandbox shows a sandbox")
	}
}

func TestSandboxDecodeErrors(t *testing.T) {
	tests := []struct {
		name, content, key, want string
	}{
		{"not object", `{"exec": {"sandbox": true}}`, "exec.sandbox", "must be an object, found a boolean"},
		{"unknown key", `{"exec": {"sandbox": {"netwrok": "deny"}}}`, "exec.sandbox.netwrok", `did you mean "network"?`},
		{"network value", `{"exec": {"sandbox": {"network": "none"}}}`, "exec.sandbox.network", `must be "deny" or "allow", found "none"`},
		{"network type", `{"exec": {"sandbox": {"network": false}}}`, "exec.sandbox.network", `must be "deny" or "allow", found a boolean`},
		{"read type", `{"exec": {"sandbox": {"read": "src"}}}`, "exec.sandbox.read", "must be an array of strings"},
		{"write empty", `{"exec": {"sandbox": {"write": [""]}}}`, "exec.sandbox.write[0]", "must not be empty"},
		{"require type", `{"exec": {"sandbox": {"require": "yes"}}}`, "exec.sandbox.require", "must be a boolean"},
		{"limits type", `{"exec": {"sandbox": {"limits": [1]}}}`, "exec.sandbox.limits", "must be an object"},
		{"limit unknown", `{"exec": {"sandbox": {"limits": {"cpuSecond": 1}}}}`, "exec.sandbox.limits.cpuSecond", `did you mean "cpuSeconds"?`},
		{"limit zero", `{"exec": {"sandbox": {"limits": {"processes": 0}}}}`, "exec.sandbox.limits.processes", "must be an integer from 1"},
		{"limit fraction", `{"exec": {"sandbox": {"limits": {"openFiles": 1.5}}}}`, "exec.sandbox.limits.openFiles", "must be an integer"},
		{"envAllowCode glob", `{"exec": {"envAllowCode": ["PYTHON*"]}}`, "exec.envAllowCode[0]", "exact environment variable name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("/p.json", []byte(tc.content))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v", err)
			}
			if pe.Key != tc.key || !strings.Contains(pe.Problem, tc.want) || pe.Line < 1 || pe.Col < 1 {
				t.Errorf("key %q problem %q at %d:%d; want key %q problem with %q", pe.Key, pe.Problem, pe.Line, pe.Col, tc.key, tc.want)
			}
		})
	}
}

func TestSandboxRender(t *testing.T) {
	p, err := Parse("/proj/.a0policy.json", []byte(`{"allow": ["sh.exec"], "fs": {"write": ["out"]},
		"exec": {"sandbox": {"write": ["cache"], "limits": {"cpuSeconds": 10, "processes": 4}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: "project", Path: "/proj/.a0policy.json", Policy: p}
	text := Text(r)
	for _, want := range []string{"  Sandbox:\n", "    network:          deny\n", "    limits:           cpuSeconds 10, processes 4\n",
		"    require:          true\n", "/proj/out, /proj/cache, /dev/null", "/usr, /bin"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	js := JSON(r)
	for _, want := range []string{`"sandbox": {`, `"network": "deny"`, `"cpuSeconds": 10`, `"require": true`} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON lacks %q:\n%s", want, js)
		}
	}
}

func TestSandboxRenderUnconfined(t *testing.T) {
	restore := testhook.SetNoLandlock(true)
	defer restore()
	for _, tc := range []struct {
		require bool
		want    string
	}{
		{false, "commands run UNCONFINED (require: false)"},
		{true, "every sh.exec and sh.start call is refused (sandbox_unavailable)"},
	} {
		p, err := Parse("/proj/.a0policy.json", []byte(`{"allow": ["sh.exec"], "exec": {"sandbox": {"require": `+strconv.FormatBool(tc.require)+`}}}`))
		if err != nil {
			t.Fatal(err)
		}
		text := Text(&Resolved{Source: "project", Path: "/proj/.a0policy.json", Policy: p})
		if !strings.Contains(text, tc.want) {
			t.Errorf("require %v: text lacks %q:\n%s", tc.require, tc.want, text)
		}
		if warned := strings.Contains(text, "exec.sandbox.require is false"); warned == tc.require {
			t.Errorf("require %v: warning shown %v:\n%s", tc.require, warned, text)
		}
	}
}
