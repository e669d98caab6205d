package stdlib

import (
	"bytes"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/a0lang/a0/lang/value"
)

// List functions (spec/stdlib.md "Lists").

func init() {
	register("len", fnLen)
	register("append", fnAppend)
	register("concat", fnConcat)
	register("sort", fnSort)
	register("filter", fnFilter)
	register("find", fnFind)
	register("range", fnRange)
	register("join", fnJoin)
	register("unique", fnUnique)
	register("pluck", fnPluck)
	register("flat", fnFlat)
}

func fnLen(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	switch in.Kind() {
	case value.ListKind:
		return value.Int(len(in.AsList())), nil
	case value.String:
		return value.Int(value.Len16(in.AsString())), nil
	case value.RecordKind:
		return value.Int(in.AsRecord().Len()), nil
	}
	return value.Value{}, fail("len: 'in' must be a list, string, or record")
}

func fnAppend(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("append: 'in' must be a list")
	}
	items := in.AsList()
	if err := need(l, slots(len(items)+1)); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, len(items), len(items)+1)
	copy(out, items)
	return value.ListOf(append(out, nullIfUndef(Arg(args, "value")))), nil
}

func fnConcat(l Limits, args *value.Record) (value.Value, error) {
	a, b := Arg(args, "a"), Arg(args, "b")
	if a.Kind() != value.ListKind || b.Kind() != value.ListKind {
		return value.Value{}, fail("concat: 'a' and 'b' must be lists")
	}
	x, y := a.AsList(), b.AsList()
	if err := need(l, slots(len(x)+len(y))); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, 0, len(x)+len(y))
	return value.ListOf(append(append(out, x...), y...)), nil
}

// fnFilter is the `filter { in, by }` form; the `fn:` form is an evaluator
// built-in.
func fnFilter(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("filter: 'in' must be a list")
	}
	by := Arg(args, "by")
	if by.Kind() != value.String {
		return value.Value{}, fail("filter: 'by' must be a string")
	}
	key := by.AsString()
	var out []value.Value
	t := ticker{l: l}
	for _, it := range in.AsList() {
		if r := it.AsRecord(); r != nil && r.GetOrNull(key).Truthy() {
			out = append(out, it)
		}
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
	}
	return value.ListOf(out), nil
}

func fnFind(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("find: 'in' must be a list")
	}
	key := Arg(args, "key")
	if key.Kind() != value.String {
		return value.Value{}, fail("find: 'key' must be a string")
	}
	k, want := key.AsString(), Arg(args, "value")
	t := ticker{l: l}
	for _, it := range in.AsList() {
		if r := it.AsRecord(); r != nil && value.Equal(r.GetOrNull(k), want) {
			return it, nil
		}
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
	}
	return value.NullValue, nil
}

// maxRange is JavaScript's largest array length.
const maxRange = 1<<32 - 1

// MaxRange bounds the length of a list built by range, so a typo cannot
// exhaust the host's memory.
const MaxRange = 10_000_000

func fnRange(l Limits, args *value.Record) (value.Value, error) {
	a, n, err := RangeBounds(l, args)
	if err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, n)
	for i := range out {
		out[i] = value.Num(a + float64(i))
	}
	return value.ListOf(out), nil
}

// RangeBounds checks the arguments of range as range does (the same
// errors, the same memory check) and returns its first element and its
// length: element i is from + i. The evaluator uses it to iterate a range
// without building the list.
func RangeBounds(l Limits, args *value.Record) (from float64, n int, err error) {
	fv, tv := Arg(args, "from"), Arg(args, "to")
	if !isInteger(fv) || !isInteger(tv) {
		return 0, 0, fail("range: 'from' and 'to' must be integers")
	}
	a, b := fv.AsNumber(), tv.AsNumber()
	if a >= b {
		return a, 0, nil
	}
	if b-a > maxRange {
		return 0, 0, fail("Invalid array length")
	}
	if b-a > MaxRange {
		return 0, 0, fail("range: at most " + strconv.Itoa(MaxRange) + " elements (asked for " + value.FormatNumber(b-a) + ")")
	}
	n = int(b - a)
	if err := need(l, slots(n)); err != nil {
		return 0, 0, err
	}
	return a, n, nil
}

