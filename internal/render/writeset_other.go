//go:build !linux

package render

// noExchange is unused here: exchange always fails.
var noExchange = true

// exchange cannot swap folders atomically on this system: WriteSet renames instead.
func exchange(a, b string) error { return errNoExchange }

// processAlive cannot tell here; stale folders are always removed.
func processAlive(pid int) bool { return false }
