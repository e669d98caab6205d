package value

import (
	"errors"
	"strings"
	"testing"
)

// TestDepthAndSize: lists and records note their depth and size as they
// are built, replaced, deleted from and cloned; shared parts count at each
// place; sizes saturate instead of overflowing.
func TestDepthAndSize(t *testing.T) {
	if Num(1).Depth() != 0 || Str("abc").Size() != SlotBytes+3 || NullValue.Size() != SlotBytes {
		t.Fatal("scalars")
	}
	empty := ListOf(nil)
	if empty.Depth() != 1 || empty.Size() != SlotBytes+ListBytes {
		t.Fatalf("empty list: %d %d", empty.Depth(), empty.Size())
	}
	l := ListOf([]Value{Num(1), Str("ab"), empty})
	// Each element also counts two bytes of indentation per line.
	if l.Depth() != 2 || l.Size() != SlotBytes+ListBytes+(SlotBytes+2)+(SlotBytes+2+2)+(empty.Size()+2) {
		t.Fatalf("list: %d %d", l.Depth(), l.Size())
	}
	if lines(l) != 5 || int64(strings.Count(JSONIndent(l), "\n")+1) != lines(l) {
		t.Fatalf("lines %d for %q", lines(l), JSONIndent(l))
	}
	r := NewRecord(2)
	if RecordOf(r).Depth() != 1 || RecordOf(r).Size() != SlotBytes+RecordBytes {
		t.Fatal("empty record")
	}
	r.Set("a", l)
	r.Set("bb", Str("xyz"))
	want := SlotBytes + RecordBytes + (KeyBytes + 1 + l.Size() + 2*lines(l)) + (KeyBytes + 2 + SlotBytes + 3 + 2)
	if v := RecordOf(r); v.Depth() != 3 || v.Size() != want {
		t.Fatalf("record: %d %d want 3 %d", v.Depth(), v.Size(), want)
	}
	if v := RecordOf(r); int64(strings.Count(JSONIndent(v), "\n")+1) != lines(v) {
		t.Fatalf("record lines %d for %q", lines(v), JSONIndent(v))
	}
	// Replacing the deepest value lowers the depth; the size follows.
	r.Set("a", Num(2))
	want = SlotBytes + RecordBytes + (KeyBytes + 1 + SlotBytes + 2) + (KeyBytes + 2 + SlotBytes + 3 + 2)
	if v := RecordOf(r); v.Depth() != 1 || v.Size() != want {
		t.Fatalf("after replace: %d %d want 1 %d", v.Depth(), v.Size(), want)
	}
	r.Set("0", l) // an index key, inserted first
	c := r.Clone(0)
	c.Delete("0")
	if RecordOf(r).Depth() != 3 || RecordOf(c).Depth() != 1 || RecordOf(c).Size() != want {
		t.Fatalf("clone/delete: %d %d %d", RecordOf(r).Depth(), RecordOf(c).Depth(), RecordOf(c).Size())
	}
	// Sharing doubles the size at each level and saturates.
	v := Str(strings.Repeat("x", 1000))
	for i := 0; i < 100; i++ {
		v = ListOf([]Value{v, v})
	}
	if v.Depth() != 100 || v.Size() != maxSize {
		t.Fatalf("shared: %d %d", v.Depth(), v.Size())
	}
	rr := NewRecord(0)
	rr.Set("a", v)
	rr.Set("b", v)
	if RecordOf(rr).Size() != maxSize {
		t.Fatalf("record of shared: %d", RecordOf(rr).Size())
	}
	// A parsed document has the same shape as one built by hand.
	p, err := ParseJSON(`{"k":[1,"ab",[]],"z":{"q":null}}`)
	if err != nil {
		t.Fatal(err)
	}
	h := NewRecord(2)
	h.Set("k", l)
	q := NewRecord(1)
	q.Set("q", NullValue)
	h.Set("z", RecordOf(q))
	if p.Depth() != 3 || p.Size() != RecordOf(h).Size() {
		t.Fatalf("parsed %d %d, built %d", p.Depth(), p.Size(), RecordOf(h).Size())
	}
}

func lines(v Value) int64 { return (*shape)(v.p).lines }

// TestIndentCounted: a deep chain shared many times is small in memory
// but large when printed with indentation; its size says so.
func TestIndentCounted(t *testing.T) {
	c := Num(0)
	for i := 0; i < 500; i++ {
		c = ListOf([]Value{c})
	}
	many := make([]Value, 100)
	for i := range many {
		many[i] = c
	}
	v := ListOf(many)
	if got, printed := v.Size(), int64(len(JSONIndent(v))); got < printed {
		t.Fatalf("size %d below the %d bytes printing takes", got, printed)
	}
}

// TestParseJSONLimit: the parser stops with a SizeError once the lists
// and records it built would pass the limit, and the nesting bound is
// MaxDepth.
func TestParseJSONLimit(t *testing.T) {
	doc := "[" + strings.Repeat("[],", 10000) + "0]"
	if _, err := ParseJSONLimit(doc, 1<<30, nil); err != nil {
		t.Fatal(err)
	}
	_, err := ParseJSONLimit(doc, 64<<10, nil)
	var se *SizeError
	if !errors.As(err, &se) || se.Bytes <= 64<<10 {
		t.Fatalf("got %v", err)
	}
	obj := "{" + strings.Repeat(`"k":{},`, 5000) + `"z":0}`
	if _, err := ParseJSONLimit(obj, 16<<10, nil); !errors.As(err, &se) {
		t.Fatalf("object: got %v", err)
	}
	if _, err := ParseJSONLimit(doc, 0, func() bool { return true }); err != ErrStopped {
		t.Fatalf("stopped: got %v", err)
	}
	if _, err := ParseJSONLimit(doc, 0, func() bool { return false }); err != nil {
		t.Fatalf("not stopped: %v", err)
	}
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if v, err := ParseJSONLimit(deep, 0, nil); err != nil || v.Depth() != MaxDepth {
		t.Fatalf("at the bound: %v", err)
	}
	if _, err := ParseJSONLimit("["+deep+"]", 0, nil); err == nil || !strings.Contains(err.Error(), "more than 1000 levels") {
		t.Fatalf("past the bound: %v", err)
	}
	// ParseJSON (hosts, trace files) accepts a few levels more.
	if v, err := ParseJSON("[" + deep + "]"); err != nil || v.Depth() != MaxDepth+1 {
		t.Fatalf("ParseJSON: %v", err)
	}
}

// TestFromGoDepth: Go values nested past MaxDepth, or cyclic, are refused.
func TestFromGoDepth(t *testing.T) {
	var x any = 1
	for i := 0; i < MaxDepth; i++ {
		x = []any{x}
	}
	if v, err := FromGo(x); err != nil || v.Depth() != MaxDepth {
		t.Fatalf("at the bound: %v", err)
	}
	if _, err := FromGo([]any{x}); err == nil {
		t.Fatal("past the bound: no error")
	}
	cyc := []any{nil}
	cyc[0] = cyc
	if _, err := FromGo(cyc); err == nil {
		t.Fatal("cycle: no error")
	}
}
