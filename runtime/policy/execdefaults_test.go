package policy

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime/proc"
)

// The exec defaults are written in three places: the spec (spec/exec.md
// §8.1, §7.2, §4.3, §2, §12), the engine (proc.DefaultConfig, the only
// copy in code) and what the policy makes of them (Resolved.Exec and the
// `a0 policy --json` report). TestExecDefaultsMatchSpec reads the
// documented defaults out of the spec and fails when any of the others
// says something else, or when the spec documents a key this test does not
// check.

// absentT is the type of absent.
type absentT struct{}

// absent is the normalized "none"/"off" default (no allowlist, no root,
// job store off, no limits, no sandbox).
var absent = absentT{}

// specSection returns the text of spec/exec.md from the heading that
// starts with head up to the next heading of the same or a higher level.
func specSection(t *testing.T, spec, head string) string {
	t.Helper()
	i := strings.Index(spec, "\n"+head)
	if i < 0 {
		t.Fatalf("spec/exec.md has no heading %q", head)
	}
	level := strings.Index(head, " ") // number of '#'
	rest := spec[i+1+len(head):]
	for _, stop := range []string{"\n" + strings.Repeat("#", level) + " ", "\n" + strings.Repeat("#", level-1) + " "} {
		if j := strings.Index(rest, stop); j >= 0 {
			rest = rest[:j]
		}
	}
	return rest
}

var keyDefault = regexp.MustCompile("`(\\w+)` \\(([^)]*)\\)")

// tableDefaults returns the "`key` (default)" pairs of the first cells of
// the rows of a section's first table (a key written without a default
// has none there).
func tableDefaults(t *testing.T, section string) map[string]any {
	t.Helper()
	out := map[string]any{}
	inTable := false
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		for _, m := range keyDefault.FindAllStringSubmatch(cell, -1) {
			out[m[1]] = specValue(t, m[1], m[2])
		}
	}
	return out
}

var leadingNumber = regexp.MustCompile(`^(\d+(?: \d{3})*)( MiB)?`)

// specValue normalizes a documented default: absent, a bool, an int64, a
// string or a []string.
func specValue(t *testing.T, key, d string) any {
	t.Helper()
	d = strings.TrimSpace(d)
	switch {
	case d == "off" || strings.HasPrefix(d, "none"):
		return absent
	case d == "`[]`":
		return []string{}
	case strings.HasPrefix(d, "true"), d == "`true`":
		return true
	case strings.HasPrefix(d, "false"), d == "`false`":
		return false
	}
	if m := leadingNumber.FindStringSubmatch(d); m != nil {
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(m[1]), " ", ""), 10, 64)
		if err != nil {
			t.Fatalf("%s: bad number %q", key, d)
		}
		if m[2] != "" {
			n <<= 20
		}
		return n
	}
	if s, ok := strings.CutPrefix(d, "`"); ok {
		return strings.Trim(strings.TrimSuffix(s, "`"), `"`)
	}
	t.Fatalf("%s: cannot read the documented default %q", key, d)
	return nil
}

var backticked = regexp.MustCompile("`([^`]+)`")

// specList returns the backticked items of the first "default …)" list
// that follows marker in text.
func specList(t *testing.T, text, marker string) []string {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("spec/exec.md lacks %q", marker)
	}
	rest := text[i:]
	j := strings.Index(rest, "default ")
	k := strings.Index(rest[j:], ")")
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(rest[j:j+k], -1) {
		out = append(out, m[1])
	}
	return out
}

