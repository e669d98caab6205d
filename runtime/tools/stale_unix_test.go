//go:build unix

package tools

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/a0lang/a0/runtime"
)

// TestKilledWriterHelper is the child process of TestStaleTempRemoved: it
// writes a file and stops between writing the temporary file and renaming
// it, where its parent kills it with SIGKILL.
func TestKilledWriterHelper(t *testing.T) {
	dir := os.Getenv("A0_KILLED_WRITER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	beforeRename = func() {
		os.Stdout.WriteString("ready\n")
		select {}
	}
	writeBeneath(context.Background(), rootList{paths: []string{dir}}, nil, filepath.Join(dir, "f.txt"), []byte("half"))
}

// temps lists the fs.write temporary files in dir.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// An a0 killed with SIGKILL in the middle of fs.write leaves its temporary
// file; the next fs.write to that directory removes it, and leaves the
// temporary files of live processes alone.
func TestStaleTempRemoved(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterHelper$")
	cmd.Env = append(os.Environ(), "A0_KILLED_WRITER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q", line)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	left := temps(t, dir)
	if len(left) != 1 || !strings.HasPrefix(left[0], tempPrefix+strconv.Itoa(cmd.Process.Pid)+"-") {
		t.Fatalf("after SIGKILL: temporary files %q, want one of pid %d", left, cmd.Process.Pid)
	}
	// A temporary file of a live process (this one's parent) is kept.
	live := tempPrefix + strconv.Itoa(os.Getppid()) + "-0123456789abcdef"
	if err := os.WriteFile(filepath.Join(dir, live), nil, 0o600); err != nil {
		t.Fatal(err)
	}

	env, err := runtime.NewEnv(runtime.WithTools(New(Config{FS: FSScope{Write: []string{dir}}})...),
		runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("w.a0", "cap { fs.write: true }\ndo fs.write { path: \"g.txt\", data: \"ok\" }\nreturn 1")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	if _, err := prog.Run(context.Background(), runtime.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := temps(t, dir); len(got) != 1 || got[0] != live {
		t.Errorf("after the next write: temporary files %q, want only %q", got, live)
	}
	if _, err := os.Stat(filepath.Join(dir, "f.txt")); err == nil {
		t.Errorf("the killed write's file exists")
	}
}

func TestTempPid(t *testing.T) {
	for _, tc := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{tempPrefix + "123-abcd", 123, true},
		{tempPrefix + "0-abcd", 0, false},
		{tempPrefix + "-1-abcd", 0, false},
		{tempPrefix + "12x-abcd", 0, false},
		{tempPrefix + "123", 0, false},
		{".f.txt.a0tmp-123", 0, false},
	} {
		pid, ok := tempPid(tc.name)
		if pid != tc.pid || ok != tc.ok {
			t.Errorf("tempPid(%q) = %d %v, want %d %v", tc.name, pid, ok, tc.pid, tc.ok)
		}
	}
}
