//go:build !unix

package mcptool_test

import "os"

// mkfifo: without named pipes, an empty file stands in.
func mkfifo(path string) error { return os.WriteFile(path, nil, 0o600) }
