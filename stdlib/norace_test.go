//go:build !race

package stdlib

// raceEnabled: see race_test.go.
const raceEnabled = false