func isInteger(v value.Value) bool {
	if v.Kind() != value.Number {
		return false
	}
	f := v.AsNumber()
	return !math.IsInf(f, 0) && f == math.Trunc(f)
}

func fnJoin(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("join: 'in' must be a list")
	}
	sep := Arg(args, "sep")
	if !sep.IsNull() && sep.Kind() != value.String {
		return value.Value{}, fail("join: 'sep' must be a string")
	}
	return joinText(l, in.AsList(), sep.AsString())
}

func fnUnique(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("unique: 'in' must be a list")
	}
	items := in.AsList()
	// out, and the hash buckets (map entry and one index each).
	if err := need(l, slots(len(items))+int64(len(items))*48); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, 0, len(items))
	if len(items) <= 16 {
	small:
		for _, it := range items {
			for _, o := range out {
				if value.Equal(o, it) {
					continue small
				}
			}
			out = append(out, it)
		}
		return value.ListOf(out), nil
	}
	// Bucket kept elements by a hash consistent with value.Equal.
	seen := make(map[uint64][]int32, len(items))
	t := ticker{l: l}
next:
	for _, it := range items {
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
		h := hashValue(it)
		for _, j := range seen[h] {
			if value.Equal(out[j], it) {
				continue next
			}
		}
		seen[h] = append(seen[h], int32(len(out)))
		out = append(out, it)
	}
	return value.ListOf(out), nil
}

var hashSeed = maphash.MakeSeed()

func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// hashValue hashes v so that value.Equal values hash alike (record key
// order ignored, 0 and -0 alike).
func hashValue(v value.Value) uint64 {
	switch v.Kind() {
	case value.Bool:
		if v.AsBool() {
			return 0x9e3779b97f4a7c15
		}
		return 0x7f4a7c159e3779b9
	case value.Number:
		f := v.AsNumber()
		if f == 0 {
			f = 0
		}
		return mix(math.Float64bits(f) + 3)
	case value.String:
		return maphash.String(hashSeed, v.AsString())
	case value.ListKind:
		h := uint64(0x51ed27)
		for _, it := range v.AsList() {
			h = mix(h*31 + hashValue(it))
		}
		return h
	case value.RecordKind:
		r := v.AsRecord()
		h := uint64(0xa0761d6478bd642f)
		for i, k := range r.Keys() {
			h += mix(maphash.String(hashSeed, k) ^ hashValue(r.At(i))*0x100000001b3)
		}
		return h
	}
	return 1
}

func fnPluck(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("pluck: 'in' must be a list")
	}
	key := Arg(args, "key")
	if key.Kind() != value.String {
		return value.Value{}, fail("pluck: 'key' must be a string")
	}
	k := key.AsString()
	items := in.AsList()
	if err := need(l, slots(len(items))); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, len(items))
	for i, it := range items {
		if r := it.AsRecord(); r != nil {
			out[i] = r.GetOrNull(k)
		} else {
			out[i] = value.NullValue
		}
	}
	return value.ListOf(out), nil
}

func fnFlat(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("flat: 'in' must be a list")
	}
	items := in.AsList()
	n := 0
	for _, it := range items {
		if it.Kind() == value.ListKind {
			n += len(it.AsList())
		} else {
			n++
		}
	}
	if err := need(l, slots(n)); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, 0, n)
	for _, it := range items {
		if it.Kind() == value.ListKind {
			out = append(out, it.AsList()...)
		} else {
			out = append(out, it)
		}
	}
	return value.ListOf(out), nil
}

// ---- sort ----

// Classes of sort keys, in their mutual order (strings' JSON texts begin
// with '"', which sorts before the first character of any other JSON text).
const (
	clsString = iota
	clsNumber
	clsOther
)

