package proc

import (
	"fmt"
	"os"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// termiosGet is the ioctl that reads a terminal's attributes.
const termiosGet = unix.TCGETS

// addTerminalRules lets a confined pty command open its own terminal
// again, by its name (/dev/pts/N) or as /dev/tty: read, write and
// ioctl on those two devices, nothing else. The descriptors it starts
// with were opened by a0, before its Landlock domain, and need no rule.
func addTerminalRules(ruleset int, tty *os.File) error {
	rights := fsRights(SandboxStatus().ABI) & (llsyscall.AccessFSReadFile | llsyscall.AccessFSWriteFile | llsyscall.AccessFSIoctlDev)
	if err := llsyscall.LandlockAddPathBeneathRule(ruleset, &llsyscall.PathBeneathAttr{AllowedAccess: rights, ParentFd: int(tty.Fd())}, 0); err != nil {
		return fmt.Errorf("landlock_add_rule (terminal): %w", err)
	}
	// O_PATH does not open the device (no controlling-terminal lookup).
	fd, err := unix.Open("/dev/tty", unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil // no /dev/tty: nothing to allow
	}
	defer unix.Close(fd)
	if err := llsyscall.LandlockAddPathBeneathRule(ruleset, &llsyscall.PathBeneathAttr{AllowedAccess: rights, ParentFd: fd}, 0); err != nil {
		return fmt.Errorf("landlock_add_rule (/dev/tty): %w", err)
	}
	return nil
}
