package policy

import (
	"reflect"
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
