//go:build !unix

package mcptool

import (
	"errors"
	"os"
)

// openNoFollow opens path for reading, only when it is not a symbolic
// link (checked before the open: no O_NOFOLLOW here).
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return os.Open(path)
}
