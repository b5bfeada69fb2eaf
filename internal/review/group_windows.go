package review

import (
	"os"
	"os/exec"
)

// ownGroup does nothing on Windows, which has no process groups to kill as one.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the process pid alone.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// alive reports whether a process pid may still exist: on Windows, whether it can be
// opened.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err == nil {
		p.Release()
	}
	return err == nil
}
