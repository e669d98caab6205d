// Package value is the data model of A0: null, booleans, numbers (IEEE-754
// doubles), strings, lists and insertion-ordered records.
//
// A [Value] is a small struct passed by value; numbers and booleans never
// allocate. Strings are Go strings holding WTF-8: valid UTF-8, except that an
// unpaired UTF-16 surrogate (A0 strings are UTF-16 strings, as in the
// reference) is stored as its three-byte generalised UTF-8 form. Lengths,
// comparison and splitting follow UTF-16 code units (see utf16.go); numbers
// print as JavaScript prints them (see jsnumber.go). Package lang/jscompat
// lists every piece of JavaScript emulation in a0.
//
// Lists and records are immutable once built and handed out: functions that
// "change" them return new values, so sharing is always safe.
//
// The package imports only lang/diag.
package value

import (
	"math"
	"unsafe"
)

// Kind is the type of a value.
type Kind uint8

// The kinds. Undefined is the zero Value; it never escapes to programs (it
// marks an unset variable slot or an absent argument).
const (
	Undefined Kind = iota
	Null
	Bool
	Number
	String
	ListKind
	RecordKind
)

// Value is an A0 value.
type Value struct {
	p unsafe.Pointer // string data, *List or *Record
	u uint64         // float64 bits, bool, or string length
	k Kind
}

// Common values.
var (
	NullValue = Value{k: Null}
	True      = Value{k: Bool, u: 1}
	False     = Value{k: Bool}
	EmptyStr  = Value{k: String}
	EmptyList = NewList(nil)
)

// Num returns a number value.
func Num(f float64) Value { return Value{k: Number, u: math.Float64bits(f)} }

// Int returns a number value from an int.
func Int(i int) Value { return Num(float64(i)) }

// BoolOf returns a boolean value.
func BoolOf(b bool) Value {
	if b {
		return True
	}
	return False
}

// Str returns a string value.
func Str(s string) Value {
	if len(s) == 0 {
		return EmptyStr
	}
	return Value{k: String, p: unsafe.Pointer(unsafe.StringData(s)), u: uint64(len(s))}
}

// ListOf returns a list value owning items. It notes the list's depth and
// size (see [Value.Depth] and [Value.Size]) in one pass over the items.
func ListOf(items []Value) Value {
	l := &List{Items: items}
	l.seal()
	return Value{k: ListKind, p: unsafe.Pointer(l)}
}

// StrList returns the list of the strings ss.
func StrList(ss []string) Value {
	out := make([]Value, len(ss))
	for i, s := range ss {
		out[i] = Str(s)
	}
	return ListOf(out)
}

// NewListN returns a list of n items to fill in, allocated in one piece
// with its item array when n is small; [SealList] then makes it a value.
// The items must not be changed after that.
func NewListN(n int) *List {
	var l *List
	switch {
	case n <= 2:
		x := new(struct {
			List
			v [2]Value
		})
		l = &x.List
		l.Items = x.v[:n:n]
	case n <= 4:
		x := new(struct {
			List
			v [4]Value
		})
		l = &x.List
		l.Items = x.v[:n:n]
	case n <= 6:
		x := new(struct {
			List
			v [6]Value
		})
		l = &x.List
		l.Items = x.v[:n:n]
	case n <= 8:
		x := new(struct {
			List
			v [8]Value
		})
		l = &x.List
		l.Items = x.v[:n:n]
	default:
		l = &List{Items: make([]Value, n)}
	}
	return l
}

// SealList notes the depth and size of a list made by [NewListN] once its
// items are filled in, and returns it as a value.
func SealList(l *List) Value {
	l.seal()
	return Value{k: ListKind, p: unsafe.Pointer(l)}
}

