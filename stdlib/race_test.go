//go:build race

package stdlib

// raceEnabled: the race detector slows everything down ten times or more;
// timing bounds are not checked under it.
const raceEnabled = true
