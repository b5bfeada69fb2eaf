package render

import (
	"errors"

	"golang.org/x/sys/unix"
)

// noExchange makes exchange fail as on a file system without RENAME_EXCHANGE (for tests).
var noExchange = false

// exchange swaps the folders a and b atomically (renameat2 with RENAME_EXCHANGE), or
// returns errNoExchange where the file system or kernel cannot.
func exchange(a, b string) error {
	if noExchange {
		return errNoExchange
	}
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}

// processAlive reports whether process pid exists.
func processAlive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
