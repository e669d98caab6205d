//go:build linux

package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// binDir makes a folder of executables for PATH tests: a real `true`
// copied in, a symlink to it, a non-executable file and a subfolder.
func binDir(t *testing.T) (dir, trueReal string) {
	t.Helper()
	dir = t.TempDir()
	src, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true on PATH")
	}
	trueReal, _ = filepath.EvalSymlinks(src)
	data, err := os.ReadFile(trueReal)
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "mytrue"), data, 0o755))
	must(t, os.Symlink(filepath.Join(dir, "mytrue"), filepath.Join(dir, "alias")))
	must(t, os.WriteFile(filepath.Join(dir, "plain"), []byte("x"), 0o644))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	return dir, trueReal
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPrepareExecutableRules: the executable of a request is found in the
// child's PATH or by a path with a slash, then checked against deny and
// allow by name and by real path; each refusal has its kind and reason.
func TestPrepareExecutableRules(t *testing.T) {
	dir, _ := binDir(t)
	mine := filepath.Join(dir, "mytrue")
	// Bare allow/deny names resolve in the interpreter's own PATH.
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	other := t.TempDir()
	data, _ := os.ReadFile(mine)
	must(t, os.WriteFile(filepath.Join(other, "mytrue"), data, 0o755))
	tests := []struct {
		name         string
		allow, deny  []string
		argv         []string
		kind, reason string // "" = prepared
		path         string // expected Spec.Path when prepared
	}{
		{"bare name found in PATH", nil, nil, []string{"mytrue"}, "", "", mine},
		{"relative path with a slash, against cwd", nil, nil, []string{"./mytrue"}, "", "", mine},
		{"absolute path", nil, nil, []string{mine}, "", "", mine},
		{"missing bare name", nil, nil, []string{"no-such-prog-a0"}, "tool", "not_found", ""},
		{"missing path", nil, nil, []string{"./nope"}, "tool", "not_found", ""},
		{"not executable by path", nil, nil, []string{"./plain"}, "tool", "permission_denied", ""},
		{"a folder by path", nil, nil, []string{"./sub"}, "tool", "permission_denied", ""},
		{"non-executable file is skipped in PATH", nil, nil, []string{"plain"}, "tool", "not_found", ""},
		{"allowed by bare name", []string{"mytrue"}, nil, []string{"mytrue"}, "", "", mine},
		{"allowed by absolute path", []string{mine}, nil, []string{"./mytrue"}, "", "", mine},
		{"allow through a symlink matches the real path", []string{filepath.Join(dir, "alias")}, nil, []string{"mytrue"}, "", "", mine},
		{"a same-named program earlier on a PATH the program set is not allowed", []string{"mytrue"}, nil, []string{"mytrue"}, "cap_denied", "executable_not_allowed", "other"},
		{"a symlinked name is not the bare name allowed", []string{"mytrue"}, nil, []string{"alias"}, "cap_denied", "executable_not_allowed", ""},
		{"not in the allowlist", []string{"sh"}, nil, []string{"mytrue"}, "cap_denied", "executable_not_allowed", ""},
		{"denied by name", nil, []string{"mytrue"}, []string{"mytrue"}, "cap_denied", "executable_denied", ""},
		{"denied by real path through a symlink", nil, []string{mine}, []string{"alias"}, "cap_denied", "executable_denied", ""},
		{"deny wins over allow", []string{"mytrue"}, []string{"mytrue"}, []string{"mytrue"}, "cap_denied", "executable_denied", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := testEngine(t, func(c *Config) {
				c.WorkDir = dir
				c.BaseEnv = []string{"PATH=" + dir + ":/usr/bin:/bin"}
				c.Allow, c.Deny = tt.allow, tt.deny
			})
			r := &Request{Argv: tt.argv, MaxOutput: -1, Remaining: -1}
			if tt.path == "other" {
				r.Env = [][2]string{{"PATH", other}}
			}
			p, err := e.Prepare(r)
			if tt.kind == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if p.Spec.Path != tt.path && filepath.Clean(p.Spec.Path) != tt.path {
					t.Errorf("path %q, want %q", p.Spec.Path, tt.path)
				}
				if real, _ := filepath.EvalSymlinks(tt.path); p.ResolvedPath != real {
					t.Errorf("resolved %q, want %q", p.ResolvedPath, real)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a proc.Error", err)
			}
			if string(pe.Kind) != tt.kind || string(pe.Reason) != tt.reason {
				t.Errorf("got %s/%s (%s), want %s/%s", pe.Kind, pe.Reason, pe.Msg, tt.kind, tt.reason)
			}
			if len(pe.Fields) == 0 || pe.Fields[0][0] != "executable" || pe.Fields[0][1] != tt.argv[0] {
				t.Errorf("fields %v do not name the executable %q", pe.Fields, tt.argv[0])
			}
		})
	}
}

