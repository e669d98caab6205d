package a0

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The repository is its own reference: comments cite spec/ chapters, and
// every citation must name a section that exists. These tests keep the
// citations honest as the spec and the code change.

var (
	// A citation: spec/<file>.md, then one or more section numbers
	// (a § and a number such as 4.2; lists joined by commas or "and";
	// ranges with an en dash) or a quoted heading.
	reSpecFile   = regexp.MustCompile(`spec/([A-Za-z0-9_-]+)\.md`)
	reSectionRun = regexp.MustCompile(`^(?:\s*(?:,|;|and|–|-)?\s*§\s*\d+(?:\.\d+)*(?:\s*[–-]\s*§?\d+(?:\.\d+)*)?)+`)
	reNumber     = regexp.MustCompile(`\d+(?:\.\d+)*`)
	reQuoted     = regexp.MustCompile(`^\s*"([^"]+)"`)
	reSection    = regexp.MustCompile(`§\s*\d`)
	// The documents the project was built from are not in the
	// repository; nothing may send a reader to them.
	reOutside = regexp.MustCompile(`\b(?:LANGUAGE|HOST|EXEC|STYLE)\.md\b`)
	// Any other Markdown file a comment names must be in the repository.
	reMarkdown = regexp.MustCompile(`(?:^|[\s("'\x60])([A-Za-z0-9_./-]+\.md)\b`)
	reHeading  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	reLink     = regexp.MustCompile(`\]\(([^)\s]*)\)`)
)

// specHeadings reads a spec file's headings: their texts and their
// section numbers ("4.2" for "### 4.2 Numbers").
type specHeadings struct {
	texts   map[string]bool
	numbers map[string]bool
	anchors map[string]bool
}

func readHeadings(t *testing.T, path string) (*specHeadings, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	h := &specHeadings{texts: map[string]bool{}, numbers: map[string]bool{}, anchors: map[string]bool{}}
	seen := map[string]int{}
	fence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		m := reHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := m[2]
		h.texts[text] = true
		if f := strings.Fields(text); len(f) > 0 && reNumber.MatchString(f[0]) {
			if n := strings.TrimSuffix(f[0], "."); reNumber.FindString(n) == n {
				h.numbers[n] = true
			}
		}
		a := slug(text)
		if k := seen[a]; k > 0 {
			h.anchors[fmt.Sprintf("%s-%d", a, k)] = true
		} else {
			h.anchors[a] = true
		}
		seen[a]++
	}
	return h, nil
}

// slug is GitHub's anchor for a heading: lower case, punctuation other
// than '-' and '_' dropped, spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// goComments returns the text of every comment group of the module's Go
// files (testdata excluded), one line per group, keyed by position.
func goComments(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			var lines []string
			for _, c := range cg.List {
				text := strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), "/*")
				text = strings.TrimSuffix(text, "*/")
				lines = append(lines, strings.TrimSpace(text))
			}
			out[fset.Position(cg.Pos()).String()] = strings.Join(lines, " ")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSpecCitations: every `spec/<file>.md §N` or `spec/<file>.md
// "Heading"` in a Go comment names a spec file and a section that exist;
// no comment has a bare § without its file; nothing cites a document
// outside the repository.
func TestSpecCitations(t *testing.T) {
	files := map[string]*specHeadings{}
	headings := func(name string) *specHeadings {
		if h, ok := files[name]; ok {
			return h
		}
		h, err := readHeadings(t, filepath.Join("spec", name+".md"))
		if err != nil {
			h = nil
		}
		files[name] = h
		return h
	}
	cited := 0
	for pos, text := range goComments(t) {
		if m := reOutside.FindString(text); m != "" {
			t.Errorf("%s: cites %s, which is not in the repository; cite a spec/ chapter", pos, m)
		}
		for _, m := range reMarkdown.FindAllStringSubmatch(text, -1) {
			if reOutside.MatchString(m[1]) {
				continue
			}
			if _, err := os.Stat(m[1]); err != nil {
				t.Errorf("%s: names %s, which is not in the repository", pos, m[1])
			}
		}
		covered := make([]bool, len(text))
		for _, loc := range reSpecFile.FindAllStringSubmatchIndex(text, -1) {
			name := text[loc[2]:loc[3]]
			h := headings(name)
			if h == nil {
				t.Errorf("%s: cites spec/%s.md, which does not exist", pos, name)
				continue
			}
			rest := text[loc[1]:]
			if run := reSectionRun.FindString(rest); run != "" {
				for i := loc[1]; i < loc[1]+len(run); i++ {
					covered[i] = true
				}
				for _, n := range reNumber.FindAllString(run, -1) {
					cited++
					if !h.numbers[n] {
						t.Errorf("%s: cites spec/%s.md §%s, which has no such section", pos, name, n)
					}
				}
			} else if q := reQuoted.FindStringSubmatch(rest); q != nil {
				cited++
				if !h.texts[q[1]] {
					t.Errorf("%s: cites spec/%s.md %q, which has no such heading", pos, name, q[1])
				}
			}
		}
		for _, loc := range reSection.FindAllStringIndex(text, -1) {
			if !covered[loc[0]] {
				t.Errorf("%s: a § without its spec file (write spec/<file>.md §N): %q", pos, text)
				break
			}
		}
	}
	if cited == 0 {
		t.Fatal("no spec citation found: the scanner is broken")
	}
}

// TestSpecLinks: the relative links of spec/*.md and README.md lead to
// files that exist and, with a #fragment, to a heading of that file.
func TestSpecLinks(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("spec", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, "README.md")
	cache := map[string]*specHeadings{}
	anchorsOf := func(path string) *specHeadings {
		if h, ok := cache[path]; ok {
			return h
		}
		h, err := readHeadings(t, path)
		if err != nil {
			t.Fatal(err)
		}
		cache[path] = h
		return h
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range reLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: no file %s", doc, target, path)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path).anchors[frag] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", doc, target, path, frag)
			}
		}
	}
}
