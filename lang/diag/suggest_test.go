package diag

import (
	"testing"
	"unicode/utf16"
)

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "abc", 0},
		{"prety", "pretty", 1},   // insertion
		{"lenght", "length", 1},  // adjacent swap
		{"ca", "abc", 3},         // optimal string alignment, not Damerau (2)
		{"heon", "help", 2},      // two substitutions
		{"x", "abcdef", 6},       // no cut-off here
		{"café", "cafe", 1},      // runes, not bytes
		{"a\U0001F600", "a", 1},  // one rune
		{"kitten", "sitting", 3}, // the textbook case
		{"abcdef", "badcfe", 3},  // three swaps
		{"evidenc=x", "evidence", 2},
	}
	for _, tc := range cases {
		if got := EditDistance([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := EditDistance([]rune(tc.b), []rune(tc.a)); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.want)
		}
	}
	// In UTF-16 units an astral character is two units.
	if got := EditDistance(utf16.Encode([]rune("a\U0001F600")), utf16.Encode([]rune("a"))); got != 2 {
		t.Errorf("UTF-16 distance = %d, want 2", got)
	}
}

func TestSuggest(t *testing.T) {
	cases := []struct {
		name  string
		cands []string
		want  string
	}{
		{"lenght", []string{"len", "length", "list"}, "length"},
		{"x", []string{"x", "y"}, "y"},                         // itself never; 1 edit allowed for a short name
		{"ab", []string{"cd"}, ""},                             // 2 edits > 1 + 2/4
		{"abcdefgh", []string{"abcdefXY"}, "abcdefXY"},         // 2 edits <= 1 + 8/4
		{"abcdefghijklmnop", []string{"abcdefghijklWXYZ"}, ""}, // 4 edits: never more than 3
		{"abcdefghijklmnop", []string{"abcdefghijklmXYZ"}, "abcdefghijklmXYZ"},
		{"cat", []string{"cbt", "cot", "bat"}, "bat"}, // ties: the first in sort order
		{"fs.raed", []string{"fs.read", "fs.write"}, "fs.read"},
		{"zzz", nil, ""},
	}
	for _, tc := range cases {
		if got := Suggest(tc.name, tc.cands); got != tc.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", tc.name, tc.cands, got, tc.want)
		}
	}
}
