package main

import "github.com/a0lang/a0/runtime"

// failedChecks returns one diagnostic per failed `check` of a run's
// evidence (runtime.FailedChecks).
var failedChecks = runtime.FailedChecks
