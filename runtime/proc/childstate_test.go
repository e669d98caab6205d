//go:build linux

package proc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The child-state test (issue 28, "fence the fork"): a command started by
// a0's own fork, unconfined or confined, must begin in the same process
// state as one started by os/exec, except for what confinement changes on
// purpose. Two programs report the state:
//
//   - head(1) prints the kernel's view of itself (/proc/self/status,
//     limits, stat, cgroup and a few more): the signal mask and
//     dispositions, every rlimit, credentials, capabilities, umask,
//     session. A program in Go cannot: its runtime installs handlers and
//     raises RLIMIT_NOFILE before any of its code runs.
//   - the test binary as the "state" helper prints, as JSON, what the
//     runtime leaves alone: working directory, environment, open
//     descriptors (read with raw system calls, before Go opens any of its
//     own), namespaces.

// childStateHelper is the "state" helper mode (sandboxHelper).
func childStateHelper() int {
	var st struct {
		Args  []string          `json:"args"`
		Cwd   string            `json:"cwd"`
		Env   []string          `json:"env"`
		Fds   map[string]string `json:"fds"`
		Ns    map[string]string `json:"ns"`
		Prctl map[string]string `json:"prctl"`
	}
	st.Fds = map[string]string{}
	dir, err := unix.Open("/proc/self/fd", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fmt.Println("open /proc/self/fd:", err)
		return 1
	}
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := unix.Getdents(dir, buf)
		if err != nil || n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	unix.Close(dir)
	for _, name := range names {
		if name == strconv.Itoa(dir) {
			continue
		}
		target, _ := os.Readlink("/proc/self/fd/" + name)
		if i := strings.Index(target, ":["); i > 0 {
			target = target[:i] // pipe:[inode], socket:[inode]
		}
		flags := ""
		for _, l := range strings.Split(rawRead("/proc/self/fdinfo/"+name), "\n") {
			if v, ok := strings.CutPrefix(l, "flags:"); ok {
				flags = strings.TrimSpace(v)
			}
		}
		st.Fds[name] = target + " flags " + flags
	}
	st.Args = os.Args
	st.Cwd, _ = unix.Getwd()
	st.Env = os.Environ()
	st.Ns = map[string]string{}
	for _, n := range []string{"cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts"} {
		st.Ns[n], _ = os.Readlink("/proc/self/ns/" + n)
	}
	// What prctl(2) reads and /proc does not show (none of it changed by
	// Go's runtime).
	st.Prctl = map[string]string{}
	for name, op := range map[string]int{
		"securebits": unix.PR_GET_SECUREBITS, "thp_disable": unix.PR_GET_THP_DISABLE,
		"dumpable": unix.PR_GET_DUMPABLE, "child_subreaper": -1, "mce_kill": unix.PR_MCE_KILL_GET,
		"io_flusher": unix.PR_GET_IO_FLUSHER, "pdeathsig": -2,
	} {
		var r uintptr
		var e syscall.Errno
		switch op {
		case -1, -2: // the value is written to an int
			var v int32
			which := uintptr(unix.PR_GET_CHILD_SUBREAPER)
			if op == -2 {
				which = unix.PR_GET_PDEATHSIG
			}
			_, _, e = syscall.RawSyscall6(unix.SYS_PRCTL, which, uintptr(unsafe.Pointer(&v)), 0, 0, 0, 0)
			r = uintptr(v)
		default:
			r, _, e = syscall.RawSyscall6(unix.SYS_PRCTL, uintptr(op), 0, 0, 0, 0, 0)
		}
		st.Prctl[name] = fmt.Sprint(r, " ", e)
	}
	b, _ := json.Marshal(st)
	fmt.Println(string(b))
	return 0
}

// rawRead reads a small file with raw system calls (no descriptor of Go's
// runtime poller is opened).
func rawRead(path string) string {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return ""
	}
	defer unix.Close(fd)
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(fd, buf)
		if err != nil || n <= 0 {
			return string(out)
		}
		out = append(out, buf[:n]...)
	}
}

// procFiles are the /proc/self files head(1) prints for the kernel's view
// (one a kernel does not have makes head exit 1 after printing the
// others).
var procFiles = []string{"status", "limits", "stat", "cgroup", "oom_score_adj", "personality",
	"sessionid", "loginuid", "timerslack_ns", "autogroup"}

