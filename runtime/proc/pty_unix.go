//go:build unix

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal of the spec's size for a pty
// command. The slave is the child's end (outW, errW; the caller makes it
// stdin too); the master is read as the command's one output stream
// (outR, or rawOut for pollSource) and written through in, on one
// non-blocking open file description.
func openTerminal(s *Spec, raw bool) (pp *pipes, in *os.File, err error) {
	m, t, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("opening a pseudo-terminal: %w", err)
	}
	defer m.Close()
	if err := pty.Setsize(t, &pty.Winsize{Cols: s.Cols, Rows: s.Rows}); err != nil {
		t.Close()
		return nil, nil, fmt.Errorf("setting the terminal's size: %w", err)
	}
	// The master's own *os.File was put in blocking mode (its Fd was
	// read); two duplicates made non-blocking serve instead.
	mfd := int(m.Fd())
	rd, err := unix.FcntlInt(uintptr(mfd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		t.Close()
		return nil, nil, err
	}
	wr, err := unix.FcntlInt(uintptr(mfd), unix.F_DUPFD_CLOEXEC, 0)
	if err == nil {
		err = unix.SetNonblock(rd, true)
	}
	if err != nil {
		unix.Close(rd)
		if wr >= 0 {
			unix.Close(wr)
		}
		t.Close()
		return nil, nil, err
	}
	pp = &pipes{rawOut: -1, rawErr: -1, outW: t, errW: t}
	if raw {
		pp.rawOut = rd
	} else {
		pp.outR = os.NewFile(uintptr(rd), "ptmx")
	}
	return pp, os.NewFile(uintptr(wr), "ptmx"), nil
}

// setCtty makes the child's standard input its controlling terminal
// (os/exec's child; a0's own reads the flag in specFor).
func setCtty(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		setGroup(cmd)
	}
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Setctty = true
	cmd.SysProcAttr.Ctty = 0
}

// veof returns the terminal's EOF character (^D when it cannot be read).
func veof(f *os.File) byte {
	c := byte(4)
	if termiosGet == 0 {
		return c
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return c
	}
	rc.Control(func(fd uintptr) {
		if t, err := unix.IoctlGetTermios(int(fd), termiosGet); err == nil && t.Cc[unix.VEOF] != 0 {
			c = t.Cc[unix.VEOF]
		}
	})
	return c
}

// ttyHeld reports whether a process still holds the slave of the pty
// whose master is m (no POLLHUP on the master; true when it cannot
// tell).
func ttyHeld(m *os.File) bool {
	held := true
	rc, err := m.SyscallConn()
	if err != nil {
		return true
	}
	rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err == nil && n > 0 && fds[0].Revents&unix.POLLHUP != 0 {
			held = false
		}
	})
	return held
}

// sessionGroups returns the process groups that have a live (not
// zombie) member in session sid; ok is false without /proc.
func sessionGroups(sid int) (groups []int, ok bool) {
	ok = eachProcStat(func(f []string) bool {
		// state ppid pgrp session
		if f[0] == "Z" || f[0] == "X" {
			return true
		}
		if ss, _ := strconv.Atoi(f[3]); ss != sid {
			return true
		}
		g, _ := strconv.Atoi(f[2])
		if g > 0 && !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
		return true
	})
	return groups, ok
}
