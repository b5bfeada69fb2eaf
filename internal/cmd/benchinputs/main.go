// Command benchinputs writes textgen.BenchInputs to a folder, one file per input, so that
// scripts/bench-reference.sh can time the reference under Node on the very same texts.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compacteval/compacteval/internal/textgen"
)

func main() {
	out := flag.String("out", "", "folder to write the inputs to")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: benchinputs -out DIR")
		os.Exit(2)
	}
	for _, in := range textgen.BenchInputs() {
		if err := os.WriteFile(filepath.Join(*out, in.Name+".txt"), []byte(in.Text), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(in.Name)
	}
}
