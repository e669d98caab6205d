package stdlib

import (
	"math"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/value"
)

// Data functions (spec/stdlib.md "Data"): parse.json, get, put, patch.

func init() {
	register("parse.json", fnParseJSON)
	register("get", fnGet)
	register("put", fnPut)
	register("patch", fnPatch)
}

func fnParseJSON(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.String {
		return value.Value{}, fail("parse.json requires 'in' to be a string.")
	}
	v, err := value.ParseJSONLimit(in.AsString(), l.MaxBytes(), l.Stopped)
	if err != nil {
		if _, big := err.(*value.SizeError); big || err == value.ErrStopped {
			return value.Value{}, err
		}
		return value.Value{}, fail(err.Error())
	}
	return v, nil
}

// ---- get / put paths ----

// pathPiece is one piece of a get/put path: a record key, or (when it is
// made only of ASCII digits) a list index.
type pathPiece struct {
	key   string
	index bool
	n     int // the index, saturated at maxIndex
}

// maxIndex is where a path index saturates: 2^53 (the largest integer a
// number holds exactly), or the largest int on a 32-bit platform. Any index
// that large is past the end of every list.
const maxIndex = min(1<<53, math.MaxInt)

// pushDigit appends decimal digit d to n, saturating at maxIndex without
// overflowing int.
func pushDigit(n int, d byte) int {
	v := int(d - '0')
	if n > (maxIndex-v)/10 {
		return maxIndex
	}
	return n*10 + v
}

// putMaxIndex bounds the list index put pads up to. (The reference has no
// limit and simply runs out of memory.)
const putMaxIndex = 10_000_000

// splitPath splits a path on "." and on "[digits]" (the digits become a
// piece of their own), dropping empty pieces.
func splitPath(p string) []pathPiece {
	var out []pathPiece
	add := func(s string) {
		if s != "" {
			out = append(out, makePiece(s))
		}
	}
	start := 0
	for i := 0; i < len(p); {
		switch p[i] {
		case '.':
			add(p[start:i])
			i++
			start = i
			continue
		case '[':
			j := i + 1
			for j < len(p) && p[j] >= '0' && p[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(p) && p[j] == ']' {
				add(p[start:i])
				add(p[i+1 : j])
				i = j + 1
				start = i
				continue
			}
		}
		i++
	}
	add(p[start:])
	return out
}

func makePiece(s string) pathPiece {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return pathPiece{key: s}
		}
		n = pushDigit(n, c)
	}
	return pathPiece{key: s, index: true, n: n}
}

func fnGet(l Limits, args *value.Record) (value.Value, error) {
	path := Arg(args, "path")
	if path.Kind() != value.String {
		return value.Value{}, fail("get requires 'path' to be a string.")
	}
	return getAt(Arg(args, "in"), splitPath(path.AsString())), nil
}

// prepareGet is get with the literal path lit split once, ahead of the
// calls (see Prepare).
func prepareGet(lit string) Func {
	pieces := splitPath(lit)
	return func(l Limits, args *value.Record) (value.Value, error) {
		path := Arg(args, "path")
		if path.Kind() != value.String {
			return value.Value{}, fail("get requires 'path' to be a string.")
		}
		ps := pieces
		if path.AsString() != lit {
			ps = splitPath(path.AsString())
		}
		return getAt(Arg(args, "in"), ps), nil
	}
}

// getAt follows pieces from cur; null where the path leads nowhere.
func getAt(cur value.Value, pieces []pathPiece) value.Value {
	for _, pc := range pieces {
		if pc.index {
			items := cur.AsList()
			if cur.Kind() != value.ListKind || pc.n >= len(items) {
				return value.NullValue
			}
			cur = items[pc.n]
			continue
		}
		if cur.Kind() != value.RecordKind {
			return value.NullValue
		}
		v, ok := cur.AsRecord().Get(pc.key)
		if !ok {
			return value.NullValue
		}
		cur = v
	}
	return cur
}

func fnPut(l Limits, args *value.Record) (value.Value, error) {
	path := Arg(args, "path")
	if path.Kind() != value.String {
		return value.Value{}, fail("put requires 'path' to be a string.")
	}
	pieces := splitPath(path.AsString())
	if len(pieces) > value.MaxDepth {
		// Every piece is one level of the result: refuse before recursing.
		return value.Value{}, &DepthError{Depth: len(pieces)}
	}
	return putAt(l, Arg(args, "in"), pieces, Arg(args, "value"))
}

