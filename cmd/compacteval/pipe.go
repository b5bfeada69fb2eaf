package main

import (
	"context"
	"fmt"
	"io"

	"github.com/compacteval/compacteval/internal/protocol"
)

const pipeUsage = `Usage: compacteval pipe

Answers the JSON-lines requests of ../shared/reference/reference.mjs on stdin with the Go
port, one answer line per request, in order, flushing after each (docs/protocol.md). A
request that cannot be parsed gets {"error": "..."} and the stream goes on. An extract
request may name an extractor with "profile" (default seed).

Example:
  printf '%s\n' '{"op":"extract","text":"<summary>\nhi\n</summary>"}' | compacteval pipe
  {"summary":"hi"}
`

func runPipe(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("pipe", pipeUsage, stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compacteval pipe: unexpected argument %q\n", fs.Arg(0))
		return exitError
	}
	if err := protocol.Serve(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "compacteval pipe: %v\n", err)
		return exitError
	}
	return exitOK
}
