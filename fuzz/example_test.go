package fuzz_test

import (
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz"
)

// Check a function's properties: this extractor takes everything after the first
// <summary> line, closing tag included, so it keeps a structural tag line (tag-kept). With
// no time budget and no time check (Size -1) only the given responses are sent; each
// failure kept is minimized to a small input that still fails.
func ExampleRun() {
	afterOpener := func(text string) compact.Extraction {
		_, rest, ok := strings.Cut(text, "<summary>\n")
		return compact.Extraction{Summary: rest, OK: ok}
	}
	cases := []*corpus.Case{{
		ID:       "malformed-tags/analysis-after-summary",
		Response: "<summary>\n1. Fix the test.\n</summary>\n<analysis>\nprivate notes\n</analysis>",
		Intended: corpus.Intended{Found: true, Summary: "1. Fix the test."},
	}}
	res, err := fuzz.Run(fuzz.Of(compact.Extractor{Name: "after-opener", Extract: afterOpener}), cases, fuzz.Options{Size: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("failed:", res.Failed())
	for _, p := range fuzz.Properties {
		if res.Counts[p] > 0 {
			fmt.Printf("%s: %d\n", p, res.Counts[p])
		}
	}
	for _, f := range res.Examples {
		fmt.Printf("%s on %q (%d bytes before minimizing)\n", f.Kind, f.Input, f.OriginalBytes)
	}
	// Output:
	// failed: true
	// tag-kept: 1
	// tag-kept:/summary on "<summary>\n</summary>" (74 bytes before minimizing)
}
