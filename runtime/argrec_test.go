package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// TestReusedArgs runs programs whose stdlib calls take a reused argument
// record, and the same programs compiled without the reuse (a fresh record
// for every call): the results must be equal, including
// when a call re-enters its own node through a user function among its
// arguments.
func TestReusedArgs(t *testing.T) {
	progs := []string{
		`fn h { n } {
  return if { cond: n <= 0, then: "x", else: str.replace { in: "axa", from: "x", to: h { n: n - 1 } } }
}
return h { n: 4 }`,
		`fn g { n } {
  return if { cond: n <= 0, then: [], else: concat { a: [len { in: str.split { in: "a,b,c", sep: "," } }, n], b: g { n: n - 1 } } }
}
return g { n: 5 }`,
		`let xs = for { in: range { from: 0, to: 50 }, as: "i" } {
  return get { in: [i, str.concat { parts: ["k", i % 7] }], path: "[1]" }
}
return [len { in: xs }, get { in: xs, path: "[13]" }, join { in: xs, sep: "" }]`,
		// A lent list whose elements re-enter the same call.
		`fn g { n } {
  return if { cond: n <= 0, then: "", else: str.concat { parts: ["(", g { n: n - 1 }, n, join { in: [n, g { n: n - 2 }], sep: "-" }, ")"] } }
}
return [g { n: 5 }, for { in: range { from: 0, to: 5 }, as: "i" } { return join { in: [i, "a", [i]], sep: "," } }]`,
		// The lent list past the memory ceiling fails at the list, like
		// a list built for the call (uncatchable).
		`let s = str.concat { parts: ["0123456789", "0123456789", "0123456789", "0123456789", "0123456789"] }
let t = str.concat { parts: [s, s, s, s, s, s, s, s] }
return str.concat { parts: [t, t, t, t, t, t, t, t] }`,
		`let s = str.concat { parts: ["0123456789", "0123456789", "0123456789", "0123456789", "0123456789"] }
let t = str.concat { parts: [s, s, s, s, s, s, s, s] }
return try { return join { in: [t, t, t, t, t, t, t, t, t], sep: "" } } catch { e } { return e }`,
	}
	env, err := NewEnv(WithMemoryLimit(3000))
	if err != nil {
		t.Fatal(err)
	}
	run := func(src string, reuse bool) string {
		t.Helper()
		noArgReuse = !reuse
		p, ds := env.Compile("t.a0", src)
		noArgReuse = false
		if len(ds) > 0 {
			t.Fatal(ds)
		}
		res, err := p.Run(context.Background(), RunOptions{})
		if err != nil {
			if e, ok := err.(*Error); ok {
				return fmt.Sprintf("error %s at %d:%d-%d:%d", e.Error(), e.Span.Start.Line, e.Span.Start.Col, e.Span.End.Line, e.Span.End.Col)
			}
			return "error " + err.Error()
		}
		return value.JSON(res.Value)
	}
	for i, p := range progs {
		got, want := run(p, true), run(p, false)
		if strings.HasPrefix(want, "error") != (i >= 4) {
			t.Errorf("program %d: %s", i, want)
		}
		if got != want {
			t.Errorf("program %d: got %s, want %s", i, got, want)
		}
	}
}

// TestReusedArgsSession calls, in later inputs of a session, a function
// declared in an earlier one: its stdlib calls belong to another program,
// whose argument records the later run does not hold.
func TestReusedArgsSession(t *testing.T) {
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	s := env.NewSession()
	steps := []struct{ src, want string }{
		{`fn w { s } { return str.concat { parts: ["<", s, ">"] } }`, ""},
		{`str.concat { parts: [w { s: "a" }, str.split { in: "x-y", sep: "-" }, w { s: "b" }] }`, `"<a>x,y<b>"`},
		{`let l = [str.replace { in: "aa", from: "a", to: "b" }, w { s: len { in: "abc" } }]`, ""},
		{`join { in: [w { s: 1 }, join { in: l, sep: "+" }], sep: "|" }`, `"<1>|bb+<3>"`},
	}
	for _, st := range steps {
		res, ds, err := s.Eval(context.Background(), "repl", st.src, RunOptions{})
		if len(ds) > 0 || err != nil {
			t.Fatalf("%s: %v %v", st.src, ds, err)
		}
		got := ""
		if !res.Value.IsUndefined() {
			got = value.JSON(res.Value)
		}
		if got != st.want {
			t.Errorf("%s: got %s, want %s", st.src, got, st.want)
		}
	}
}
