// Package testdist hands the tests that run a release archive (docs TestActionScript,
// scripts/dist TestDistRuns, scripts/npm TestNpmInstall) the one make test builds, so that
// the release is linked once per make test, not once per test (docs/testing.md, "Where
// the tests' CPU goes").
package testdist

import (
	"os"
	"path/filepath"
	"testing"
)

// The variables make test sets: EnvDir names a folder that scripts/dist wrote (the archive
// of this machine's platform and SHA256SUMS) with -version $EnvVersion, from the tree the
// tests run in (-allow-dirty).
const (
	EnvDir     = "COMPACTEVAL_TEST_DIST"
	EnvVersion = "COMPACTEVAL_TEST_DIST_VERSION"
)

// Shared copies the release make test built into a new temporary folder (the test may
// change its copy) and returns the folder and the release's version. ok is false when
// EnvDir is unset: the test builds its own, as go test alone does. archive names the
// archive the test runs for a version; when EnvDir is set and holds no such archive, or
// EnvVersion is unset, the test fails.
func Shared(t testing.TB, archive func(version string) string) (dir, version string, ok bool) {
	t.Helper()
	from := os.Getenv(EnvDir)
	if from == "" {
		return "", "", false
	}
	version = os.Getenv(EnvVersion)
	if version == "" {
		t.Fatalf("%s is set and %s is not: want the version the release in %s was built with", EnvDir, EnvVersion, from)
	}
	if _, err := os.Stat(filepath.Join(from, archive(version))); err != nil {
		t.Fatalf("the release make test built (%s=%s): %v", EnvDir, from, err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, version, true
}