// TestPrepareShellRules: cmd mode needs allowShell and a listed shell, and
// a shell refused by the allowlist reports shell_not_allowed.
func TestPrepareShellRules(t *testing.T) {
	tests := []struct {
		name   string
		mod    func(*Config)
		shell  string
		reason string
	}{
		{"shell off", func(c *Config) { c.AllowShell = false }, "", "shell_not_allowed"},
		{"shell not listed", func(c *Config) { c.Shells = []string{"bash"} }, "sh", "shell_not_allowed"},
		{"listed shell outside the allowlist", func(c *Config) { c.Allow = []string{"true"} }, "sh", "shell_not_allowed"},
		{"absolute shell matched by its base name", func(c *Config) { c.Shells = []string{"sh"} }, "/bin/sh", ""},
		{"default shell", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := testEngine(t, tt.mod)
			p, err := e.Prepare(&Request{Cmd: "true", Shell: tt.shell, MaxOutput: -1, Remaining: -1})
			if tt.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Spec.Args) != 3 || p.Spec.Args[1] != "-c" || p.Spec.Args[2] != "true" {
					t.Errorf("args %q", p.Spec.Args)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.Kind != "cap_denied" || string(pe.Reason) != tt.reason {
				t.Fatalf("err = %#v, want cap_denied/%s", err, tt.reason)
			}
		})
	}
}

// TestPrepareCwdAndLimits: working directories under the root, stdin over
// the ceiling, output and timeout clamping, job timeouts.
func TestPrepareCwdAndLimits(t *testing.T) {
	root := t.TempDir()
	must(t, os.Mkdir(filepath.Join(root, "in"), 0o755))
	outside := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(root, "escape")))
	e := testEngine(t, func(c *Config) {
		c.Root = root
		c.MaxStdinBytes = 4
		c.MaxOutputBytes = 100
		c.MaxTimeout = 2 * time.Second
		c.MaxJob = 3 * time.Second
	})
	reason := func(r *Request) string {
		r.Argv = []string{"true"}
		if r.Remaining == 0 {
			r.Remaining = -1
		}
		_, err := e.Prepare(r)
		var pe *Error
		if errors.As(err, &pe) {
			return string(pe.Reason)
		}
		if err != nil {
			return err.Error()
		}
		return ""
	}
	for _, c := range []struct {
		r    Request
		want string
	}{
		{Request{Cwd: "in"}, ""},
		{Request{Cwd: root}, ""},
		{Request{Cwd: "../x"}, "cwd_outside_root"},
		{Request{Cwd: outside}, "cwd_outside_root"},
		{Request{Cwd: "escape"}, "cwd_outside_root"},
		{Request{Cwd: "missing"}, "cwd_not_found"},
		{Request{Stdin: []byte("12345"), HasStdin: true}, "invalid_args"},
		{Request{Stdin: []byte("1234"), HasStdin: true}, ""},
	} {
		if got := reason(&c.r); got != c.want {
			t.Errorf("%+v: reason %q, want %q", c.r, got, c.want)
		}
	}
	p, err := e.Prepare(&Request{Argv: []string{"true"}, MaxOutput: 1 << 20, HasTimeout: true, Timeout: time.Hour, Remaining: -1})
	must(t, err)
	if p.MaxOutput != 100 || p.Spec.Timeout != 2*time.Second || p.Spec.TimeoutReason != "timeout" {
		t.Errorf("clamps: out %d timeout %v reason %s", p.MaxOutput, p.Spec.Timeout, p.Spec.TimeoutReason)
	}
	p, err = e.Prepare(&Request{Argv: []string{"true"}, MaxOutput: -1, DefaultOut: 7, Remaining: 0})
	must(t, err)
	if p.MaxOutput != 7 || p.Spec.Timeout != time.Millisecond || p.Spec.TimeoutReason != "budget" {
		t.Errorf("budget: out %d timeout %v reason %s", p.MaxOutput, p.Spec.Timeout, p.Spec.TimeoutReason)
	}
	p, err = e.Prepare(&Request{Argv: []string{"true"}, MaxOutput: -1, IsJob: true, Remaining: -1})
	must(t, err)
	if !strings.HasPrefix(p.ID, "j_") || p.Spec.Timeout != 3*time.Second || p.EnvNames == nil {
		t.Errorf("job: id %s timeout %v env names %v", p.ID, p.Spec.Timeout, p.EnvNames)
	}
	if ids := e.ExecIDs(); len(ids) != 6 || ids[5] != p.ID {
		t.Errorf("ExecIDs = %v", ids)
	}
	if e.Config().Root != root {
		t.Error("Config does not return the configuration")
	}
}

