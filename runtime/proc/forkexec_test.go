//go:build linux && (amd64 || arm64)

package proc

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// startChild runs argv through forkExec with spec's other fields as
// given (nil fds: /dev/null in, one pipe out for stdout and stderr) and
// returns the output and the wait status.
func startChild(t *testing.T, spec *childSpec, argv ...string) (string, unix.WaitStatus, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	null, _ := devNull()
	spec.argv0, _ = unix.BytePtrFromString(argv[0])
	spec.argv, _ = cStrings(argv)
	spec.envv, _ = cStrings([]string{"PATH=/usr/bin:/bin"})
	spec.fds = [3]int{int(null.Fd()), int(w.Fd()), int(w.Fd())}
	pid, err := forkExec(spec, argv[0])
	w.Close()
	if err != nil {
		return "", 0, err
	}
	out, _ := io.ReadAll(r)
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatal(err)
	}
	return string(out), ws, nil
}

func plainSpec() *childSpec { return &childSpec{tasks: -1, cgroup: -1, ruleset: -1} }

func TestForkExecRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := plainSpec()
	spec.dir, _ = unix.BytePtrFromString(dir)
	spec.rlimits = []childRlimit{{resource: unix.RLIMIT_NOFILE, lim: unix.Rlimit{Cur: 40, Max: 40}}}
	// Its own session, the folder asked for, the limit set, only the
	// three standard streams open (ls's own folder descriptor aside).
	out, ws, err := startChild(t, spec, "/bin/sh", "-c", `echo $$ $(cut -d' ' -f6 /proc/self/stat) "$PWD" $(ulimit -n); ls /proc/self/fd | tr '\n' ' '`)
	if err != nil || ws.ExitStatus() != 0 {
		t.Fatalf("%v %v %q", err, ws, out)
	}
	f := strings.Fields(out)
	if len(f) < 4 || f[2] != dir || f[3] != "40" {
		t.Fatalf("got %q", out)
	}
	// The shell's $(...) runs in a child: its session is the shell's pid.
	if f[0] != f[1] {
		t.Errorf("not a session leader: pid %s, session %s", f[0], f[1])
	}
	// Only the standard streams reach the command (and ls's own folder
	// descriptor, the lowest free one): neither a0's own descriptors nor
	// those it holds without close-on-exec.
	for _, fd := range f[4:] {
		if fd != "0" && fd != "1" && fd != "2" && fd != "3" {
			t.Errorf("descriptor %s of a0 open in the command (%q)", fd, f[4:])
		}
	}
}

// TestForkExecErrors is not parallel: it looks for zombies among this
// process's children.
func TestForkExecErrors(t *testing.T) {
	dir := t.TempDir()
	_, _, err := startChild(t, plainSpec(), filepath.Join(dir, "missing"))
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Op != "fork/exec" || !errors.Is(err, unix.ENOENT) {
		t.Errorf("missing executable: %v", err)
	}
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("not a program"), 0o644)
	if _, _, err = startChild(t, plainSpec(), plain); !errors.Is(err, unix.EACCES) {
		t.Errorf("file without execute permission: %v", err)
	}
	spec := plainSpec()
	spec.dir, _ = unix.BytePtrFromString(filepath.Join(dir, "nowhere"))
	if _, _, err = startChild(t, spec, "/bin/true"); !errors.As(err, &pe) || pe.Op != "chdir" || !errors.Is(err, unix.ENOENT) {
		t.Errorf("missing folder: %v", err)
	}
	// A step of the confinement that fails is named.
	spec = plainSpec()
	spec.ruleset = 1 << 20 // not a descriptor
	if _, _, err = startChild(t, spec, "/bin/true"); err == nil || !strings.Contains(err.Error(), "landlock_restrict_self") {
		t.Errorf("bad ruleset: %v", err)
	}
	// A failed child is reaped: none is left a zombie.
	var kids []string
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		kids = append(kids, strings.Fields(string(b))...)
	}
	for _, pid := range kids {
		if st, _ := os.ReadFile("/proc/" + pid + "/stat"); strings.Contains(string(st), ") Z ") {
			t.Errorf("zombie child %s", pid)
		}
	}
}

