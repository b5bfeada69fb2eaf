package reap

import (
	"bytes"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Start makes the calling process a child subreaper: an orphan among its descendants
// becomes its child instead of init's. It reports whether that worked.
func Start() bool {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
}

// maxRounds bounds All's rounds: each round kills the children there are, and their own
// children become children in turn, one generation a round.
const maxRounds = 1000

// All kills every child of the calling process with SIGKILL and reaps it, round after
// round, until none is left: after Start these are every descendant still running. It
// returns the number of processes it killed. Call it when nothing else waits for a child
// (the command's own exec.Cmd were waited for).
func All() int {
	n := 0
	for range maxRounds {
		kids := Children()
		if len(kids) == 0 {
			return n
		}
		for _, pid := range kids {
			if unix.Kill(pid, unix.SIGKILL) == nil {
				n++
			}
		}
		for _, pid := range kids {
			var ws unix.WaitStatus
			for {
				_, err := unix.Wait4(pid, &ws, 0, nil)
				if !errors.Is(err, unix.EINTR) {
					break
				}
			}
		}
	}
	return n
}

// Children returns the ids of the calling process's children, zombies included, from
// /proc.
func Children() []int {
	self := os.Getpid()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parent(pid); ok && ppid == self {
			out = append(out, pid)
		}
	}
	return out
}

// parent reads the parent id from /proc/PID/stat: the fourth field, counted after the
// command name, which is in parentheses and may hold spaces and parentheses itself.
func parent(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	return ppid, err == nil
}
