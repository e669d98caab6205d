package check

// Suggest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a likely typo.
func Suggest(name string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := distance(name, c)
		limit := 1 + len(name)/4
		if limit > 3 {
			limit = 3
		}
		if d > limit {
			continue
		}
		if bestD < 0 || d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the optimal-string-alignment edit distance (insertions,
// deletions, substitutions and swaps of adjacent characters).
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	n, m := len(ra), len(rb)
	d := make([][]int, n+1)
	for i := range d {
		d[i] = make([]int, m+1)
		d[i][0] = i
	}
	for j := 0; j <= m; j++ {
		d[0][j] = j
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[n][m]
}

// Distance exposes the edit distance for other packages (CLI flag hints).
func Distance(a, b string) int { return distance(a, b) }
