//go:build unix

package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
)

// ReadSourceFile reads every kind of path the way os.File would, whether
// the plain-syscall path (regular files) or os.File (the rest) serves it.
func TestReadSourceFileKinds(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "p.a0")
	os.WriteFile(reg, []byte("return \xff1"), 0o644)
	big := filepath.Join(dir, "big.a0")
	f, _ := os.Create(big)
	f.Truncate(parser.MaxSourceBytes + 1) // sparse: refused by its size, unread
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.WriteString("return 2")
			w.Close()
		}
	}()
	cases := []struct {
		path, text, code, msg string
	}{
		{reg, "return \uFFFD1", "", ""},
		{fifo, "return 2", "", ""},
		{dir, "", diag.EIO, "EISDIR: illegal operation on a directory, read"},
		{filepath.Join(dir, "nope"), "", diag.EIO, "ENOENT: no such file or directory, open '" + filepath.Join(dir, "nope") + "'"},
		{big, "", diag.EParse, "too large"},
	}
	for _, c := range cases {
		text, d := ReadSourceFile(c.path)
		if c.code == "" {
			if d != nil || text != c.text {
				t.Errorf("%s: %q %v", c.path, text, d)
			}
			continue
		}
		if d == nil || d.Code != c.code || !strings.Contains(d.Message, c.msg) {
			t.Errorf("%s: got %v, want %s %q", c.path, d, c.code, c.msg)
		}
	}
}