// putAt returns cur with v stored at pieces, copying only along the path.
func putAt(l Limits, cur value.Value, pieces []pathPiece, v value.Value) (value.Value, error) {
	if len(pieces) == 0 {
		return v, nil
	}
	pc := pieces[0]
	if pc.index {
		if pc.n > putMaxIndex {
			return value.Value{}, fail("put list index " + pc.key + " is too large (limit " +
				strconv.Itoa(putMaxIndex) + ").")
		}
		var items []value.Value
		if cur.Kind() == value.ListKind {
			items = cur.AsList()
		}
		n := len(items)
		if pc.n >= n {
			n = pc.n + 1
		}
		if err := need(l, slots(n)); err != nil {
			return value.Value{}, err
		}
		out := make([]value.Value, n)
		copy(out, items)
		for i := len(items); i < n; i++ {
			out[i] = value.NullValue
		}
		child, err := putAt(l, out[pc.n], pieces[1:], v)
		if err != nil {
			return value.Value{}, err
		}
		out[pc.n] = child
		return value.ListOf(out), nil
	}
	var r *value.Record
	child := value.NullValue
	if cur.Kind() == value.RecordKind {
		old := cur.AsRecord()
		if x, ok := old.Get(pc.key); ok {
			child = x
		}
		r = old.Clone(1)
	} else {
		r = value.NewRecord(1)
	}
	nv, err := putAt(l, child, pieces[1:], v)
	if err != nil {
		return value.Value{}, err
	}
	r.Set(pc.key, nv)
	return value.RecordOf(r), nil
}

// ---- patch ----

func fnPatch(l Limits, args *value.Record) (value.Value, error) {
	ops := Arg(args, "ops")
	if ops.Kind() != value.ListKind {
		return value.Value{}, fail("patch requires 'ops' to be a list.")
	}
	doc := Arg(args, "in")
	t := ticker{l: l}
	for i, o := range ops.AsList() {
		// Every op copies along its path: poll the run between them.
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
		if o.Kind() != value.RecordKind {
			return value.Value{}, fail("Invalid op at index " + strconv.Itoa(i) + ".")
		}
		rec := o.AsRecord()
		opv := rec.GetOrNull("op")
		if opv.Kind() != value.String {
			return value.Value{}, fail("patch op requires an 'op' string.")
		}
		pathv := rec.GetOrNull("path")
		if pathv.Kind() != value.String {
			return value.Value{}, fail("patch op requires a 'path' string.")
		}
		op, path := opv.AsString(), pathv.AsString()
		toks, ok := parsePointer(path)
		if !ok {
			return value.Value{}, fail("Invalid JSON Pointer '" + path + "' for 'path'.")
		}
		var err error
		switch op {
		case "add", "replace", "remove":
			doc, err = patchEdit(doc, op, toks, rec.GetOrNull("value"))
		case "move", "copy":
			fromv := rec.GetOrNull("from")
			if fromv.Kind() != value.String {
				return value.Value{}, fail(op + " op requires a 'from' string.")
			}
			from := fromv.AsString()
			ftoks, ok := parsePointer(from)
			if !ok {
				return value.Value{}, fail("Invalid JSON Pointer '" + from + "' for 'from'.")
			}
			v, ok := pointerLookup(doc, ftoks)
			if !ok {
				return value.Value{}, fail("Path '" + from + "' does not exist for op '" + op + "'.")
			}
			if op == "move" {
				doc, err = patchEdit(doc, "remove", ftoks, value.NullValue)
				if err != nil {
					return value.Value{}, err
				}
			}
			// Values are immutable, so the "deep copy" can share v.
			doc, err = patchEdit(doc, "add", toks, v)
		case "test":
			actual, ok := pointerLookup(doc, toks)
			if !ok {
				return value.Value{}, fail("Test failed at '" + path + "': path does not exist.")
			}
			want := rec.GetOrNull("value")
			if !value.Equal(actual, want) {
				return value.Value{}, fail("Test failed at '" + path + "': expected " + value.JSON(want) +
					", got " + value.JSON(actual))
			}
		default:
			return value.Value{}, fail("Unknown patch op '" + op + "'.")
		}
		if err != nil {
			return value.Value{}, err
		}
	}
	return doc, nil
}

// parsePointer splits a JSON Pointer into unescaped tokens ("" is the
// whole document: no tokens).
func parsePointer(p string) ([]string, bool) {
	if p == "" {
		return nil, true
	}
	if p[0] != '/' {
		return nil, false
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		if strings.IndexByte(t, '~') >= 0 {
			t = strings.ReplaceAll(t, "~1", "/")
			toks[i] = strings.ReplaceAll(t, "~0", "~")
		}
	}
	return toks, true
}

