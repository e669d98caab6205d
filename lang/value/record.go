package value

// Record is an ordered string-keyed map. Keys keep insertion order, except
// that canonical array-index keys ("0", "1", ..., "4294967294") always come
// first in ascending numeric order, as in JavaScript objects. Assigning an
// existing key replaces its value in place.
//
// A record is mutable only while it is being built; once it is wrapped in a
// Value and handed out it must not change.
type Record struct {
	// shape comes first (see Value.Depth); its size counts the record's
	// own slot and RecordBytes, plus each entry's KeyBytes, key length
	// and value Size.
	shape
	keys []string
	vals []Value
	nIdx int            // number of leading index-like keys
	idx  map[string]int // key -> position, built for large records
}

// emptyRecordSize is the Size of an empty record.
const emptyRecordSize = SlotBytes + RecordBytes

// note accounts for a new entry k: v.
func (r *Record) note(k string, v Value) {
	n := KeyBytes + SlotBytes + indentBytes + int64(len(k))
	if v.k == String {
		n += int64(v.u)
	}
	if v.k < ListKind {
		// Scalars add at most a string's length: no overflow is
		// possible below 2^63, and satAdd clamps at the next container.
		r.size += n
		r.lines++
		return
	}
	c := (*shape)(v.p)
	r.depth = max(r.depth, c.depth+1)
	r.size = satAdd(r.size, n-SlotBytes-indentBytes+c.contrib())
	r.lines = satAdd(r.lines, c.lines)
}

// contrib is what v adds to the size and lines of a container that holds
// it: its own, plus one level of indentation on each of its lines.
func contrib(v Value) (size, lines int64) {
	if v.k < ListKind {
		return v.Size() + indentBytes, 1
	}
	c := (*shape)(v.p)
	return c.contrib(), c.lines
}

// recount recomputes depth and size from the entries (after a removal or
// a replacement that may have lowered them).
func (r *Record) recount() {
	r.shape = shape{size: emptyRecordSize, lines: 1}
	if len(r.keys) > 0 {
		r.lines++ // the closing line of a non-empty record
	}
	for i, k := range r.keys {
		r.note(k, r.vals[i])
	}
}

const indexThreshold = 12

// NewRecord returns an empty record with room for n keys.
func NewRecord(n int) *Record {
	return &Record{shape: shape{size: emptyRecordSize, lines: 1}, keys: make([]string, 0, n), vals: make([]Value, 0, n)}
}

// Len returns the number of keys.
func (r *Record) Len() int {
	if r == nil {
		return 0
	}
	return len(r.keys)
}

// Key returns the i-th key.
func (r *Record) Key(i int) string { return r.keys[i] }

// At returns the i-th value.
func (r *Record) At(i int) Value { return r.vals[i] }

// Keys returns the keys in order. Callers must not modify the slice.
func (r *Record) Keys() []string { return r.keys }

// Values returns the values in key order. Callers must not modify the slice.
func (r *Record) Values() []Value { return r.vals }

func (r *Record) find(k string) int {
	if r.idx != nil {
		if i, ok := r.idx[k]; ok {
			return i
		}
		return -1
	}
	for i, kk := range r.keys {
		if kk == k {
			return i
		}
	}
	return -1
}

// Get returns the value of key k.
func (r *Record) Get(k string) (Value, bool) {
	if r == nil {
		return Value{}, false
	}
	i := r.find(k)
	if i < 0 {
		return Value{}, false
	}
	return r.vals[i], true
}

// GetOrNull returns the value of key k, or null when absent.
func (r *Record) GetOrNull(k string) Value {
	v, ok := r.Get(k)
	if !ok {
		return NullValue
	}
	return v
}

// Has reports whether the record has key k.
func (r *Record) Has(k string) bool { return r != nil && r.find(k) >= 0 }

// Set assigns k = v, keeping the position of an existing key.
func (r *Record) Set(k string, v Value) {
	if i := r.find(k); i >= 0 {
		old := r.vals[i]
		r.vals[i] = v
		od, nd := int32(old.Depth()), int32(v.Depth())
		if r.size >= maxSize || r.lines >= maxSize || (od == r.depth && nd < od) {
			r.recount()
		} else {
			os, ol := contrib(old)
			ns, nl := contrib(v)
			r.depth = max(r.depth, nd)
			r.size = satAdd(r.size-os, ns)
			r.lines = satAdd(r.lines-ol, nl)
		}
		return
	}
	if len(r.keys) == 0 {
		r.lines++ // the closing line of a non-empty record
	}
	if v.k < ListKind {
		// note's scalar case, inline: most values set are scalars.
		n := KeyBytes + SlotBytes + indentBytes + int64(len(k))
		if v.k == String {
			n += int64(v.u)
		}
		r.size += n
		r.lines++
	} else {
		r.note(k, v)
	}
	if IsArrayIndex(k) {
		r.insertIndexKey(k, v)
		return
	}
	r.keys = append(r.keys, k)
	r.vals = append(r.vals, v)
	if r.idx != nil {
		r.idx[k] = len(r.keys) - 1
	} else if len(r.keys) > indexThreshold {
		r.buildIndex()
	}
}

