//go:build windows

package main

import (
	"syscall"
	"time"
)

// cpu returns the CPU time the process has used (user and kernel).
func cpu() time.Duration {
	h, err := syscall.GetCurrentProcess()
	if err != nil {
		panic(err) // a pseudo-handle: it does not fail
	}
	var creation, exit, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(h, &creation, &exit, &kernel, &user); err != nil {
		panic(err)
	}
	// Filetime counts 100 ns intervals; Nanoseconds reads it as a date since 1601.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
