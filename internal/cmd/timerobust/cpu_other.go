//go:build !unix && !windows

package main

import "time"

var started = time.Now()

// cpu returns the wall time since the process started: getrusage is Unix only, so the
// measurement here holds only on an idle machine.
func cpu() time.Duration { return time.Since(started) }
