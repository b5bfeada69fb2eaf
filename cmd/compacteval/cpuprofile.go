//go:build cpuprofile

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the whole process to the file that the
// environment variable COMPACTEVAL_CPUPROFILE names, if it names one, until the returned
// function is called (before compacteval exits). It is for measuring the commands
// (scripts/run-profile.sh builds with -tags cpuprofile), not a flag: no user needs it, and
// a build without the tag neither has it nor compiles runtime/pprof. A file that cannot be
// written is said on stderr and the command runs unprofiled.
func startCPUProfile() (stop func()) {
	path := os.Getenv("COMPACTEVAL_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "compacteval: COMPACTEVAL_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "compacteval: COMPACTEVAL_CPUPROFILE: %v\n", err)
		}
	}
}
