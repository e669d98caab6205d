package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWritesAsUnprivilegedUser runs a0 as uid 65534 (root writes any file,
// so these cases need another user) and checks that a file is written
// exactly when opening it for writing would succeed: a read-only file is
// not replaced even in a folder the user may write, and a writable file
// in a folder the user may not write is written in place.
func TestWritesAsUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a0 as another user")
	}
	bin := builtA0(t)
	os.Chmod(filepath.Dir(bin), 0o755)
	dir, err := os.MkdirTemp("", "a0-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	locked := filepath.Join(dir, "locked")
	mustWrite := func(name, content string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
	os.Mkdir(locked, 0o755)
	mustWrite("readonly.txt", "keep", 0o444)
	mustWrite("locked/open.txt", "before", 0o666)
	mustWrite("locked/prog.a0", "let n=2\nreturn {n:n}\n", 0o666)
	mustWrite("ro.a0", "let n=2\nreturn n\n", 0o444)
	write := func(path string) string {
		return "cap { fs.write: true }\ndo fs.write { path: \"" + path + "\", data: \"after\" } -> w\nreturn w.bytes\n"
	}
	mustWrite("w1.a0", write("readonly.txt"), 0o644)
	mustWrite("w2.a0", write("locked/open.txt"), 0o644)
	mustWrite("w3.a0", write("locked/new.txt"), 0o644)
	os.Chmod(locked, 0o555)

	cases := []struct {
		args       []string
		code       int
		stdout     string
		stderr     string
		file, want string
	}{
		{[]string{"run", "w1.a0", "--unsafe-allow-all"}, 4, "",
			`"Tool 'fs.write' failed: EACCES: permission denied, open '` + dir + `/readonly.txt'"`, "readonly.txt", "keep"},
		{[]string{"run", "w2.a0", "--unsafe-allow-all"}, 0, "5\n", "", "locked/open.txt", "after"},
		{[]string{"run", "w3.a0", "--unsafe-allow-all"}, 4, "",
			`"Tool 'fs.write' failed: EACCES: permission denied, open '` + dir + `/locked/new.txt'"`, "", ""},
		{[]string{"fmt", "locked/prog.a0", "--write"}, 0, "", "", "locked/prog.a0", "let n = 2\nreturn { n: n }\n"},
		{[]string{"fmt", "ro.a0", "--write"}, 4, "",
			"error[E_IO]: Error writing file: EACCES: permission denied, open 'ro.a0'", "ro.a0", "let n=2\nreturn n\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			cmd.Dir = dir
			cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "NO_COLOR=1"}
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Skipf("cannot run as uid 65534: %v", err)
			}
			if code != c.code || out.String() != c.stdout || !strings.Contains(errb.String(), c.stderr) {
				t.Fatalf("exit %d, stdout %q, stderr %s; want exit %d, stdout %q, stderr containing %s", code, out.String(), errb.String(), c.code, c.stdout, c.stderr)
			}
			if c.file != "" {
				b, _ := os.ReadFile(filepath.Join(dir, c.file))
				if string(b) != c.want {
					t.Errorf("%s holds %q, want %q", c.file, b, c.want)
				}
			}
		})
	}
	entries, _ := os.ReadDir(locked)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".a0-tmp-") {
			t.Errorf("temporary left behind: %s", e.Name())
		}
	}
}
