//go:build linux

package proc

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// setIDHelper tries every way to give a file in dir the set-user-ID or
// set-group-ID bit, and a plain chmod, and prints one line per attempt
// (name, then "ok" or the error), then the files that have either bit.
func setIDHelper(dir string) int {
	p := func(n string) string { return filepath.Join(dir, n) }
	errno := func(_, _ uintptr, e syscall.Errno) error {
		if e != 0 {
			return e
		}
		return nil
	}
	try := func(name string, err error) {
		if err == nil {
			fmt.Println(name, "ok")
		} else {
			fmt.Println(name, err)
		}
	}
	open := func(path string, flags int, mode uint32) error {
		fd, err := unix.Open(path, flags|unix.O_CLOEXEC, mode)
		if err == nil {
			unix.Close(fd)
		}
		return err
	}
	try("open-suid", open(p("open-suid"), unix.O_CREAT|unix.O_WRONLY, 0o4755))
	try("open-sgid", open(p("open-sgid"), unix.O_CREAT|unix.O_WRONLY|unix.O_EXCL, 0o2755))
	fd, err := unix.Openat(unix.AT_FDCWD, p("openat-suid"), unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o4700)
	if err == nil {
		unix.Close(fd)
	}
	try("openat-suid", err)
	try("tmpfile-sgid", open(dir, unix.O_TMPFILE|unix.O_WRONLY, 0o2755))
	if runtime.GOARCH == "amd64" {
		try("creat-suid", errno(syscall.RawSyscall(85, uintptr(unsafe.Pointer(cstr(p("creat-suid")))), 0o4755, 0)))
	}
	try("mknod-suid", unix.Mknodat(unix.AT_FDCWD, p("mknod-suid"), unix.S_IFREG|0o4755, 0))
	// An existing file, then its mode changed every way.
	plain := p("plain")
	try("create-plain", open(plain, unix.O_CREAT|unix.O_WRONLY, 0o644))
	try("chmod-suid", unix.Chmod(plain, 0o4755))
	try("chmod-sgid", unix.Chmod(plain, 0o2755))
	try("fchmodat-suid", unix.Fchmodat(unix.AT_FDCWD, plain, 0o6755, 0))
	try("fchmodat2-suid", errno(syscall.RawSyscall6(452, atFdcwd, uintptr(unsafe.Pointer(cstr(plain))), 0o4755, 0, 0, 0)))
	if fd, err := unix.Open(plain, unix.O_RDONLY|unix.O_CLOEXEC, 0); err == nil {
		try("fchmod-sgid", unix.Fchmod(fd, 0o2755))
		unix.Close(fd)
	}
	try("chmod-plain", unix.Chmod(plain, 0o755))
	how := unix.OpenHow{Flags: unix.O_CREAT | unix.O_WRONLY | unix.O_CLOEXEC, Mode: 0o4755}
	fd, err = unix.Openat2(unix.AT_FDCWD, p("openat2-suid"), &how)
	if err == nil {
		unix.Close(fd)
	}
	try("openat2-suid", err)
	ents, _ := os.ReadDir(dir)
	var setid []string
	for _, e := range ents {
		var st unix.Stat_t
		if unix.Lstat(p(e.Name()), &st) == nil && st.Mode&(unix.S_ISUID|unix.S_ISGID) != 0 {
			setid = append(setid, e.Name())
		}
	}
	fmt.Println("setid-files", strings.Join(setid, ","))
	return 0
}

// parseAttempts reads setIDHelper's and keyringHelper's lines.
func parseAttempts(out string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		k, v, _ := strings.Cut(l, " ")
		m[k] = v
	}
	return m
}

