//go:build !linux

package reap

import (
	"errors"
	"os/exec"
)

var errNotLinux = errors.New("cgroups are Linux only")

// Init does nothing here.
func Init() Status { return Status{NoCgroup: errNotLinux.Error()} }

// All does nothing here and returns 0.
func All() int { return 0 }

// Start starts cmd (exec.Cmd.Start).
func Start(cmd *exec.Cmd) error { return cmd.Start() }

// CgroupUsable reports why the command could not use a cgroup: they are Linux only.
func CgroupUsable() error { return errNotLinux }
