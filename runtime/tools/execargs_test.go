package tools

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

func execArgs(kv ...any) *value.Record {
	r := value.NewRecord(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		var v value.Value
		switch x := kv[i+1].(type) {
		case string:
			v = value.Str(x)
		case float64:
			v = value.Num(x)
		case []string:
			items := make([]value.Value, len(x))
			for j, s := range x {
				items[j] = value.Str(s)
			}
			v = value.ListOf(items)
		case *value.Record:
			v = value.RecordOf(x)
		}
		r.Set(kv[i].(string), v)
	}
	return r
}

// Each group of sh.exec's argument checks, alone and in the order
// checkExecArgs reports them.
func TestCheckExecArgsSections(t *testing.T) {
	tests := []struct {
		name string
		args *value.Record
		want []string
	}{
		{"valid cmd", execArgs("cmd", "echo hi"), nil},
		{"valid argv", execArgs("argv", []string{"echo", "hi"}, "envMode", "clean", "graceMs", 10.0), nil},
		{"neither", execArgs(), []string{"cmd: sh.exec requires a 'cmd' or 'argv' argument"}},
		{"both", execArgs("cmd", "x", "argv", []string{"x"}), []string{"cmd: give exactly one of 'cmd' and 'argv', not both"}},
		{"empty cmd", execArgs("cmd", ""), []string{"cmd: must not be empty"}},
		{"argv with shell", execArgs("argv", []string{"", "a"}, "shell", "bash"), []string{
			"argv: must have at least one element and a non-empty program", "shell: only allowed with 'cmd'"}},
		{"environment", execArgs("cmd", "x", "cwd", "", "env", execArgs("A=B", "1", "OK", "2"), "envMode", "bad"), []string{
			"cwd: must not be empty", "env.A=B: invalid variable name", "envMode: must be one of inherit, clean, replace"}},
		{"env values and counts", execArgs("cmd", "x", "env", execArgs("NUL", "a\x00b", "BIG", strings.Repeat("v", 131068)), "envRemove", names(257), "mask", names(65)), []string{
			"env.NUL: the value must not contain NUL, and NAME=value must be shorter than 128 KiB",
			"env.BIG: the value must not contain NUL, and NAME=value must be shorter than 128 KiB",
			"envRemove: at most 256 names", "mask: at most 64 names"}},
		{"env at the bounds", execArgs("cmd", "x", "env", execArgs("BIG", strings.Repeat("v", 131067)), "envRemove", names(256), "mask", names(64)), nil},
		{"too many variables", execArgs("cmd", "x", "env", manyVars(1025, 1)), []string{"env: at most 1024 variables and 1 MiB in total"}},
		{"too many bytes", execArgs("cmd", "x", "env", manyVars(9, 120000)), []string{"env: at most 1024 variables and 1 MiB in total"}},
		{"1024 variables", execArgs("cmd", "x", "env", manyVars(1024, 1)), nil},
		{"streams", execArgs("cmd", "x", "stdinEncoding", "base64", "stdin", "!!", "truncate", "mid", "encoding", "hex", "onTimeout", "x"), []string{
			"stdin: invalid base64", "truncate: must be one of head, tail, both", "encoding: must be one of utf8, base64", "onTimeout: must be one of error, result"}},
		{"limits", execArgs("cmd", "x", "timeoutMs", -1.0, "maxOutputBytes", 1.5, "graceMs", 60001.0), []string{
			"maxOutputBytes: must be a non-negative integer", "timeoutMs: must be a non-negative integer", "graceMs: must be an integer from 0 to 60000"}},
		{"all groups in order", execArgs("graceMs", -1.0, "truncate", "x", "cwd", ""), []string{
			"cmd: sh.exec requires a 'cmd' or 'argv' argument", "cwd: must not be empty", "truncate: must be one of head, tail, both", "graceMs: must be an integer from 0 to 60000"}},
	}
	for _, tc := range tests {
		if got := checkExecArgs("sh.exec", tc.args); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// names returns n distinct variable names.
func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "V" + strconv.Itoa(i)
	}
	return out
}

// manyVars returns an env record of n variables whose values are size
// bytes long.
func manyVars(n, size int) *value.Record {
	r := value.NewRecord(n)
	for _, k := range names(n) {
		r.Set(k, value.Str(strings.Repeat("x", size)))
	}
	return r
}
