package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/infile"
)

const extractUsage = `Usage: compacteval extract [-json] [-extractor NAME] [FILE]

Reads one model response from FILE (stdin without one, or for -) and prints the summary an extractor takes from
it. Exit 1 when no summary is found.

Examples:
  compacteval extract response.txt
  compacteval extract -json -extractor seed < response.txt
  {"summary":"...","ok":true,"path":"line-anchored","extractor":"seed"}
`

func runExtract(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("extract", extractUsage, stderr)
	asJSON := fs.Bool("json", false, "print {summary, ok, path, extractor} as one JSON document")
	name := fs.String("extractor", "seed", "the extractor: a built-in `NAME` ("+compact.NameHelp()+"), module:FILE or cmd:COMMAND")
	timeout := fs.Duration("timeout", extractor.DefaultTimeout, "the longest wait for the answer of a module or command")
	limit(fs, "timeout", 0.001, 24*3600, "an extractor that never answers")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	ex, err := extractor.Open(ctx, *name, extractor.OpenOptions{Timeout: *timeout})
	if err != nil {
		if errors.Is(err, extractor.ErrUnknown) {
			fmt.Fprintf(stderr, "compacteval extract: unknown extractor %q (have %s, module:FILE, cmd:COMMAND)\n", *name, strings.Join(compact.ExtractorNames(), ", "))
		} else {
			fmt.Fprintf(stderr, "compacteval extract: %v\n", err)
		}
		return exitError
	}
	defer ex.Close()
	var in io.Reader = stdin
	src := "stdin"
	switch fs.NArg() {
	case 0:
	case 1:
		if fs.Arg(0) == "-" {
			break
		}
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "compacteval extract: %v\n", err)
			return exitError
		}
		defer f.Close()
		in, src = f, fs.Arg(0)
	default:
		fmt.Fprintln(stderr, "compacteval extract: at most one FILE")
		return exitError
	}
	text, err := infile.ReadAll(in, src, infile.MaxResponseBytes, "a response")
	if err != nil {
		fmt.Fprintf(stderr, "compacteval extract: read response: %v\n", err)
		return exitError
	}
	e := ex.Extract(string(text))
	if err := ex.Err(); err != nil {
		fmt.Fprintf(stderr, "compacteval extract: %v\n", err)
		return exitError
	}
	if e.Capped {
		fmt.Fprintf(stderr, "compacteval extract: %s stopped expanding the summary's $&, $` and $' at %d bytes (compact.MaxOutput, or twice the input); the rest is kept as written, where upstream would go on\n", ex.Name, max(compact.MaxOutput, 2*len(text)))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Summary   string       `json:"summary"`
			OK        bool         `json:"ok"`
			Path      compact.Path `json:"path"`
			Extractor string       `json:"extractor"`
			Capped    bool         `json:"capped,omitempty"`
		}{e.Summary, e.OK, e.Path, ex.Name, e.Capped})
	} else if e.OK {
		fmt.Fprintln(stdout, e.Summary)
	}
	if !e.OK {
		if e.Path == compact.PathRefused {
			fmt.Fprintf(stderr, "compacteval extract: no summary found: %s refuses an answer without a summary block\n", ex.Name)
		} else {
			fmt.Fprintln(stderr, "compacteval extract: no summary found")
		}
		return exitProblem
	}
	return exitOK
}