// The engine's value of each documented key, normalized like specValue.
var engineValue = map[string]func(c proc.Config) any{
	"allow": func(c proc.Config) any { return listOrAbsent(c.Allow) },
	"deny":  func(c proc.Config) any { return list(c.Deny) },
	"allowShell": func(c proc.Config) any {
		return c.AllowShell
	},
	"root": func(c proc.Config) any {
		if c.Root == "" {
			return absent
		}
		return c.Root
	},
	"envMode":          func(c proc.Config) any { return c.EnvMode },
	"defaultTimeoutMs": func(c proc.Config) any { return c.DefaultTimeout.Milliseconds() },
	"maxTimeoutMs":     func(c proc.Config) any { return c.MaxTimeout.Milliseconds() },
	"graceMs":          func(c proc.Config) any { return c.Grace.Milliseconds() },
	"drainMs":          func(c proc.Config) any { return c.Drain.Milliseconds() },
	"maxOutputBytes":   func(c proc.Config) any { return c.MaxOutputBytes },
	"maxStdinBytes":    func(c proc.Config) any { return c.MaxStdinBytes },
	"maxJobMs":         func(c proc.Config) any { return c.MaxJob.Milliseconds() },
	"maxWaitMs":        func(c proc.Config) any { return c.MaxWait.Milliseconds() },
	"maxJobs":          func(c proc.Config) any { return int64(c.MaxJobs) },
	"maxJobsPerRun":    func(c proc.Config) any { return int64(c.MaxJobsPerRun) },
	"sweepEscaped":     func(c proc.Config) any { return c.SweepEscaped },
	"jobStore": func(c proc.Config) any {
		if c.StoreDir == "" {
			return absent
		}
		return c.StoreDir
	},
	"allowCrossRun": func(c proc.Config) any { return c.AllowCrossRun },
	"envAllowCode":  func(c proc.Config) any { return list(c.EnvAllowCode) },
	"sandbox": func(c proc.Config) any {
		if c.Sandbox == nil {
			return absent
		}
		return "set"
	},
	"shells": func(c proc.Config) any { return list(c.Shells) },
	"mask":   func(c proc.Config) any { return list(c.Mask) },
}

// policyOnly are documented keys that are not part of the engine's
// configuration (allowDetach has no effect); only the report shows them.
var policyOnly = map[string]bool{"allowDetach": true}

