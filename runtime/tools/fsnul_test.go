package tools_test

import (
	"os"
	"testing"
)

// TestFSPathWithNUL: a path holding a NUL character never reaches a
// system call; the tools fail with Node's argument error, naming the
// resolved path (fs.write: its folder when the NUL is there, since Node
// makes the folder first), and fs.exists answers false.
func TestFSPathWithNUL(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	const text = "The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received "
	cases := []struct{ src, want string }{
		{`return call? fs.read { path: "notes\u0000.txt" }`, "E_TOOL Tool 'fs.read' failed: " + text + "'" + dir + `/notes\x00.txt'`},
		{`return call? fs.list { path: "sub\u0000dir" }`, "E_TOOL Tool 'fs.list' failed: " + text + "'" + dir + `/sub\x00dir'`},
		{`return do fs.write { path: "out\u0000.txt", data: "v" }`, "E_TOOL Tool 'fs.write' failed: " + text + "'" + dir + `/out\x00.txt'`},
		{`return do fs.write { path: "nest\u0000ed/out.txt", data: "v" }`, "E_TOOL Tool 'fs.write' failed: " + text + "'" + dir + `/nest\x00ed'`},
		{`return do fs.write { path: "out\u0000.txt" }`, `E_TOOL Tool 'fs.write' failed: The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received undefined`},
		{`return call? fs.exists { path: "it's\u0000" }`, "false"},
	}
	for _, c := range cases {
		if got := run(t, dir, c.src).json(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files were made: %v", ents)
	}
}
