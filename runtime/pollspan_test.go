package runtime

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// A run that must stop (here: its time budget is already spent) is stopped
// at the next check, and the error carries the span of the node being
// started. For a call, an assert or a check that node is the
// whole expression: its argument record is part of it, not an expression
// of its own, so it never names the place where the run stopped.
func TestInterruptedAtCallReportsTheCall(t *testing.T) {
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	prelude := "fn twice { n } {\n  return n * 2\n}\nfn sum { acc, n } {\n  return acc + n\n}\n"
	cases := []struct {
		name, expr string
	}{
		{"stdlib call", `len { in: [1, 2] }`},
		{"stdlib call, several arguments", `str.split { in: "a,b", sep: "," }`},
		{"stdlib call, no arguments", `typeof {}`},
		{"stdlib call, computed key order", `join { sep: "-", in: ["x"] }`},
		{"range", `range { from: 0, to: 3 }`},
		{"user function", `twice { n: 4 }`},
		{"map", `map { in: [1, 2], fn: "twice" }`},
		{"map over a range", `map { in: range { from: 0, to: 2 }, fn: "twice" }`},
		{"reduce", `reduce { in: [1], fn: "sum", init: 0 }`},
		{"filter with fn", `filter { in: [1], fn: "twice" }`},
		{"filter with by", `filter { in: [{ k: 1 }], by: "k" }`},
		{"assert", `assert { that: true, msg: "fine" }`},
		{"check", `check { that: true }`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := prelude + "return " + c.expr + "\n"
			p, ds := env.Compile("t.a0", src)
			if len(ds) > 0 {
				t.Fatal(ds)
			}
			ret, ok := p.top.stmts[len(p.top.stmts)-1].(*returnNode)
			if !ok {
				t.Fatal("the last statement is not a return")
			}
			r := &run{env: env, prog: p, start: time.Now().Add(-time.Second)}
			r.limits.hasTime, r.limits.timeMs = true, 10
			r.flag.Store(1)
			_, err := ret.x.eval(r, newFrame(nil, p.top.nslots))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an E_BUDGET", err)
			}
			line := 7 // the line of the return
			want := fmt.Sprintf("E_BUDGET @%d:%d-%d:%d", line, 8, line, 8+len(c.expr))
			got := string(e.Code) + " @?"
			if e.Span != nil {
				got = fmt.Sprintf("%s @%d:%d-%d:%d", e.Code, e.Span.Start.Line, e.Span.Start.Col, e.Span.End.Line, e.Span.End.Col)
			}
			if got != want {
				t.Errorf("%s\ngot  %s\nwant %s", c.expr, got, want)
			}
		})
	}
}
