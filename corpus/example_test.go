package corpus_test

import (
	"fmt"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// Load a case file and check it: its known deviations must list exactly the extractors
// that do not return the intended summary. This one lists none, and vscode's formatter,
// which needs a <summary> opener, finds no summary in untagged text.
func ExampleParse() {
	data := []byte(`version: 1
id: empty-and-degenerate/padded
title: A short untagged summary with spaces around it
categories: [empty-and-degenerate]
notes: No tags at all; robust falls back to the trimmed text.
origin:
  kind: synthetic
response: "   Upgraded the Helm chart to 3.2.   "
intended:
  found: true
  summary: Upgraded the Helm chart to 3.2.
`)
	c, err := corpus.Parse("cases/empty-and-degenerate/padded.yaml", data, "empty-and-degenerate/padded")
	if err != nil {
		fmt.Println(err)
		return
	}
	var exs []compact.Extractor
	for _, name := range []string{"seed", "robust", "vscode"} {
		ex, _ := compact.Lookup(name)
		exs = append(exs, ex)
	}
	fmt.Println(c.ID, c.Intended.Summary)
	for _, p := range corpus.CheckDeviations(c, exs) {
		fmt.Println(p)
	}
	// Output:
	// empty-and-degenerate/padded Upgraded the Helm chart to 3.2.
	// cases/empty-and-degenerate/padded.yaml: vscode deviates from intended (finds no summary via none) but known_deviations does not list it: add known_deviations.vscode with a one-line reason
}