// TestSandboxNoSetID: a confined command cannot make a set-user-ID or
// set-group-ID file, by any call that sets a mode (EPERM from the seccomp
// filter); a plain chmod works; openat2 is refused with ENOSYS. The same
// calls unconfined succeed (the control).
func TestSandboxNoSetID(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	conf, free := filepath.Join(base, "conf"), filepath.Join(base, "free")
	os.Mkdir(conf, 0o755)
	os.Mkdir(free, 0o755)
	e := sandboxEngine(t, &Sandbox{Write: []string{conf}, Require: true})
	_, res := runIn(t, e, &Request{Argv: helperArgv(t, conf), Env: [][2]string{{"A0_SANDBOX_HELPER", "setid"}}})
	got := parseAttempts(string(res.Stdout.Head))
	for k, v := range got {
		switch {
		case k == "setid-files":
			if v != "" {
				t.Errorf("confined: files with a set-ID bit: %s", v)
			}
		case k == "openat2-suid":
			if v != unix.ENOSYS.Error() {
				t.Errorf("confined: openat2: %s, want ENOSYS", v)
			}
		case k == "create-plain" || k == "chmod-plain":
			if v != "ok" {
				t.Errorf("confined: %s: %s", k, v)
			}
		case v != unix.EPERM.Error():
			t.Errorf("confined: %s: %s, want EPERM", k, v)
		}
	}
	if len(got) < 12 {
		t.Fatalf("confined: too few attempts: %q %q", res.Stdout.Head, res.Stderr.Head)
	}
	// The control: unconfined, the same calls succeed.
	_, res = runIn(t, testEngine(t, nil), &Request{Argv: helperArgv(t, free), Env: [][2]string{{"A0_SANDBOX_HELPER", "setid"}}})
	got = parseAttempts(string(res.Stdout.Head))
	if got["chmod-suid"] != "ok" || got["open-suid"] != "ok" || !strings.Contains(got["setid-files"], "open-suid") {
		t.Errorf("unconfined control: %q", res.Stdout.Head)
	}
	// Through a shell, as the finding has it.
	cases := []struct {
		name, cmd string
		ok        bool
	}{
		{"cp and chmod 4755", "cp /bin/cat x && chmod 4755 x", false},
		{"chmod u+s", "cp /bin/cat y && chmod u+s y", false},
		{"chmod g+s", "cp /bin/cat z && chmod g+s z", false},
		{"install -m 4755", "install -m 4755 /bin/cat w", false},
		{"chmod 755", "cp /bin/cat v && chmod 755 v && ./v /dev/null", true},
	}
	for _, c := range cases {
		_, res := runIn(t, e, &Request{Cmd: "cd " + conf + " && " + c.cmd})
		if (res.ExitCode == 0) != c.ok {
			t.Errorf("%s: exit %d, want ok=%v; stderr %q", c.name, res.ExitCode, c.ok, res.Stderr.Head)
		}
	}
	ents, _ := os.ReadDir(conf)
	for _, en := range ents {
		if fi, err := os.Lstat(filepath.Join(conf, en.Name())); err == nil && fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
			t.Errorf("%s has a set-ID bit: %v", en.Name(), fi.Mode())
		}
	}
}

// keyringHelper tries the kernel keyring calls and prints what each
// answered. The key goes to the process keyring, which ends with the
// process: the user's own keyrings are left alone.
func keyringHelper() int {
	say := func(name string, err error) {
		if err == nil {
			fmt.Println(name, "ok")
		} else {
			fmt.Println(name, err)
		}
	}
	_, err := unix.AddKey("user", "a0-sandbox-test", []byte("secret"), unix.KEY_SPEC_PROCESS_KEYRING)
	say("add_key", err)
	_, err = unix.KeyctlInt(unix.KEYCTL_GET_KEYRING_ID, unix.KEY_SPEC_USER_KEYRING, 0, 0, 0)
	say("keyctl", err)
	_, err = unix.RequestKey("user", "a0-sandbox-test-absent", "", unix.KEY_SPEC_PROCESS_KEYRING)
	say("request_key", err)
	return 0
}