// TestForkExecStreams puts the command's streams on descriptors that
// collide with their places: stdout on 2 and stderr on 1 (this process's
// own), and the error pipe may land anywhere.
func TestForkExecStreams(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Swap this process's stdout and stderr for the pipe and a copy of
	// it, restored after.
	save1, _ := unix.Dup(1)
	save2, _ := unix.Dup(2)
	defer func() {
		unix.Dup2(save1, 1)
		unix.Dup2(save2, 2)
		unix.Close(save1)
		unix.Close(save2)
	}()
	unix.Dup2(int(w.Fd()), 2)
	dn, _ := os.Open(os.DevNull)
	defer dn.Close()
	unix.Dup2(int(dn.Fd()), 1)
	spec := plainSpec()
	null, _ := devNull()
	spec.argv0, _ = unix.BytePtrFromString("/bin/sh")
	spec.argv, _ = cStrings([]string{"sh", "-c", "echo out; echo err >&2"})
	spec.envv, _ = cStrings(nil)
	spec.fds = [3]int{int(null.Fd()), 2, 1} // stdout → the pipe, stderr → /dev/null
	pid, err := forkExec(spec, "/bin/sh")
	unix.Dup2(save2, 2)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(r)
	var ws unix.WaitStatus
	unix.Wait4(pid, &ws, 0, nil)
	if string(out) != "out\n" {
		t.Errorf("stdout %q (want out only)", out)
	}
}

// TestForkExecUnderLoad forks from many goroutines while others allocate
// and collect: the child shares a0's memory until execve and must never
// touch the runtime.
func TestForkExecUnderLoad(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	var churn sync.WaitGroup
	for i := 0; i < 2; i++ {
		churn.Add(1)
		go func() {
			defer churn.Done()
			var keep [][]byte
			for {
				select {
				case <-stop:
					return
				default:
				}
				keep = append(keep, make([]byte, 4096))
				if len(keep) > 1000 {
					keep = nil
					runtime.GC()
				}
			}
		}()
	}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				want := strconv.Itoa(g*100 + i)
				out, ws, err := startChild(t, plainSpec(), "/bin/echo", want)
				if err != nil || ws.ExitStatus() != 0 || out != want+"\n" {
					errs <- want + ": " + out
				}
			}
		}(g)
	}
	wg.Wait()
	close(stop)
	churn.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestForkExecIntoCgroup starts a child straight into a cgroup v2
// folder (clone3 with CLONE_INTO_CGROUP), as a command with a process
// cap is on cgroup v2. It needs a writable cgroup v2 hierarchy.
func TestForkExecIntoCgroup(t *testing.T) {
	t.Parallel()
	var root string
	for _, d := range []string{"/sys/fs/cgroup/unified", "/sys/fs/cgroup"} {
		var st unix.Statfs_t
		if unix.Statfs(d, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC && unix.Access(d, unix.W_OK) == nil {
			root = d
			break
		}
	}
	self, _ := os.ReadFile("/proc/self/cgroup")
	var mine string
	for _, l := range strings.Split(string(self), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok {
			mine = p
		}
	}
	if root == "" || mine == "" {
		t.Skip("no writable cgroup v2 hierarchy")
	}
	dir := filepath.Join(root, mine, "a0-forkexec-test-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skip("cannot make a cgroup v2 folder: ", err)
	}
	defer unix.Rmdir(dir)
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	spec := plainSpec()
	spec.cgroup = fd
	out, _, err := startChild(t, spec, "/bin/cat", "/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	want := "0::" + filepath.Join(mine, filepath.Base(dir))
	if !strings.Contains(out, want+"\n") {
		t.Errorf("child's cgroups %q, want a line %q", out, want)
	}
}
