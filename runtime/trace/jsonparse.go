package trace

import "github.com/a0lang/a0/lang/value"

// parseLine parses one trace line the way JavaScript's JSON.parse does
// (value.ParseJSON): JSON whitespace around the value is allowed, a
// duplicate key keeps its first position and its last value, lone
// surrogate escapes are kept. ok is false for anything that is not exactly
// one JSON value.
func parseLine(s string) (v value.Value, ok bool) {
	v, err := value.ParseJSON(s)
	return v, err == nil
}