// PointerGet returns the value at the JSON Pointer ptr (RFC 6901: "" is
// the whole document, "/a/0" a member then an item); ok is false when ptr
// is malformed or leads nowhere. Hosts use it to follow a pointer into a
// document the way patch does.
func PointerGet(doc value.Value, ptr string) (value.Value, bool) {
	toks, ok := parsePointer(ptr)
	if !ok {
		return value.Value{}, false
	}
	return pointerLookup(doc, toks)
}

// pointerIndex parses a list token: "0" or [1-9][0-9]* (saturated).
func pointerIndex(t string) (int, bool) {
	if t == "" || (t[0] == '0' && len(t) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = pushDigit(n, c)
	}
	return n, true
}

// pointerLookup reads the value at toks; ok is false when it does not
// exist (missing key, bad or out-of-range index, "-", scalar container).
func pointerLookup(doc value.Value, toks []string) (value.Value, bool) {
	cur := doc
	for _, t := range toks {
		switch cur.Kind() {
		case value.RecordKind:
			v, ok := cur.AsRecord().Get(t)
			if !ok {
				return value.Value{}, false
			}
			cur = v
		case value.ListKind:
			items := cur.AsList()
			n, ok := pointerIndex(t)
			if !ok || n >= len(items) {
				return value.Value{}, false
			}
			cur = items[n]
		default:
			return value.Value{}, false
		}
	}
	return cur, true
}

// patchEdit applies add, replace or remove at toks.
func patchEdit(doc value.Value, op string, toks []string, v value.Value) (value.Value, error) {
	if len(toks) == 0 {
		if op == "remove" {
			return value.NullValue, nil
		}
		return v, nil
	}
	return patchAt(doc, op, toks, 0, v)
}

// patchAt applies op at toks[k:] inside container c, returning the new
// container. Error paths are rebuilt from the unconsumed tokens.
func patchAt(c value.Value, op string, toks []string, k int, v value.Value) (value.Value, error) {
	t := toks[k]
	last := k == len(toks)-1
	switch c.Kind() {
	case value.RecordKind:
		r := c.AsRecord()
		if last {
			switch op {
			case "add":
				nr := r.Clone(1)
				nr.Set(t, v)
				return value.RecordOf(nr), nil
			case "replace":
				if !r.Has(t) {
					return value.Value{}, notExist(toks, k, op)
				}
				nr := r.Clone(0)
				nr.Set(t, v)
				return value.RecordOf(nr), nil
			default: // remove
				if !r.Has(t) {
					return value.Value{}, notExist(toks, k, op)
				}
				nr := r.Clone(0)
				nr.Delete(t)
				return value.RecordOf(nr), nil
			}
		}
		child, ok := r.Get(t)
		if !ok {
			return value.Value{}, notExist(toks, k, op)
		}
		nc, err := patchAt(child, op, toks, k+1, v)
		if err != nil {
			return value.Value{}, err
		}
		nr := r.Clone(0)
		nr.Set(t, nc)
		return value.RecordOf(nr), nil
	case value.ListKind:
		items := c.AsList()
		if last && op == "add" && t == "-" {
			out := make([]value.Value, len(items)+1)
			copy(out, items)
			out[len(items)] = v
			return value.ListOf(out), nil
		}
		n, ok := pointerIndex(t)
		if !ok {
			return value.Value{}, fail("Invalid array index '" + t + "' at '" + rebuild(toks, k) + "' for op '" + op + "'.")
		}
		limit := len(items)
		if last && op == "add" {
			limit++
		}
		if n >= limit {
			return value.Value{}, fail("Array index '" + t + "' out of bounds at '" + rebuild(toks, k) + "' for op '" + op + "'.")
		}
		if last {
			switch op {
			case "add":
				out := make([]value.Value, len(items)+1)
				copy(out, items[:n])
				out[n] = v
				copy(out[n+1:], items[n:])
				return value.ListOf(out), nil
			case "replace":
				out := make([]value.Value, len(items))
				copy(out, items)
				out[n] = v
				return value.ListOf(out), nil
			default: // remove
				out := make([]value.Value, 0, len(items)-1)
				out = append(out, items[:n]...)
				out = append(out, items[n+1:]...)
				return value.ListOf(out), nil
			}
		}
		nc, err := patchAt(items[n], op, toks, k+1, v)
		if err != nil {
			return value.Value{}, err
		}
		out := make([]value.Value, len(items))
		copy(out, items)
		out[n] = nc
		return value.ListOf(out), nil
	default:
		return value.Value{}, notExist(toks, k, op)
	}
}

func notExist(toks []string, k int, op string) error {
	return fail("Path '" + rebuild(toks, k) + "' does not exist for op '" + op + "'.")
}

// rebuild joins the unconsumed tokens toks[k:] as "/a/b", unescaped.
func rebuild(toks []string, k int) string {
	return "/" + strings.Join(toks[k:], "/")
}
