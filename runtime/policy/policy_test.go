package policy

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
)

// dirs returns a fresh working directory and home directory.
func dirs(t *testing.T) (cwd, home string) {
	t.Helper()
	root := t.TempDir()
	cwd = filepath.Join(root, "work")
	home = filepath.Join(root, "home")
	for _, d := range []string{cwd, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return cwd, home
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func projectPath(cwd string) string { return filepath.Join(cwd, ".a0policy.json") }
func userPath(home string) string   { return filepath.Join(home, ".a0", "policy.json") }

func TestResolutionOrder(t *testing.T) {
	tests := []struct {
		name       string
		project    string // "" = no file
		user       string
		noHome     bool
		wantSource string
		wantAllow  []string
	}{
		{name: "nothing", wantSource: "default", wantAllow: []string{}},
		{name: "user only", user: `{"allow":["fs.read"]}`, wantSource: "user", wantAllow: []string{"fs.read"}},
		{name: "project only", project: `{"allow":["sh.exec"]}`, wantSource: "project", wantAllow: []string{"sh.exec"}},
		{name: "project wins", project: `{"allow":["http.get"]}`, user: `{"allow":["fs.read"]}`, wantSource: "project", wantAllow: []string{"http.get"}},
		{name: "no home skips user", user: `{"allow":["fs.read"]}`, noHome: true, wantSource: "default", wantAllow: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cwd, home := dirs(t)
			if tc.project != "" {
				write(t, projectPath(cwd), tc.project)
			}
			if tc.user != "" {
				write(t, userPath(home), tc.user)
			}
			h := home
			if tc.noHome {
				h = ""
			}
			r, err := Load(cwd, h)
			if err != nil {
				t.Fatal(err)
			}
			if r.Source != tc.wantSource {
				t.Errorf("source = %q, want %q", r.Source, tc.wantSource)
			}
			wantPath := map[string]string{"project": projectPath(cwd), "user": userPath(home), "default": ""}[tc.wantSource]
			if r.Path != wantPath {
				t.Errorf("path = %q, want %q", r.Path, wantPath)
			}
			if got := r.EffectiveAllow(); !slices.Equal(got, tc.wantAllow) {
				t.Errorf("effective allow = %q, want %q", got, tc.wantAllow)
			}
		})
	}
}

func TestInvalidFileStopsResolution(t *testing.T) {
	// An invalid project file must not fall through to a valid user file.
	cwd, home := dirs(t)
	write(t, projectPath(cwd), `{"alow":["fs.read"]}`)
	write(t, userPath(home), `{"allow":["fs.read","fs.write"]}`)
	r, err := Load(cwd, home)
	if err == nil {
		t.Fatalf("want an error, got source %q", r.Source)
	}
	var pe *Error
	if !errors.As(err, &pe) || pe.Path != projectPath(cwd) || pe.Code() != diag.EPolicy {
		t.Fatalf("err = %#v", err)
	}

	// An invalid user file is an error too once the project file is missing.
	cwd2, home2 := dirs(t)
	write(t, userPath(home2), `[]`)
	if _, err := Load(cwd2, home2); err == nil || !strings.Contains(err.Error(), userPath(home2)) {
		t.Fatalf("err = %v", err)
	}
}

func TestMissingVariants(t *testing.T) {
	// $HOME/.a0 being a file means the user policy cannot exist: skipped.
	cwd, home := dirs(t)
	write(t, filepath.Join(home, ".a0"), "not a dir")
	r, err := Load(cwd, home)
	if err != nil || r.Source != "default" {
		t.Fatalf("r = %+v, err = %v", r, err)
	}
	// A dangling symlink exists: it is an error, not a missing file.
	cwd2, home2 := dirs(t)
	if err := os.Symlink(filepath.Join(cwd2, "nowhere.json"), projectPath(cwd2)); err != nil {
		t.Fatal(err)
	}
	_, err = Load(cwd2, home2)
	if err == nil || !strings.Contains(err.Error(), "ENOENT: no such file or directory, open '"+projectPath(cwd2)+"'") {
		t.Fatalf("err = %v", err)
	}
}

func TestInvalidFiles(t *testing.T) {
	tests := []struct {
		name    string
		content string
		key     string
		offset  int // -1: no position
		line    int
		col     int
		want    string // substring of the problem
	}{
		{"empty", ``, "", 0, 1, 1, "not valid JSON: unexpected end of input"},
		{"not json", `{"allow": [fs.read]}`, "", 11, 1, 12, `not valid JSON: unexpected token "fs.read"`},
		{"bad literal", `{"version": nul}`, "", 12, 1, 13, `unexpected token "nul"`},
		{"literal prefix", `{"version": truex}`, "", 12, 1, 13, `unexpected token "truex"`},
		{"literal cut short", `{"version": tru`, "", 12, 1, 13, `unexpected token "tru"`},
		{"literal and minus", `{"version": null-1}`, "", 12, 1, 13, `unexpected token "null-1"`},
		{"bad unicode escape", `{"allow": ["\u12"]}`, "", 12, 1, 13, `invalid \u escape`},
		{"backslash at end", `{"allow": ["\`, "", 13, 1, 14, "unterminated string"},
		{"escaped non-Latin-1", `{"allow": ["\ሴ"]}`, "", 12, 1, 13, `invalid escape \`},
		{"no digit after minus", `{"version": -x}`, "", 13, 1, 14, `unexpected token "x"`},
		{"nested too deep", `{"a":` + strings.Repeat("[", 512) + "1" + strings.Repeat("]", 512) + "}", "", 517, 1, 518, "nesting deeper than 512 levels"},
		{"container too deep", `{"a":` + strings.Repeat("[", 513) + strings.Repeat("]", 513) + "}", "", 517, 1, 518, "nesting deeper than 512 levels"},
		{"duplicate after colon error", `{"a": 1, "a" 2}`, "", 9, 1, 10, `duplicate key "a"`},
		{"trailing comma", "{\n  \"allow\": [],\n}", "", 17, 3, 1, "unexpected character '}'"},
		{"two values", `{} {}`, "", 3, 1, 4, "unexpected character '{'"},
		{"unterminated", `{"allow": ["fs.read`, "", 19, 1, 20, "unterminated string"},
		{"raw control char", "{\"allow\": [\"a\tb\"]}", "", 13, 1, 14, "control character U+0009"},
		{"bad escape", `{"allow": ["\q"]}`, "", 12, 1, 13, `invalid escape \q`},
		{"leading zero", `{"version": 01}`, "", 13, 1, 14, "unexpected character '1'"},
		{"bom", "\uFEFF{}", "", 0, 1, 1, "byte order mark"},
		{"invalid utf8", "{\"allow\": [\"\xff\"]}", "", 12, 1, 13, "not valid UTF-8"},
		{"array top level", `[]`, "", 0, 1, 1, "the top-level value must be an object, found an array"},
		{"null top level", ` null`, "", 1, 1, 2, "found null"},
		{"number top level", `1`, "", 0, 1, 1, "found a number"},
		{"string top level", `"x"`, "", 0, 1, 1, "found a string"},
		{"version string", `{"version": "1"}`, "version", 12, 1, 13, "must be a finite number, found a string"},
		{"version infinite", `{"version": 1e999}`, "version", 12, 1, 13, "must be a finite number"},
		{"allow not array", `{"allow": "fs.read"}`, "allow", 10, 1, 11, "must be an array of strings, found a string"},
		{"allow element", "{\"allow\": [\"fs.read\",\n  null]}", "allow[1]", 24, 2, 3, "must be a string, found null"},
		{"deny object", `{"deny": {}}`, "deny", 9, 1, 10, "must be an array of strings, found an object"},
		{"limits array", `{"limits": []}`, "limits", 11, 1, 12, "must be an object, found an array"},
		{"limits null", `{"limits": null}`, "limits", 11, 1, 12, "found null"},
		{"unknown top key", `{"version": 1, "alow": []}`, "alow", 15, 1, 16, `is not a known key (did you mean "allow"?); valid top-level keys: version, allow, deny, limits, exec, fs, http`},
		{"unknown section", `{"net": {}}`, "net", 1, 1, 2, "is not a known key"},
		{"limits unknown key", `{"limits": {"maxToolCall": 1}}`, "limits.maxToolCall", 12, 1, 13, `did you mean "maxToolCalls"?`},
		{"limits negative", `{"limits": {"timeMs": -1}}`, "limits.timeMs", 22, 1, 23, "must be a non-negative integer"},
		{"limits string", `{"limits": {"timeMs": "5"}}`, "limits.timeMs", 22, 1, 23, "must be a non-negative integer, found a string"},
		{"fs not object", `{"fs": []}`, "fs", 7, 1, 8, "must be an object"},
		{"fs unknown key", `{"fs": {"reed": []}}`, "fs.reed", 8, 1, 9, `did you mean "read"?`},
		{"fs root type", `{"fs": {"read": "data"}}`, "fs.read", 16, 1, 17, "must be an array of strings"},
		{"fs root empty", `{"fs": {"write": [""]}}`, "fs.write[0]", 18, 1, 19, "must not be empty"},
		{"fs maxReadBytes typo", `{"fs": {"maxReadByte": 5}}`, "fs.maxReadByte", 8, 1, 9, `did you mean "maxReadBytes"?`},
		{"fs readSpecial typo", `{"fs": {"readspecial": true}}`, "fs.readspecial", 8, 1, 9, `did you mean "readSpecial"?`},
		{"fs maxReadBytes zero", `{"fs": {"maxReadBytes": 0}}`, "fs.maxReadBytes", 24, 1, 25, "from 1 to"},
		{"fs maxReadBytes type", `{"fs": {"maxReadBytes": "1"}}`, "fs.maxReadBytes", 24, 1, 25, "must be an integer"},
		{"fs readSpecial type", `{"fs": {"readSpecial": 1}}`, "fs.readSpecial", 23, 1, 24, "must be a boolean"},
		{"http unknown key", `{"http": {"allowPrivat": true}}`, "http.allowPrivat", 10, 1, 11, `did you mean "allowPrivate"?`},
		{"http host pattern", `{"http": {"allow": ["http://x.com"]}}`, "http.allow[0]", 20, 1, 21, "must be a host name"},
		{"http timeout", `{"http": {"timeoutMs": 0}}`, "http.timeoutMs", 23, 1, 24, "from 1 to"},
		{"duplicate key", `{"allow": [], "allow": ["fs.read"]}`, "", 14, 1, 15, `duplicate key "allow"`},
		{"duplicate nested", `{"limits": {"timeMs": 1, "timeMs": 2}}`, "", 25, 1, 26, `duplicate key "timeMs"`},
		{"exec not object", `{"exec": true}`, "exec", 9, 1, 10, "must be an object, found a boolean"},
		{"exec unknown key", `{"exec": {"timeoutMs": 5}}`, "exec.timeoutMs", 10, 1, 11, "is not a known key"},
		{"exec suggestion", `{"exec": {"maxJob": 5}}`, "exec.maxJob", 10, 1, 11, `did you mean "maxJobs"?`},
		{"exec allow type", `{"exec": {"allow": "git"}}`, "exec.allow", 19, 1, 20, "must be an array of strings"},
		{"exec allow relative", `{"exec": {"allow": ["bin/git"]}}`, "exec.allow[0]", 20, 1, 21, "absolute path or a bare name"},
		{"exec allow empty", `{"exec": {"allow": [""]}}`, "exec.allow[0]", 20, 1, 21, "must not be empty"},
		{"exec shells number", `{"exec": {"shells": [1]}}`, "exec.shells[0]", 21, 1, 22, "must be a string, found a number"},
		{"exec allowShell", `{"exec": {"allowShell": "yes"}}`, "exec.allowShell", 24, 1, 25, "must be a boolean, found a string"},
		{"exec root empty", `{"exec": {"root": ""}}`, "exec.root", 18, 1, 19, "must not be empty"},
		{"exec root type", `{"exec": {"root": 1}}`, "exec.root", 18, 1, 19, "must be a string, found a number"},
		{"exec envMode", `{"exec": {"envMode": "strict"}}`, "exec.envMode", 21, 1, 22, `must be "inherit", "clean" or "replace", found "strict"`},
		{"exec mask element", `{"exec": {"mask": [""]}}`, "exec.mask[0]", 19, 1, 20, "must not be empty"},
		{"exec fraction", `{"exec": {"graceMs": 1.5}}`, "exec.graceMs", 21, 1, 22, "must be an integer, found 1.5"},
		{"exec int type", `{"exec": {"graceMs": "5"}}`, "exec.graceMs", 21, 1, 22, "must be an integer, found a string"},
		{"exec maxJobs range", `{"exec": {"maxJobs": 65}}`, "exec.maxJobs", 21, 1, 22, "must be an integer from 1 to 64, found 65"},
		{"exec maxTimeoutMs zero", `{"exec": {"maxTimeoutMs": 0}}`, "exec.maxTimeoutMs", 26, 1, 27, "from 1 to 86400000"},
		{"exec drainMs low", `{"exec": {"drainMs": 99}}`, "exec.drainMs", 21, 1, 22, "from 100 to 30000"},
		{"exec maxJobMs negative", `{"exec": {"maxJobMs": -1}}`, "exec.maxJobMs", 22, 1, 23, "from 0 to"},
		{"exec maxOutputBytes", `{"exec": {"maxOutputBytes": 268435457}}`, "exec.maxOutputBytes", 28, 1, 29, "from 0 to 268435456"},
		{"exec maxStdinBytes", `{"exec": {"maxStdinBytes": 67108865}}`, "exec.maxStdinBytes", 27, 1, 28, "from 0 to 67108864"},
		{"exec maxJobsPerRun", `{"exec": {"maxJobsPerRun": 1025}}`, "exec.maxJobsPerRun", 27, 1, 28, "from 1 to 1024"},
		{"exec maxWaitMs", `{"exec": {"maxWaitMs": 86400001}}`, "exec.maxWaitMs", 23, 1, 24, "from 0 to 86400000"},
		{"exec defaultTimeoutMs", `{"exec": {"defaultTimeoutMs": -5}}`, "exec.defaultTimeoutMs", 30, 1, 31, "from 0 to 86400000"},
		{"exec sweepEscaped", `{"exec": {"sweepEscaped": null}}`, "exec.sweepEscaped", 26, 1, 27, "must be a boolean, found null"},
		{"exec allowCrossRun", `{"exec": {"allowCrossRun": 1}}`, "exec.allowCrossRun", 27, 1, 28, "must be a boolean"},
		{"exec allowDetach", `{"exec": {"allowDetach": []}}`, "exec.allowDetach", 25, 1, 26, "must be a boolean"},
		{"jobStore type", `{"exec": {"jobStore": "on"}}`, "exec.jobStore", 22, 1, 23, "must be an object, found a string"},
		{"jobStore unknown", `{"exec": {"jobStore": {"path": "x"}}}`, "exec.jobStore.path", 23, 1, 24, "valid exec.jobStore keys: dir, retainDays, maxBytes, maxLogBytes"},
		{"jobStore retainDays", `{"exec": {"jobStore": {"retainDays": 3651}}}`, "exec.jobStore.retainDays", 37, 1, 38, "from 0 to 3650"},
		{"jobStore dir", `{"exec": {"jobStore": {"dir": ""}}}`, "exec.jobStore.dir", 30, 1, 31, "must not be empty"},
		{"column counts characters", "{\"allow\": [\"é\"], \"x\": 1}", "x", 18, 1, 18, "is not a known key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cwd, home := dirs(t)
			write(t, projectPath(cwd), tc.content)
			write(t, userPath(home), `{"allow":["fs.read"]}`)
			_, err := Load(cwd, home)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if pe.Path != projectPath(cwd) || pe.Key != tc.key || pe.Offset != tc.offset || pe.Line != tc.line || pe.Col != tc.col {
				t.Errorf("got path %q key %q offset %d line %d col %d; want key %q offset %d line %d col %d",
					pe.Path, pe.Key, pe.Offset, pe.Line, pe.Col, tc.key, tc.offset, tc.line, tc.col)
			}
			if !strings.Contains(pe.Problem, tc.want) {
				t.Errorf("problem = %q, want it to contain %q", pe.Problem, tc.want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "Invalid policy file '"+projectPath(cwd)+"': ") || !strings.HasSuffix(msg, ".") {
				t.Errorf("message = %q", msg)
			}
			if tc.key != "" && !strings.Contains(msg, `"`+tc.key+`" `) {
				t.Errorf("message %q does not name the key %q", msg, tc.key)
			}
		})
	}
}

func TestUnreadableFiles(t *testing.T) {
	t.Run("directory", func(t *testing.T) {
		cwd, home := dirs(t)
		if err := os.Mkdir(projectPath(cwd), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := Load(cwd, home)
		want := "Invalid policy file '" + projectPath(cwd) + "': is a directory, not a regular file."
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v\nwant  %s", err, want)
		}
	})
	t.Run("no permission", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads any file")
		}
		cwd, home := dirs(t)
		write(t, projectPath(cwd), `{}`)
		if err := os.Chmod(projectPath(cwd), 0); err != nil {
			t.Fatal(err)
		}
		_, err := Load(cwd, home)
		if err == nil || !strings.Contains(err.Error(), "EACCES: permission denied, open '"+projectPath(cwd)+"'") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestValidFileValues(t *testing.T) {
	p, err := Parse("p.json", []byte(`{
  "version": 2,
  "allow": ["fs.read", "fs.read", "weird id"],
  "limits": {"maxToolCalls": 3, "timeMs": 1000}
}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != 2 || !slices.Equal(p.Allow, []string{"fs.read", "fs.read", "weird id"}) || p.Deny != nil || p.Exec != nil {
		t.Fatalf("p = %+v", p)
	}
	r := &Resolved{Source: "project", Path: "p.json", Policy: p}
	if got := r.EffectiveAllow(); !slices.Equal(got, []string{"fs.read", "weird id"}) {
		t.Errorf("effective = %q", got)
	}
	want := `{
  "source": "project",
  "path": "p.json",
  "policy": {
    "version": 2,
    "allow": [
      "fs.read",
      "fs.read",
      "weird id"
    ],
    "deny": [],
    "limits": {
      "maxToolCalls": 3,
      "timeMs": 1000
    }
  },
  "effectiveAllow": [
    "fs.read",
    "weird id"
  ]
}
`
	if got := JSON(r); got != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, want)
	}
}

func TestDenyOverridesAllow(t *testing.T) {
	tests := []struct {
		allow, deny []string
		effective   []string
		allowed     map[string]bool
	}{
		{[]string{"fs.read", "fs.write"}, []string{"fs.write"}, []string{"fs.read"}, map[string]bool{"fs.read": true, "fs.write": false, "sh.exec": false}},
		{[]string{"sh.exec", "sh.exec"}, nil, []string{"sh.exec"}, map[string]bool{"sh.exec": true}},
		{[]string{"http.get"}, []string{"http.get", "http.get"}, []string{}, map[string]bool{"http.get": false}},
		{[]string{}, []string{"fs.read"}, []string{}, map[string]bool{"fs.read": false}},
		{[]string{"zeta", "alpha", "fs.read"}, []string{"nothing"}, []string{"alpha", "fs.read", "zeta"}, map[string]bool{"alpha": true, "nothing": false}},
	}
	for _, tc := range tests {
		p := Default()
		p.Allow, p.Deny = tc.allow, tc.deny
		r := &Resolved{Source: "project", Path: "/x", Policy: p}
		if got := r.EffectiveAllow(); !slices.Equal(got, tc.effective) {
			t.Errorf("allow %q deny %q: effective = %q, want %q", tc.allow, tc.deny, got, tc.effective)
		}
		for id, want := range tc.allowed {
			if got := r.Allowed(id); got != want {
				t.Errorf("allow %q deny %q: Allowed(%q) = %v", tc.allow, tc.deny, id, got)
			}
		}
		all := r.AllowAll()
		for _, id := range KnownCaps {
			if !all.Allowed(id) {
				t.Errorf("AllowAll: %q not allowed", id)
			}
		}
		if all.Allowed("zeta") || !slices.Equal(all.EffectiveAllow(), KnownCaps) || r.IsAllowAll() || !all.IsAllowAll() {
			t.Errorf("AllowAll misbehaves")
		}
	}
	if !(*Resolved)(nil).AllowAll().Allowed("sh.exec") {
		t.Error("nil AllowAll")
	}
}

func TestTextAndJSONGolden(t *testing.T) {
	cwd, home := dirs(t)
	def, err := Load(cwd, home)
	if err != nil {
		t.Fatal(err)
	}
	wantText := `Effective A0 policy
  Source:          default
  Path:            (none)
  Allow:           (none)
  Deny:            (none)
  Effective allow: (none)
  Limits:          (none)
`
	if got := Text(def); got != wantText {
		t.Errorf("default text:\n%q\nwant\n%q", got, wantText)
	}
	wantJSON := `{
  "source": "default",
  "path": null,
  "policy": {
    "version": 1,
    "allow": [],
    "deny": [],
    "limits": {}
  },
  "effectiveAllow": []
}
`
	if got := JSON(def); got != wantJSON {
		t.Errorf("default JSON:\n%s\nwant\n%s", got, wantJSON)
	}

	write(t, userPath(home), `{"deny":["sh.exec","fs.read"],"allow":["sh.exec","http.get","fs.read","custom","Custom"],"limits":{"maxIterations":10,"maxToolCalls":2}}`)
	r, err := Load(cwd, home)
	if err != nil {
		t.Fatal(err)
	}
	wantText = `Effective A0 policy
  Source:          user
  Path:            ` + userPath(home) + `
  Allow:           custom, Custom, fs.read, http.get, sh.exec
  Deny:            fs.read, sh.exec
  Effective allow: custom, Custom, http.get
  Limits:          {"maxIterations":10,"maxToolCalls":2}
`
	if got := Text(r); got != wantText {
		t.Errorf("text:\n%s\nwant\n%s", got, wantText)
	}
	for _, line := range strings.Split(strings.TrimSuffix(Text(r), "\n"), "\n")[1:] {
		if line[18] != ' ' || line[19] == ' ' {
			t.Errorf("value of %q does not start at offset 19", line)
		}
	}
	wantJSON = `{
  "source": "user",
  "path": "` + userPath(home) + `",
  "policy": {
    "version": 1,
    "allow": [
      "custom",
      "Custom",
      "fs.read",
      "http.get",
      "sh.exec"
    ],
    "deny": [
      "fs.read",
      "sh.exec"
    ],
    "limits": {
      "maxIterations": 10,
      "maxToolCalls": 2
    }
  },
  "effectiveAllow": [
    "custom",
    "Custom",
    "http.get"
  ]
}
`
	if got := JSON(r); got != wantJSON {
		t.Errorf("JSON:\n%s\nwant\n%s", got, wantJSON)
	}
}

func TestErrorRendering(t *testing.T) {
	_, err := Parse("/p/.a0policy.json", []byte(`{"deny": 3}`))
	wantMsg := `Invalid policy file '/p/.a0policy.json': "deny" must be an array of strings, found a number (line 1, column 10, byte offset 9).`
	if err == nil || err.Error() != wantMsg {
		t.Fatalf("err = %v", err)
	}
	if got, want := TextError(err), "error[E_POLICY]: "+wantMsg+"\n  --> <unknown>\n"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if got, want := JSONError(err), `{"code":"E_POLICY","message":`+diag.QuoteJSON(wantMsg)+"}\n"; got != want {
		t.Errorf("json = %q, want %q", got, want)
	}
	if ExitCode != 3 || diag.ExitCode(diag.EPolicy, false) != 3 {
		t.Error("E_POLICY must exit 3")
	}
}

func TestCollate(t *testing.T) {
	ordered := [][]string{
		{"a", "A", "á", "à", "å", "ä", "a b", "a-b", "Aa", "ab", "aB", "AB", "ab ", "b", "B"},
		{"1", "10", "9"},
		{"fs_read", "fs-read", "fs.read", "Fs.read"},
		{" ", "_", "-", ",", ";", ":", "!", "?", ".", "'", "\"", "(", ")", "[", "]", "{", "}", "@", "*", "/", "\\", "&", "#", "%", "`", "^", "+", "<", "=", ">", "|", "~", "$", "0", "9", "a", "z"},
		{"fs.read", "fs.write", "http.get", "sh.exec"},
		{"ss", "ß", "st"},
	}
	for _, want := range ordered {
		for i := 0; i+1 < len(want); i++ {
			if c := Collate(want[i], want[i+1]); c != -1 {
				t.Errorf("Collate(%q, %q) = %d, want -1", want[i], want[i+1], c)
			}
			if c := Collate(want[i+1], want[i]); c != 1 {
				t.Errorf("Collate(%q, %q) = %d, want 1", want[i+1], want[i], c)
			}
		}
		shuffled := slices.Clone(want)
		slices.Reverse(shuffled)
		SortStrings(shuffled)
		if !slices.Equal(shuffled, want) {
			t.Errorf("sorted %q, want %q", shuffled, want)
		}
	}
	if Collate("a", "a\x00") != 0 || Collate("a\x01b", "ab") != 0 {
		t.Error("control characters must be ignorable")
	}
	if Collate("e", "é") != -1 || Collate("é", "f") != -1 {
		t.Error("accented letters sort with their base letter")
	}
	list := []string{"b", "a\x00", "a"}
	SortStrings(list)
	if !slices.Equal(list, []string{"a\x00", "a", "b"}) {
		t.Errorf("stable sort: %q", list)
	}
}

func TestGetwdIsPhysical(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(link)
	t.Setenv("PWD", link)
	got, err := Getwd()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(real)
	if got != want {
		t.Errorf("Getwd = %q, want %q", got, want)
	}
}
