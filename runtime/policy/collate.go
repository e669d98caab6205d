package policy

import (
	"slices"
	"strings"
)

// Collation for the sorted lists of `a0 policy`.
//
// The reference sorts with Intl.Collator in the ICU root / en order
// (HOST.md §4.6, LANGUAGE.md §6.4). This is a three-level implementation of
// that order for what policy lists realistically hold:
//
//   - printable ASCII in the root order: whitespace, then
//     _ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ & # % ` ^ + < = > | ~ $, then
//     digits (compared character by character, not numerically), then
//     letters, case-insensitive at the first level;
//   - Latin-1 accented letters as their base letter plus an accent weight
//     at the second level (á < à < â < å < ä < ã, acute first);
//   - case at the third level, lower case first;
//   - control characters ignorable ("a" ties with "a\x00");
//   - any other character after all of the above, by code point.
//
// Strings equal at all three levels compare equal; [SortStrings] is stable.

// collation element: primary, secondary, tertiary weights.
type colElem struct{ p, s, t int32 }

const (
	secCommon = 1
	terLower  = 1
	terUpper  = 2
	terCompat = 3
	// primaries of characters outside the table: after every ASCII letter.
	primaryOther = 1000
)

// asciiOrder lists the non-ignorable ASCII characters in primary order;
// upper-case letters share the primary of their lower-case letter.
const asciiOrder = "\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"

var asciiPrimary [128]int32

func init() {
	for i := 0; i < len(asciiOrder); i++ {
		asciiPrimary[asciiOrder[i]] = int32(i + 1)
	}
	for c := 'A'; c <= 'Z'; c++ {
		asciiPrimary[c] = asciiPrimary[c+'a'-'A']
	}
}

// Accent weights at the second level, in the root order.
const (
	accAcute      = 2
	accGrave      = 3
	accCircumflex = 5
	accRing       = 7
	accDiaeresis  = 8
	accTilde      = 10
	accStroke     = 12
	accCedilla    = 13
	accLigature   = 20
)

// latin1 maps the accented letters of U+00C0–U+00FF to a base letter and an
// accent.
var latin1 = map[rune]struct {
	base   string
	accent int32
}{
	'à': {"a", accGrave}, 'á': {"a", accAcute}, 'â': {"a", accCircumflex},
	'ã': {"a", accTilde}, 'ä': {"a", accDiaeresis}, 'å': {"a", accRing},
	'æ': {"ae", accLigature}, 'ç': {"c", accCedilla}, 'è': {"e", accGrave},
	'é': {"e", accAcute}, 'ê': {"e", accCircumflex}, 'ë': {"e", accDiaeresis},
	'ì': {"i", accGrave}, 'í': {"i", accAcute}, 'î': {"i", accCircumflex},
	'ï': {"i", accDiaeresis}, 'ñ': {"n", accTilde}, 'ò': {"o", accGrave},
	'ó': {"o", accAcute}, 'ô': {"o", accCircumflex}, 'õ': {"o", accTilde},
	'ö': {"o", accDiaeresis}, 'ø': {"o", accStroke}, 'ù': {"u", accGrave},
	'ú': {"u", accAcute}, 'û': {"u", accCircumflex}, 'ü': {"u", accDiaeresis},
	'ý': {"y", accAcute}, 'ÿ': {"y", accDiaeresis}, 'ß': {"ss", 0},
}

func ignorable(r rune) bool {
	return r < 0x09 || r >= 0x0E && r < 0x20 || r >= 0x7F && r < 0xA0 && r != 0x85 || r == 0xAD
}

func appendElems(out []colElem, s string) []colElem {
	for _, r := range s {
		switch {
		case ignorable(r):
		case r < 0x80:
			t := int32(terLower)
			if r >= 'A' && r <= 'Z' {
				t = terUpper
			}
			out = append(out, colElem{asciiPrimary[r], secCommon, t})
		case r == 0x85:
			out = append(out, colElem{asciiPrimary['\r'], secCommon, terCompat})
		case r == 0xA0:
			out = append(out, colElem{asciiPrimary[' '], secCommon, terCompat})
		default:
			lower := []rune(strings.ToLower(string(r)))
			t := int32(terLower)
			if len(lower) == 1 && lower[0] != r {
				t = terUpper
				r = lower[0]
			}
			if m, ok := latin1[r]; ok {
				for _, b := range m.base {
					bt := t
					if m.accent == 0 {
						bt = terCompat
					}
					out = append(out, colElem{asciiPrimary[b], secCommon, bt})
				}
				if m.accent != 0 {
					out = append(out, colElem{0, m.accent, terLower})
				}
				continue
			}
			out = append(out, colElem{primaryOther + r, secCommon, t})
		}
	}
	return out
}

// Collate compares a and b in the collation order described above: -1, 0
// or +1.
func Collate(a, b string) int {
	if a == b {
		return 0
	}
	ea := appendElems(nil, a)
	eb := appendElems(nil, b)
	for level := 0; level < 3; level++ {
		if c := compareLevel(ea, eb, level); c != 0 {
			return c
		}
	}
	return 0
}

func weight(e colElem, level int) int32 {
	switch level {
	case 0:
		return e.p
	case 1:
		return e.s
	}
	return e.t
}

func compareLevel(a, b []colElem, level int) int {
	i, j := 0, 0
	for {
		for i < len(a) && weight(a[i], level) == 0 {
			i++
		}
		for j < len(b) && weight(b[j], level) == 0 {
			j++
		}
		switch {
		case i == len(a) && j == len(b):
			return 0
		case i == len(a):
			return -1
		case j == len(b):
			return 1
		}
		wa, wb := weight(a[i], level), weight(b[j], level)
		if wa != wb {
			if wa < wb {
				return -1
			}
			return 1
		}
		i++
		j++
	}
}

// SortStrings sorts list in place in collation order; ties keep their
// order.
func SortStrings(list []string) {
	slices.SortStableFunc(list, Collate)
}
