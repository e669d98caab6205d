//go:build !unix

package tools

import "os"

func umask() os.FileMode { return 0 }
