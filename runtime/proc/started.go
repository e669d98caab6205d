package proc

import (
	"time"

	"github.com/a0lang/a0/runtime/proc/internal/started"
)

// procInit is when this package was initialized: Started's answer where
// the earlier clock reading is not available.
var procInit = time.Now()

// Started returns when the process started: on Linux, the time of the
// first package initialization less the CPU time the main thread had used
// by then (the exec and the Go runtime's start-up; never earlier than the
// process's creation), see package internal/started; elsewhere, this
// package's own initialization. `a0 run` counts a program's timeMs budget from it: the
// time the process spends starting up is time the caller waited.
func Started() time.Time {
	now := time.Now()
	if ns, ok := started.MonoNow(); ok {
		return now.Add(-time.Duration(ns - started.Mono))
	}
	return procInit
}
