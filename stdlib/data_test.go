package stdlib

import (
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// dtCase calls fn with the arguments given as a JSON record; want is the
// compact JSON of the result or, with err, the exact inner message.
type dtCase struct {
	fn, args, want string
	err            bool
}

func dtRun(t *testing.T, cases []dtCase) {
	t.Helper()
	for _, c := range cases {
		av, err := value.ParseJSON(c.args)
		if err != nil {
			t.Fatalf("bad test args %s: %v", c.args, err)
		}
		f, ok := Lookup(c.fn)
		if !ok {
			t.Fatalf("%s not registered", c.fn)
		}
		got, err := f(NoLimits, av.AsRecord())
		switch {
		case c.err && err == nil:
			t.Errorf("%s %s = %s, want error %q", c.fn, c.args, value.JSON(got), c.want)
		case c.err && err.Error() != c.want:
			t.Errorf("%s %s\n got error: %s\nwant error: %s", c.fn, c.args, err.Error(), c.want)
		case !c.err && err != nil:
			t.Errorf("%s %s: unexpected error %q (want %s)", c.fn, c.args, err.Error(), c.want)
		case !c.err && value.JSON(got) != c.want:
			t.Errorf("%s %s\n got: %s\nwant: %s", c.fn, c.args, value.JSON(got), c.want)
		}
	}
}

func TestParseJSONFn(t *testing.T) {
	dtRun(t, []dtCase{
		{"parse.json", `{"in":"{\"a\":[1,2.5,true,null,\"x\"]}"}`, `{"a":[1,2.5,true,null,"x"]}`, false},
		{"parse.json", `{"in":" 42 "}`, `42`, false},
		{"parse.json", `{"in":"1E400"}`, `null`, false},
		{"parse.json", `{"in":"-0"}`, `0`, false},
		{"parse.json", `{"in":"{\"b\":1,\"2\":2,\"1\":3,\"a\":4,\"-1\":5,\"01\":6,\"4294967295\":7}"}`,
			`{"1":3,"2":2,"b":1,"a":4,"-1":5,"01":6,"4294967295":7}`, false},
		{"parse.json", `{"in":"{\"a\":1,\"b\":2,\"a\":3}"}`, `{"a":3,"b":2}`, false},
		{"parse.json", `{"in":"\"\\ud800\""}`, `"\ud800"`, false},
		{"parse.json", `{"in":"\"\\ud83d\\ude00\""}`, `"😀"`, false},
		{"parse.json", `{"in":1}`, `parse.json requires 'in' to be a string.`, true},
		{"parse.json", `{}`, `parse.json requires 'in' to be a string.`, true},
		{"parse.json", `{"in":null}`, `parse.json requires 'in' to be a string.`, true},
		{"parse.json", `{"in":""}`, `Unexpected end of JSON input`, true},
		{"parse.json", `{"in":"{a:1}"}`, `Expected property name or '}' in JSON at position 1`, true},
		{"parse.json", `{"in":"not valid json{{{"}`, `Unexpected token 'o', "not valid json{{{" is not valid JSON`, true},
		{"parse.json", `{"in":"NaN"}`, `"NaN" is not valid JSON`, true},
		{"parse.json", `{"in":"[1 2]"}`, `Expected ',' or ']' after array element in JSON at position 3`, true},
	})
}

func TestGet(t *testing.T) {
	doc := `{"a":{"b":[10,{"c":3}]},"l":[[1,2],[3,4]],"r":{"0":"zero","x.y":1,"a[x]":2,"x[-1]":3,"a[ 0]":4},"n":null}`
	g := func(path, want string) dtCase {
		return dtCase{"get", `{"in":` + doc + `,"path":` + path + `}`, want, false}
	}
	dtRun(t, []dtCase{
		g(`"a.b[1].c"`, `3`),
		g(`"a.b.1.c"`, `3`),
		g(`"a.b[0]"`, `10`),
		g(`"a.b[01]"`, `{"c":3}`),
		g(`"a.b.01"`, `{"c":3}`),
		g(`"a.b.00"`, `10`),
		g(`"a.b[2]"`, `null`),
		g(`"a.b[99999999999999999999999]"`, `null`),
		g(`"l[1][0]"`, `3`),
		g(`"l.1.1"`, `4`),
		g(`"l[1]0"`, `3`),
		g(`"..a..b..0.."`, `10`),
		g(`"a"`, `{"b":[10,{"c":3}]}`),
		g(`""`, doc),
		g(`"..."`, doc),
		g(`"missing"`, `null`),
		g(`"missing.deeper[3]"`, `null`),
		g(`"n"`, `null`),
		g(`"n.x"`, `null`),
		g(`"a.b.c"`, `null`),      // key on a list
		g(`"a.b[1].c.d"`, `null`), // key on a number
		g(`"r.0"`, `null`),        // index on a record, even with key "0"
		g(`"r[0]"`, `null`),
		g(`"r.x.y"`, `null`), // dotted keys are unreachable
		g(`"r.a[x]"`, `2`),
		g(`"r.x[-1]"`, `3`),
		g(`"r.a[ 0]"`, `4`),
		g(`"a.b[1]"`, `{"c":3}`),
		g(`"[0]"`, `null`),
		{"get", `{"in":[5,6],"path":"[1]"}`, `6`, false},
		{"get", `{"in":[5,6],"path":"1"}`, `6`, false},
		{"get", `{"in":[5,6],"path":"[01]"}`, `6`, false},
		{"get", `{"in":"abc","path":"0"}`, `null`, false},
		{"get", `{"path":"a"}`, `null`, false},
		{"get", `{"path":""}`, `null`, false},
		{"get", `{"in":7,"path":""}`, `7`, false},
		{"get", `{"in":{"a":1}}`, `get requires 'path' to be a string.`, true},
		{"get", `{"in":{"a":1},"path":1}`, `get requires 'path' to be a string.`, true},
		{"get", `{"in":{"a":1},"path":["a"]}`, `get requires 'path' to be a string.`, true},
	})
}

func TestPut(t *testing.T) {
	dtRun(t, []dtCase{
		{"put", `{"in":{"a":1},"path":"a.c","value":2}`, `{"a":{"c":2}}`, false},
		{"put", `{"in":{"a":[1,2]},"path":"a[3]","value":9}`, `{"a":[1,2,null,9]}`, false},
		{"put", `{"in":{"a":[1,2]},"path":"a.3","value":9}`, `{"a":[1,2,null,9]}`, false},
		{"put", `{"in":{"a":[1,2]},"path":"a[0]","value":9}`, `{"a":[9,2]}`, false},
		{"put", `{"in":{"a":{"x":1}},"path":"a.0","value":9}`, `{"a":[9]}`, false},
		{"put", `{"path":"x[1].y","value":1}`, `{"x":[null,{"y":1}]}`, false},
		{"put", `{"in":{"a":1,"b":2,"c":3},"path":"b","value":9}`, `{"a":1,"b":9,"c":3}`, false},
		{"put", `{"in":{"a":1,"b":{"x":1,"y":2},"c":3},"path":"b.x","value":[1]}`, `{"a":1,"b":{"x":[1],"y":2},"c":3}`, false},
		{"put", `{"in":{"a":1},"path":"b"}`, `{"a":1,"b":null}`, false},
		{"put", `{"in":{"a":1},"path":"","value":5}`, `5`, false},
		{"put", `{"in":{"a":1},"path":".."}`, `null`, false},
		{"put", `{"in":{"a":"s"},"path":"a.b","value":1}`, `{"a":{"b":1}}`, false},
		{"put", `{"in":{"a":[1]},"path":"a.b","value":1}`, `{"a":{"b":1}}`, false},
		{"put", `{"in":5,"path":"a","value":1}`, `{"a":1}`, false},
		{"put", `{"in":[1,2],"path":"[1]","value":{"z":0}}`, `[1,{"z":0}]`, false},
		{"put", `{"in":"str","path":"[2]","value":1}`, `[null,null,1]`, false},
		{"put", `{"in":[[1],[2]],"path":"[1][2]","value":3}`, `[[1],[2,null,3]]`, false},
		{"put", `{"in":{"l":[{"a":1},{"a":2}]},"path":"l[1].b","value":3}`, `{"l":[{"a":1},{"a":2,"b":3}]}`, false},
		{"put", `{"in":{"a[x]":1},"path":"a[x]","value":2}`, `{"a[x]":2}`, false},
		{"put", `{"in":{"b":1},"path":"0.x","value":1}`, `[{"x":1}]`, false},
		{"put", `{"in":{"a":1}}`, `put requires 'path' to be a string.`, true},
		{"put", `{"in":{"a":1},"path":null}`, `put requires 'path' to be a string.`, true},
		{"put", `{"in":{"a":1},"path":3}`, `put requires 'path' to be a string.`, true},
		{"put", `{"path":"[99999999999]","value":1}`, `put list index 99999999999 is too large (limit 10000000).`, true},
	})
}

func TestPutDoesNotMutate(t *testing.T) {
	in, _ := value.ParseJSON(`{"a":{"b":[1,2]},"c":{"d":1}}`)
	before := value.JSON(in)
	args := value.NewRecord(3)
	args.Set("in", in)
	args.Set("path", value.Str("a.b[5]"))
	args.Set("value", value.Num(7))
	out, err := fnPut(NoLimits, args)
	if err != nil {
		t.Fatal(err)
	}
	if value.JSON(in) != before {
		t.Errorf("input mutated: %s", value.JSON(in))
	}
	// Untouched branches are shared, not copied.
	c1, _ := in.AsRecord().Get("c")
	c2, _ := out.AsRecord().Get("c")
	if c1.AsRecord() != c2.AsRecord() {
		t.Errorf("untouched branch was copied")
	}
}

func TestPatch(t *testing.T) {
	p := func(in, ops, want string) dtCase {
		args := `{"ops":` + ops + `}`
		if in != "" {
			args = `{"in":` + in + `,"ops":` + ops + `}`
		}
		return dtCase{"patch", args, want, false}
	}
	e := func(in, ops, want string) dtCase {
		c := p(in, ops, want)
		c.err = true
		return c
	}
	dtRun(t, []dtCase{
		// add
		p(`{"a":[1,2]}`, `[{"op":"add","path":"/a/1","value":9}]`, `{"a":[1,9,2]}`),
		p(`{"a":[1,2]}`, `[{"op":"add","path":"/a/2","value":9}]`, `{"a":[1,2,9]}`),
		p(`{"a":[1,2]}`, `[{"op":"add","path":"/a/0","value":9}]`, `{"a":[9,1,2]}`),
		p(`{"a":[1,2]}`, `[{"op":"add","path":"/a/-","value":9}]`, `{"a":[1,2,9]}`),
		p(`{"b":1}`, `[{"op":"add","path":"/0","value":2}]`, `{"0":2,"b":1}`),
		p(`{"a":1,"b":2}`, `[{"op":"add","path":"/a","value":3}]`, `{"a":3,"b":2}`),
		p(`{"a":1}`, `[{"op":"add","path":"/c"}]`, `{"a":1,"c":null}`),
		p(`{"a":1}`, `[{"op":"add","path":"","value":[1]}]`, `[1]`),
		p(`{"a":1}`, `[{"op":"add","path":"/","value":2}]`, `{"a":1,"":2}`),
		p(`{"a":1}`, `[{"op":"add","path":"/x~1y","value":2}]`, `{"a":1,"x/y":2}`),
		p(`{"a":1}`, `[{"op":"add","path":"/x~0y","value":2}]`, `{"a":1,"x~y":2}`),
		p(`{"a":1}`, `[{"op":"add","path":"/~01","value":2}]`, `{"a":1,"~1":2}`),
		p(`{"a":{"-":1}}`, `[{"op":"add","path":"/a/-","value":2}]`, `{"a":{"-":2}}`),
		p(`{"a":[{"b":1}]}`, `[{"op":"add","path":"/a/0/c","value":2}]`, `{"a":[{"b":1,"c":2}]}`),
		p(``, `[{"op":"add","path":"","value":{"a":1}},{"op":"add","path":"/b","value":2}]`, `{"a":1,"b":2}`),
		p(`{"a":1}`, `[]`, `{"a":1}`),
		p(``, `[]`, `null`),
		e(`{"a":{"b":1}}`, `[{"op":"add","path":"/a/x/y","value":1}]`, `Path '/x/y' does not exist for op 'add'.`),
		e(`{"a":[{"b":1}]}`, `[{"op":"add","path":"/a/5/c","value":1}]`, `Array index '5' out of bounds at '/5/c' for op 'add'.`),
		e(`{"a":1}`, `[{"op":"add","path":"/x~1y/z","value":1}]`, `Path '/x/y/z' does not exist for op 'add'.`),
		e(`{"a":[1,2]}`, `[{"op":"add","path":"/a/3","value":1}]`, `Array index '3' out of bounds at '/3' for op 'add'.`),
		e(`{"a":[1,2]}`, `[{"op":"add","path":"/a/01","value":1}]`, `Invalid array index '01' at '/01' for op 'add'.`),
		e(`{"a":[1,2]}`, `[{"op":"add","path":"/a/x","value":1}]`, `Invalid array index 'x' at '/x' for op 'add'.`),
		e(`{"a":[1,2]}`, `[{"op":"add","path":"/a/-1","value":1}]`, `Invalid array index '-1' at '/-1' for op 'add'.`),
		e(`{"a":[1,2]}`, `[{"op":"add","path":"/a/-/b","value":1}]`, `Invalid array index '-' at '/-/b' for op 'add'.`),
		e(`{"a":[[1]]}`, `[{"op":"add","path":"/a/0/x~1y/z","value":1}]`, `Invalid array index 'x/y' at '/x/y/z' for op 'add'.`),
		e(`{"a":1}`, `[{"op":"add","path":"/a/b","value":1}]`, `Path '/b' does not exist for op 'add'.`),
		e(`{"a":null}`, `[{"op":"add","path":"/a/b/c","value":1}]`, `Path '/b/c' does not exist for op 'add'.`),
		e(``, `[{"op":"add","path":"/a","value":1}]`, `Path '/a' does not exist for op 'add'.`),
		e(`"s"`, `[{"op":"add","path":"/0","value":1}]`, `Path '/0' does not exist for op 'add'.`),
		// replace
		p(`{"a":1,"b":2}`, `[{"op":"replace","path":"/a","value":5}]`, `{"a":5,"b":2}`),
		p(`{"a":[1,2]}`, `[{"op":"replace","path":"/a/1","value":5}]`, `{"a":[1,5]}`),
		p(`{"a":1}`, `[{"op":"replace","path":"","value":5}]`, `5`),
		p(`{"a":1}`, `[{"op":"replace","path":"/a"}]`, `{"a":null}`),
		e(`{"a":1}`, `[{"op":"replace","path":"/b","value":5}]`, `Path '/b' does not exist for op 'replace'.`),
		e(`{"a":[1,2]}`, `[{"op":"replace","path":"/a/2","value":5}]`, `Array index '2' out of bounds at '/2' for op 'replace'.`),
		e(`{"a":[1,2]}`, `[{"op":"replace","path":"/a/-","value":5}]`, `Invalid array index '-' at '/-' for op 'replace'.`),
		e(`{"a":{"b":{}}}`, `[{"op":"replace","path":"/a/c/d","value":5}]`, `Path '/c/d' does not exist for op 'replace'.`),
		// remove
		p(`{"a":1,"b":2,"c":3}`, `[{"op":"remove","path":"/b"}]`, `{"a":1,"c":3}`),
		p(`{"a":[1,2,3]}`, `[{"op":"remove","path":"/a/1"}]`, `{"a":[1,3]}`),
		p(`{"a":[1,2,3]}`, `[{"op":"remove","path":"/a/2"}]`, `{"a":[1,2]}`),
		p(`{"a":1}`, `[{"op":"remove","path":""}]`, `null`),
		p(`{"0":1,"a":2}`, `[{"op":"remove","path":"/0"}]`, `{"a":2}`),
		e(`{"a":{"b":{"c":1}}}`, `[{"op":"remove","path":"/a/b/d"}]`, `Path '/d' does not exist for op 'remove'.`),
		e(`{"a":[1]}`, `[{"op":"remove","path":"/a/1"}]`, `Array index '1' out of bounds at '/1' for op 'remove'.`),
		e(`{"a":[1]}`, `[{"op":"remove","path":"/a/-"}]`, `Invalid array index '-' at '/-' for op 'remove'.`),
		e(`{"a":1}`, `[{"op":"remove","path":"/a/b"}]`, `Path '/b' does not exist for op 'remove'.`),
		// move
		p(`{"a":1,"b":2}`, `[{"op":"move","from":"/a","path":"/c"}]`, `{"b":2,"c":1}`),
		p(`{"l":[1,2,3]}`, `[{"op":"move","from":"/l/0","path":"/l/-"}]`, `{"l":[2,3,1]}`),
		p(`{"l":[1,2,3],"m":[]}`, `[{"op":"move","from":"/l/1","path":"/m/0"}]`, `{"l":[1,3],"m":[2]}`),
		p(`{"a":{"x":1}}`, `[{"op":"move","from":"/a","path":""}]`, `{"x":1}`),
		p(`{"a":1}`, `[{"op":"move","from":"/a","path":"/a"}]`, `{"a":1}`),
		e(`{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`, `Path '/a/b/c' does not exist for op 'add'.`),
		e(`{"a":1}`, `[{"op":"move","from":"","path":"/a"}]`, `Path '/a' does not exist for op 'add'.`),
		e(`{"a":1}`, `[{"op":"move","from":"/b","path":"/c"}]`, `Path '/b' does not exist for op 'move'.`),
		e(`{"a":[1]}`, `[{"op":"move","from":"/a/-","path":"/c"}]`, `Path '/a/-' does not exist for op 'move'.`),
		e(`{"a":[1]}`, `[{"op":"move","from":"/a/01","path":"/c"}]`, `Path '/a/01' does not exist for op 'move'.`),
		e(`{"a":1}`, `[{"op":"move","path":"/c"}]`, `move op requires a 'from' string.`),
		e(`{"a":1}`, `[{"op":"move","from":1,"path":"/c"}]`, `move op requires a 'from' string.`),
		e(`{"a":1}`, `[{"op":"move","from":"a","path":"/c"}]`, `Invalid JSON Pointer 'a' for 'from'.`),
		e(`{"a":1}`, `[{"op":"move","from":"a","path":"c"}]`, `Invalid JSON Pointer 'c' for 'path'.`),
		e(`{"a":1}`, `[{"op":"move","from":"/a","path":"/x/y"}]`, `Path '/x/y' does not exist for op 'add'.`),
		// copy
		p(`{"a":{"x":[1]}}`, `[{"op":"copy","from":"/a","path":"/b"}]`, `{"a":{"x":[1]},"b":{"x":[1]}}`),
		p(`{"l":[1,2]}`, `[{"op":"copy","from":"/l/0","path":"/l/-"}]`, `{"l":[1,2,1]}`),
		p(`{"a":1}`, `[{"op":"copy","from":"","path":"/b"}]`, `{"a":1,"b":{"a":1}}`),
		p(`{"a":1}`, `[{"op":"copy","from":"/a","path":"/b"},{"op":"replace","path":"/b","value":2}]`, `{"a":1,"b":2}`),
		e(`{"a":1}`, `[{"op":"copy","from":"/~1","path":"/b"}]`, `Path '/~1' does not exist for op 'copy'.`),
		e(`{"a":1}`, `[{"op":"copy","path":"/b"}]`, `copy op requires a 'from' string.`),
		e(`{"a":1}`, `[{"op":"copy","from":"x","path":"/b"}]`, `Invalid JSON Pointer 'x' for 'from'.`),
		e(`{"a":1}`, `[{"op":"copy","from":"/a","path":"/z/b"}]`, `Path '/z/b' does not exist for op 'add'.`),
		// test
		p(`{"a":[1,{"b":null}]}`, `[{"op":"test","path":"/a/1/b","value":null}]`, `{"a":[1,{"b":null}]}`),
		p(`{"a":{"x":1,"y":2}}`, `[{"op":"test","path":"/a","value":{"y":2,"x":1.0}}]`, `{"a":{"x":1,"y":2}}`),
		p(`{"a":1}`, `[{"op":"test","path":"","value":{"a":1}}]`, `{"a":1}`),
		p(``, `[{"op":"test","path":""}]`, `null`),
		p(`{"a":null}`, `[{"op":"test","path":"/a"}]`, `{"a":null}`),
		e(`{"a":1}`, `[{"op":"test","path":"/a","value":2}]`, `Test failed at '/a': expected 2, got 1`),
		e(`{"a":{"b":[1,"x"]}}`, `[{"op":"test","path":"/a","value":"s"}]`, `Test failed at '/a': expected "s", got {"b":[1,"x"]}`),
		e(`{"a":1}`, `[{"op":"test","path":"/a"}]`, `Test failed at '/a': expected null, got 1`),
		e(`{"a":1}`, `[{"op":"test","path":"/b","value":1}]`, `Test failed at '/b': path does not exist.`),
		e(`{"a":[1]}`, `[{"op":"test","path":"/a/-","value":1}]`, `Test failed at '/a/-': path does not exist.`),
		e(`{"a":[1]}`, `[{"op":"test","path":"/a/1"}]`, `Test failed at '/a/1': path does not exist.`),
		e(`{"a":1}`, `[{"op":"test","path":"/a/b"}]`, `Test failed at '/a/b': path does not exist.`),
		e(`{"x/y":1}`, `[{"op":"test","path":"/x~1y","value":2}]`, `Test failed at '/x~1y': expected 2, got 1`),
		// validation and order of checks
		e(`{"a":1}`, `{"op":"add"}`, `patch requires 'ops' to be a list.`),
		e(`{"a":1}`, `null`, `patch requires 'ops' to be a list.`),
		{"patch", `{"in":{"a":1}}`, `patch requires 'ops' to be a list.`, true},
		e(`{"a":1}`, `[{"op":"add","path":"/b","value":1},5]`, `Invalid op at index 1.`),
		e(`{"a":1}`, `[[]]`, `Invalid op at index 0.`),
		e(`{"a":1}`, `[{"path":"/a"}]`, `patch op requires an 'op' string.`),
		e(`{"a":1}`, `[{"op":1,"path":"/a"}]`, `patch op requires an 'op' string.`),
		e(`{"a":1}`, `[{"op":"add"}]`, `patch op requires a 'path' string.`),
		e(`{"a":1}`, `[{"op":"bogus"}]`, `patch op requires a 'path' string.`),
		e(`{"a":1}`, `[{"op":"add","path":["a"]}]`, `patch op requires a 'path' string.`),
		e(`{"a":1}`, `[{"op":"bogus","path":"a"}]`, `Invalid JSON Pointer 'a' for 'path'.`),
		e(`{"a":1}`, `[{"op":"add","path":"a/b"}]`, `Invalid JSON Pointer 'a/b' for 'path'.`),
		e(`{"a":1}`, `[{"op":"bogus","path":"/a"}]`, `Unknown patch op 'bogus'.`),
		e(`{"a":1}`, `[{"op":"Add","path":"/a"}]`, `Unknown patch op 'Add'.`),
		// the first failure aborts; earlier ops do not leak out
		e(`{"a":1}`, `[{"op":"add","path":"/b","value":1},{"op":"remove","path":"/zz"}]`, `Path '/zz' does not exist for op 'remove'.`),
		// ops see the running document
		p(`{"a":1}`, `[{"op":"add","path":"/l","value":[]},{"op":"add","path":"/l/-","value":1},{"op":"test","path":"/l/0","value":1},{"op":"remove","path":"/a"}]`, `{"l":[1]}`),
	})
}

func TestPatchDoesNotMutate(t *testing.T) {
	in, _ := value.ParseJSON(`{"a":{"b":[1,2]},"c":{"d":1},"e":[1,2]}`)
	ops, _ := value.ParseJSON(`[{"op":"add","path":"/a/b/1","value":9},{"op":"remove","path":"/e/0"},{"op":"move","from":"/c/d","path":"/a/z"}]`)
	before := value.JSON(in)
	args := value.NewRecord(2)
	args.Set("in", in)
	args.Set("ops", ops)
	out, err := fnPatch(NoLimits, args)
	if err != nil {
		t.Fatal(err)
	}
	if value.JSON(in) != before {
		t.Errorf("input mutated: %s", value.JSON(in))
	}
	if got := value.JSON(out); got != `{"a":{"b":[1,9,2],"z":1},"c":{},"e":[2]}` {
		t.Errorf("got %s", got)
	}
}

func TestSplitPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a.b[1].c", "a|b|#1|c"},
		{"a.b.1.c", "a|b|#1|c"},
		{"..a..", "a"},
		{"", ""},
		{"[01]", "#1"},
		{"a[x]", "a[x]"},
		{"x[-1]", "x[-1]"},
		{"a[ 0]", "a[ 0]"},
		{"a[0]b", "a|#0|b"},
		{"a[0][12]", "a|#0|#12"},
		{"a[]", "a[]"},
		{"a[1", "a[1"},
		{"a[1x]", "a[1x]"},
		{"[[1]]", "[|#1|]"},
		{"é.٣", "é|٣"},
	}
	for _, tt := range tests {
		var parts []string
		for _, p := range splitPath(tt.in) {
			if p.index {
				parts = append(parts, "#"+value.FormatNumber(float64(p.n)))
			} else {
				parts = append(parts, p.key)
			}
		}
		if got := strings.Join(parts, "|"); got != tt.want {
			t.Errorf("splitPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPreparedGet checks that get prepared for a literal path answers as
// get does, for that path and (a duplicate path key) for any other.
func TestPreparedGet(t *testing.T) {
	doc, err := value.ParseJSON(`{"a":{"b":[10,{"c":3}]},"l":[[1,2],[3,4]],"r":{"0":"zero","a[x]":2},"n":null}`)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"a.b[1].c", "a.b.01", "l[1][0]", "..a..b..0..", "", "missing.deeper[3]", "n.x", "r.0", "r.a[x]", "[0]", "a"}
	for _, lit := range paths {
		pf, ok := Prepare("get", "path", lit)
		if !ok {
			t.Fatalf("get path %q not prepared", lit)
		}
		for _, p := range append(paths, lit) {
			args := value.NewRecord(2)
			args.Set("in", doc)
			args.Set("path", value.Str(p))
			want, werr := fnGet(NoLimits, args)
			got, gerr := pf(NoLimits, args)
			if (werr == nil) != (gerr == nil) || value.JSON(got) != value.JSON(want) {
				t.Errorf("prepared %q, path %q: got %s %v, want %s %v", lit, p, value.JSON(got), gerr, value.JSON(want), werr)
			}
		}
		args := value.NewRecord(1)
		args.Set("path", value.Num(1))
		if _, err := pf(NoLimits, args); err == nil || err.Error() != "get requires 'path' to be a string." {
			t.Errorf("prepared %q with a number path: %v", lit, err)
		}
	}
}

func TestPointerGet(t *testing.T) {
	doc, _ := value.ParseJSON(`{"a":[1,{"b/c":2,"d~e":3}],"":4}`)
	for _, tc := range []struct {
		ptr, want string
		ok        bool
	}{
		{"", `{"a":[1,{"b/c":2,"d~e":3}],"":4}`, true},
		{"/a/0", "1", true},
		{"/a/1/b~1c", "2", true},
		{"/a/1/d~0e", "3", true},
		{"/", "4", true},
		{"/a/01", "", false},
		{"/a/2", "", false},
		{"a", "", false},
	} {
		v, ok := PointerGet(doc, tc.ptr)
		if ok != tc.ok || (ok && value.JSON(v) != tc.want) {
			t.Errorf("PointerGet(%q) = %s, %v; want %s, %v", tc.ptr, value.JSON(v), ok, tc.want, tc.ok)
		}
	}
}
