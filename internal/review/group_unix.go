//go:build !windows

package review

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that killGroup ends the build
// and the compilers it started.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the process group whose leader is pid.
func killGroup(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

// alive reports whether a process pid may still exist (anything but "no such process").
func alive(pid int) bool { return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
