package protocol

import (
	"os"
	"os/exec"
)

// ownGroup does nothing on Windows, which has no process groups to kill as one.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills p alone: what it started itself may outlive it on Windows.
func killGroup(p *os.Process) { _ = p.Kill() }