// TestSandboxNoKeyring: keyctl, add_key and request_key fail with EPERM
// in a confined command; unconfined they reach the kernel (the control).
func TestSandboxNoKeyring(t *testing.T) {
	t.Parallel()
	env := [][2]string{{"A0_SANDBOX_HELPER", "keyring"}}
	e := sandboxEngine(t, &Sandbox{Require: true})
	_, res := runIn(t, e, &Request{Argv: helperArgv(t), Env: env})
	got := parseAttempts(string(res.Stdout.Head))
	for _, k := range []string{"add_key", "keyctl", "request_key"} {
		if got[k] != unix.EPERM.Error() {
			t.Errorf("confined %s: %q, want EPERM (output %q)", k, got[k], res.Stdout.Head)
		}
	}
	_, res = runIn(t, testEngine(t, nil), &Request{Argv: helperArgv(t), Env: env})
	got = parseAttempts(string(res.Stdout.Head))
	if got["add_key"] != "ok" || got["keyctl"] != "ok" || got["request_key"] == unix.EPERM.Error() || got["request_key"] == "" {
		t.Errorf("unconfined control: %q", res.Stdout.Head)
	}
}

// setFileCaps gives path the file capabilities caps, permitted (and
// effective when effective is true), through the security.capability
// attribute (VFS_CAP_REVISION_2), as setcap does.
func setFileCaps(path string, caps uint64, effective bool) error {
	var b [20]byte
	magic := uint32(0x02000000)
	if effective {
		magic |= 1
	}
	binary.LittleEndian.PutUint32(b[0:], magic)
	binary.LittleEndian.PutUint32(b[4:], uint32(caps))
	binary.LittleEndian.PutUint32(b[12:], uint32(caps>>32))
	return unix.Setxattr(path, "security.capability", b[:], 0)
}

// capsOf returns the Cap* lines of a /proc/<pid>/status text as numbers.
func capsOf(status string) map[string]uint64 {
	m := map[string]uint64{}
	for _, l := range strings.Split(status, "\n") {
		if k, v, ok := strings.Cut(l, ":\t"); ok && strings.HasPrefix(k, "Cap") {
			m[k], _ = strconv.ParseUint(v, 16, 64)
		}
	}
	return m
}

// TestSandboxFileCaps: copies of cat given CAP_DAC_OVERRIDE,
// CAP_NET_ADMIN and CAP_SYS_ADMIN as file capabilities, inside a read
// root, never run confined with any of them. A capability-aware copy
// (permitted only) runs with no capability in any of its five sets,
// bounding set included; a capability-dumb one (effective bit too) is
// refused by execve (EPERM: the kernel will not run it without them).
// Unconfined, both run with them (the control). It needs root (setting
// file capabilities takes CAP_SETFCAP).
func TestSandboxFileCaps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile("/bin/cat")
	if err != nil {
		t.Skip(err)
	}
	want := uint64(1<<unix.CAP_DAC_OVERRIDE | 1<<unix.CAP_NET_ADMIN | 1<<unix.CAP_SYS_ADMIN)
	aware, dumb := filepath.Join(dir, "capcat-p"), filepath.Join(dir, "capcat-ep")
	for _, f := range []string{aware, dumb} {
		os.WriteFile(f, b, 0o755)
		if err := setFileCaps(f, want, f == dumb); err != nil {
			t.Skip("cannot set file capabilities here: ", err)
		}
	}
	e := sandboxEngine(t, &Sandbox{Read: []string{dir}, Require: true})
	for _, argv := range [][]string{{aware, "/proc/self/status"}, {"/bin/sh", "-c", aware + " /proc/self/status"}} {
		_, res := runIn(t, e, &Request{Argv: argv})
		caps := capsOf(string(res.Stdout.Head))
		if res.ExitCode != 0 || len(caps) != 5 {
			t.Fatalf("confined %v: exit %d, %q %q", argv, res.ExitCode, res.Stdout.Head, res.Stderr.Head)
		}
		for k, v := range caps {
			if v != 0 && (k != "CapBnd" || dropBoundingSet) {
				t.Errorf("confined %v: %s %x, want none", argv, k, v)
			}
		}
	}
	_, res := runIn(t, e, &Request{Cmd: dumb + " /proc/self/status"})
	if caps := capsOf(string(res.Stdout.Head)); res.ExitCode == 0 && dropBoundingSet || caps["CapEff"]|caps["CapPrm"] != 0 {
		t.Errorf("confined capability-dumb copy: exit %d, %q %q", res.ExitCode, res.Stdout.Head, res.Stderr.Head)
	}
	// The control: unconfined, the file's capabilities are granted.
	_, res = runIn(t, testEngine(t, nil), &Request{Argv: []string{aware, "/proc/self/status"}})
	if caps := capsOf(string(res.Stdout.Head)); caps["CapPrm"]&want != want {
		t.Errorf("unconfined control: CapPrm %x, want %x in it", caps["CapPrm"], want)
	}
	_, res = runIn(t, testEngine(t, nil), &Request{Argv: []string{dumb, "/proc/self/status"}})
	if caps := capsOf(string(res.Stdout.Head)); caps["CapEff"]&want != want {
		t.Errorf("unconfined control: CapEff %x, want %x in it", caps["CapEff"], want)
	}
}

