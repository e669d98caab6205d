package value_test

import (
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

func TestMapStrings(t *testing.T) {
	r := value.NewRecord(2)
	r.Set("secret-key", value.Str("a secret b"))
	r.Set("n", value.Num(1))
	v := value.ListOf([]value.Value{value.Str("secret"), value.RecordOf(r), value.NullValue, value.BoolOf(true)})
	mask := func(s string) string { return strings.ReplaceAll(s, "secret", "***") }
	if got := value.JSON(value.MapStrings(v, mask, false)); got != `["***",{"secret-key":"a *** b","n":1},null,true]` {
		t.Errorf("values only: %s", got)
	}
	if got := value.JSON(value.MapStrings(v, mask, true)); got != `["***",{"***-key":"a *** b","n":1},null,true]` {
		t.Errorf("keys too: %s", got)
	}
}
