package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// watchState reports, on the returned channel, every replacement of a
// file in a job folder (state.json is written by a rename), through
// inotify; stop ends the watch. ok is false when inotify is not
// available (the caller polls alone).
func watchState(dir string) (changed <-chan struct{}, stop func(), ok bool) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, nil, false
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_MOVED_TO|unix.IN_CLOSE_WRITE); err != nil {
		unix.Close(fd)
		return nil, nil, false
	}
	f := os.NewFile(uintptr(fd), "inotify")
	ch := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := f.Read(buf); err != nil {
				return
			}
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}()
	return ch, func() { f.Close() }, true
}