// TestSandboxAmbientCaps: a command started by a process holding an
// ambient capability (a non-root a0 given one, as a service manager
// does) gets none when confined. It runs the test binary as uid 65534
// with CAP_DAC_OVERRIDE ambient.
func TestSandboxAmbientCaps(t *testing.T) {
	if os.Getenv("A0_AMBIENT_TEST") != "" {
		// The child: confined and unconfined, report CapAmb and CapEff.
		e := sandboxEngine(t, &Sandbox{Require: true})
		_, res := runIn(t, e, &Request{Argv: []string{"/bin/cat", "/proc/self/status"}})
		c := capsOf(string(res.Stdout.Head))
		fmt.Printf("confined %x %x %x\n", c["CapAmb"], c["CapEff"], c["CapInh"])
		_, res = runIn(t, testEngine(t, nil), &Request{Argv: []string{"/bin/cat", "/proc/self/status"}})
		c = capsOf(string(res.Stdout.Head))
		fmt.Printf("unconfined %x %x %x\n", c["CapAmb"], c["CapEff"], c["CapInh"])
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to start a process with an ambient capability")
	}
	// A copy of the test binary that uid 65534 can run.
	dir, err := os.MkdirTemp("", "a0-ambient-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	self, _ := os.Executable()
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "proc.test")
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestSandboxAmbientCaps$", "-test.v")
	cmd.Env = append(os.Environ(), "A0_AMBIENT_TEST=1", "HOME=/")
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Credential:  &syscall.Credential{Uid: 65534, Gid: 65534},
		AmbientCaps: []uintptr{unix.CAP_DAC_OVERRIDE},
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("cannot run as uid 65534 with an ambient capability (%v): %s", err, out)
	}
	var conf, unconf string
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "confined "); ok {
			conf = v
		}
		if v, ok := strings.CutPrefix(l, "unconfined "); ok {
			unconf = v
		}
	}
	if conf != "0 0 0" {
		t.Errorf("confined command of an a0 with an ambient capability: CapAmb/CapEff/CapInh %q (output %s)", conf, out)
	}
	if !strings.HasPrefix(unconf, "2 2") {
		t.Errorf("unconfined control: CapAmb/CapEff/CapInh %q (output %s)", unconf, out)
	}
}

func cstr(s string) *byte {
	p, _ := unix.BytePtrFromString(s)
	return p
}

// atFdcwd is AT_FDCWD as a system call argument.
var atFdcwd = func() uintptr { n := unix.AT_FDCWD; return uintptr(n) }()
