// Command outside reads a report.json and fuzzes a function, from another module.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/report"
)

func main() {
	if len(os.Args) > 1 {
		r, err := report.Read(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%d cases, failed %v\n", r.Corpus.Cases, report.FailedCases(r))
	}
	trim := compact.Extractor{Name: "trim", Extract: func(s string) compact.Extraction {
		return compact.Extraction{Summary: strings.TrimSpace(s), OK: true}
	}}
	res, err := fuzz.Run(fuzz.Of(trim), nil, fuzz.Options{Size: -1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("fuzz failed:", res.Failed())
}
