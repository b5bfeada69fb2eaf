// Command benchinputs writes benchmark inputs to a folder, one file per input, so that the
// scripts can time code under Node on the very same texts as the Go benchmarks, and prints
// the files' names (without .txt), one a line.
//
//	go run ./internal/cmd/benchinputs -out DIR                  textgen.BenchInputs (scripts/bench-reference.sh)
//	go run ./internal/cmd/benchinputs -set families -out DIR    textgen.Families at 100 KB, 1 MB and 10 MB, as BenchmarkFamilies
//	go run ./internal/cmd/benchinputs -set corpus -out DIR      corpus.json: every response of the bundled corpus, as BenchmarkCorpusAnswers
//	go run ./internal/cmd/benchinputs -set module -out DIR      10 MB answers for the module: path (scripts/module-cost.sh)
//
// A family's file is named FAMILY-100KB, FAMILY-1MB or FAMILY-10MB, the sub-benchmark's name in
// BenchmarkFamilies with its extractor left off (scripts/bench-robust-ts.sh).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/textgen"
)

// moduleShapes are the families scripts/module-cost.sh sends through the module: path at
// 10 MB, beside a typical answer: the ones where robust.ts is slowest against Go, or the
// protocol's share largest.
var moduleShapes = []string{"closer-chains", "attribute-openers", "mixed-fences"}

// familySizes are BenchmarkFamilies' sizes (compact/bench_test.go).
var familySizes = []struct {
	bytes int
	name  string
}{{100 << 10, "100KB"}, {1 << 20, "1MB"}, {10 << 20, "10MB"}}

func main() {
	out := flag.String("out", "", "folder to write the inputs to")
	set := flag.String("set", "bench", "inputs: bench, families, corpus or module")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: benchinputs [-set bench|families|corpus|module] -out DIR")
		os.Exit(2)
	}
	if err := write(*out, *set); err != nil {
		fmt.Fprintln(os.Stderr, "benchinputs:", err)
		os.Exit(2)
	}
}

func write(out, set string) error {
	save := func(name string, b []byte) error {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return err
		}
		return nil
	}
	switch set {
	case "bench":
		for _, in := range textgen.BenchInputs() {
			if err := save(in.Name+".txt", []byte(in.Text)); err != nil {
				return err
			}
			fmt.Println(in.Name)
		}
	case "families":
		for _, size := range familySizes {
			for _, f := range textgen.Families(size.bytes) {
				name := f.Name + "-" + size.name
				if err := save(name+".txt", []byte(f.Text)); err != nil {
					return err
				}
				fmt.Println(name)
			}
		}
	case "corpus":
		cs, err := corpus.LoadFS(corpus.Embedded(), corpus.EmbeddedLabel)
		if err != nil {
			return err
		}
		texts := make([]string, 0, len(cs))
		for _, c := range cs {
			texts = append(texts, c.Response)
		}
		b, err := json.Marshal(texts)
		if err != nil {
			return err
		}
		if err := save("corpus.json", b); err != nil {
			return err
		}
		fmt.Println("corpus")
	case "module":
		const size = 10 << 20
		if err := save("typical-10MB.txt", []byte(textgen.WellFormed(textgen.BenchRand(), size))); err != nil {
			return err
		}
		fmt.Println("typical-10MB")
		for _, f := range textgen.Families(size) {
			if slices.Contains(moduleShapes, f.Name) {
				if err := save(f.Name+"-10MB.txt", []byte(f.Text)); err != nil {
					return err
				}
				fmt.Println(f.Name + "-10MB")
			}
		}
	default:
		return fmt.Errorf("unknown -set %q: bench, families, corpus or module", set)
	}
	return nil
}
