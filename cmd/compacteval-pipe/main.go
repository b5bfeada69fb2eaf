// Command compacteval-pipe is compacteval pipe alone: it answers the JSON-lines requests
// of docs/protocol.md on stdin with compacteval's extractors and instruction, one answer
// line per request, in order.
//
// It compiles only compact and the protocol, so compacteval review -base REV builds it at
// a revision in a fraction of the time the whole tool takes; a revision without it gets
// the whole tool, run as compacteval pipe.
//
// Usage:
//
//	compacteval-pipe < requests.jsonl
//
// Exit codes: 0 at the end of the input, 2 for an argument or a stream that cannot be
// read or written.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/compacteval/compacteval/internal/protocol"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "compacteval-pipe: unexpected argument %q\nUsage: compacteval-pipe < requests.jsonl (docs/protocol.md)\n", args[0])
		return 2
	}
	if err := protocol.Serve(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "compacteval-pipe: %v\n", err)
		return 2
	}
	return 0
}