// TestRunThroughEngine: Engine.Run runs a prepared command; a command
// killed by a signal reports 128+N and the signal's name.
func TestRunThroughEngine(t *testing.T) {
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "printf hi; kill -USR1 $$"})
	res, err := e.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout.Head) != "hi" || res.ExitCode != 128+int(syscall.SIGUSR1) || res.Signal != "SIGUSR1" {
		t.Errorf("stdout %q exit %d signal %q", res.Stdout.Head, res.ExitCode, res.Signal)
	}
}

func TestSignalNames(t *testing.T) {
	for s, want := range map[syscall.Signal]string{
		syscall.SIGTERM: "SIGTERM", syscall.SIGKILL: "SIGKILL", syscall.SIGINT: "SIGINT",
		syscall.SIGHUP: "SIGHUP", syscall.SIGQUIT: "SIGQUIT", syscall.SIGABRT: "SIGABRT",
		syscall.SIGSEGV: "SIGSEGV", syscall.SIGPIPE: "SIGPIPE", syscall.SIGUSR1: "SIGUSR1",
		syscall.SIGUSR2: "SIGUSR2", syscall.SIGALRM: "SIGALRM", syscall.SIGWINCH: "SIG28",
	} {
		if got := signalName(s); got != want {
			t.Errorf("signalName(%d) = %q, want %q", s, got, want)
		}
	}
}

// TestKeeperModes: head, tail and both modes keep the right bytes of a
// stream written in pieces of every size, and count what they drop.
func TestKeeperModes(t *testing.T) {
	stream := []byte("abcdefghijklmnopqrstuvwxyz0123456789")
	for _, mode := range []string{"both", "head", "tail"} {
		for _, max := range []int{0, 1, 7, 10, 36, 50} {
			for _, piece := range []int{1, 3, 11, 36} {
				k := newKeeper(max, mode)
				for off := 0; off < len(stream); off += piece {
					k.write(stream[off:min(off+piece, len(stream))])
				}
				out := k.output()
				hc := max / 2
				switch mode {
				case "head":
					hc = max
				case "tail":
					hc = 0
				}
				if out.Total != int64(len(stream)) {
					t.Fatalf("%s/%d/%d total %d", mode, max, piece, out.Total)
				}
				if max >= len(stream) {
					if out.Truncated || !bytes.Equal(out.Head, stream) {
						t.Errorf("%s/%d/%d: untruncated %q", mode, max, piece, out.Head)
					}
					continue
				}
				wantHead := stream[:hc]
				wantTail := stream[len(stream)-(max-hc):]
				if !out.Truncated || !bytes.Equal(out.Head, wantHead) || !bytes.Equal(out.Tail, wantTail) {
					t.Errorf("%s/%d/%d: head %q tail %q, want %q %q", mode, max, piece, out.Head, out.Tail, wantHead, wantTail)
				}
			}
		}
	}
	if got := Omitted(12); got != "\n[a0: 12 bytes omitted]\n" {
		t.Errorf("Omitted = %q", got)
	}
}

// TestMaskerFlush: a secret split across writes is still masked, and what
// is held back at the end is flushed.
func TestMaskerFlush(t *testing.T) {
	m := NewMasker([]Secret{{Name: "TOKEN", Value: "s3cr3tvalue"}})
	var out []byte
	for _, piece := range []string{"before s3cr", "3tval", "ue after s3c"} {
		out = append(out, m.Write([]byte(piece))...)
	}
	out = append(out, m.Flush()...)
	if got := string(out); got != "before [masked:TOKEN] after s3c" {
		t.Errorf("masked %q", got)
	}
}

