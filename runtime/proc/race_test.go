//go:build race

package proc

// raceDetector is true in a test binary built with -race.
const raceDetector = true
