//go:build unix

package reap

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// alive reports whether a process has the id pid (one of another user's included).
func alive(pid int) bool { return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// startTime returns when pid started, in clock ticks after boot (/proc/PID/stat's 22nd
// field), where /proc has it.
func startTime(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return "", false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return "", false
	}
	return string(f[19]), true // field 22, counted from the state (field 3)
}