// sortKey is one precomputed comparison key.
type sortKey struct {
	coll []byte  // collation key (strings)
	json string  // compact JSON (others; "null" for non-finite numbers)
	num  float64 // numbers
	cls  uint8
}

// sortStopped is the panic that unwinds a sort whose run was stopped.
type sortStopped struct{}

func fnSort(l Limits, args *value.Record) (res value.Value, err error) {
	in := Arg(args, "in")
	if in.Kind() != value.ListKind {
		return value.Value{}, fail("sort: 'in' must be a list")
	}
	var keys []string
	by := Arg(args, "by")
	switch by.Kind() {
	case value.Null, value.Undefined:
	case value.String:
		keys = []string{by.AsString()}
	case value.ListKind:
		keys = make([]string, 0, len(by.AsList()))
		for _, k := range by.AsList() {
			if k.Kind() != value.String {
				return value.Value{}, fail("sort: 'by' array elements must be strings")
			}
			keys = append(keys, k.AsString())
		}
	default:
		return value.Value{}, fail("sort: 'by' must be a string or list of strings")
	}
	items := in.AsList()
	out := make([]value.Value, len(items))
	if by.Kind() == value.ListKind && len(keys) == 0 || len(items) < 2 {
		copy(out, items)
		return value.ListOf(out), nil
	}
	m := max(len(keys), 1)
	keyBytes := int64(len(items)) * int64(m) * int64(unsafe.Sizeof(sortKey{}))
	if err := need(l, slots(len(items))+keyBytes); err != nil {
		return value.Value{}, err
	}
	ks := make([]sortKey, len(items)*m)
	var ck *collKeys
	defer func() {
		if ck != nil {
			ck.release()
		}
	}()
	mk := func(dst *sortKey, v value.Value) {
		switch v.Kind() {
		case value.Number:
			f := v.AsNumber()
			*dst = sortKey{cls: clsNumber, num: f}
			if math.IsInf(f, 0) || f != f {
				dst.json = "null"
			}
		case value.String:
			if ck == nil {
				ck = getCollKeys()
			}
			*dst = sortKey{cls: clsString, coll: ck.key(v.AsString())}
		default:
			*dst = sortKey{cls: clsOther, json: value.JSON(v)}
		}
		keyBytes += int64(len(dst.coll) + len(dst.json))
	}
	t := ticker{l: l}
	// A long sort polls the run every pollEvery comparisons and unwinds
	// with a panic when it was stopped.
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(sortStopped); !ok {
				panic(p)
			}
			res, err = value.Value{}, ErrStopped
		}
	}()
	steps := 0
	poll := func() {
		if steps++; steps%pollEvery == 0 && l.Stopped() {
			panic(sortStopped{})
		}
	}

	for i, it := range items {
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
		if err := need(l, keyBytes); err != nil {
			return value.Value{}, err
		}
		if keys == nil {
			mk(&ks[i], it)
			continue
		}
		r := it.AsRecord()
		for j, k := range keys {
			v := value.NullValue
			if r != nil {
				v = r.GetOrNull(k)
			}
			mk(&ks[i*m+j], v)
		}
	}
	if m == 1 && sortNumbers(ks, items, out, poll) {
		return value.ListOf(out), nil
	}
	if err := need(l, keyBytes); err != nil {
		return value.Value{}, err
	}
	perm := make([]int32, len(items))
	for i := range perm {
		perm[i] = int32(i)
	}
	if hasNonFinite(ks) {
		// The comparison is not consistent here, so the order is the one the
		// reference's sort algorithm makes of it.
		jsSort(perm, func(a, b int32) int {
			poll()
			x, y := ks[int(a)*m:int(a)*m+m], ks[int(b)*m:int(b)*m+m]
			for j := range x {
				if c := compareKeys(&x[j], &y[j]); c != 0 {
					return c
				}
			}
			return 0
		})
	} else if m == 1 {
		slices.SortFunc(perm, func(a, b int32) int {
			if steps++; steps%pollEvery == 0 && l.Stopped() {
				panic(sortStopped{})
			}
			if c := compareKeys(&ks[a], &ks[b]); c != 0 {
				return c
			}
			return int(a - b) // stable
		})
	} else {
		slices.SortFunc(perm, func(a, b int32) int {
			if steps++; steps%pollEvery == 0 && l.Stopped() {
				panic(sortStopped{})
			}
			x, y := ks[int(a)*m:int(a)*m+m], ks[int(b)*m:int(b)*m+m]
			for j := range x {
				if c := compareKeys(&x[j], &y[j]); c != 0 {
					return c
				}
			}
			return int(a - b) // stable
		})
	}
	for i, p := range perm {
		out[i] = items[p]
	}
	return value.ListOf(out), nil
}

