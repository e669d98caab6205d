//go:build !unix

package runtime

// readProgramFileRaw has no fast path here: readProgramFile uses os.File.
func readProgramFileRaw(string) ([]byte, bool, error) { return nil, false, nil }
