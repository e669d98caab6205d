package stdlib

import "github.com/a0lang/a0/lang/value"

// Record functions (spec/stdlib.md "Records").

func init() {
	register("keys", fnKeys)
	register("values", fnValues)
	register("entries", fnEntries)
	register("merge", fnMerge)
}

func fnKeys(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.RecordKind {
		return value.Value{}, fail("keys: 'in' must be a record")
	}
	ks := in.AsRecord().Keys()
	if err := need(l, slots(len(ks))); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, len(ks))
	for i, k := range ks {
		out[i] = value.Str(k)
	}
	return value.ListOf(out), nil
}

func fnValues(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.RecordKind {
		return value.Value{}, fail("values: 'in' must be a record")
	}
	vs := in.AsRecord().Values()
	if err := need(l, slots(len(vs))); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, len(vs))
	copy(out, vs)
	return value.ListOf(out), nil
}

func fnEntries(l Limits, args *value.Record) (value.Value, error) {
	in := Arg(args, "in")
	if in.Kind() != value.RecordKind {
		return value.Value{}, fail("entries: 'in' must be a record")
	}
	r := in.AsRecord()
	// The list, and per entry a record of two keys.
	each := value.RecordBytes + 2*(value.SlotBytes+value.KeyBytes)
	if err := need(l, slots(r.Len())+int64(r.Len())*each); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, r.Len())
	for i, k := range r.Keys() {
		e := value.NewRecord(2)
		e.Set("key", value.Str(k))
		e.Set("value", r.At(i))
		out[i] = value.RecordOf(e)
	}
	return value.ListOf(out), nil
}

func fnMerge(l Limits, args *value.Record) (value.Value, error) {
	a, b := Arg(args, "a"), Arg(args, "b")
	if a.Kind() != value.RecordKind || b.Kind() != value.RecordKind {
		return value.Value{}, fail("merge: 'a' and 'b' must be records")
	}
	ra, rb := a.AsRecord(), b.AsRecord()
	if rb.Len() == 0 {
		return a, nil
	}
	if err := need(l, value.RecordBytes+int64(ra.Len()+rb.Len())*(value.SlotBytes+value.KeyBytes)); err != nil {
		return value.Value{}, err
	}
	out := ra.Clone(rb.Len())
	for i, k := range rb.Keys() {
		out.Set(k, rb.At(i))
	}
	return value.RecordOf(out), nil
}
