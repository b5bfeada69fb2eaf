//go:build !linux

package proccpu

import "time"

// TreeCPU is not measured here: it is always false (the caller uses the wall clock).
func TreeCPU(pid int) (time.Duration, bool) { return 0, false }

// SelfCPU is not measured here: it is always false.
func SelfCPU() (time.Duration, bool) { return 0, false }