// hasNonFinite reports whether a key is NaN or ±Infinity.
func hasNonFinite(ks []sortKey) bool {
	for i := range ks {
		if ks[i].cls == clsNumber && ks[i].json != "" {
			return true
		}
	}
	return false
}

// sortNumbers (calling poll at each comparison) handles the common case of single keys that are all numbers
// without NaN, writing the stably sorted items to out. It reports false
// (doing nothing) for any other input.
func sortNumbers(ks []sortKey, items, out []value.Value, poll func()) bool {
	for i := range ks {
		if ks[i].cls != clsNumber || ks[i].num != ks[i].num {
			return false
		}
	}
	type numIdx struct {
		f float64
		i int32
	}
	ns := make([]numIdx, len(ks))
	for i := range ks {
		ns[i] = numIdx{ks[i].num, int32(i)}
	}
	slices.SortFunc(ns, func(a, b numIdx) int {
		poll()
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return int(a.i - b.i)
	})
	for i, n := range ns {
		out[i] = items[n.i]
	}
	return true
}

// compareKeys is the reference's comparison (spec/stdlib.md "Lists"): numbers numerically,
// strings by collation, anything else by compact JSON text in code units.
func compareKeys(x, y *sortKey) int {
	switch {
	case x.cls == clsNumber && y.cls == clsNumber:
		switch {
		case x.num < y.num:
			return -1
		case x.num > y.num:
			return 1
		}
		return 0
	case x.cls == clsString && y.cls == clsString:
		return bytes.Compare(x.coll, y.coll)
	case x.cls == clsString:
		return -1
	case y.cls == clsString:
		return 1
	}
	// A finite number's JSON text starts with '-' or a digit, before any
	// list, literal or record text.
	if x.cls == clsNumber && x.json == "" {
		return -1
	}
	if y.cls == clsNumber && y.json == "" {
		return 1
	}
	return value.Compare16(x.json, y.json)
}

// collKeys makes ICU-style root collation keys (default strength:
// tertiary, lowercase first, punctuation not ignored).
type collKeys struct {
	c   *collate.Collator
	buf collate.Buffer
}

var collPool = sync.Pool{New: func() any {
	return &collKeys{c: collate.New(language.Und)}
}}

func getCollKeys() *collKeys { return collPool.Get().(*collKeys) }

func (k *collKeys) release() {
	k.buf.Reset()
	collPool.Put(k)
}

// key returns the collation key of s. Keys stay valid until release.
func (k *collKeys) key(s string) []byte {
	if hasLoneSurrogate(s) {
		s = surrogatesToPrivateUse(s)
	}
	return k.c.KeyFromString(&k.buf, s)
}

// surrogatesToPrivateUse maps each WTF-8 lone surrogate U+D800+n to U+E000+n
// so the collator sees valid UTF-8. ICU gives unpaired surrogates implicit
// (unassigned-style) weights ordered by code point; private-use characters
// get the same kind of weights, so the order relative to everything except
// U+E000..U+E7FF is kept.
func surrogatesToPrivateUse(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 {
			cp := rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F) | 0xD000
			out = utf8.AppendRune(out, cp-0xD800+0xE000)
			i += 3
			continue
		}
		out = append(out, s[i])
		i++
	}
	return string(out)
}
