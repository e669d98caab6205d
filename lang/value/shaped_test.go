package value

import (
	"slices"
	"testing"
)

// TestNewShaped: a shaped record equals the same record built with Set
// (keys, values, depth, size, lines, JSON), and changing a copy never
// writes into the shared keys.
func TestNewShaped(t *testing.T) {
	inner := ListOf([]Value{Num(1), Str("x")})
	for _, n := range []int{0, 1, 2, 3, 4, 5, 8, 9, 12} {
		keys := make([]string, n)
		want := NewRecord(n)
		for i := range keys {
			keys[i] = string(rune('a'+i)) + "k"
		}
		rec, vals := NewShaped(keys)
		for i, k := range keys {
			v := Num(float64(i))
			switch i % 3 {
			case 1:
				v = Str(k + k)
			case 2:
				v = inner
			}
			vals[i] = v
			want.Set(k, v)
		}
		rec.Seal()
		got, w := RecordOf(rec), RecordOf(want)
		if !Equal(got, w) || JSON(got) != JSON(w) || JSONIndent(got) != JSONIndent(w) ||
			got.Depth() != w.Depth() || got.Size() != w.Size() || lines(got) != lines(w) {
			t.Fatalf("n=%d: %s (depth %d size %d) want %s (depth %d size %d)", n, JSON(got), got.Depth(), got.Size(), JSON(w), w.Depth(), w.Size())
		}
		orig := slices.Clone(keys)
		rec.Set("zz", True)
		rec.Set("7", True) // an index key moves to the front
		if n > 0 {
			rec.Set(keys[0], False)
			rec.Delete(keys[n-1])
		}
		if !slices.Equal(keys, orig) {
			t.Fatalf("n=%d: shared keys changed to %v", n, keys)
		}
		again, _ := NewShaped(keys)
		if !slices.Equal(again.Keys(), orig) {
			t.Fatalf("n=%d: a new record sees keys %v", n, again.Keys())
		}
	}
}

// TestShapeKeys: duplicate keys, array-index keys and large key sets keep
// the general path.
func TestShapeKeys(t *testing.T) {
	cases := []struct {
		keys []string
		ok   bool
	}{
		{nil, true},
		{[]string{"a", "b"}, true},
		{[]string{"a", "a"}, false},
		{[]string{"a", "0"}, false},
		{[]string{"a", "01"}, true},
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}, true},
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"}, false},
	}
	for _, c := range cases {
		if ShapeKeys(c.keys) != c.ok {
			t.Errorf("ShapeKeys(%q) = %v", c.keys, !c.ok)
		}
	}
}

// BenchmarkShapedRecord compares a shaped record with one built by Set.
func BenchmarkShapedRecord(b *testing.B) {
	keys := []string{"id", "name", "score", "group"}
	b.Run("shaped", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r, vals := NewShaped(keys)
			for j := range vals {
				vals[j] = Num(float64(j))
			}
			r.Seal()
		}
	})
	b.Run("set", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r := NewRecord(len(keys))
			for j, k := range keys {
				r.Set(k, Num(float64(j)))
			}
		}
	})
}

// TestIndex: a good hint is used, a wrong or out-of-range one falls back
// to the search.
func TestIndex(t *testing.T) {
	r, vals := NewShaped([]string{"a", "b", "c"})
	vals[0], vals[1], vals[2] = Num(1), Num(2), Num(3)
	r.Seal()
	for _, c := range []struct {
		k    string
		hint int
		want int
	}{{"b", 1, 1}, {"b", 0, 1}, {"c", -1, 2}, {"c", 99, 2}, {"z", 0, -1}, {"a", 2, 0}} {
		if got := r.Index(c.k, c.hint); got != c.want {
			t.Errorf("Index(%q, %d) = %d, want %d", c.k, c.hint, got, c.want)
		}
	}
	var nilRec *Record
	if nilRec.Index("a", 0) != -1 {
		t.Error("nil record")
	}
}

// TestNumberListSize: the formula matches the list ListOf builds.
func TestNumberListSize(t *testing.T) {
	for _, n := range []int{0, 1, 2, 1000} {
		items := make([]Value, n)
		for i := range items {
			items[i] = Num(float64(i) - 0.5)
		}
		if got, want := NumberListSize(n), ListOf(items).Size(); got != want {
			t.Errorf("n=%d: %d, want %d", n, got, want)
		}
	}
}

// TestNewListN: a list made by NewListN and SealList equals the same list
// made by ListOf (items, depth, size, lines, JSON) for every size class,
// and appending to its items never writes into the list.
func TestNewListN(t *testing.T) {
	inner := ListOf([]Value{Num(1), Str("x")})
	rec := NewRecord(1)
	rec.Set("k", inner)
	pool := []Value{Num(1), Str("ab"), inner, RecordOf(rec), NullValue, True}
	for n := 0; n <= 11; n++ {
		items := make([]Value, n)
		l := NewListN(n)
		for i := range n {
			items[i] = pool[i%len(pool)]
			l.Items[i] = items[i]
		}
		got, want := SealList(l), ListOf(items)
		if JSON(got) != JSON(want) || got.Depth() != want.Depth() || got.Size() != want.Size() || got.AsList() == nil {
			t.Errorf("n=%d: got %s depth %d size %d, want %s depth %d size %d", n,
				JSON(got), got.Depth(), got.Size(), JSON(want), want.Depth(), want.Size())
		}
		if (*List)(got.p).lines != (*List)(want.p).lines {
			t.Errorf("n=%d: lines %d, want %d", n, (*List)(got.p).lines, (*List)(want.p).lines)
		}
		before := JSON(got)
		_ = append(got.AsList(), Num(99))
		if JSON(got) != before {
			t.Errorf("n=%d: append wrote into the list", n)
		}
	}
}
