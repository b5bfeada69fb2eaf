package compact_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// seedTexts returns the fuzz seeds: every corpus response, then tricky inputs from the unit
// tests' traps.
func seedTexts(tb testing.TB) []string {
	cases, err := corpus.Load("../corpus/cases")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A fuzzing binary built away from the repository (ClusterFuzzLite) has no corpus
		// folder; the engine brings its own corpus there.
		tb.Logf("no corpus seeds: %v", err)
	case err != nil:
		tb.Fatalf("load corpus seeds: %v", err)
	}
	var seeds []string
	for _, c := range cases {
		seeds = append(seeds, c.Response)
	}
	return append(seeds,
		"",
		"<analysis>\nthink\n</analysis>\n\n<summary>\n1. Request\n</summary>\n",
		"<summary>\r\nbody\r\n</summary>\r\n",
		"<summary>\nbody\n</summary>\u2028after",
		"intro\u2029<summary>\nbody\n</summary>",
		"<summary>\na\n</summary>\nmiddle\n</summary>\nend",
		"<analysis>a</analysis>mid</analysis>",
		"\ufeff<summary>\n\u0085body\ufeff\n</summary>",
		"<summary>\n<summary>\n<summary>\n",
	)
}
