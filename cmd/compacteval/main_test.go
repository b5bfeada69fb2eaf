package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI's tests are the scripts in testdata/script (script_test.go); the Go tests here are
// those that need Go: record's fake servers, review's git worktree, bounds on generated input.

// repoRoot is the repository root; tests start in cmd/compacteval.
var repoRoot, _ = filepath.Abs("../..")

// runCLI runs the command in-process from the repository root, as a user would.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(repoRoot)
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}
