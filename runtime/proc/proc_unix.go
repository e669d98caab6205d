//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// signals maps the signal names the engine sends to their numbers.
var signals = map[string]syscall.Signal{
	"SIGTERM": syscall.SIGTERM,
	"SIGKILL": syscall.SIGKILL,
	"SIGINT":  syscall.SIGINT,
	"SIGHUP":  syscall.SIGHUP,
}

func signalGroup(pgid int, sig string) {
	s, ok := signals[sig]
	if !ok {
		s = syscall.SIGTERM
	}
	_ = syscall.Kill(-pgid, s)
}

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// groupAlive reports whether the group has members that are not zombies.
func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return false
	}
	// Members answer; on Linux confirm they are not all zombies.
	return hasLiveMember(pgid)
}

func hasLiveMember(pgid int) bool {
	found := false
	ok := eachProcStat(func(f []string) bool {
		if g, _ := strconv.Atoi(f[2]); g == pgid && f[0] != "Z" {
			found = true
			return false
		}
		return true
	})
	return found || !ok // no /proc: trust the probe
}

// eachProcStat calls visit with the fields of /proc/PID/stat after the
// command name (state, ppid, pgrp, session, …; at least four) of every
// process, until visit returns false; ok is false without /proc.
func eachProcStat(visit func(f []string) bool) (ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range ents {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || i+2 >= len(s) {
			continue
		}
		f := strings.Fields(s[i+2:])
		if len(f) < 4 {
			continue
		}
		if !visit(f) {
			break
		}
	}
	return true
}

func exitStatus(cmd *exec.Cmd, err error) (int, string) {
	st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok {
		if err != nil {
			return 1, ""
		}
		return cmd.ProcessState.ExitCode(), ""
	}
	if st.Signaled() {
		s := st.Signal()
		return 128 + int(s), signalName(s)
	}
	return st.ExitStatus(), ""
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGUSR1:
		return "SIGUSR1"
	case syscall.SIGUSR2:
		return "SIGUSR2"
	case syscall.SIGALRM:
		return "SIGALRM"
	case syscall.SIGXCPU:
		return "SIGXCPU"
	case syscall.SIGXFSZ:
		return "SIGXFSZ"
	}
	return "SIG" + strconv.Itoa(int(s))
}

// isExecutable reports whether p is a regular file with an execute bit
// (one stat, into a stack buffer: the PATH search calls it per entry).
func isExecutable(p string) bool {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(p, &st)
		if err == syscall.EINTR {
			continue
		}
		return err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Mode&0o111 != 0
	}
}
