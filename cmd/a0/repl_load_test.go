package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestREPLLoadCommented loads a file with comments in every place a0 fmt
// keeps them (records, lists, blocks, match arms, after statements, at
// the end) and a file that holds only comments; the comments change
// nothing, and a file of `a0 fmt` output loads alike.
func TestREPLLoadCommented(t *testing.T) {
	replDir(t)
	src := "# a library\nfn double { n } { # doubles\n  return n * 2 # the result\n  # end of body\n}\n\n" +
		"let base = { # open\n  v: 10, # ten\n  # before w\n  w: [1, # one\n    2]\n  # end\n}\n" +
		"let m = match ({ ok: base.v }) {\n  # first arm\n  ok { v } { return v } # after ok\n  err { e } { return 0 }\n  # end of arms\n}\n" +
		"return double { n: m } # twenty\n# end of file"
	os.WriteFile("lib.a0", []byte(src), 0o644)
	os.WriteFile("notes.a0", []byte("# only\n\n# comments\n"), 0o644)
	var out, errOut bytes.Buffer
	if code := realMain([]string{"fmt", "--write", "lib.a0"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("a0 fmt --write: exit %d: %s", code, errOut.String())
	}
	formatted, _ := os.ReadFile("lib.a0")
	for _, c := range []string{"# a library", "# doubles", "# the result", "# end of body", "# open", "# ten",
		"# before w", "# one", "# end", "# first arm", "# after ok", "# end of arms", "# twenty", "# end of file"} {
		if !strings.Contains(string(formatted), c+"\n") {
			t.Errorf("a0 fmt lost %q:\n%s", c, formatted)
		}
	}
	stdout, stderr, code := pipedREPL(t, ":load lib.a0\n:load notes.a0\ndouble { n: base.v }\n")
	if stdout != "20\n20\n" || code != 0 {
		t.Errorf("stdout %q stderr %q exit %d", stdout, stderr, code)
	}
}