// statusVaries are the /proc/self/status fields that differ between any
// two processes (identity, memory, counters), not compared.
var statusVaries = map[string]bool{
	"Name": true, "State": true, "Tgid": true, "Ngid": true, "Pid": true, "PPid": true,
	"NStgid": true, "NSpid": true, "NSpgid": true, "NSsid": true, "Threads": true,
	"SigQ": true, "FDSize": true, "voluntary_ctxt_switches": true, "nonvoluntary_ctxt_switches": true,
	"Kthread": true,
}

// childState is a process's state as comparable keys: "status.SigBlk",
// "limit.Max open files", "stat.session", "proc.cgroup", "env", "cwd",
// "fd.1", "ns.pid".
type childState map[string]string

// parseKernelView reads head's output over procFiles.
func parseKernelView(t *testing.T, out string) childState {
	t.Helper()
	st := childState{}
	sections := map[string][]string{}
	var cur string
	for _, l := range strings.Split(out, "\n") {
		if name, ok := strings.CutPrefix(l, "==> /proc/self/"); ok {
			cur = strings.TrimSuffix(name, " <==")
			continue
		}
		if cur != "" && l != "" {
			sections[cur] = append(sections[cur], l)
		}
	}
	if len(sections["status"]) == 0 || len(sections["limits"]) < 2 || len(sections["stat"]) != 1 {
		t.Fatalf("head printed no state: %q", out)
	}
	for _, l := range sections["status"] {
		k, v, _ := strings.Cut(l, ":")
		if strings.HasPrefix(k, "Vm") || strings.HasPrefix(k, "Rss") || strings.HasPrefix(k, "Hugetlb") || statusVaries[k] {
			continue
		}
		st["status."+k] = strings.Join(strings.Fields(v), " ")
	}
	for _, l := range sections["limits"][1:] {
		if len(l) > 26 {
			f := strings.Fields(l[26:])
			if len(f) >= 2 {
				st["limit."+strings.TrimSpace(l[:26])] = f[0] + " " + f[1]
			}
		}
	}
	// stat: pid (comm) state ppid pgrp session tty_nr tpgid flags ...
	stat := sections["stat"][0]
	pid, _, _ := strings.Cut(stat, " ")
	f := strings.Fields(stat[strings.LastIndexByte(stat, ')')+2:])
	if len(f) < 39 {
		t.Fatalf("short stat: %q", stat)
	}
	at := func(n int) string { return f[n-3] } // n: the field's number in proc(5)
	own := func(v string) string {
		if v == pid {
			return "its own pid"
		}
		return v
	}
	st["stat.ppid"] = at(4)
	st["stat.pgrp"] = own(at(5))
	st["stat.session"] = own(at(6))
	st["stat.tty_nr"] = at(7)
	st["stat.tpgid"] = at(8)
	st["stat.priority"] = at(18)
	st["stat.nice"] = at(19)
	st["stat.exit_signal"] = at(38)
	st["stat.rt_priority"] = at(40)
	st["stat.policy"] = at(41)
	for _, name := range procFiles[3:] {
		st["proc."+name] = strings.Join(sections[name], "\n")
	}
	// Every session is an autogroup of its own: its number differs.
	if _, nice, ok := strings.Cut(st["proc.autogroup"], " "); ok {
		st["proc.autogroup"] = nice
	}
	return st
}

