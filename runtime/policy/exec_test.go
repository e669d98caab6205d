package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/runtime/proc"
)

func TestExecDefaults(t *testing.T) {
	s := (*Exec)(nil).Config("/base")
	if s.Allow != nil || !s.AllowShell || s.Root != "" || s.EnvMode != "inherit" || s.StoreDir != "" ||
		!slices.Equal(s.Shells, proc.DefaultShells) || !slices.Equal(s.Mask, proc.DefaultMask) ||
		s.DefaultTimeout != 30*time.Second || s.MaxTimeout != 600*time.Second || s.MaxJob != 0 || s.MaxWait != 600*time.Second ||
		s.Grace != 2*time.Second || s.Drain != 2*time.Second || s.MaxOutputBytes != 67108864 || s.MaxStdinBytes != 8388608 ||
		s.MaxJobs != 8 || s.MaxJobsPerRun != 64 || !s.SweepEscaped || s.AllowCrossRun {
		t.Errorf("defaults = %+v", s)
	}
	// A resolved policy without a section, and --unsafe-allow-all, give the defaults.
	r := &Resolved{Source: "default", Policy: Default()}
	if got := r.Exec(); got.Allow != nil || got.MaxJobs != 8 {
		t.Errorf("no section: %+v", got)
	}
	p, err := Parse("/etc/p.json", []byte(`{"exec": {"allow": ["git"], "maxJobs": 2}}`))
	if err != nil {
		t.Fatal(err)
	}
	r = &Resolved{Source: "project", Path: "/etc/p.json", Policy: p}
	if got := r.Exec(); !slices.Equal(got.Allow, []string{"git"}) || got.MaxJobs != 2 || got.AllowShell {
		t.Errorf("section: %+v", got)
	}
	if got := r.AllowAll().Exec(); got.Allow != nil || got.MaxJobs != 8 || !got.AllowShell {
		t.Errorf("allow-all: %+v", got)
	}
}

