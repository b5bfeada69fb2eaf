//go:build !cpuprofile

package main

// startCPUProfile does nothing: a build with -tags cpuprofile writes the profile that
// COMPACTEVAL_CPUPROFILE names (cpuprofile.go).
func startCPUProfile() (stop func()) { return func() {} }
