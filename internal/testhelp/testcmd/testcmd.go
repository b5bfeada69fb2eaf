// Package testcmd runs commands for tests that drive whole programs (the release, npm and
// package tests under scripts/).
package testcmd

import (
	"os/exec"
	"strings"
	"testing"
)

// Run runs name with args in dir and returns its stdout; on an error it fails the test
// with the command, the folder, its stdout and its stderr.
func Run(t testing.TB, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s%s", name, strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return string(out)
}
