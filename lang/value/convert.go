package value

import (
	"encoding/json"
	"fmt"

	"reflect"
	"sort"
)

// MarshalJSON implements json.Marshaler with JavaScript's rules (record
// key order kept, numbers printed as JavaScript prints them).
func (v Value) MarshalJSON() ([]byte, error) { return []byte(JSON(v)), nil }

// UnmarshalJSON implements json.Unmarshaler, keeping key order.
func (v *Value) UnmarshalJSON(b []byte) error {
	x, err := ParseJSON(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// ToGo converts v to plain Go values: nil, bool, float64, string, []any and
// map[string]any. Go maps have no order: use JSON or the Record API where
// key order matters.
func ToGo(v Value) any {
	switch v.k {
	case Bool:
		return v.AsBool()
	case Number:
		return v.AsNumber()
	case String:
		return v.AsString()
	case ListKind:
		items := v.AsList()
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = ToGo(it)
		}
		return out
	case RecordKind:
		r := v.AsRecord()
		out := make(map[string]any, r.Len())
		for i, k := range r.keys {
			out[k] = ToGo(r.vals[i])
		}
		return out
	}
	return nil
}

// FromGo converts a Go value to an A0 value. It accepts nil, bool, every
// integer and float type, string, json.Number, json.RawMessage (parsed,
// key order kept), []any and other slices, map[string]any and other maps
// with string keys (keys sorted, since Go maps have no order), *Record and
// Value (a nil *Record and the zero Value are null, RecordOf(nil) an empty
// record). Go values nested deeper than MaxDepth (or cyclic) are refused.
func FromGo(x any) (Value, error) { return fromGo(x, 0) }

func fromGo(x any, depth int) (Value, error) {
	if depth > MaxDepth {
		return Value{}, fmt.Errorf("value: nested more than %d levels deep", MaxDepth)
	}
	switch t := x.(type) {
	case nil:
		return NullValue, nil
	case Value:
		if t.k == RecordKind && t.p == nil {
			return RecordOf(NewRecord(0)), nil // RecordOf(nil)
		}
		if t.k == Undefined {
			return NullValue, nil
		}
		return t, nil
	case *Record:
		if t == nil {
			return NullValue, nil
		}
		return RecordOf(t), nil
	case bool:
		return BoolOf(t), nil
	case string:
		return Str(t), nil
	case float64:
		return Num(t), nil
	case float32:
		return Num(float64(t)), nil
	case int:
		return Num(float64(t)), nil
	case int64:
		return Num(float64(t)), nil
	case int32:
		return Num(float64(t)), nil
	case uint:
		return Num(float64(t)), nil
	case uint64:
		return Num(float64(t)), nil
	case uint32:
		return Num(float64(t)), nil
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return Value{}, err
		}
		return Num(f), nil
	case json.RawMessage:
		return ParseJSON(string(t))
	case []any:
		out := make([]Value, len(t))
		for i, it := range t {
			v, err := fromGo(it, depth+1)
			if err != nil {
				return Value{}, err
			}
			out[i] = v
		}
		return ListOf(out), nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		r := NewRecord(len(keys))
		for _, k := range keys {
			v, err := fromGo(t[k], depth+1)
			if err != nil {
				return Value{}, err
			}
			r.Set(k, v)
		}
		return RecordOf(r), nil
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]Value, rv.Len())
		for i := range out {
			v, err := fromGo(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return Value{}, err
			}
			out[i] = v
		}
		return ListOf(out), nil
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			m := make(map[string]any, rv.Len())
			for _, k := range rv.MapKeys() {
				m[k.String()] = rv.MapIndex(k).Interface()
			}
			return fromGo(m, depth)
		}
	case reflect.Int, reflect.Int8, reflect.Int16:
		return Num(float64(rv.Int())), nil
	case reflect.Uint8, reflect.Uint16:
		return Num(float64(rv.Uint())), nil
	case reflect.Pointer:
		if rv.IsNil() {
			return NullValue, nil
		}
		return fromGo(rv.Elem().Interface(), depth+1)
	}
	return Value{}, fmt.Errorf("value: cannot convert %T to an A0 value", x)
}

// MustFromGo is FromGo for values known to convert; it panics otherwise.
func MustFromGo(x any) Value {
	v, err := FromGo(x)
	if err != nil {
		panic(err)
	}
	return v
}
