package main

import (
	"fmt"
	"io"

	"github.com/compacteval/compacteval/report"
)

// readReport reads a report.json from path, or from stdin when path is "-" (named "stdin"
// in errors).
func readReport(path string, stdin io.Reader) (*report.Report, error) {
	if path != "-" {
		return report.Read(path)
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	return report.Parse("stdin", data)
}
