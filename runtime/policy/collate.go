package policy

import (
	"slices"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// The reference sorts the lists of `a0 policy` with Intl.Collator in the ICU
// root / en order (spec/cli.md §5.4; `sort` in spec/stdlib.md "Lists"): multi-level (case is a
// third-level difference, lower case first; accents a second-level one),
// punctuation before digits before letters, digits compared one by one,
// control characters ignorable. The CLDR root collator of x/text implements
// that order (the stdlib `sort` uses the same one).

func newCollator() *collate.Collator { return collate.New(language.Und) }

// Collate compares a and b in the root collation order: -1, 0 or +1.
func Collate(a, b string) int { return newCollator().CompareString(a, b) }

// SortStrings sorts list in place in root collation order; strings that
// collate equal keep their order.
func SortStrings(list []string) {
	if len(list) < 2 {
		return
	}
	c := newCollator() // a Collator is not safe for concurrent use
	slices.SortStableFunc(list, c.CompareString)
}
