package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// fuzzPolicies are valid policy files covering every section (exec with
// its sandbox and job store, fs, http, mcp, secrets, limits): the seeds
// of FuzzPolicyParse.
var fuzzPolicies = []string{
	`{}`,
	`{"version": 1, "allow": ["fs.read", "sh.exec"], "deny": ["fs.write"]}`,
	`{"allow": ["notes.add", "notes.*"], "mcp": {"notes": {"command": ["x"]}}}`,
	`{"limits": {"maxToolCalls": 10, "timeMs": 5000, "maxBytesWritten": 100, "maxIterations": 3}}`,
	`{"exec": {"allow": ["git"], "maxJobs": 2, "root": "sub/../work", "defaultTimeoutMs": 0, "maxTimeoutMs": 5000, "mask": []}}`,
	`{"exec": {"deny": ["sudo"], "shells": ["bash"], "envMode": "replace", "envAllow": ["GO*"], "envDeny": ["AWS_*"],
		"maxJobMs": 9, "maxWaitMs": 0, "drainMs": 100, "maxOutputBytes": 0, "maxStdinBytes": 1, "sweepEscaped": false,
		"allowCrossRun": true, "allowDetach": true, "graceMs": 1.0e3, "maxJobsPerRun": 1,
		"jobStore": {"dir": "jobs", "retainDays": 0, "maxBytes": 10, "maxLogBytes": 0}}}`,
	`{"allow": ["sh.exec"], "fs": {"read": ["src"], "write": ["out"]},
		"exec": {"envAllowCode": ["PYTHONPATH"], "sandbox": {"read": ["tools", "/opt/go"], "write": ["cache"], "network": "allow",
		"limits": {"cpuSeconds": 10, "memoryBytes": 1000000, "fileBytes": 5, "openFiles": 64, "processes": 32}, "require": false}}}`,
	`{"fs": {"read": ["docs"], "maxReadBytes": 4096, "readSpecial": true}, "mcp": {
  "n": {"command": ["x"], "envAllow": ["GITHUB_*", "HTTPS_PROXY"], "env": {"A": "b"}, "cwd": "srv", "tools": ["a-b"], "timeoutMs": 100,
        "sandbox": {"read": ["srv"], "write": ["out"], "limits": {"openFiles": 64}}},
  "m": {"url": "https://h.example/mcp"}}}`,
	`{"allow": ["http.get"], "http": {"allow": ["example.com", "*.example.org"], "deny": ["bad.example.com"], "allowPrivate": false, "maxResponseBytes": 1000, "timeoutMs": 2000}}`,
	`{"allow": ["sh.exec"], "secrets": {"GH_TOKEN": {"from": {"env": "GH_TOKEN"}, "to": ["sh.exec:gh"]},
		"PASS": {"from": {"command": ["/usr/bin/pass", "show", "x"]}, "to": ["sh.exec:git"]}}}`,
}

// FuzzPolicyParse: a policy file is written by a user, or planted by a
// program that can write the project folder. For any bytes Parse never
// panics; a refusal is a *Error whose position lies in the file and that
// renders as an E_POLICY diagnostic (text and JSON); an accepted policy
// renders both reports (the JSON one valid JSON), and the same document
// written compactly parses to the same reports.
func FuzzPolicyParse(f *testing.F) {
	for _, p := range fuzzPolicies {
		if _, err := Parse("seed", []byte(p)); err != nil {
			f.Fatalf("seed %s: %v", p, err)
		}
		f.Add([]byte(p))
	}
	f.Add([]byte("\xEF\xBB\xBF{}"))
	f.Add([]byte(`{"allow": ["fs.read"], "allow": []}`))
	f.Add([]byte("{\"exec\": {\"maxJobs\": 1e400}}"))
	const path = "/nonexistent-a0-fuzz/proj/.a0policy.json"
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(path, data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *policy.Error: %v", err, err)
			}
			if pe.Problem == "" || pe.Offset < -1 || pe.Offset > len(data) || pe.Offset >= 0 && (pe.Line < 1 || pe.Col < 1) {
				t.Fatalf("bad error %+v", pe)
			}
			if txt := TextError(err); !strings.Contains(txt, "E_POLICY") {
				t.Fatalf("text error without its code: %q", txt)
			}
			js := JSONError(err)
			v, jerr := value.ParseJSON(js)
			if jerr != nil || v.AsRecord().GetOrNull("code").AsString() != "E_POLICY" {
				t.Fatalf("JSON error %q: %v", js, jerr)
			}
			return
		}
		if p == nil {
			t.Fatal("nil policy without an error")
		}
		text, js := reports(t, p)
		// The same document, written compactly, is the same policy.
		doc, jerr := value.ParseJSON(string(data))
		if jerr != nil {
			t.Fatalf("a policy that is not JSON: %v", jerr)
		}
		again, err := Parse(path, []byte(value.JSON(doc)))
		if err != nil {
			t.Fatalf("the compact form %s is refused: %v", value.JSON(doc), err)
		}
		text2, js2 := reports(t, again)
		if text != text2 || js != js2 {
			t.Fatalf("the compact form reports differently:\n%s\n%s\n--\n%s\n%s", text, js, text2, js2)
		}
	})
}

// reports renders p's `a0 policy` reports and checks the queries a run
// makes of a resolved policy.
func reports(t *testing.T, p *Policy) (string, string) {
	t.Helper()
	r := &Resolved{Source: SourceProject, Path: "/nonexistent-a0-fuzz/proj/.a0policy.json", Policy: p}
	_ = r.CheckReach()
	_ = r.EntryWarnings()
	_ = r.SecretWarnings()
	_ = r.EffectiveAllow()
	_, _ = r.FSRoots()
	_ = r.HTTPScope()
	for _, s := range r.MCPServers() {
		_ = r.ServerGranted(s.Name)
	}
	for _, id := range append(append([]string{}, p.Allow...), p.Deny...) {
		_, _ = r.Allowed(id), r.Denied(id)
	}
	_ = r.Exec()
	text := Text(r)
	js := JSON(r)
	if _, err := value.ParseJSON(js); err != nil {
		t.Fatalf("JSON report is not JSON: %v\n%s", err, js)
	}
	return text, js
}
