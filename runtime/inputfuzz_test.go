package runtime_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// FuzzInputs: a program's inputs come from whoever runs it — `a0 run
// --input JSON --arg key=value`, a0_run's "input", the REPL's `:input`.
// For any text: InputObject fails only with E_INPUT; CheckInput fails only
// with E_INPUT and agrees with Run (inputs it accepts run, and the
// program sees a --arg str input as the very text given); ParseData never
// panics, and a record it accepts reads back the same from its JSON.
// Seeds are inputs of every declared type, as a user writes them.
func FuzzInputs(f *testing.F) {
	const src = `input { s: "str?", i: "int?", f: "float?", b: "bool?", l: "list?", r: "rec?", a: "any?", API_KEY: "str?" }
return input
`
	env, err := runtime.NewEnv(runtime.WithMemoryLimit(64 << 20))
	if err != nil {
		f.Fatal(err)
	}
	prog, ds := env.Compile("in.a0", src)
	if len(ds) > 0 {
		f.Fatal(ds)
	}
	f.Add(`{"s": "x", "i": 3, "f": 2.5, "b": true, "l": [1, "a"], "r": {"k": 1}, "a": null}`, "i", "-12", `{ repo: ".", limit: 10 }`)
	f.Add(`{}`, "s", "hello world", `{"a": [1, {"b": null}], "c": -0.5e3}`)
	f.Add(`{"i": 4.0, "API_KEY": "sk-123"}`, "b", "false", `{ name: "x", tags: ["a", "b"], ok: true, n: -3 }`)
	f.Add(`{"s": "\ud800"}`, "l", `[1, 2]`, `{ "quoted key": 1, nested: { x: null } }`)
	f.Add(`[1]`, "r", `{"a": []}`, `{ a: 1 + 2 }`)
	f.Add(`{"zz": 1}`, "f", "1e400", `{ a: f { x: 1 } }`)
	f.Fuzz(func(t *testing.T, inputJSON, argKey, argVal, data string) {
		in := map[string]any{}
		if d := runtime.InputObject(inputJSON, "--input", in); d != nil {
			if d.Code != diag.EInput || d.Message == "" {
				t.Fatalf("InputObject: %v, want E_INPUT", d)
			}
			in = map[string]any{}
		}
		if argKey != "" {
			in[argKey] = runtime.InputText(argVal)
		}
		checkErr := prog.CheckInput(runtime.RunOptions{Input: in})
		if checkErr != nil {
			var e *runtime.Error
			if !errors.As(checkErr, &e) || e.Code != diag.EInput {
				t.Fatalf("CheckInput: %T %v, want E_INPUT", checkErr, checkErr)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, runErr := prog.Run(ctx, runtime.RunOptions{Input: in})
		if (checkErr == nil) != (runErr == nil) {
			t.Fatalf("CheckInput says %v, Run says %v", checkErr, runErr)
		}
		if runErr == nil && argKey == "s" {
			if got := res.Value.AsRecord().GetOrNull("s"); got.Kind() != value.String || got.AsString() != argVal {
				t.Fatalf("--arg s=%q read as %s", argVal, value.JSON(got))
			}
		}

		v, why := runtime.ParseData(data)
		if why != "" {
			return
		}
		if v.Kind() != value.RecordKind {
			t.Fatalf("ParseData(%q) gave %s", data, v.TypeName())
		}
		again, why := runtime.ParseData(value.JSON(v))
		if why != "" || !value.Equal(v, again) {
			t.Fatalf("ParseData(%q) = %s, which reads back as %s (%s)", data, value.JSON(v), value.JSON(again), why)
		}
	})
}