// seal notes the list's depth and size (see [Value.Depth] and
// [Value.Size]) in one pass over the items.
func (l *List) seal() {
	items := l.Items
	var d int32
	s, n := int64(0), int64(len(items))
	for i := range items {
		it := &items[i]
		switch it.k {
		case String:
			s = satAdd(s, SlotBytes+indentBytes+int64(it.u))
		case ListKind, RecordKind:
			c := (*shape)(it.p)
			d = max(d, c.depth+1)
			s = satAdd(s, c.contrib())
			n = min(n+c.lines-1, maxSize) // both at most maxSize: no overflow
		default:
			s += SlotBytes + indentBytes
		}
	}
	l.depth = d
	l.size = satAdd(s, SlotBytes+ListBytes)
	// Printed, a non-empty list takes its elements' lines plus its
	// opening and closing lines; an empty one, one line.
	l.lines = 1
	if len(items) > 0 {
		l.lines = n + 2
	}
}

// NewList returns a list value owning items.
func NewList(items []Value) Value { return ListOf(items) }

// RecordOf returns a record value.
func RecordOf(r *Record) Value { return Value{k: RecordKind, p: unsafe.Pointer(r)} }

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.k }

// IsUndefined reports whether v is the zero Value.
func (v Value) IsUndefined() bool { return v.k == Undefined }

// IsNull reports whether v is null or undefined (an absent argument).
func (v Value) IsNull() bool { return v.k <= Null }

// AsNumber returns the number held by v (0 when v is not a number).
func (v Value) AsNumber() float64 {
	if v.k != Number {
		return 0
	}
	return math.Float64frombits(v.u)
}

// AsBool returns the boolean held by v.
func (v Value) AsBool() bool { return v.k == Bool && v.u != 0 }

// AsString returns the string held by v ("" when v is not a string).
func (v Value) AsString() string {
	if v.k != String || v.u == 0 {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.u))
}

// AsList returns the items of a list value (nil otherwise). Callers must not
// modify them.
func (v Value) AsList() []Value {
	if v.k != ListKind {
		return nil
	}
	return (*List)(v.p).Items
}

// AsRecord returns the record of a record value (nil otherwise).
func (v Value) AsRecord() *Record {
	if v.k != RecordKind {
		return nil
	}
	return (*Record)(v.p)
}

// List is the payload of a list value.
type List struct {
	shape // first: Depth and Size read it for lists and records alike
	Items []Value
}

// shape is what lists and records note when they are built.
type shape struct {
	depth int32 // the deepest element's Depth
	size  int64 // the value's Size
	lines int64 // the lines it takes printed as indented JSON (see ListOf)
}

// MaxDepth is the deepest nesting of lists and records a run may build
// (spec/language.md §9.2). Every recursive walk over values (equality,
// hashing, JSON, text, conversion to Go) is then bounded, and printing a
// value with indentation stays small.
const MaxDepth = 1000

// Size accounting (spec/language.md §9.2): a value's Size is the memory it
// would take if nothing in it were shared.
const (
	// SlotBytes is the size of one Value (a list item, a record value).
	SlotBytes = int64(unsafe.Sizeof(Value{}))
	// ListBytes is the fixed cost of a list beyond its item slots.
	ListBytes = int64(unsafe.Sizeof(List{}))
	// RecordBytes is the fixed cost of a record beyond its entries.
	RecordBytes = int64(unsafe.Sizeof(Record{}))
	// KeyBytes is the cost of one record key beyond its text (the key's
	// string header).
	KeyBytes = int64(unsafe.Sizeof(""))
	// indentBytes is what one more level of nesting adds to each line of
	// a value printed as indented JSON (two spaces; the code adds lines
	// twice rather than multiplying, so that it saturates).
	indentBytes = 2
	// maxSize is where sizes saturate.
	maxSize = int64(1) << 62
)

// contrib is what a list or record adds to the size of a container that
// holds it: its own size plus one level of indentation (two bytes) on each
// of its lines. While the size is below maxSize, lines are fewer than
// size/SlotBytes, so the sum cannot overflow.
func (c *shape) contrib() int64 {
	if c.size >= maxSize {
		return maxSize
	}
	return c.size + c.lines + c.lines
}

