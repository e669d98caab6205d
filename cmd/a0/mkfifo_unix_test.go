//go:build unix

package main

import "syscall"

func mkfifoForScript(path string) error { return syscall.Mkfifo(path, 0o600) }
