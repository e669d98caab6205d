package value

// MapStrings returns v with f applied to every string it holds, at any
// depth, and to record keys too when keys is set (a key f maps onto an
// earlier key of the same record replaces that entry's value, as Set
// does). Numbers, booleans and null are kept. Masking secrets in tool
// results is its use: f is then a masker's String method.
func MapStrings(v Value, f func(string) string, keys bool) Value {
	switch v.Kind() {
	case String:
		return Str(f(v.AsString()))
	case ListKind:
		items := v.AsList()
		out := make([]Value, len(items))
		for i, it := range items {
			out[i] = MapStrings(it, f, keys)
		}
		return ListOf(out)
	case RecordKind:
		r := v.AsRecord()
		out := NewRecord(r.Len())
		for i := 0; i < r.Len(); i++ {
			k := r.Key(i)
			if keys {
				k = f(k)
			}
			out.Set(k, MapStrings(r.At(i), f, keys))
		}
		return RecordOf(out)
	}
	return v
}