// satAdd adds two sizes in [0, maxSize], saturating at maxSize.
func satAdd(a, b int64) int64 {
	if a > maxSize-b {
		return maxSize
	}
	return a + b
}

// Depth is the nesting of v: 0 for a scalar, 1 + the deepest element for
// a list or record (1 when empty). It is noted when the value is built, so
// this is O(1).
func (v Value) Depth() int {
	if v.k < ListKind {
		return 0
	}
	return int((*shape)(v.p).depth) + 1
}

// Size is the memory v would take if nothing in it were shared, in bytes:
// SlotBytes per value, plus each string's bytes, ListBytes per list,
// RecordBytes per record and KeyBytes plus the text of each record key,
// plus the indentation printing it as indented JSON takes (two bytes per
// line per level of nesting). Walks over a value (equality, JSON, text)
// and printing it take time and memory in proportion to it. It is noted
// when the value is built, so this is O(1); it saturates at 2^62.
func (v Value) Size() int64 {
	if v.k >= ListKind {
		return (*shape)(v.p).size
	}
	if v.k == String {
		return SlotBytes + int64(v.u)
	}
	return SlotBytes
}

// Truthy reports A0 truthiness: false, null, 0, -0 and "" are falsy; NaN
// and everything else are truthy.
func (v Value) Truthy() bool {
	switch v.k {
	case Undefined, Null:
		return false
	case Bool:
		return v.u != 0
	case Number:
		f := math.Float64frombits(v.u)
		return f != 0
	case String:
		return v.u != 0
	}
	return true
}

// TypeName returns the name `typeof` gives: null, boolean, number, string,
// list or record.
func (v Value) TypeName() string {
	switch v.k {
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case ListKind:
		return "list"
	case RecordKind:
		return "record"
	}
	return "null"
}

// JSType returns the JavaScript typeof-style name used in many messages:
// null, boolean, number, string, and object for both lists and records.
func (v Value) JSType() string {
	switch v.k {
	case Undefined:
		return "undefined"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case ListKind, RecordKind:
		return "object"
	}
	return "null"
}

// RawJSType is like JSType but calls null "object", as JavaScript's typeof
// does (used by the for-loop message).
func (v Value) RawJSType() string {
	if v.k == Null {
		return "object"
	}
	return v.JSType()
}

// ShapeName names v for messages that distinguish lists: null, list, number,
// string, boolean, record.
func (v Value) ShapeName() string {
	switch v.k {
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case ListKind:
		return "list"
	case RecordKind:
		return "record"
	}
	return "null"
}

// Equal reports deep, strict equality (==, eq, contains, unique, ...).
// Records compare by key sets and values, ignoring key order.
func Equal(a, b Value) bool {
	ak, bk := a.k, b.k
	if ak == Undefined {
		ak = Null
	}
	if bk == Undefined {
		bk = Null
	}
	if ak != bk {
		return false
	}
	switch ak {
	case Null:
		return true
	case Bool:
		return a.u == b.u
	case Number:
		return math.Float64frombits(a.u) == math.Float64frombits(b.u)
	case String:
		return a.AsString() == b.AsString()
	case ListKind:
		if a.p == b.p {
			return true
		}
		x, y := a.AsList(), b.AsList()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case RecordKind:
		x, y := a.AsRecord(), b.AsRecord()
		if x == y {
			return true
		}
		if x.Len() != y.Len() {
			return false
		}
		for i, k := range x.keys {
			w, ok := y.Get(k)
			if !ok || !Equal(x.vals[i], w) {
				return false
			}
		}
		return true
	}
	return false
}

// NumberListSize is the Size of a list of n numbers (as ListOf would note
// it), for code that iterates such a list without building it.
func NumberListSize(n int) int64 {
	return satAdd(int64(n)*(SlotBytes+indentBytes), SlotBytes+ListBytes)
}