func (r *Record) buildIndex() {
	r.idx = make(map[string]int, len(r.keys)*2)
	for i, k := range r.keys {
		r.idx[k] = i
	}
}

func (r *Record) insertIndexKey(k string, v Value) {
	n := arrayIndexValue(k)
	pos := 0
	for pos < r.nIdx && arrayIndexValue(r.keys[pos]) < n {
		pos++
	}
	r.keys = append(r.keys, "")
	r.vals = append(r.vals, Value{})
	copy(r.keys[pos+1:], r.keys[pos:])
	copy(r.vals[pos+1:], r.vals[pos:])
	r.keys[pos] = k
	r.vals[pos] = v
	r.nIdx++
	if r.idx != nil || len(r.keys) > indexThreshold {
		r.buildIndex()
	}
}

// Delete removes key k (used while building, e.g. by patch).
func (r *Record) Delete(k string) bool {
	i := r.find(k)
	if i < 0 {
		return false
	}
	if i < r.nIdx {
		r.nIdx--
	}
	// A fresh array: the keys may be shared with other records (NewShaped).
	r.keys = append(r.keys[:i:i], r.keys[i+1:]...)
	r.vals = append(r.vals[:i], r.vals[i+1:]...)
	if r.idx != nil {
		r.buildIndex()
	}
	r.recount()
	return true
}

// Clone returns a shallow copy with room for extra more keys.
func (r *Record) Clone(extra int) *Record {
	c := &Record{
		keys:  make([]string, len(r.keys), len(r.keys)+extra),
		vals:  make([]Value, len(r.vals), len(r.vals)+extra),
		nIdx:  r.nIdx,
		shape: r.shape,
	}
	copy(c.keys, r.keys)
	copy(c.vals, r.vals)
	if r.idx != nil {
		c.buildIndex()
	}
	return c
}

// IsArrayIndex reports whether k is a canonical array index: a decimal
// integer 0..4294967294 without leading zeros.
func IsArrayIndex(k string) bool {
	n := len(k)
	if n == 0 || n > 10 {
		return false
	}
	if k[0] == '0' {
		return n == 1
	}
	var v uint64
	for i := 0; i < n; i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + uint64(c-'0')
	}
	return v <= 4294967294
}

func arrayIndexValue(k string) uint64 {
	var v uint64
	for i := 0; i < len(k); i++ {
		v = v*10 + uint64(k[i]-'0')
	}
	return v
}

// ShapeKeys reports whether keys can be the shared keys of records made
// by [NewShaped]: distinct, none a canonical array index (those would be
// reordered), and few enough that lookups need no index.
func ShapeKeys(keys []string) bool {
	if len(keys) > indexThreshold {
		return false
	}
	for i, k := range keys {
		if IsArrayIndex(k) {
			return false
		}
		for _, k2 := range keys[:i] {
			if k == k2 {
				return false
			}
		}
	}
	return true
}

// NewShaped returns a record with the given keys, in that order, and the
// slice of its values for the caller to fill; the caller then calls
// [Record.Seal] before handing the record out. keys must satisfy
// [ShapeKeys]; they are shared, not copied (a compiled record literal
// passes the same slice every time), and must never be modified. The
// record and its values are one allocation for up to eight keys.
func NewShaped(keys []string) (*Record, []Value) {
	n := len(keys)
	keys = keys[:n:n] // a later Set of a new key must reallocate, never write into the shared array
	var r *Record
	var vals []Value
	switch {
	case n <= 2:
		x := new(struct {
			Record
			v [2]Value
		})
		r, vals = &x.Record, x.v[:n:n]
	case n <= 4:
		x := new(struct {
			Record
			v [4]Value
		})
		r, vals = &x.Record, x.v[:n:n]
	case n <= 8:
		x := new(struct {
			Record
			v [8]Value
		})
		r, vals = &x.Record, x.v[:n:n]
	default:
		r, vals = new(Record), make([]Value, n)
	}
	r.keys, r.vals = keys, vals
	return r, vals
}

// Seal computes the depth and size of a record made by [NewShaped] once
// its values are filled in.
func (r *Record) Seal() { r.recount() }

// Index returns the position of key k, or -1 when absent, trying position
// hint first: a field read of records built by one literal finds its key
// there at once.
func (r *Record) Index(k string, hint int) int {
	if r == nil {
		return -1
	}
	if uint(hint) < uint(len(r.keys)) && r.keys[hint] == k {
		return hint
	}
	return r.find(k)
}
