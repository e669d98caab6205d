package main

import "golang.org/x/sys/unix"

// closeRangeCloexec marks descriptors 3 and up close-on-exec with one
// close_range call; false when the kernel (or a seccomp profile) refuses.
func closeRangeCloexec() bool {
	return unix.CloseRange(3, ^uint(0)>>32, unix.CLOSE_RANGE_CLOEXEC) == nil
}
