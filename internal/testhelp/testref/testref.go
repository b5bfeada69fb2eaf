// Package testref decides what a test does when the reference (../shared with Node) it
// compares with is absent: skip with a message saying what is missing, or fail where
// COMPACTEVAL_REQUIRE_REFERENCE=1 (.ci/run sets it, so CI never skips silently).
package testref

import (
	"os"
	"testing"
)

// EnvRequire names the variable that turns a missing reference into a failure.
const EnvRequire = "COMPACTEVAL_REQUIRE_REFERENCE"

// Missing ends the test because what it needs is absent (err says why): t.Skip with
// "SKIP <what>: <err>", or t.Fatal where EnvRequire is "1".
func Missing(t testing.TB, what string, err error) {
	t.Helper()
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s: required (%s=1) but missing: %v", what, EnvRequire, err)
	}
	t.Skipf("SKIP %s: %v", what, err)
}
