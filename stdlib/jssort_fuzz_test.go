package stdlib

import (
	"slices"
	"testing"
)

// FuzzJSSort: the port of JavaScript's merge sort (used by sort when a key
// is NaN or infinite) sorts as any stable sort does when the comparison
// is consistent, and with an inconsistent comparison (the reason it
// exists) still returns a permutation of its input without going out of
// bounds. Keys are the fuzzer's bytes; long inputs reach the galloping
// merges (runs of at least 32 and 7 wins in a row).
func FuzzJSSort(f *testing.F) {
	f.Add([]byte{3, 1, 2}, false)
	f.Add([]byte("the quick brown fox jumps over the lazy dog, twice: the quick brown fox jumps over the lazy dog"), false)
	f.Add(make([]byte, 200), true)
	var runs []byte // two long ascending runs, then a descending one: merges that gallop
	for i := 0; i < 256; i += 2 {
		runs = append(runs, byte(i))
	}
	for i := 1; i < 256; i += 2 {
		runs = append(runs, byte(i))
	}
	for i := 255; i >= 0; i -= 3 {
		runs = append(runs, byte(i))
	}
	f.Add(runs, false)
	f.Add(runs, true)
	f.Fuzz(func(t *testing.T, keys []byte, inconsistent bool) {
		n := len(keys)
		perm := make([]int32, n)
		for i := range perm {
			perm[i] = int32(i)
		}
		cmp := func(a, b int32) int { return int(keys[a]/4) - int(keys[b]/4) } // ties: stability shows
		if inconsistent {
			// Key 0 ties with everything, as NaN does among numbers.
			cmp = func(a, b int32) int {
				if keys[a] == 0 || keys[b] == 0 {
					return 0
				}
				return int(keys[a]) - int(keys[b])
			}
		}
		jsSort(perm, cmp)
		seen := make([]bool, n)
		for _, p := range perm {
			if p < 0 || int(p) >= n || seen[p] {
				t.Fatalf("not a permutation: %v", perm)
			}
			seen[p] = true
		}
		if inconsistent {
			return
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, cmp)
		if !slices.Equal(perm, want) {
			t.Fatalf("jsSort %v, stable sort %v", perm, want)
		}
	})
}
