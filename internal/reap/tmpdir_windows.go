//go:build windows

package reap

import "os"

// alive reports whether a process has the id pid.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// startTime is not read here: the id alone names the owner.
func startTime(pid int) (string, bool) { return "", false }
