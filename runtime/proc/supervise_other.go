//go:build !unix

package proc

import (
	"errors"
	"os"
)

func startSupervisor(string, *detachRequest, *detachAck) error {
	return errors.New("detached jobs need a Unix system")
}

func ignoreHangup() {}

func controlSignals() chan os.Signal { return nil }

func stopOnControl(*Job, chan os.Signal, func()) {}

func signalNotify(int) error { return errors.New("detached jobs need a Unix system") }

func signalSupervisor(int) error { return errors.New("detached jobs need a Unix system") }

func isSupervisor(int) bool { return false }

func zombie(int) bool { return false }

func handOffStdout() *os.File { return os.Stdout }
