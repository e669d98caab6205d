package help

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestTopicFiles: every topic has its file and every file is a topic (or
// the quick reference), each text starts with its "A0 …" title underlined
// with "=" and ends with exactly one newline in its file.
func TestTopicFiles(t *testing.T) {
	entries, err := fs.ReadDir(files, "topics")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txt"))
	}
	want := append([]string{"quick"}, topics...)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("topic files %v, want %v", names, want)
	}
	for _, n := range want {
		b, _ := files.ReadFile("topics/" + n + ".txt")
		if !strings.HasSuffix(string(b), "\n") || strings.HasSuffix(string(b), "\n\n") {
			t.Errorf("%s.txt must end with exactly one newline", n)
		}
		title, rest, _ := strings.Cut(string(b), "\n")
		under, _, _ := strings.Cut(rest, "\n")
		if !strings.HasPrefix(title, "A0 ") || under != strings.Repeat("=", len(title)) {
			t.Errorf("%s.txt: title %q underlined %q", n, title, under)
		}
	}
}

// TestTopic: the quick reference, a prefix, an unknown topic and --index.
func TestTopic(t *testing.T) {
	tests := []struct {
		topic       string
		index       bool
		out, errOut string
		code        int
	}{
		{"", false, quick() + "\n", "", 0},
		{" Diag ", false, texts()["diagnostics"] + "\n", "", 0},
		{"s", false, "", "Unknown help topic: \"s\"\n(\"s\" starts several topics: syntax, stdlib, secrets; type more of one)\nAvailable topics:\n", 1},
		{"stdlb", false, "", "Unknown help topic: \"stdlb\"\n(Did you mean stdlib?)\nAvailable topics:\n", 1},
		{"stdlib", true, StdlibIndex() + "\n", "", 0},
		{"types", true, "", "The --index flag is only supported with the stdlib topic.\n", 1},
	}
	for _, tc := range tests {
		out, errOut, code := Topic(tc.topic, tc.index)
		if out != tc.out || !strings.HasPrefix(errOut, tc.errOut) || (tc.errOut == "") != (errOut == "") || code != tc.code {
			t.Errorf("Topic(%q, %v) = %.40q, %q, %d", tc.topic, tc.index, out, errOut, code)
		}
	}
}