// parseHelperState reads the state helper's JSON.
func parseHelperState(t *testing.T, out string) childState {
	t.Helper()
	var h struct {
		Args  []string
		Cwd   string
		Env   []string
		Fds   map[string]string
		Ns    map[string]string
		Prctl map[string]string
	}
	if err := json.Unmarshal([]byte(out), &h); err != nil || h.Cwd == "" {
		t.Fatalf("state helper: %v: %q", err, out)
	}
	st := childState{"cwd": h.Cwd, "args": strings.Join(h.Args, "\x00")}
	for _, kv := range h.Env {
		k, _, _ := strings.Cut(kv, "=")
		st["env."+k] += kv + "\x00" // a name given twice shows
	}
	names := make([]string, 0, len(h.Env))
	for _, kv := range h.Env {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	st["env order"] = strings.Join(names, " ")
	for fd, d := range h.Fds {
		st["fd."+fd] = d
	}
	for n, l := range h.Ns {
		st["ns."+n] = l
	}
	for n, v := range h.Prctl {
		st["prctl."+n] = v
	}
	return st
}

// stateProgs are the two programs run in each way: head over procFiles,
// and the test binary as the state helper.
func stateProgs(t *testing.T) [2][]string {
	head, err := exec.LookPath("head")
	if err != nil {
		t.Skip("no head(1)")
	}
	argv := []string{head, "-n", "100000"}
	for _, f := range procFiles {
		argv = append(argv, "/proc/self/"+f)
	}
	return [2][]string{argv, helperArgv(t)}
}

// stateRequest is the request of one program of stateProgs.
func stateRequest(argv []string) *Request {
	return &Request{Argv: argv, Env: [][2]string{{"A0_SANDBOX_HELPER", "state"}, noRaceSleep}}
}

// noRaceSleep spares a helper built with -race the race detector's
// one-second sleep at exit.
var noRaceSleep = [2]string{"GORACE", "atexit_sleep_ms=0"}

// osExecState runs p's command with os/exec as a host would (the same
// path, arguments, environment, folder and session as the engine gives
// it; os/exec's own pipes and /dev/null) and returns its state.
func osExecState(t *testing.T, p *Prepared, helper bool) childState {
	t.Helper()
	cmd := &exec.Cmd{Path: p.Spec.Path, Args: p.Spec.Args, Dir: p.Spec.Dir, Env: p.Spec.Env}
	setGroup(cmd)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil && (helper || out.Len() == 0) {
		t.Fatalf("os/exec %q: %v: %s", p.Spec.Args, err, errb.String())
	}
	if helper {
		return parseHelperState(t, out.String())
	}
	return parseKernelView(t, out.String())
}

// engineState runs p with the engine (a0's own fork on linux/amd64 and
// arm64) and returns its state.
func engineState(t *testing.T, p *Prepared, helper bool) childState {
	t.Helper()
	res, err := Run(context.Background(), &p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 && (helper || len(res.Stdout.Head) == 0) || res.Stdout.Truncated {
		t.Fatalf("%q: exit %d: %s", p.Spec.Args, res.ExitCode, res.Stderr.Head)
	}
	if helper {
		return parseHelperState(t, string(res.Stdout.Head))
	}
	return parseKernelView(t, string(res.Stdout.Head))
}

// diffStates returns the keys on which want and got differ, but for
// those allowed (a key, or a prefix ending in "*") and the descriptors
// above 2 that only want has (os/exec passes on those a0 holds without
// close-on-exec; a0's child marks them).
func diffStates(want, got childState, allowed []string) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	var diffs []string
	for k := range keys {
		if want[k] == got[k] || isAllowed(k, allowed) {
			continue
		}
		if n, ok := strings.CutPrefix(k, "fd."); ok {
			if fd, _ := strconv.Atoi(n); fd > 2 && got[k] == "" {
				continue
			}
		}
		diffs = append(diffs, fmt.Sprintf("%s: os/exec %q, a0 %q", k, want[k], got[k]))
	}
	sort.Strings(diffs)
	return diffs
}

func isAllowed(k string, allowed []string) bool {
	for _, a := range allowed {
		if a == k || strings.HasSuffix(a, "*") && strings.HasPrefix(k, a[:len(a)-1]) {
			return true
		}
	}
	return false
}

// The differences confinement makes on purpose (spec/exec.md §12).
var (
	// Always: no_new_privs, the seccomp filter, no capability; the
	// private temporary folder; its own exec id. (The Landlock domain
	// does not show in /proc.)
	confinedAllowed = []string{
		"status.NoNewPrivs", "status.Seccomp", "status.Seccomp_filters",
		"status.CapInh", "status.CapPrm", "status.CapEff", "status.CapBnd", "status.CapAmb",
		"env.TMPDIR", "env.TMP", "env.TEMP", "env.A0_EXEC_ID", "env order",
	}
	// With limits: the rlimits they set, and the pids cgroup of the
	// process cap (RLIMIT_NPROC where there is none).
	limitsAllowed = []string{
		"limit.Max cpu time", "limit.Max address space", "limit.Max file size",
		"limit.Max open files", "limit.Max processes", "proc.cgroup",
	}
)

// TestChildState compares the state a command starts in, started by the
// engine (a0's own fork: unconfined, confined, confined with limits) and
// by os/exec: rlimits (soft and hard, all), signal mask, ignored and
// caught signals, credentials, umask, session and process group,
// scheduling, cgroup, namespaces, working directory, environment, open
// descriptors. Only confinement's own differences are allowed. It then
// runs itself again in a harder start state: a soft RLIMIT_NOFILE below
// the hard one (which Go raises for itself), SIGHUP and SIGUSR2 ignored
// (as under nohup; Go keeps only SIGHUP ignored), with the signals cmd/a0
// catches caught.
func TestChildState(t *testing.T) {
	// cmd/a0 catches these (run, repl, mcp): its children must not
	// inherit a handler or a mask for them.
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, syscall.SIGINT, syscall.SIGTERM, syscall.SIGPIPE, syscall.SIGUSR1)
	defer signal.Stop(caught)

	work := t.TempDir()
	progs := stateProgs(t)
	plain := testEngine(t, func(c *Config) { c.WorkDir = work })
	for i, argv := range progs {
		helper := i == 1
		p := prepare(t, plain, stateRequest(argv))
		want := osExecState(t, p, helper)
		got := engineState(t, p, helper)
		if len(want) < 10 {
			t.Fatalf("too little state: %q", want)
		}
		if again := os.Getenv("A0_CHILD_STATE_AGAIN"); again != "" && !helper {
			// The harder start state reaches os/exec's child: SIGHUP
			// stays ignored (bit 0), the soft limit is the one a0 was
			// started with.
			ign, _ := strconv.ParseUint(want["status.SigIgn"], 16, 64)
			if ign&1 == 0 || !strings.HasPrefix(want["limit.Max open files"], again+" ") {
				t.Errorf("start state not in os/exec's child: SigIgn %q, open files %q (want soft %s)", want["status.SigIgn"], want["limit.Max open files"], again)
			}
		}
		for _, d := range diffStates(want, got, nil) {
			t.Errorf("unconfined %s: %s", filepath.Base(argv[0]), d)
		}
		for _, sb := range []*Sandbox{{Require: true}, {Require: true, Limits: Limits{CPUSeconds: 100, MemoryBytes: 8 << 30, FileBytes: 1 << 30, OpenFiles: 512, Processes: 1000}}} {
			if !SandboxStatus().Available {
				t.Log("no Landlock here: only the unconfined command compared")
				break
			}
			exe, _ := os.Executable()
			sb.Read = []string{filepath.Dir(exe)}
			e := testEngine(t, func(c *Config) { c.WorkDir = work; c.Sandbox = sb })
			t.Cleanup(e.CloseSandbox)
			allowed := confinedAllowed
			if sb.Limits.Any() {
				allowed = slices.Concat(confinedAllowed, limitsAllowed)
			}
			cp := prepare(t, e, stateRequest(argv))
			got := engineState(t, cp, helper)
			for _, d := range diffStates(want, got, allowed) {
				t.Errorf("confined (limits %v) %s: %s", sb.Limits.Any(), filepath.Base(argv[0]), d)
			}
			// The allowed differences are there: the comparison sees
			// the confinement.
			if !helper && (got["status.NoNewPrivs"] != "1" || got["status.Seccomp"] != "2") {
				t.Errorf("confined: NoNewPrivs %q, Seccomp %q", got["status.NoNewPrivs"], got["status.Seccomp"])
			}
			if !helper && sb.Limits.Any() && got["limit.Max open files"] != "512 512" {
				t.Errorf("confined with limits: open files %q", got["limit.Max open files"])
			}
		}
	}
	if os.Getenv("A0_CHILD_STATE_AGAIN") != "" {
		return
	}
	exe, _ := os.Executable()
	var lim unix.Rlimit
	unix.Getrlimit(unix.RLIMIT_NOFILE, &lim)
	soft := "1024"
	if lim.Max <= 1025 || lim.Max == unix.RLIM_INFINITY {
		soft = strconv.FormatUint(lim.Max, 10) // nothing to lower
	}
	c := exec.Command("/bin/sh", "-c", `trap '' HUP USR2; ulimit -Sn `+soft+` && exec "$0" -test.run='^TestChildState$' -test.v`, exe)
	c.Env = append(os.Environ(), "A0_CHILD_STATE_AGAIN="+soft, noRaceSleep[0]+"="+noRaceSleep[1])
	out, err := c.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestChildState")) {
		t.Errorf("again, with RLIMIT_NOFILE %s and SIGHUP, SIGUSR2 ignored at start: %v\n%s", soft, err, out)
	}
}

