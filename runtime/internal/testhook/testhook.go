// Package testhook holds the switches that tests of the runtime packages
// flip to reach states the machine cannot be put in (a kernel without
// Landlock). Being internal, it is out of reach of hosts and of every
// package outside runtime/; production code only reads it.
package testhook

import "sync/atomic"

// NoLandlock, when set, makes proc.SandboxStatus report a kernel without
// Landlock: the tests of exec.sandbox's `require` use it.
var NoLandlock atomic.Bool

// SetNoLandlock sets NoLandlock and returns a function that restores its
// previous value.
func SetNoLandlock(on bool) (restore func()) {
	old := NoLandlock.Swap(on)
	return func() { NoLandlock.Store(old) }
}
