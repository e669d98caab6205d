package value_test

import (
	"testing"

	"github.com/a0lang/a0/lang/value"
)

func TestJSONTextDepth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{``, 0}, {`1`, 0}, {`[]`, 1}, {`{"a":[1,{"b":[]}]}`, 4},
		{`["[[[", "\"[[["]`, 1}, {`[[[`, 3}, {`{"a":"\\"}`, 1},
	} {
		if got := value.JSONTextDepth(tc.in); got != tc.want {
			t.Errorf("JSONTextDepth(%s) = %d, want %d", tc.in, got, tc.want)
		}
		if got := value.JSONTextDepth([]byte(tc.in)); got != tc.want {
			t.Errorf("JSONTextDepth([]byte %s) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
