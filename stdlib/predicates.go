package stdlib

import (
	"strings"

	"github.com/a0lang/a0/lang/value"
)

// Predicates (spec/stdlib.md "Predicates (never fail)"). They never fail.

func init() {
	register("eq", fnEq)
	register("contains", fnContains)
	register("not", fnNot)
	register("and", fnAnd)
	register("or", fnOr)
	register("coalesce", fnCoalesce)
	register("typeof", fnTypeof)
}

func fnEq(l Limits, args *value.Record) (value.Value, error) {
	return value.BoolOf(value.Equal(Arg(args, "a"), Arg(args, "b"))), nil
}

func fnContains(l Limits, args *value.Record) (value.Value, error) {
	in, v := Arg(args, "in"), Arg(args, "value")
	switch in.Kind() {
	case value.String:
		if v.Kind() != value.String {
			return value.False, nil
		}
		return value.BoolOf(contains16(in.AsString(), v.AsString())), nil
	case value.ListKind:
		t := ticker{l: l}
		for _, it := range in.AsList() {
			if value.Equal(it, v) {
				return value.True, nil
			}
			if err := t.tick(); err != nil {
				return value.Value{}, err
			}
		}
		return value.False, nil
	case value.RecordKind:
		if v.Kind() != value.String {
			return value.False, nil
		}
		return value.BoolOf(in.AsRecord().Has(v.AsString())), nil
	}
	return value.False, nil
}

// contains16 reports whether sub occurs in s as a run of UTF-16 code units.
func contains16(s, sub string) bool {
	if unitSafe(sub) {
		return strings.Contains(s, sub)
	}
	return index16(value.Units(s), value.Units(sub), 0) >= 0
}

func fnNot(l Limits, args *value.Record) (value.Value, error) {
	return value.BoolOf(!Arg(args, "in").Truthy()), nil
}

func fnAnd(l Limits, args *value.Record) (value.Value, error) {
	return value.BoolOf(Arg(args, "a").Truthy() && Arg(args, "b").Truthy()), nil
}

func fnOr(l Limits, args *value.Record) (value.Value, error) {
	return value.BoolOf(Arg(args, "a").Truthy() || Arg(args, "b").Truthy()), nil
}

func fnCoalesce(l Limits, args *value.Record) (value.Value, error) {
	if in := Arg(args, "in"); !in.IsNull() {
		return in, nil
	}
	return nullIfUndef(Arg(args, "default")), nil
}

func fnTypeof(l Limits, args *value.Record) (value.Value, error) {
	return value.Str(Arg(args, "in").TypeName()), nil
}

// nullIfUndef maps the internal undefined value to null.
func nullIfUndef(v value.Value) value.Value {
	if v.IsNull() {
		return value.NullValue
	}
	return v
}
