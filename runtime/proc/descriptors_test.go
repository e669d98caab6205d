//go:build linux && (amd64 || arm64)

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/runtime/proc/internal/nofile"
	"golang.org/x/sys/unix"
)

// TestInheritedDescriptor: a descriptor a0 holds without close-on-exec
// (as one its own parent left open would be), on a file outside every
// root, reaches no command, confined or not.
func TestInheritedDescriptor(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("inherited-secret"), 0o600)
	fd, err := unix.Open(secret, unix.O_RDONLY, 0) // no O_CLOEXEC
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	cmd := fmt.Sprintf("cat <&%d; ls /proc/self/fd", fd)
	for _, e := range []*Engine{sandboxEngine(t, &Sandbox{Require: true}), testEngine(t, nil)} {
		_, res := runIn(t, e, &Request{Cmd: cmd})
		out := string(res.Stdout.Head)
		if strings.Contains(out, "inherited-secret") {
			t.Errorf("confined=%v: the command read the inherited descriptor: %q", res.Confined, out)
		}
		// sh and ls: 0, 1, 2 and ls's own folder descriptor at most.
		for _, f := range strings.Fields(out) {
			if n, err := strconv.Atoi(f); err == nil && n == fd {
				t.Errorf("confined=%v: descriptor %d open in the command (%q)", res.Confined, fd, out)
			}
		}
	}
}

// TestNofileRestored: under a soft RLIMIT_NOFILE of 1024 at a0's start
// (which Go raises for a0 itself), confined and unconfined commands both
// get 1024 back, with the same hard limit. It runs the test binary again
// under `ulimit -Sn 1024`.
func TestNofileRestored(t *testing.T) {
	if os.Getenv("A0_NOFILE_TEST") != "" {
		fmt.Printf("start %d %d %v\n", nofile.At[0], nofile.At[1], nofile.Known)
		cmd := "echo $(ulimit -Sn) $(ulimit -Hn)"
		for _, sb := range []*Sandbox{{Require: true}, {Require: true, Limits: Limits{CPUSeconds: 60}}, nil} {
			var e *Engine
			if sb != nil {
				e = sandboxEngine(t, sb)
			} else {
				e = testEngine(t, nil)
			}
			_, res := runIn(t, e, &Request{Cmd: cmd})
			fmt.Printf("command %v %s", res.Confined, res.Stdout.Head)
		}
		return
	}
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) != nil || lim.Max <= 1025 || lim.Max == unix.RLIM_INFINITY {
		t.Skip("the hard RLIMIT_NOFILE leaves nothing to raise")
	}
	exe, _ := os.Executable()
	c := exec.Command("/bin/sh", "-c", `ulimit -Sn 1024 && exec "$0" -test.run='^TestNofileRestored$' -test.v`, exe)
	c.Env = append(os.Environ(), "A0_NOFILE_TEST=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	hard := strconv.FormatUint(lim.Max, 10)
	if !strings.Contains(string(out), "start 1024 "+hard+" true\n") {
		t.Errorf("RLIMIT_NOFILE at start not recorded before package syscall raised it: %s", out)
	}
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(l, "command "); ok {
			n++
			if !strings.HasSuffix(rest, " 1024 "+hard) {
				t.Errorf("command limits %q, want 1024 %s (output %s)", rest, hard, out)
			}
		}
	}
	if n != 3 {
		t.Errorf("want three commands: %s", out)
	}
}

// TestForkExecCloexecLoop: where close_range is refused, the child marks
// the descriptors a0 has one by one (fdMax); an inherited one does not
// pass either.
func TestForkExecCloexecLoop(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("inherited-secret"), 0o600)
	fd, err := unix.Open(secret, unix.O_RDONLY, 0) // no O_CLOEXEC
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	spec := plainSpec()
	spec.fdMax = fdLimit()
	if spec.fdMax <= fd {
		t.Fatalf("fdLimit %d, descriptor %d", spec.fdMax, fd)
	}
	out, _, err := startChild(t, spec, "/bin/sh", "-c", fmt.Sprintf("cat <&%d; ls /proc/self/fd | tr '\\n' ' '", fd))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "inherited-secret") || strings.Contains(" "+out, " "+strconv.Itoa(fd)+" ") {
		t.Errorf("the inherited descriptor %d reached the command: %q", fd, out)
	}
}

// TestStartPlainEnv: a Spec without an environment gets a0's, as with
// os/exec.
func TestStartPlainEnv(t *testing.T) {
	t.Setenv("A0_PLAIN_ENV_TEST", "yes")
	cmd := exec.Command("/bin/sh", "-c", "echo $A0_PLAIN_ENV_TEST")
	r, w, _ := os.Pipe()
	defer r.Close()
	cmd.Stdout = w
	if err := startPlain(cmd); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b := make([]byte, 16)
	n, _ := r.Read(b)
	cmd.Wait()
	if string(b[:n]) != "yes\n" {
		t.Errorf("got %q", b[:n])
	}
}
