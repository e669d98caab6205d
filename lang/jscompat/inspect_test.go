package jscompat

import (
	"strings"
	"testing"
)

func TestInspectString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", `'plain'`},
		{"nul\x00here", `'nul\x00here'`},
		{"tab\tnl\ncr\r", `'tab\tnl\ncr\r'`},
		{"esc\x1bdel\x7fc1\u0085", `'esc\x1Bdel\x7Fc1\x85'`},
		{`back\slash`, `'back\\slash'`},
		{"it's", `"it's"`},
		{`it's "x"`, "`it's \"x\"`"},
		{"it's \"x\" `y`", `'it\'s "x" ` + "`y`'"},
		{"it's \"${x}\"", `'it\'s "${x}"'`},
		{"é ✓ 📦", `'é ✓ 📦'`},
	} {
		if got := InspectString(c.in); got != c.want {
			t.Errorf("InspectString(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestNullBytePathText(t *testing.T) {
	got := NullBytePathText("/w/a\x00b")
	want := `The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received '/w/a\x00b'`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	long := "/" + strings.Repeat("d", 200) + "\x00"
	got = NullBytePathText(long)
	if !strings.HasSuffix(got, "Received '/"+strings.Repeat("d", 126)+"...") {
		t.Errorf("long path not cut after 128 units: %s", got)
	}
	if got := InspectString("lone \xed\xa0\xbd"); got != `'lone \ud83d'` {
		t.Errorf("lone surrogate: %s", got)
	}
}
