//go:build amd64 || arm64

package nofile

// prlimitNofile reads this process's RLIMIT_NOFILE into lim with a raw
// prlimit64 system call; it returns 0 or the negated errno.
func prlimitNofile(lim *[2]uint64) int64

func init() { Known = prlimitNofile(&At) == 0 }
