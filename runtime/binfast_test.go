package runtime

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// TestFastOpsAgree runs every operator on every pair of operand kinds,
// as local names and against number literals, with the specialised
// operator nodes and without them: values and errors must be the same.
func TestFastOpsAgree(t *testing.T) {
	operands := []string{"1", "2.5", "-0", "0", "-3", `"s"`, `""`, "null", "true", "[1]", "{ k: 1 }"}
	ops := []string{"+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!="}
	// Each expression is the body of its own function, so that a and b
	// are names of the current frame (in a nested block they would not
	// be local).
	var sb strings.Builder
	var fns []string
	for _, op := range ops {
		for _, e := range []string{"a " + op + " b", "a " + op + " 1", "a " + op + " 0", "a " + op + " -0", "a " + op + " 2.5", "b " + op + " a"} {
			name := "t" + strconv.Itoa(len(fns))
			fns = append(fns, name)
			sb.WriteString("fn " + name + " { a, b } { return " + e + " }\n")
		}
	}
	sb.WriteString("let pairs = [\n")
	for i, a := range operands {
		for j, b := range operands {
			if i+j > 0 {
				sb.WriteString(",\n")
			}
			sb.WriteString("  { a: " + a + ", b: " + b + " }")
		}
	}
	sb.WriteString("\n]\nreturn [\n")
	for i, fn := range fns {
		if i > 0 {
			sb.WriteString(",\n")
		}
		sb.WriteString("  for { in: pairs, as: \"p\" } { return try { return " + fn + " { a: p.a, b: p.b } } catch { e } { return [e.code, e.message] } }")
	}
	sb.WriteString("\n]\n")
	src := sb.String()
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	run := func(fast bool) string {
		noFastOps = !fast
		p, ds := env.Compile("t.a0", src)
		noFastOps = false
		if len(ds) > 0 {
			t.Fatal(ds)
		}
		res, err := p.Run(context.Background(), RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return value.JSON(res.Value)
	}
	got, want := run(true), run(false)
	if got != want {
		t.Errorf("specialised operators differ:\n got %.400s\nwant %.400s", got, want)
	}
	if !strings.Contains(want, `"E_TYPE"`) || !strings.Contains(want, "true") {
		t.Errorf("the cases do not cover errors and comparisons: %.200s", want)
	}
}