func TestExecSettings(t *testing.T) {
	tests := []struct {
		name  string
		json  string
		check func(t *testing.T, s proc.Config)
	}{
		{"allow turns shell off", `{"allow": []}`, func(t *testing.T, s proc.Config) {
			if s.Allow == nil || len(s.Allow) != 0 || s.AllowShell {
				t.Errorf("%+v", s)
			}
		}},
		{"allowShell explicit", `{"allow": ["go"], "allowShell": true}`, func(t *testing.T, s proc.Config) {
			if !s.AllowShell {
				t.Errorf("%+v", s)
			}
		}},
		{"root relative to policy dir", `{"root": "sub/../work"}`, func(t *testing.T, s proc.Config) {
			if s.Root != "/proj/work" {
				t.Errorf("root = %q", s.Root)
			}
		}},
		{"root absolute", `{"root": "/srv//x/"}`, func(t *testing.T, s proc.Config) {
			if s.Root != "/srv/x" {
				t.Errorf("root = %q", s.Root)
			}
		}},
		{"default timeout zero means max", `{"defaultTimeoutMs": 0, "maxTimeoutMs": 5000}`, func(t *testing.T, s proc.Config) {
			if s.DefaultTimeout != 5*time.Second {
				t.Errorf("default = %v", s.DefaultTimeout)
			}
		}},
		{"default timeout clamped", `{"maxTimeoutMs": 1000}`, func(t *testing.T, s proc.Config) {
			if s.DefaultTimeout != time.Second || s.MaxTimeout != time.Second {
				t.Errorf("%+v", s)
			}
		}},
		{"mask empty disables", `{"mask": []}`, func(t *testing.T, s proc.Config) {
			if s.Mask == nil || len(s.Mask) != 0 {
				t.Errorf("mask = %q", s.Mask)
			}
		}},
		{"job store defaults", `{"jobStore": {}}`, func(t *testing.T, s proc.Config) {
			if s.StoreDir != "/proj/.a0/jobs" || s.RetainDays != 7 || s.StoreMaxBytes != 512<<20 || s.MaxLogBytes != 64<<20 {
				t.Errorf("%+v", s)
			}
		}},
		{"job store set", `{"jobStore": {"dir": "jobs", "retainDays": 0, "maxBytes": 10, "maxLogBytes": 0}}`, func(t *testing.T, s proc.Config) {
			if s.StoreDir != "/proj/jobs" || s.RetainDays != 0 || s.StoreMaxBytes != 10 || s.MaxLogBytes != 0 {
				t.Errorf("%+v", s)
			}
		}},
		{"integers written as floats", `{"graceMs": 1.0e3, "maxJobs": 64, "maxJobsPerRun": 1}`, func(t *testing.T, s proc.Config) {
			if s.Grace != time.Second || s.MaxJobs != 64 || s.MaxJobsPerRun != 1 {
				t.Errorf("%+v", s)
			}
		}},
		{"everything", `{"deny": ["sudo"], "shells": ["bash"], "envMode": "replace", "envAllow": ["GO*"], "envDeny": ["AWS_*"],
			"maxJobMs": 9, "maxWaitMs": 0, "drainMs": 100, "maxOutputBytes": 0, "maxStdinBytes": 1, "sweepEscaped": false,
			"allowCrossRun": true, "allowDetach": true}`, func(t *testing.T, s proc.Config) {
			if !slices.Equal(s.Deny, []string{"sudo"}) || !slices.Equal(s.Shells, []string{"bash"}) || s.EnvMode != "replace" ||
				!slices.Equal(s.EnvAllow, []string{"GO*"}) || !slices.Equal(s.EnvDeny, []string{"AWS_*"}) || s.MaxJob != 9*time.Millisecond ||
				s.MaxWait != 0 || s.Drain != 100*time.Millisecond || s.MaxOutputBytes != 0 || s.MaxStdinBytes != 1 || s.SweepEscaped ||
				!s.AllowCrossRun {
				t.Errorf("%+v", s)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse("/proj/.a0policy.json", []byte(`{"exec": `+tc.json+`}`))
			if err != nil {
				t.Fatal(err)
			}
			r := &Resolved{Source: "project", Path: "/proj/.a0policy.json", Policy: p}
			tc.check(t, r.Exec())
		})
	}
	// allowDetach has no effect, so it is not part of the engine's
	// configuration: the report shows it as written.
	p, err := Parse("/proj/.a0policy.json", []byte(`{"exec": {"allowDetach": true}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: "project", Path: "/proj/.a0policy.json", Policy: p}
	if !strings.Contains(Text(r), "allowDetach:      true") || !strings.Contains(JSON(r), `"allowDetach": true`) {
		t.Errorf("allowDetach not shown:\n%s", Text(r))
	}
}

func TestExecWarnings(t *testing.T) {
	bin := t.TempDir()
	for _, name := range []string{"tool", "python3"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("\x7fELF\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// An allowed script: its interpreter is what runs (issue 13.1).
	if err := os.WriteFile(filepath.Join(bin, "ldd"), []byte("#! /bin/bash -e\necho\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "plain"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := proc.Config{
		Allow:      []string{"tool", "missing", "plain", filepath.Join(bin, "tool"), "/no/such/bin", "python3", "ldd"},
		Deny:       []string{"sudo", "/no/such/sudo", filepath.Join(bin, "tool")},
		AllowShell: true,
		Root:       filepath.Join(bin, "absent"),
	}
	got := ExecWarnings(s, bin)
	want := []string{
		`exec.allow entry "missing" does not resolve to an executable on PATH; it matches nothing`,
		`exec.allow entry "plain" does not resolve to an executable on PATH; it matches nothing`,
		`exec.allow entry "/no/such/bin" does not resolve to an executable; it matches nothing`,
		`exec.allow entry "python3" is an interpreter or launcher that can run any program, which makes the allowlist meaningless`,
		`exec.allow entry "ldd" is a script run by /bin/bash -e; the interpreter is what runs, and its environment variables can make it load other code`,
		`exec.deny entry "/no/such/sudo" does not resolve to an executable; it matches nothing`,
		`exec.allowShell is true: cmd mode lets a shell run any program, which makes the allowlist meaningless`,
		`exec.root "` + filepath.Join(bin, "absent") + `" is not an existing directory; every sh.exec call will fail`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if w := ExecWarnings(proc.Config{Allow: []string{"tool"}, Root: bin}, bin); len(w) != 0 {
		t.Errorf("clean settings warn: %q", w)
	}
	if w := ExecWarnings(proc.Config{AllowShell: true}, ""); w == nil || len(w) != 0 {
		t.Errorf("no allowlist, shell on: %q", w)
	}
	for _, l := range []string{"bash", "/usr/bin/env", "python3.12", "node", "make", "XARGS"} {
		if !isLauncher(l) {
			t.Errorf("%q should be a launcher", l)
		}
	}
	for _, l := range []string{"git", "go", "ls", "nodemon"} {
		if isLauncher(l) {
			t.Errorf("%q should not be a launcher", l)
		}
	}
}

func TestExecDisplay(t *testing.T) {
	cwd, home := dirs(t)
	bin := t.TempDir()
	// A binary stand-in (not a script, which would add a warning).
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("\x7fELF\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if err := os.Mkdir(filepath.Join(cwd, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, projectPath(cwd), `{"allow": ["sh.exec"], "exec": {"allow": ["git", "nope"], "root": "src", "envMode": "clean", "jobStore": {"retainDays": 1}}}`)
	r, err := Load(cwd, home)
	if err != nil {
		t.Fatal(err)
	}
	wantText := `Effective A0 policy
  Source:          project
  Path:            ` + projectPath(cwd) + `
  Allow:           sh.exec
  Deny:            (none)
  Effective allow: sh.exec
  Limits:          (none)
  Exec:
    allow:            git, nope
    deny:             (none)
    allowShell:       false
    shells:           sh, bash, zsh, dash, pwsh, powershell, cmd
    root:             ` + filepath.Join(cwd, "src") + `
    envMode:          clean
    envAllow:         (none)
    envDeny:          (none)
    mask:             *TOKEN*, *SECRET*, *PASSWORD*, *PASSWD*, *PASSPHRASE*, *API_KEY*, *APIKEY*, *ACCESS_KEY*, *PRIVATE_KEY*, *CREDENTIAL*, *_KEY
    defaultTimeoutMs: 30000
    maxTimeoutMs:     600000
    maxJobMs:         0
    maxWaitMs:        600000
    graceMs:          2000
    drainMs:          2000
    maxOutputBytes:   67108864
    maxStdinBytes:    8388608
    maxJobs:          8
    maxJobsPerRun:    64
    sweepEscaped:     true
    jobStore:         {"dir":"` + filepath.Join(cwd, ".a0/jobs") + `","retainDays":1,"maxBytes":536870912,"maxLogBytes":67108864}
    allowCrossRun:    false
    allowDetach:      false
  Exec warnings:
    - exec.allow entry "nope" does not resolve to an executable on PATH; it matches nothing
`
	if got := Text(r); got != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", got, wantText)
	}
	wantJSON := `{
  "source": "project",
  "path": "` + projectPath(cwd) + `",
  "policy": {
    "version": 1,
    "allow": [
      "sh.exec"
    ],
    "deny": [],
    "limits": {}
  },
  "effectiveAllow": [
    "sh.exec"
  ],
  "exec": {
    "allow": [
      "git",
      "nope"
    ],
    "deny": [],
    "allowShell": false,
    "shells": [
      "sh",
      "bash",
      "zsh",
      "dash",
      "pwsh",
      "powershell",
      "cmd"
    ],
    "root": "` + filepath.Join(cwd, "src") + `",
    "envMode": "clean",
    "envAllow": [],
    "envDeny": [],
    "mask": [
      "*TOKEN*",
      "*SECRET*",
      "*PASSWORD*",
      "*PASSWD*",
      "*PASSPHRASE*",
      "*API_KEY*",
      "*APIKEY*",
      "*ACCESS_KEY*",
      "*PRIVATE_KEY*",
      "*CREDENTIAL*",
      "*_KEY"
    ],
    "defaultTimeoutMs": 30000,
    "maxTimeoutMs": 600000,
    "maxJobMs": 0,
    "maxWaitMs": 600000,
    "graceMs": 2000,
    "drainMs": 2000,
    "maxOutputBytes": 67108864,
    "maxStdinBytes": 8388608,
    "maxJobs": 8,
    "maxJobsPerRun": 64,
    "sweepEscaped": true,
    "jobStore": {
      "dir": "` + filepath.Join(cwd, ".a0/jobs") + `",
      "retainDays": 1,
      "maxBytes": 536870912,
      "maxLogBytes": 67108864
    },
    "allowCrossRun": false,
    "allowDetach": false,
    "warnings": [
      "exec.allow entry \"nope\" does not resolve to an executable on PATH; it matches nothing"
    ]
  }
}
`
	if got := JSON(r); got != wantJSON {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, wantJSON)
	}

	// A section without problems prints "(none)" for warnings; allow absent
	// is "any executable" (null in JSON), root and job store are off.
	write(t, projectPath(cwd), `{"exec": {}}`)
	r, err = Load(cwd, home)
	if err != nil {
		t.Fatal(err)
	}
	text := Text(r)
	for _, want := range []string{
		"    allow:            (any executable)\n",
		"    allowShell:       true\n",
		"    root:             (unconfined)\n",
		"    jobStore:         (off)\n",
		"  Exec warnings:   (none)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	js := JSON(r)
	for _, want := range []string{`"allow": null,`, `"root": null,`, `"jobStore": null,`, `"warnings": []`} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON lacks %q:\n%s", want, js)
		}
	}
	// Without a section the output has no exec part at all.
	write(t, projectPath(cwd), `{}`)
	r, _ = Load(cwd, home)
	if strings.Contains(Text(r), "  Exec") || strings.Contains(JSON(r), `"exec"`) {
		t.Errorf("exec shown without a section")
	}
}
