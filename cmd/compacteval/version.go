package main

import (
	"fmt"
	"io"

	"github.com/compacteval/compacteval/internal/buildinfo"
)

// runVersion prints the build on one line: the version, the commit it was built from
// ("unknown" when the build carries none: go run, go test), and the Go toolchain.
//
//	compacteval v0.3.0 (commit 0123456789abcdef0123456789abcdef01234567, go1.26.0)
//	compacteval 0123456789ab+dirty (commit 0123456789abcdef0123456789abcdef01234567, modified, go1.26.0)
func runVersion(stdout io.Writer) int {
	in := buildinfo.Read()
	commit := in.Revision
	if commit == "" {
		commit = "unknown"
	}
	if in.Modified {
		commit += ", modified"
	}
	fmt.Fprintf(stdout, "compacteval %s (commit %s, %s)\n", in.Version(), commit, in.Go)
	return exitOK
}
