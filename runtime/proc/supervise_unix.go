//go:build unix

package proc

import (
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// startSupervisor runs exe as a supervisor in a session of its own, sends
// it d on its stdin and decodes its answer from its stdout. It is reaped
// in the background (a long-lived host must not collect zombies).
func startSupervisor(exe string, d *detachRequest, ack *detachAck) error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	// PATH resolves the allowlist as the run did; TMPDIR places the
	// private temporary folders of a sandbox as the run would.
	env := []string{"PATH=" + os.Getenv("PATH")}
	if t, ok := os.LookupEnv("TMPDIR"); ok {
		env = append(env, "TMPDIR="+t)
	}
	cmd := &exec.Cmd{Path: exe, Args: []string{exe, SupervisorArg}, Stdin: inR, Stdout: outW, Dir: "/", Env: env}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// startPlain: a0's own fork where there is one (it starts a session
	// too), so a supervisor started from a thread whose bounding set a0
	// emptied still gets a0's full set (boundthread_linux.go).
	err = startPlain(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return err
	}
	go cmd.Wait()
	_, encErr := inW.Write(marshal(d))
	inW.Close()
	// A supervisor answers once the command is spawned; one that does
	// not within a minute is stopped rather than waited for forever.
	_ = outR.SetReadDeadline(time.Now().Add(time.Minute))
	decErr := json.NewDecoder(outR).Decode(ack)
	outR.Close()
	if decErr != nil {
		_ = cmd.Process.Kill()
	}
	if encErr != nil {
		return encErr
	}
	return decErr
}

// ignoreHangup keeps the supervisor alive when the terminal of the run
// that started it goes away.
func ignoreHangup() { signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE) }

// controlSignals starts catching the signals that ask the supervisor to
// stop its job, before it answers the run: a request that arrives before
// the job is started waits for it.
func controlSignals() chan os.Signal {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGTERM, syscall.SIGINT)
	return ch
}

// stopOnControl runs a stop sequence when the supervisor gets SIGUSR1
// (control.json says how, reason kill) or SIGTERM / SIGINT (the default
// sequence, reason kill); SIGUSR2 calls reload (notify.json changed).
func stopOnControl(j *Job, ch chan os.Signal, reload func()) {
	go func() {
		for {
			select {
			case <-j.Done():
				signal.Stop(ch)
				return
			case s := <-ch:
				if s == syscall.SIGUSR2 {
					reload()
					continue
				}
				o := StopOpts{Reason: "kill"}
				if s == syscall.SIGUSR1 {
					c, ok := readControl(j.dir)
					if !ok {
						continue
					}
					o.Signal, o.NoEscalate = c.Signal, c.NoEscalate
					if c.GraceMs >= 0 {
						o.Grace, o.HasGrace = time.Duration(c.GraceMs)*time.Millisecond, true
					}
				}
				j.Stop(o)
			}
		}
	}()
}

// signalNotify tells the supervisor to read notify.json again.
func signalNotify(pid int) error { return syscall.Kill(pid, syscall.SIGUSR2) }

// signalSupervisor sends the supervisor SIGUSR1 (read control.json).
func signalSupervisor(pid int) error { return syscall.Kill(pid, syscall.SIGUSR1) }

// isSupervisor reports whether pid is this user's process running as a
// supervisor (`<a0> __supervise`).
func isSupervisor(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid)
	fi, err := os.Stat(dir)
	if err != nil {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return false
	}
	b, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return false
	}
	args := strings.Split(string(b), "\x00")
	return len(args) >= 2 && args[1] == SupervisorArg
}

// zombie reports whether pid has ended and waits to be reaped: a
// supervisor that died is no owner, even before its parent reaps it.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

// handOffStdout returns a copy of stdout and points descriptors 0 and 1
// at the null device, dropping the pipes of the run that started the
// supervisor.
func handOffStdout() *os.File {
	fd, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return os.Stdout
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		os.Stdin.Close()
		return os.NewFile(uintptr(fd), "answer")
	}
	_ = unix.Dup2(int(null.Fd()), 0)
	_ = unix.Dup2(int(null.Fd()), 1)
	null.Close()
	return os.NewFile(uintptr(fd), "answer")
}
