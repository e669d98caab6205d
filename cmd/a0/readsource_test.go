package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgramTooLargeIsNotRead: a program file or stdin larger than the
// source bound is refused as the parser would refuse it (E_PARSE, exit 2,
// its real size) without being held in memory: a sparse 1 GiB file is
// refused by its size, and 10 MB of stdin is counted, not kept.
func TestProgramTooLargeIsNotRead(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.a0")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{{"check", big}, {"run", big}, {"fmt", big}} {
		var out, errb bytes.Buffer
		code := realMain(args, strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "Program too large: 1073741824 bytes") {
			t.Errorf("%v: exit %d, stderr %.300s", args, code, errb.String())
		}
	}
	const n = 10 << 20
	stdin := io.MultiReader(strings.NewReader("return 1 "), strings.NewReader(strings.Repeat(" ", n-9)))
	var out, errb bytes.Buffer
	code := realMain([]string{"run", "-"}, stdin, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), `"code":"E_PARSE"`) || !strings.Contains(errb.String(), "Program too large: 10485760 bytes") {
		t.Errorf("stdin: exit %d, stderr %.300s", code, errb.String())
	}
	// At the bound itself the program is read and runs.
	src := "return 1" + strings.Repeat(" ", 4<<20-8)
	if err := os.WriteFile(big, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := realMain([]string{"run", big}, strings.NewReader(""), &out, &errb); code != 0 || strings.TrimSpace(out.String()) != "1" {
		t.Errorf("at the bound: exit %d, stdout %q, stderr %.300s", code, out.String(), errb.String())
	}
}
