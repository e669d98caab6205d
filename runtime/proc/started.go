package proc

import (
	"time"

	"github.com/a0lang/a0/runtime/proc/internal/started"
)

// Started returns when the process started, as seen by the first package
// initialization that can read the clock (package internal/started
// imports only package time, so it is initialized before nearly every
// other package). `a0 run` counts a program's timeMs budget from it: the
// time the process spends starting up is time the caller waited.
func Started() time.Time { return started.At }
