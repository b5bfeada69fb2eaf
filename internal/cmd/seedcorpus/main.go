// Command seedcorpus writes the seed corpus of every ClusterFuzzLite target
// (internal/cflite.Targets) into a folder; .clusterfuzzlite/build.sh runs it from the
// module's root:
//
//	go run ./internal/cmd/seedcorpus -out "$OUT"
//
// Exit codes: 0 written, 2 usage or a file that cannot be read or written.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/compacteval/compacteval/internal/cflite"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("seedcorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the `folder` to write <binary>_seed_corpus.zip files to (required)")
	root := fs.String("root", ".", "the module's root `folder`")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: seedcorpus -out DIR [-root DIR]")
		return 2
	}
	counts, err := cflite.WriteAll(*root, *out)
	if err != nil {
		fmt.Fprintf(stderr, "seedcorpus: %v\n", err)
		return 2
	}
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(stdout, "%s_seed_corpus.zip: %d seeds\n", name, counts[name])
	}
	return 0
}
