package main

import (
	"context"
	"fmt"
	"io"

	"github.com/compacteval/compacteval/internal/outfile"
	"github.com/compacteval/compacteval/internal/render"
)

const reportUsage = `Usage: compacteval report [-format md|html|junit] [-o FILE] REPORT.json

Renders a report.json that compacteval run wrote (- reads it from stdin), without running
anything again: Markdown (the default), the self-contained HTML page, or JUnit XML (one
testsuite per extractor, a testcase per corpus case, failing where the run found a problem;
a drift testsuite with a testcase per extractor and an eval testsuite with a testcase per
eval case).

Exit codes: 0 rendered; 2 usage error, unreadable report or another schema version.

Examples:
  compacteval report reports/latest/report.json > report.md
  compacteval report -format html -o /tmp/report.html reports/latest/report.json
  compacteval report -format junit reports/latest/report.json > junit.xml
`

func runReport(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("report", reportUsage, stderr)
	format := fs.String("format", "md", "md, html or junit")
	out := fs.String("o", "", "write to FILE (atomically) instead of stdout")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "compacteval report: want one report.json, got %d arguments\n", fs.NArg())
		return exitError
	}
	r, err := readReport(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval report: %v\n", err)
		return exitError
	}
	var data []byte
	var kind outfile.Kind
	switch *format {
	case "md", "markdown":
		kind = outfile.Markdown
		data, err = render.Markdown(r)
	case "html":
		kind = outfile.HTML
		data, err = render.HTML(r)
	case "junit":
		kind = outfile.JUnit
		data, err = render.JUnit(r)
	default:
		fmt.Fprintf(stderr, "compacteval report: -format %q: want md, html or junit\n", *format)
		return exitError
	}
	if err != nil {
		fmt.Fprintf(stderr, "compacteval report: %v\n", err)
		return exitError
	}
	if *out != "" {
		if err := writeOutput(stderr, "report", *out, data, kind); err != nil {
			fmt.Fprintf(stderr, "compacteval report: %v\n", err)
			return exitError
		}
		return exitOK
	}
	if _, err := stdout.Write(data); err != nil {
		fmt.Fprintf(stderr, "compacteval report: %v\n", err)
		return exitError
	}
	return exitOK
}
