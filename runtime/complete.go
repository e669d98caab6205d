package runtime

import (
	"sort"
	"strings"

	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/stdlib"
)

// Complete returns, sorted, the names that start with word in the
// session: keywords, stdlib functions, the environment's tools, the
// session's bindings and functions, and for a word "rec.a.b" the keys of
// the record bound to rec at a. An interactive host offers them for
// completion.
func (s *Session) Complete(word string) []string {
	var cands []string
	seen := map[string]bool{}
	add := func(c string) {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			cands = append(cands, c)
		}
	}
	for k := range lexer.Keywords {
		add(k)
	}
	add("call?")
	for _, n := range stdlib.CheckerNames() {
		add(n)
	}
	for _, t := range s.env.Tools() {
		add(t.Name())
	}
	vars := s.Vars()
	for _, v := range vars {
		add(v.Name)
	}
	for _, f := range s.Fns() {
		add(f)
	}
	// rec.a.b → the keys of the record bound to rec at a.
	if segs := strings.Split(word, "."); len(segs) > 1 {
		for _, v := range vars {
			if v.Name != segs[0] {
				continue
			}
			cur := v.Value
			for _, s := range segs[1 : len(segs)-1] {
				cur = cur.AsRecord().GetOrNull(s)
			}
			if cur.Kind() == value.RecordKind {
				base := strings.Join(segs[:len(segs)-1], ".") + "."
				for _, k := range cur.AsRecord().Keys() {
					add(base + k)
				}
			}
		}
	}
	sort.Strings(cands)
	return cands
}
