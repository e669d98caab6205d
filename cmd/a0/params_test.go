package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/a0lang/a0/stdlib"
)

// TestStdlibParamsMatchHelp: the argument names that unknown-argument
// errors list (stdlib.Params) are the ones `a0 help stdlib` documents, and
// every function has them.
func TestStdlibParamsMatchHelp(t *testing.T) {
	re := regexp.MustCompile(`(?m)^  ([a-zA-Z0-9.]+) \{ ([a-z?, ]+) \}`)
	seen := map[string][]string{}
	for _, m := range re.FindAllStringSubmatch(topicStdlib, -1) {
		var names []string
		for _, p := range strings.Split(m[2], ",") {
			names = append(names, strings.TrimSuffix(strings.TrimSpace(p), "?"))
		}
		seen[m[1]] = append(seen[m[1]], names...)
	}
	for _, name := range stdlib.CheckerNames() {
		ps, ok := stdlib.Params(name)
		if !ok {
			t.Errorf("%s: no Params", name)
			continue
		}
		doc, ok := seen[name]
		if !ok {
			t.Errorf("%s: not in a0 help stdlib", name)
			continue
		}
		for _, d := range doc {
			if !contains(ps, d) {
				t.Errorf("%s: help names %q, Params %v", name, d, ps)
			}
		}
		for _, p := range ps {
			if !contains(doc, p) {
				t.Errorf("%s: Params has %q, help %v", name, p, doc)
			}
		}
	}
}
