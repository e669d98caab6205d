package stdlib

import "testing"

// TestPathIndexSaturates checks that a path index of any length saturates
// at maxIndex instead of overflowing int (on 64-bit and 32-bit builds alike).
func TestPathIndexSaturates(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"0", 0},
		{"7", 7},
		{"123", 123},
		{"9007199254740991", min(9007199254740991, maxIndex)},
		{"9007199254740992", maxIndex},
		{"99999999999999999999999999999", maxIndex},
	} {
		if p := makePiece(tc.in); !p.index || p.n != tc.want {
			t.Errorf("makePiece(%q) = %+v, want index %d", tc.in, p, tc.want)
		}
		if n, ok := pointerIndex(tc.in); !ok || n != tc.want {
			t.Errorf("pointerIndex(%q) = %d, %v, want %d", tc.in, n, ok, tc.want)
		}
	}
}
