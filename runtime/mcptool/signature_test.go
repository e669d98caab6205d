package mcptool

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime"
)

var updateSigs = flag.Bool("update", false, "rewrite testdata/signatures/*.golden")

// TestSignatureRendering renders the signatures of schemas of every
// kind, text and JSON, against testdata/signatures/<name>.golden.
func TestSignatureRendering(t *testing.T) {
	cases := []struct {
		name, desc, in, out string
		mode                runtime.Mode
		unavailable         string
	}{
		{name: "simple", desc: "Search the notes.", mode: runtime.ModeRead,
			in: `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["q"],"additionalProperties":false}`},
		{name: "no_args", desc: "Return the time.\nIn UTC.", mode: runtime.ModeRead, in: `{"type":"object"}`},
		{name: "enum_default", desc: "Forecast for a city. Uses the nearest station; slow for remote places.", mode: runtime.ModeRead,
			in:  `{"type":"object","properties":{"city":{"type":"string","description":"City name.\nCase-insensitive."},"units":{"type":"string","enum":["c","f"],"default":"c"},"days":{"type":"integer","minimum":1,"maximum":7,"default":3}},"required":["city"]}`,
			out: `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"array","items":{"type":"object","properties":{"date":{"type":"string","format":"date"},"high":{"type":"number"},"low":{"type":"number"},"sky":{"enum":["sun","cloud","rain"]}},"required":["date","high","low"]}}},"required":["city","days"]}`},
		{name: "nested_deep", desc: "Deep.", mode: runtime.ModeEffect,
			in:  `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"object","properties":{"d":{"type":"object","properties":{"e":{"type":"string"}}}}}}}}}}}`,
			out: `{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"string"}}}}}}`},
		{name: "many_members", desc: "Wide.", mode: runtime.ModeRead,
			in:  `{"type":"object","properties":{"opts":{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{},"i":{},"j":{}}}}}`,
			out: `{"type":"object","additionalProperties":{"type":"integer"}}`},
		{name: "refs_unions", desc: "Refs.", mode: runtime.ModeEffect,
			in:  `{"type":"object","$defs":{"entity":{"type":"object","properties":{"name":{"type":"string"},"kind":{"const":"person"}},"required":["name"]}},"properties":{"entities":{"type":"array","items":{"$ref":"#/$defs/entity"}},"id":{"type":["string","null"]},"when":{"anyOf":[{"type":"string","format":"date-time"},{"type":"integer"}]},"tree":{"$ref":"#"}},"required":["entities"]}`,
			out: `{"$ref":"#/$defs/r","$defs":{"r":{"type":"object","properties":{"ok":{"type":"boolean"},"self":{"$ref":"#/$defs/r"}}}}}`},
		{name: "hostile_text", desc: "Evil\x1b]52;c;aGk=\x07 tool\u202e. More.", mode: runtime.ModeRead,
			in: `{"type":"object","properties":{"we ird\u001b":{"type":"string","enum":["x\u0007","y"]}},"required":["we ird\u001b"]}`},
		{name: "unavailable", desc: strings.Repeat("A very long description without any stop ", 8), mode: runtime.ModeEffect,
			in: `{"type":"object","properties":{"x":{"type":"boolean"}}}`, unavailable: "it requires tasks, which a0 does not support"},
		{name: "allof_merge", desc: "", mode: runtime.ModeRead,
			in:  `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"array"}}}]}`,
			out: `true`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out json.RawMessage
			if c.out != "" {
				out = json.RawMessage(c.out)
			}
			s := NewSignature("srv."+c.name, "srv", strings.ReplaceAll(c.name, "_", "-"), c.mode, c.desc, json.RawMessage(c.in), out, c.unavailable)
			got := s.Render("") + "\n" + s.RenderFull(json.RawMessage(c.in), out) + "\n" + MarshalJSON(s)
			for _, r := range []string{"\x1b", "\x07", "\u202e"} {
				if strings.Contains(got, r) {
					t.Errorf("raw control %q in the rendering", r)
				}
			}
			path := filepath.Join("testdata", "signatures", c.name+".golden")
			if *updateSigs {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("rendering differs from %s:\n%s", path, got)
			}
		})
	}
}

// TestSignatureSearch: words must all match; names rank above
// descriptions; case does not matter.
func TestSignatureSearch(t *testing.T) {
	mk := func(name, desc string) Signature {
		return NewSignature("srv."+name, "srv", name, runtime.ModeRead, desc, nil, nil, "")
	}
	sigs := []Signature{
		mk("list_files", "List the files of a folder."),
		mk("read_file", "Read a file."),
		mk("search", "Search the notes by text."),
		mk("file", "Return a file's metadata."),
		mk("weather", "Forecast."),
		mk("read_text_file", "Read a text file."),
	}
	tests := []struct {
		q    string
		want []string
	}{
		{"FILE", []string{"srv.file", "srv.list_files", "srv.read_file", "srv.read_text_file"}},
		{"search notes", []string{"srv.search"}},
		{"notes", []string{"srv.search"}},
		{"read file", []string{"srv.read_file", "srv.read_text_file"}},
		{"nothing", nil},
		{"  ", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, s := range Search(sigs, tc.q) {
			got = append(got, s.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Search(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}