// TestChildStateSees: the comparison is not blind: a command started
// with a signal ignored, a different umask, another folder, a variable
// more or an extra descriptor differs from os/exec's on that key.
func TestChildStateSees(t *testing.T) {
	progs := stateProgs(t)
	work := t.TempDir()
	e := testEngine(t, func(c *Config) { c.WorkDir = work })
	p := prepare(t, e, stateRequest(progs[0]))
	want := osExecState(t, p, false)
	// head started by a shell with SIGUSR2 ignored and umask 077 is seen
	// as different on those keys.
	q := *p
	q.Spec.Path = "/bin/sh"
	q.Spec.Args = append([]string{"sh", "-c", `trap '' USR2; umask 077; exec "$@"`, "sh"}, progs[0]...)
	got := osExecState(t, &q, false)
	diffs := strings.Join(diffStates(want, got, nil), "\n")
	for _, k := range []string{"status.SigIgn", "status.Umask"} {
		if !strings.Contains(diffs, k+":") {
			t.Errorf("a changed %s is not seen: %s", k, diffs)
		}
	}
	ph := prepare(t, e, stateRequest(progs[1]))
	wantH := osExecState(t, ph, true)
	r := *ph
	r.Spec.Env = append(slices.Clone(ph.Spec.Env), "A0_CHILD_STATE_EXTRA=1")
	r.Spec.Dir = t.TempDir()
	gotH := osExecState(t, &r, true)
	diffs = strings.Join(diffStates(wantH, gotH, nil), "\n")
	for _, k := range []string{"env.A0_CHILD_STATE_EXTRA", "cwd"} {
		if !strings.Contains(diffs, k+":") {
			t.Errorf("a changed %s is not seen: %s", k, diffs)
		}
	}
	if d := diffStates(wantH, childState{"fd.3": "x"}, nil); !slices.ContainsFunc(d, func(s string) bool { return strings.HasPrefix(s, "fd.3:") }) {
		t.Errorf("a descriptor only a0's child has is not seen: %q", d)
	}
}