func list(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

func listOrAbsent(l []string) any {
	if l == nil {
		return absent
	}
	return l
}

// jsonValue normalizes a member of the `a0 policy --json` report.
func jsonValue(v any) any {
	switch v := v.(type) {
	case nil:
		return absent
	case float64:
		return int64(v)
	case []any:
		out := []string{}
		for _, s := range v {
			out = append(out, s.(string))
		}
		return out
	}
	return v
}

// policyReport returns the `exec` member of `a0 policy --json` for the
// policy file text, and the resolved policy.
func policyReport(t *testing.T, text string) (map[string]any, *Resolved) {
	t.Helper()
	p, err := Parse("/proj/.a0policy.json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: SourceProject, Path: "/proj/.a0policy.json", Policy: p}
	var out struct{ Exec map[string]any }
	if err := json.Unmarshal([]byte(JSON(r)), &out); err != nil {
		t.Fatal(err)
	}
	return out.Exec, r
}

func TestExecDefaultsMatchSpec(t *testing.T) {
	raw, err := os.ReadFile("../../spec/exec.md")
	if err != nil {
		t.Fatal(err)
	}
	spec := string(raw)

	// spec/exec.md §8.1's table, plus the default lists of spec/exec.md §2
	// (shells) and spec/exec.md §4.3 (mask).
	want := tableDefaults(t, specSection(t, spec, "### 8.1 "))
	want["shells"] = specList(t, specSection(t, spec, "## 2. "), "a name in `exec.shells`")
	want["mask"] = specList(t, specSection(t, spec, "### 4.3 "), "`exec.mask`")
	if len(want) < 20 {
		t.Fatalf("read only %d defaults from spec/exec.md: %v", len(want), want)
	}

	engine := proc.DefaultConfig()
	report, res := policyReport(t, `{"exec": {}}`)
	def := (&Resolved{Source: SourceDefault, Policy: Default()}).Exec()
	for key, w := range want {
		if policyOnly[key] {
			if got := jsonValue(report[key]); !reflect.DeepEqual(got, w) {
				t.Errorf("exec.%s: spec says %#v, a0 policy --json shows %#v", key, w, got)
			}
			continue
		}
		get, ok := engineValue[key]
		if !ok {
			t.Errorf("spec/exec.md documents a default for exec.%s that this test does not check", key)
			continue
		}
		if got := get(engine); !reflect.DeepEqual(got, w) {
			t.Errorf("exec.%s: spec says %#v, proc.DefaultConfig has %#v", key, w, got)
		}
		if got := get(res.Exec()); !reflect.DeepEqual(got, w) {
			t.Errorf("exec.%s: spec says %#v, the policy {\"exec\": {}} gives the engine %#v", key, w, got)
		}
		if got := get(def); !reflect.DeepEqual(got, w) {
			t.Errorf("exec.%s: spec says %#v, the default policy gives the engine %#v", key, w, got)
		}
		if m, shown := report[key]; shown {
			if got := jsonValue(m); !reflect.DeepEqual(got, w) {
				t.Errorf("exec.%s: spec says %#v, a0 policy --json shows %#v", key, w, got)
			}
		} else if w != absent && key != "envAllowCode" { // envAllowCode is shown only when set
			t.Errorf("exec.%s: a0 policy --json does not show it", key)
		}
	}
	for key := range engineValue {
		if _, ok := want[key]; !ok {
			t.Errorf("spec/exec.md no longer documents the default of exec.%s", key)
		}
	}
	// allowShell's default is false next to an allowlist.
	if _, r := policyReport(t, `{"exec": {"allow": []}}`); r.Exec().AllowShell {
		t.Error("exec.allowShell: true next to an allowlist")
	}

	// spec/exec.md §7.2: the job store's defaults.
	store := specSection(t, spec, "### 7.2 ")
	num := func(re string) int64 {
		m := regexp.MustCompile(re).FindStringSubmatch(store)
		if m == nil {
			t.Fatalf("§7.2 lacks %s", re)
		}
		return specValue(t, re, m[1]).(int64)
	}
	wantDir := regexp.MustCompile("default `([^`]+)`").FindStringSubmatch(store)
	if wantDir == nil {
		t.Fatal("§7.2 lacks the default dir")
	}
	wantRetain, wantMax, wantLog := num("`retainDays` (\\d+)"), num("`maxBytes` (\\d+ MiB)"), num("`maxLogBytes` (\\d+ MiB)")
	if proc.DefaultStoreDir != wantDir[1] || engine.RetainDays != wantRetain || engine.StoreMaxBytes != wantMax || engine.MaxLogBytes != wantLog {
		t.Errorf("job store: spec says dir %s, %d days, %d, %d; the engine %s, %d, %d, %d", wantDir[1], wantRetain, wantMax, wantLog,
			proc.DefaultStoreDir, engine.RetainDays, engine.StoreMaxBytes, engine.MaxLogBytes)
	}
	report, res = policyReport(t, `{"exec": {"jobStore": {}}}`)
	c := res.Exec()
	if c.StoreDir != "/proj/"+wantDir[1] || c.RetainDays != wantRetain || c.StoreMaxBytes != wantMax || c.MaxLogBytes != wantLog {
		t.Errorf("job store: spec says dir %s, %d days, %d, %d; the policy gives %s, %d, %d, %d", wantDir[1], wantRetain, wantMax, wantLog,
			c.StoreDir, c.RetainDays, c.StoreMaxBytes, c.MaxLogBytes)
	}
	wantJS := map[string]any{"dir": "/proj/" + wantDir[1], "retainDays": float64(wantRetain), "maxBytes": float64(wantMax), "maxLogBytes": float64(wantLog)}
	if !reflect.DeepEqual(report["jobStore"], wantJS) {
		t.Errorf("job store: a0 policy --json shows %v, want %v", report["jobStore"], wantJS)
	}

	// spec/exec.md §12: the sandbox's defaults (the engine has none: a
	// host sets them).
	sbWant := tableDefaults(t, specSection(t, spec, "## 12. "))
	report, res = policyReport(t, `{"exec": {"sandbox": {}}}`)
	sb := res.Exec().Sandbox
	if sb == nil {
		t.Fatal("exec.sandbox {} gives no sandbox")
	}
	limits := any(absent)
	if sb.Limits.Any() {
		limits = sb.Limits
	}
	network := "deny"
	if sb.NetworkAllow {
		network = "allow"
	}
	sbGot := map[string]any{"read": list(sb.Read), "write": list(sb.Write), "network": network, "limits": limits, "require": sb.Require}
	if !reflect.DeepEqual(sbGot, sbWant) {
		t.Errorf("exec.sandbox: spec says %#v, the policy gives %#v", sbWant, sbGot)
	}
	shown := report["sandbox"].(map[string]any)
	if shown["network"] != sbWant["network"] || shown["require"] != sbWant["require"] || len(shown["limits"].(map[string]any)) != 0 {
		t.Errorf("exec.sandbox: a0 policy --json shows %v, spec says %v", shown, sbWant)
	}
}
