//go:build linux

package proc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestPlaceholders(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		out  string
	}{
		{"plain", nil, "plain"},
		{"${secret:A}", []string{"A"}, "va"},
		{"x ${secret:A} ${secret:B_2} ${secret:A}", []string{"A", "B_2"}, "x va vb va"},
		{"${secret:}", nil, "${secret:}"},
		{"${secret:1A}", nil, "${secret:1A}"},
		{"${secret:A-B}", nil, "${secret:A-B}"},
		{"${secret:A", nil, "${secret:A"},
		{"${secret:${secret:A}}", []string{"A"}, "${secret:va}"},
		{"${secret:C}", []string{"C"}, "${secret:C}"},
	}
	vals := map[string]string{"A": "va", "B_2": "vb"}
	for _, tc := range tests {
		got := Placeholders(tc.in)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Placeholders(%q) = %v, want %v", tc.in, got, tc.want)
		}
		if out := ReplacePlaceholders(tc.in, vals); out != tc.out {
			t.Errorf("ReplacePlaceholders(%q) = %q, want %q", tc.in, out, tc.out)
		}
	}
}

// Every covered form of a secret is masked, also when a stream splits
// it across writes; a short value is masked but its short encodings are
// not.
func TestSecretMaskForms(t *testing.T) {
	v := `tok/en+va"lue<&>=42 x`
	m := (*Masker)(nil).WithSecrets([]Secret{{Name: "TOK", Value: v}})
	js, _ := json.Marshal(v)
	forms := []string{
		v,
		string(js[1 : len(js)-1]),
		url.QueryEscape(v),
		url.PathEscape(v),
		base64.StdEncoding.EncodeToString([]byte(v)),
		base64.URLEncoding.EncodeToString([]byte(v)),
	}
	for _, f := range forms {
		text := "before " + f + " after"
		if got := m.String(text); strings.Contains(got, f) || !strings.Contains(got, "[masked:TOK]") {
			t.Errorf("form %q not masked: %q", f, got)
		}
		// Split at every position across two writes.
		for cut := 1; cut < len(text); cut++ {
			s := m.stream()
			got := string(s.Write([]byte(text[:cut]))) + string(s.Write([]byte(text[cut:]))) + string(s.Flush())
			if strings.Contains(got, f) {
				t.Fatalf("form %q split at %d not masked: %q", f, cut, got)
			}
		}
	}
	// base64 of the value inside a longer base64 text, at each alignment.
	for k := 0; k < 3; k++ {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("p", k) + v + "suffix"))
		if got := m.String(enc); !strings.Contains(got, "[masked:TOK]") {
			t.Errorf("base64 at alignment %d not masked: %q", k, got)
		}
	}
	short := (*Masker)(nil).WithSecrets([]Secret{{Name: "S", Value: "abc"}})
	if got := short.String("xabcx YWJj"); got != "x[masked:S]x YWJj" {
		t.Errorf("short secret: %q", got)
	}
	// A policy secret keeps its own name over an env name of the same value.
	env := NewMasker([]Secret{{Name: "GH_TOKEN", Value: "shared-value-1"}})
	both := env.WithSecrets([]Secret{{Name: "GH", Value: "shared-value-1"}})
	if got := both.String("shared-value-1"); got != "[masked:GH]" {
		t.Errorf("shared value: %q", got)
	}
}

// A prepared command gets the value; its request keeps the placeholder;
// a program that the secret does not list is refused before anything
// starts; a placeholder in cmd text is refused.
func TestPrepareSecrets(t *testing.T) {
	cfg := DefaultConfig()
	cfg.WorkDir = t.TempDir()
	e := NewEngine(cfg)
	reads := 0
	use := &SecretUse{Secrets: []PolicySecret{{Name: "TOK", Programs: []string{"sh", "cat"}, Value: func() (string, error) {
		reads++
		return "prepared-secret-1", nil
	}}}}
	r := &Request{Cmd: `printf %s "$T"; cat`, Env: [][2]string{{"T", "${secret:TOK}"}}, Stdin: []byte("in=${secret:TOK}"), HasStdin: true,
		MaxOutput: -1, Remaining: -1, DefaultOut: 1 << 20, Secrets: use}
	p, err := e.Prepare(r)
	if err != nil {
		t.Fatal(err)
	}
	if !containsPrefix(p.Spec.Env, "T=prepared-secret-1") || string(p.Spec.Stdin) != "in=prepared-secret-1" {
		t.Fatalf("not substituted: env %v stdin %q", p.Spec.Env, p.Spec.Stdin)
	}
	if r.Env[0][1] != "${secret:TOK}" || string(r.Stdin) != "in=${secret:TOK}" {
		t.Fatalf("the request was changed: %v %q", r.Env, r.Stdin)
	}
	res, err := e.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Stdout.Head); got != "[masked:TOK]in=[masked:TOK]" {
		t.Errorf("stdout %q", got)
	}
	refused := []*Request{
		{Argv: []string{"env"}, Env: [][2]string{{"T", "${secret:TOK}"}}, MaxOutput: -1, Remaining: -1, Secrets: use},
		{Argv: []string{"echo", "${secret:TOK}"}, MaxOutput: -1, Remaining: -1, Secrets: use},
		{Cmd: "echo ${secret:TOK}", MaxOutput: -1, Remaining: -1, Secrets: use},
		{Argv: []string{"cat"}, Stdin: []byte("${secret:OTHER}"), HasStdin: true, MaxOutput: -1, Remaining: -1, Secrets: use},
	}
	for _, rr := range refused {
		_, err := e.Prepare(rr)
		pe, ok := err.(*Error)
		if !ok || pe.Kind != "cap_denied" || pe.Reason != "secret_not_allowed" {
			t.Errorf("%v %q: err %v, want secret_not_allowed", rr.Argv, rr.Cmd, err)
		}
	}
	if reads != 1 {
		t.Errorf("the value was read %d times by the engine's callers, want 1 (refusals read nothing)", reads)
	}
	// Without a SecretUse a placeholder is plain text.
	p, err = e.Prepare(&Request{Argv: []string{"echo", "${secret:TOK}"}, MaxOutput: -1, Remaining: -1, DefaultOut: 1 << 20})
	if err != nil || p.Spec.Args[1] != "${secret:TOK}" {
		t.Errorf("plain text: %v %v", err, p)
	}
}

func containsPrefix(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
