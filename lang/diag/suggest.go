package diag

// Suggest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a likely typo: at most 1 edit per 4 bytes
// of name plus one, and never more than 3. Ties go to the candidate that
// sorts first; name itself is never suggested. Hints use it for "did you
// mean" (unknown variables, parameters, policy keys).
func Suggest(name string, candidates []string) string {
	best, bestD := "", -1
	rn := []rune(name)
	limit := min(1+len(name)/4, 3)
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := EditDistance(rn, []rune(c))
		if d > limit {
			continue
		}
		if bestD < 0 || d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return best
}

// EditDistance is the optimal-string-alignment distance between a and b:
// the fewest insertions, deletions, substitutions and swaps of two adjacent
// elements that turn a into b, no substring edited twice (so "ca" to "abc"
// is 3, not Damerau's 2). Callers choose the unit: runes, or UTF-16 code
// units where JavaScript's counting must be matched.
func EditDistance[T comparable](a, b []T) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := 0; j <= len(b); j++ {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
