package stdlib

import (
	"errors"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// testLimits is a Limits with a fixed ceiling and a stop switch.
type testLimits struct {
	max     int64
	stopped bool
}

func (l testLimits) MaxBytes() int64 { return l.max }
func (l testLimits) Stopped() bool   { return l.stopped }

// TestSizeCheckedBeforeBuilding: every function that can build a value
// larger than its inputs refuses with a *value.SizeError under a small
// ceiling, and gives the same result as before under a large one.
func TestSizeCheckedBeforeBuilding(t *testing.T) {
	s := value.Str(strings.Repeat("abcdefgh", 512)) // 4 KiB
	xs := make([]value.Value, 2000)
	for i := range xs {
		xs[i] = value.Int(i)
	}
	list := value.ListOf(xs)
	rec := value.NewRecord(0)
	for i := 0; i < 2000; i++ {
		rec.Set("k"+value.FormatNumber(float64(i)), value.Int(i))
	}
	cases := []struct {
		fn   string
		args value.Value
	}{
		{"str.replace", slRec("in", s, "from", "", "to", s)},
		{"str.replace", slRec("in", s, "from", "", "to", "$`")},
		{"str.replace", slRec("in", s, "from", "a", "to", s)},
		{"str.replace", slRec("in", s.AsString()+"\U0001F600", "from", "", "to", s)},
		{"str.split", slRec("in", s, "sep", "")},
		{"str.split", slRec("in", strings.Repeat("a", 4096), "sep", "a")},
		{"str.template", slRec("in", strings.Repeat("{x}", 100), "vars", slRec("x", s))},
		{"str.concat", slRec("parts", slList(s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s))},
		{"join", slRec("in", list, "sep", s)},
		{"range", slRec("from", 0, "to", 100000)},
		{"concat", slRec("a", list, "b", list)},
		{"append", slRec("in", list, "value", 1)},
		{"flat", slRec("in", slList(list, list))},
		{"put", slRec("in", slList(), "path", "[100000]", "value", 1)},
		{"parse.json", slRec("in", "["+strings.Repeat("[],", 20000)+"0]")},
		{"sort", slRec("in", list, "by", slList("a", "b", "c"))},
		{"unique", slRec("in", list)},
		{"pluck", slRec("in", list, "key", "a")},
		{"keys", slRec("in", value.RecordOf(rec))},
		{"values", slRec("in", value.RecordOf(rec))},
		{"entries", slRec("in", value.RecordOf(rec))},
		{"merge", slRec("a", value.RecordOf(rec), "b", value.RecordOf(rec))},
	}
	for _, c := range cases {
		f, _ := Lookup(c.fn)
		_, err := f(testLimits{max: 40 << 10}, c.args.AsRecord())
		var se *value.SizeError
		if !errors.As(err, &se) || se.Bytes <= 40<<10 {
			t.Errorf("%s %.80s: got %v, want a SizeError past 40 KiB", c.fn, value.JSON(c.args), err)
		}
		big, err := f(testLimits{max: 1 << 30}, c.args.AsRecord())
		if err != nil {
			t.Errorf("%s under 1 GiB: %v", c.fn, err)
			continue
		}
		want, _ := f(NoLimits, c.args.AsRecord())
		if !value.Equal(big, want) {
			t.Errorf("%s: results differ with and without a ceiling", c.fn)
		}
	}
}

// TestLongCallsStop: a call that loops over many elements gives up with
// ErrStopped once the run is stopped.
func TestLongCallsStop(t *testing.T) {
	xs := make([]value.Value, 5000)
	strs := make([]value.Value, 5000)
	for i := range xs {
		xs[i] = value.Int(5000 - i)
		strs[i] = value.Str(value.FormatNumber(float64(i)))
	}
	s := value.Str(strings.Repeat("ab", 5000))
	cases := []struct {
		fn   string
		args value.Value
	}{
		{"sort", slRec("in", value.ListOf(xs))},
		{"sort", slRec("in", value.ListOf(strs))},
		{"unique", slRec("in", value.ListOf(xs))},
		{"contains", slRec("in", value.ListOf(xs), "value", -1)},
		{"str.replace", slRec("in", s, "from", "", "to", "$`")},
		{"str.replace", slRec("in", s, "from", "a", "to", "$&$&")},
		{"str.split", slRec("in", strings.Repeat("x"+slUnits(0xDC00).AsString(), 3000), "sep", slUnits(0xDC00))},
		{"str.template", slRec("in", strings.Repeat("{x}", 5000), "vars", slRec("x", 1))},
		{"join", slRec("in", value.ListOf(append(append([]value.Value{}, xs...), slList(1))))},
		{"find", slRec("in", value.ListOf(xs), "key", "a", "value", 1)},
		{"filter", slRec("in", value.ListOf(xs), "by", "a")},
		{"parse.json", slRec("in", "["+strings.Repeat("[],", 10000)+"0]")},
	}
	for _, c := range cases {
		f, _ := Lookup(c.fn)
		if _, err := f(testLimits{stopped: true}, c.args.AsRecord()); !errors.Is(err, ErrStopped) {
			t.Errorf("%s: got %v, want ErrStopped", c.fn, err)
		}
	}
}

// TestPutPathDepth: a put path of more pieces than value.MaxDepth is
// refused before anything is built.
func TestPutPathDepth(t *testing.T) {
	path := strings.Repeat("a.", value.MaxDepth) + "a"
	_, err := fnPut(NoLimits, slRec("in", slRec(), "path", path, "value", 1).AsRecord())
	var de *DepthError
	if !errors.As(err, &de) || de.Depth != value.MaxDepth+1 {
		t.Fatalf("got %v", err)
	}
	v, err := fnPut(NoLimits, slRec("in", slRec(), "path", path[2:], "value", 1).AsRecord())
	if err != nil || v.Depth() != value.MaxDepth {
		t.Fatalf("at the bound: %v, depth %d", err, v.Depth())
	}
}

// TestTemplateGivesUpEarly: str.template with very many placeholders whose
// result passes the ceiling gives up while measuring, allocating a small
// fraction of the input's size, instead of first recording every match.
func TestTemplateGivesUpEarly(t *testing.T) {
	in := strings.Repeat("{x}", 1<<20) // 3 MiB, a million placeholders
	args := slRec("in", in, "vars", slRec("x", strings.Repeat("y", 1<<20))).AsRecord()
	f, _ := Lookup("str.template")
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	_, err := f(testLimits{max: 8 << 20}, args)
	goruntime.ReadMemStats(&after)
	var se *value.SizeError
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want a SizeError", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("%d bytes allocated before giving up; want next to none", n)
	}
	// A million placeholders that shrink the text build it in one buffer.
	args = slRec("in", in, "vars", slRec("x", "")).AsRecord()
	v, err := f(testLimits{max: 8 << 20}, args)
	if err != nil || v.AsString() != "" {
		t.Fatalf("got %.40v, %v", v, err)
	}
	if a := testing.AllocsPerRun(3, func() { _, _ = f(testLimits{max: 8 << 20}, args) }); a > 8 {
		t.Errorf("%v allocations for an empty result; want a handful", a)
	}
}
