package stdlib

import (
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// callData calls a data function with args built from name/value pairs.
func callData(t *testing.T, fn string, kv ...any) (value.Value, error) {
	t.Helper()
	f, ok := Lookup(fn)
	if !ok {
		t.Fatalf("%s not registered", fn)
	}
	r := value.NewRecord(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		r.Set(kv[i].(string), kv[i+1].(value.Value))
	}
	return f(testLimits{max: 1 << 24}, r)
}

// FuzzDataPaths: get, put and patch take their paths and JSON Pointers
// from a program's data, which may come from anywhere (a file, a web
// page, a tool's output). For any document, path, value, pointer and
// patch ops they never panic; a value put at a path is what get then
// reads there; and patch's test op agrees with PointerGet. Seeds are the
// paths and pointers a program writes.
func FuzzDataPaths(f *testing.F) {
	doc := `{"a":{"b":[10,{"c":3}]},"l":[[1,2],[3,4]],"r":{"0":"zero","x.y":1,"a[x]":2,"~k/":3},"n":null}`
	for _, s := range [][4]string{
		{doc, "a.b[1].c", `7`, "/a/b/1/c"},
		{doc, "l[1][0]", `{"z":[1]}`, "/l/1/0"},
		{doc, "r.0", `"s"`, "/r/~0k~1"},
		{doc, "a[x]", `null`, ""},
		{`[1,2,3]`, "[2]", `[]`, "/2"},
		{`"str"`, "[3].x", `1`, "/-"},
		{`{}`, "x[1].y", `true`, "/x/01"},
		{`null`, "..", `0`, "/"},
	} {
		f.Add(s[0], s[1], s[2], s[3], `[{"op":"add","path":"/a/b/-","value":1},{"op":"move","from":"/l/0","path":"/m"},{"op":"copy","from":"/n","path":"/r/q"},{"op":"remove","path":"/l/0"},{"op":"replace","path":"/a","value":[]},{"op":"test","path":"/a","value":[]}]`)
	}
	f.Fuzz(func(t *testing.T, docJSON, path, valJSON, ptr, opsJSON string) {
		d, err := value.ParseJSON(docJSON)
		if err != nil {
			d = value.Str(docJSON)
		}
		v, err := value.ParseJSON(valJSON)
		if err != nil {
			v = value.Str(valJSON)
		}
		p := value.Str(path)
		_, _ = callData(t, "get", "in", d, "path", p)
		if put, err := callData(t, "put", "in", d, "path", p, "value", v); err == nil {
			got, err := callData(t, "get", "in", put, "path", p)
			if err != nil || !value.Equal(got, v) {
				t.Fatalf("put %s at %q in %s gave %s, where get reads %s (%v)", value.JSON(v), path, value.JSON(d), value.JSON(put), value.JSON(got), err)
			}
		}
		if ops, err := value.ParseJSON(opsJSON); err == nil {
			_, _ = callData(t, "patch", "in", d, "ops", ops)
		}
		at, found := PointerGet(d, ptr)
		test := value.NewRecord(3)
		test.Set("op", value.Str("test"))
		test.Set("path", value.Str(ptr))
		test.Set("value", at)
		_, err = callData(t, "patch", "in", d, "ops", value.ListOf([]value.Value{value.RecordOf(test)}))
		if found != (err == nil) {
			t.Fatalf("PointerGet(%s, %q) found=%v, but patch's test op says %v", value.JSON(d), ptr, found, err)
		}
	})
}
