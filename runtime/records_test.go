package runtime

import "testing"

// TestRecordLiterals: literals built through compile-time shapes keep key
// order, duplicate-key and array-index-key rules, and field reads stay
// right when one read site sees records of different shapes.
func TestRecordLiterals(t *testing.T) {
	cases := []struct{ src, want string }{
		{`return { b: 1, a: 2, c: [1, { z: 0, y: 1 }] }`, `{"b":1,"a":2,"c":[1,{"z":0,"y":1}]}`},
		{`return { a: 1, b: 2, a: 3 }`, `{"a":3,"b":2}`},
		{`let r = { a: 1 }
return { ...r, b: 2, a: 5 }`, `{"a":5,"b":2}`},
		{`let xs = [{ a: 1, b: 2 }, { b: 3, a: 4 }, { c: 5 }, { b: 6, c: 7, a: 8 }]
return for { in: xs, as: "r" } { return [r.a, r.b] }`, `[[1,2],[4,3],[null,null],[8,6]]`},
		{`let st = loop { in: { i: 0, s: 0 }, times: 5, as: "st" } {
  return { i: st.i + 1, s: st.s + st.i }
}
return st`, `{"i":5,"s":10}`},
		{`let r = { a: { b: { c: 1 } } }
let q = { a: { c: 2, b: { d: 3, c: 4 } } }
return [r.a.b.c, q.a.b.c, r.a.b.c, q.a.b.d]`, `[1,4,1,3]`},
		{`let r = { x: 1, y: 2 }
let s = put { in: r, path: "z", value: 3 }
let u = patch { in: r, ops: [{ op: "remove", path: "/x" }] }
return [r, s, u, { x: 1, y: 2 }]`, `[{"x":1,"y":2},{"x":1,"y":2,"z":3},{"y":2},{"x":1,"y":2}]`},
	}
	for _, c := range cases {
		if got := runJSON(t, c.src); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}