// TestOwnForkCmdLikeOsExec: a0's fork reads an exec.Cmd as os/exec does
// (for a host that fills a Spec itself): a nil Env is a0's environment
// with PWD set to Dir, a name given twice keeps its last value, empty
// entries are dropped, no Args runs the program with Path as argv[0], and
// a NUL in the environment is refused.
func TestOwnForkCmdLikeOsExec(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("A0_SANDBOX_HELPER", "state")
	t.Setenv(noRaceSleep[0], noRaceSleep[1])
	dir := t.TempDir()
	base := []string{"A0_SANDBOX_HELPER=state", "PATH=/usr/bin:/bin", noRaceSleep[0] + "=" + noRaceSleep[1]}
	cases := []struct {
		name string
		cmd  func() *exec.Cmd
	}{
		{"nil Env, Dir", func() *exec.Cmd { return &exec.Cmd{Path: exe, Args: []string{exe}, Dir: dir} }},
		{"nil Env", func() *exec.Cmd { return &exec.Cmd{Path: exe, Args: []string{exe}} }},
		{"a name twice", func() *exec.Cmd {
			return &exec.Cmd{Path: exe, Args: []string{exe}, Env: append(slices.Clone(base), "A0_TWICE=first", "HOME=/", "A0_TWICE=last")}
		}},
		{"empty entries", func() *exec.Cmd { return &exec.Cmd{Path: exe, Args: []string{exe}, Env: append([]string{""}, base...)} }},
		{"no Args", func() *exec.Cmd { return &exec.Cmd{Path: exe, Env: base} }},
		{"Dir and PWD given", func() *exec.Cmd {
			return &exec.Cmd{Path: exe, Args: []string{exe, "x"}, Dir: dir, Env: append(slices.Clone(base), "PWD=/elsewhere")}
		}},
	}
	run := func(cmd *exec.Cmd, start func(*exec.Cmd) error) (string, error) {
		setGroup(cmd)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cmd.Stdout = w
		err = start(cmd)
		w.Close()
		if err != nil {
			return "", err
		}
		var out bytes.Buffer
		out.ReadFrom(r)
		if err := cmd.Wait(); err != nil {
			return out.String(), err
		}
		return out.String(), nil
	}
	for _, c := range cases {
		outW, errW := run(c.cmd(), (*exec.Cmd).Start)
		outG, errG := run(c.cmd(), startPlain)
		if errW != nil || errG != nil {
			t.Errorf("%s: os/exec %v, a0 %v (%s)", c.name, errW, errG, outG)
			continue
		}
		for _, d := range diffStates(parseHelperState(t, outW), parseHelperState(t, outG), nil) {
			t.Errorf("%s: %s", c.name, d)
		}
	}
	// A NUL in the environment: neither starts anything.
	nul := func() *exec.Cmd {
		return &exec.Cmd{Path: exe, Args: []string{exe}, Env: append(slices.Clone(base), "A0_NUL=a\x00b")}
	}
	if _, err := run(nul(), (*exec.Cmd).Start); err == nil {
		t.Error("os/exec started a command with a NUL in its environment")
	}
	if _, err := run(nul(), startPlain); err == nil {
		t.Error("a0 started a command with a NUL in its environment")
	}
}
