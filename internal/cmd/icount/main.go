// Command icount runs one extractor once on one benchmark input, inside a function that
// scripts/robust-instructions.sh has callgrind count the instructions of: a measure of
// robust's cost beside seed's that does not depend on what else the machine is doing. It
// prints the bytes the extraction allocated too.
//
//	go run ./internal/cmd/icount -input fences -size 1048576 -extractor robust
//
// -input is a family of textgen.Families (at -size bytes), a textgen.BenchInputs name, or
// "corpus" for every response of the bundled corpus in turn.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/textgen"
)

// measured is the function whose instructions are counted (callgrind --toggle-collect).
//
//go:noinline
func measured(e compact.Extractor, texts []string) (found int) {
	for _, t := range texts {
		if e.Extract(t).OK {
			found++
		}
	}
	return found
}

func main() {
	input := flag.String("input", "", "family, benchmark input or corpus")
	size := flag.Int("size", 1<<20, "size of a family's input in bytes")
	name := flag.String("extractor", "robust", "extractor profile")
	list := flag.Bool("list", false, "print the families' names, one a line, and exit")
	flag.Parse()
	if *list {
		for _, f := range textgen.Families(1) {
			fmt.Println(f.Name)
		}
		return
	}
	texts, err := inputs(*input, *size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "icount:", err)
		os.Exit(2)
	}
	e, ok := compact.Lookup(*name)
	if !ok {
		fmt.Fprintf(os.Stderr, "icount: no extractor %q (%s)\n", *name, compact.NameHelp())
		os.Exit(2)
	}
	bytes := 0
	for _, t := range texts {
		bytes += len(t)
	}
	// callgrind counts measured on the thread that entered it: a goroutine moved to another
	// thread mid-call (after a system call) would leave most of the call uncounted.
	runtime.LockOSThread()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	found := measured(e, texts)
	runtime.ReadMemStats(&after)
	fmt.Printf("%s %d texts %d bytes, %s found %d, allocated %d bytes\n", *input, len(texts), bytes, e.Name, found, after.TotalAlloc-before.TotalAlloc)
}

func inputs(name string, size int) ([]string, error) {
	if name == "corpus" {
		cs, err := corpus.LoadFS(corpus.Embedded(), corpus.EmbeddedLabel)
		if err != nil {
			return nil, err
		}
		var texts []string
		for _, c := range cs {
			texts = append(texts, c.Response)
		}
		return texts, nil
	}
	for _, in := range append(textgen.Families(size), textgen.BenchInputs()...) {
		if in.Name == name {
			return []string{in.Text}, nil
		}
	}
	return nil, fmt.Errorf("no input %q: a family of textgen.Families, a textgen.BenchInputs name or corpus", name)
}