// TestJobsQueries: a run sees its own jobs live and another run's jobs
// from the store; StoreJobs lists both, newest first.
func TestJobsQueries(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "jobs")
	mod := func(c *Config) { c.StoreDir = dir }
	first := NewJobs(testEngine(t, mod))
	first.Bind("run-a", nil)
	old := startJob(t, first, &Request{Cmd: "echo old"}, nil)
	<-old.Done()
	first.CloseAll("run_end")

	e := testEngine(t, mod)
	js := NewJobs(e)
	js.Bind("run-b", nil)
	js.Bind("ignored", nil) // only the first Bind counts
	defer js.CloseAll("run_end")
	if js.RunID() != "run-b" {
		t.Errorf("RunID = %q", js.RunID())
	}
	st, err := js.Store()
	if st == nil || err != nil || st.Dir() != dir {
		t.Fatalf("Store() = %v, %v", st, err)
	}
	live := startJob(t, js, &Request{Cmd: "sleep 30"}, nil)
	if live.Pid() <= 0 || live.Info().Completed() || live.Escalated() {
		t.Errorf("live job: pid %d info %+v", live.Pid(), live.Info())
	}
	if js.Get(live.ID) != live || js.Get(old.ID) != nil || len(js.List()) != 1 {
		t.Error("Get/List do not hold exactly this run's jobs")
	}
	if l, s, err := js.Lookup(live.ID); l != live || s != nil || err != nil {
		t.Errorf("Lookup(live) = %v %v %v", l, s, err)
	}
	l, s, err := js.Lookup(old.ID)
	if l != nil || s == nil || err != nil {
		t.Fatalf("Lookup(stored) = %v %v %v", l, s, err)
	}
	if info := s.Info(); info.RunID != "run-a" || info.State != "exited" || !info.Completed() || info.StdoutTotal != 4 {
		t.Errorf("stored info %+v", info)
	}
	if err := s.Reload(); err != nil {
		t.Error(err)
	}
	for _, id := range []string{"j_0000000000000000", "../etc", ""} {
		if l, s, err := js.Lookup(id); l != nil || s != nil || err != nil {
			t.Errorf("Lookup(%q) = %v %v %v", id, l, s, err)
		}
	}
	all := js.StoreJobs()
	if len(all) != 2 || all[0].Info().ID != live.ID || all[1].Info().ID != old.ID {
		ids := []string{}
		for _, v := range all {
			ids = append(ids, v.Info().ID)
		}
		t.Errorf("StoreJobs = %v, want [%s %s]", ids, live.ID, old.ID)
	}
	if n := len(st.List()); n != 2 {
		t.Errorf("store lists %d jobs", n)
	}
	live.Stop(StopOpts{Reason: "kill", Grace: 10 * time.Millisecond})
	<-live.Done()
	if info := live.Info(); !info.Completed() || info.State != "killed" {
		t.Errorf("after stop %+v", info)
	}
}

// TestJobReadAtAndSecrets: a job's output is read by offset (sh.tail's
// offset mode), past the end is reported, the running job's stored
// record counts its logs, and SecretsFor gives the mask set a request
// will get before it runs.
func TestJobReadAtAndSecrets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "jobs")
	e := testEngine(t, func(c *Config) { c.StoreDir = dir })
	js := NewJobs(e)
	js.Bind("run-r", nil)
	defer js.CloseAll("run_end")
	j := startJob(t, js, &Request{Cmd: "printf 'hello world'; sleep 30"}, nil)
	deadline := time.Now().Add(10 * time.Second)
	for j.Info().StdoutTotal < 11 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if c, ok := j.ReadAt(false, 6, 100); !ok || string(c.Data) != "world" || c.Start != 6 || c.End != 11 {
		t.Errorf("ReadAt(6) = %q %d-%d ok=%v", c.Data, c.Start, c.End, ok)
	}
	if _, ok := j.ReadAt(false, 99, 100); ok {
		t.Error("an offset past the output is not reported")
	}
	if j.Pid() != j.Info().Pid || j.p.StartedAt().IsZero() || j.p.Pid() != j.Pid() {
		t.Error("pid or start time not recorded")
	}
	st, _ := js.Store()
	sj, err := st.Load(j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if info := sj.Info(); info.State != "running" || info.StdoutTotal != 11 {
		t.Errorf("stored running job %+v", info)
	}

	secrets := e.SecretsFor(&Request{Cmd: "true", Env: [][2]string{{"API_TOKEN", "s3cr3t-value"}, {"PLAIN", "visible-value"}}, Mask: []string{"PLAIN"}})
	names := map[string]bool{}
	for _, s := range secrets {
		names[s.Name] = true
	}
	if !names["API_TOKEN"] || !names["PLAIN"] {
		t.Errorf("SecretsFor = %+v", secrets)
	}
	if (&StartError{Err: errors.New("boom")}).Error() != "boom" || StopReason("budget").Error() != "budget" || (&Error{Msg: "m"}).Error() != "m" {
		t.Error("error texts")
	}
}
