package policy

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestEntryWarnings(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // one substring per warning, in order
		hostCaps  []string // EntryWarningsWith's
	}{
		{"all known", `{"allow":["fs.read","sh.exec"],"deny":["fs.write"]}`, nil, nil},
		{"typo in allow", `{"allow":["fs.raed","sh.exec"]}`, []string{`allow entry "fs.raed"`, `did you mean "fs.read"?`}, nil},
		{"typo in deny", `{"allow":["sh.exec"],"deny":["sh.exce"]}`, []string{`deny entry "sh.exce"`, `refuses nothing; did you mean "sh.exec"?`}, nil},
		{"far from everything", `{"allow":["zzz"]}`, []string{`allow entry "zzz"`, "(the capabilities: fs.read, fs.write, http.get, sh.exec)"}, nil},
		{"duplicates warn once", `{"allow":["zzz","zzz"]}`, []string{`"zzz"`}, nil},
		{"mcp tool and wildcard", `{"allow":["notes.add","notes.*"],"mcp":{"notes":{"command":["x"]}}}`, nil, nil},
		{"typo of a server", `{"allow":["nots.*"],"mcp":{"notes":{"command":["x"]}}}`, []string{`allow entry "nots.*"`, `did you mean "notes.*"?`}, nil},
		{"host capability", `{"allow":["kv","sh.exec"]}`, nil, []string{"kv"}},
		{"typo of a host capability", `{"allow":["kvv"]}`, []string{`allow entry "kvv"`, `did you mean "kv"?`}, []string{"kv"}},
		{"host capabilities listed", `{"allow":["zzz"]}`, []string{"(the capabilities: fs.read, fs.write, http.get, sh.exec, kv)"}, []string{"kv", "sh.exec"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse("p.json", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			got := (&Resolved{Source: "project", Policy: p}).EntryWarningsWith(c.hostCaps...)
			var joined string
			if len(got) > 0 {
				joined = strings.Join(got, "\n")
			}
			if c.want == nil {
				if !reflect.DeepEqual(got, []string(nil)) {
					t.Fatalf("warnings %q, want none", got)
				}
				return
			}
			if c.name == "duplicates warn once" && len(got) != 1 {
				t.Fatalf("got %d warnings: %q", len(got), got)
			}
			for _, w := range c.want {
				if !strings.Contains(joined, w) {
					t.Fatalf("warnings %q lack %q", got, w)
				}
			}
		})
	}
	// The JSON report keeps its documented shape: the warnings are
	// printed beside it (on stderr), never inside it.
	p, _ := Parse("p.json", []byte(`{"allow":["zzz"]}`))
	if strings.Contains(JSON(&Resolved{Source: "project", Policy: p}), "warnings") {
		t.Fatal("warnings inside a0 policy --json")
	}
}

// TestSuggestEntry: an entry that names nothing is matched to what it
// most likely meant: a close spelling, the same id in other case, the
// capabilities of a namespace (alone or as a wildcard), another tool's
// word for one.
func TestSuggestEntry(t *testing.T) {
	tests := []struct {
		entry string
		want  []string
	}{
		{"fs.raed", []string{"fs.read"}},
		{"FS.READ", []string{"fs.read"}},
		{"fs", []string{"fs.read", "fs.write"}},
		{"fs.*", []string{"fs.read", "fs.write"}},
		{"sh.*", []string{"sh.exec"}},
		{"shell", []string{"sh.exec"}},
		{"network", []string{"http.get"}},
		{"zzz", nil},
	}
	for _, tc := range tests {
		if got := SuggestEntry(tc.entry, KnownCaps); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.entry, got, tc.want)
		}
	}
}

// TestJSONHints: the JSON mistakes of hand-written policy files get a
// hint that names the fix.
func TestJSONHints(t *testing.T) {
	tests := []struct{ src, hint string }{
		{`{"allow": ["fs.read"],}`, "JSON allows no comma before a closing } or ]: remove the last ','."},
		{`{"allow": ["fs.read",]}`, "JSON allows no comma before a closing } or ]: remove the last ','."},
		{`{'allow': []}`, `JSON strings and keys use double quotes: write "allow", not 'allow'.`},
		{`{"allow": [fs.read]}`, `Strings in JSON are quoted: write "fs.read" with double quotes.`},
		{"{\"allow\": [] // all\n}", "JSON has no comments: remove them."},
	}
	for _, tc := range tests {
		_, err := Parse("p.json", []byte(tc.src))
		var pe *Error
		if !errors.As(err, &pe) || pe.Hint != tc.hint {
			t.Errorf("%s: got %v (hint %q), want hint %q", tc.src, err, func() string {
				if pe != nil {
					return pe.Hint
				}
				return ""
			}(), tc.hint)
		}
	}
}
