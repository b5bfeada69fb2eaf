//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpu returns the CPU time the process has used (user and system).
func cpu() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		panic(err) // RUSAGE_SELF with a valid pointer does not fail
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
