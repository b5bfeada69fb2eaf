//go:build !linux

package reap

// Start does nothing here and reports false.
func Start() bool { return false }

// All does nothing here and returns 0.
func All() int { return 0 }
