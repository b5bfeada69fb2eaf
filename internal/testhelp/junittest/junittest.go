// Package junittest checks JUnit XML as its consumers read it, for tests only: against a
// JUnit schema with xmllint, and through an independent reader of JUnit files
// (github.com/joshdk/go-junit), which must find the same tests and failures.
//
// testdata/junit.xsd is the schema; its comment says which consumers' rules it follows.
package junittest

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	junit "github.com/joshdk/go-junit"
)

// schema is testdata/junit.xsd, embedded rather than found through runtime.Caller, whose
// file name is no path under -trimpath (make test builds with it).
//
//go:embed testdata/junit.xsd
var schema []byte

// ErrNoXmllint is returned by Check where xmllint is not installed.
var ErrNoXmllint = errors.New("xmllint not installed")

// Check validates data against the schema with xmllint. It returns xmllint's complaints
// and whether the file is valid, or ErrNoXmllint.
func Check(data []byte) (complaints string, valid bool, err error) {
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		return "", false, ErrNoXmllint
	}
	dir, err := os.MkdirTemp("", "junittest")
	if err != nil {
		return "", false, err
	}
	defer os.RemoveAll(dir)
	file, xsd := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "junit.xsd")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return "", false, err
	}
	if err := os.WriteFile(xsd, schema, 0o644); err != nil {
		return "", false, err
	}
	out, err := exec.Command(bin, "--noout", "--schema", xsd, file).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), true, nil
	case errors.As(err, &exit):
		return string(out), false, nil
	}
	return string(out), false, fmt.Errorf("run xmllint: %w", err)
}

// Validate fails t, printing xmllint's complaints, when data does not validate. Without
// xmllint it logs a skip message and returns false (apt-get install libxml2-utils;
// .ci/run installs it).
func Validate(t *testing.T, data []byte) bool {
	t.Helper()
	out, valid, err := Check(data)
	switch {
	case errors.Is(err, ErrNoXmllint):
		t.Log("SKIP: xmllint not installed, the JUnit schema is not checked; apt-get install libxml2-utils to check it")
		return false
	case err != nil:
		t.Fatal(err)
	case !valid:
		t.Errorf("xmllint --schema junit.xsd: the file does not validate:\n%s", out)
	}
	return true
}

// Parse reads data with go-junit and fails t when it cannot.
func Parse(t *testing.T, data []byte) []junit.Suite {
	t.Helper()
	suites, err := junit.Ingest(data)
	if err != nil {
		t.Fatalf("go-junit cannot read the file: %v\n%s", err, data)
	}
	return suites
}

// Totals adds up go-junit's totals of suites.
func Totals(suites []junit.Suite) junit.Totals {
	var t junit.Totals
	for _, s := range suites {
		t.Tests += s.Totals.Tests
		t.Passed += s.Totals.Passed
		t.Skipped += s.Totals.Skipped
		t.Failed += s.Totals.Failed
		t.Error += s.Totals.Error
	}
	return t
}
