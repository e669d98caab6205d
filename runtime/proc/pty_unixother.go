//go:build unix && !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package proc

// termiosGet: not known here; veof answers ^D.
const termiosGet = 0
