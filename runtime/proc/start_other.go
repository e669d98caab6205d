//go:build !linux

package proc

import "os/exec"

// startPlain starts an unconfined command with os/exec (Go's child
// gives RLIMIT_NOFILE back but keeps descriptors a0 inherited without
// close-on-exec; cmd/a0 marks those at start).
func startPlain(cmd *exec.Cmd) error { return cmd.Start() }
