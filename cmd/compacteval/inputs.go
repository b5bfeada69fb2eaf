package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
)

// inputs are the flags that say what a command runs on: which extractors, over which
// corpus. run, drift, fuzz and init share them.
type inputs struct {
	extractors extractor.Values
	corpora    extractor.Values
	timeout    time.Duration
}

const inputsUsage = `Extractors (-extractor, may repeat; default: every built-in profile):
  NAME              a built-in profile: %s
  module:FILE       a TypeScript (.ts, .mts) or JavaScript (.mjs, .js) module exporting
                    extractSummary, bundled by esbuild and run under node
  cmd:COMMAND       a command (sh -c) that answers docs/protocol.md on stdin and stdout
Corpus (-corpus, may repeat; default: embedded, the corpus inside this binary):
  embedded          the bundled cases (and the seed goldens)
  DIR               a folder of category folders of case files (corpus/FORMAT.md); a case
                    with an id an earlier corpus has replaces it; a case file an earlier
                    -corpus read already (same real path) is read once
`

func inputsHelp() string {
	return fmt.Sprintf(inputsUsage, compact.NameHelp())
}

func (in *inputs) register(fs *flag.FlagSet) {
	fs.Var(&in.extractors, "extractor", "an extractor: a built-in `NAME`, module:FILE or cmd:COMMAND (may repeat)")
	fs.Var(&in.corpora, "corpus", "a corpus: embedded or a `DIR` (may repeat)")
	fs.DurationVar(&in.timeout, "timeout", extractor.DefaultTimeout, "the longest wait for one answer of a module or command")
	limit(fs, "timeout", 0.001, 24*3600, "an extractor that never answers")
}

// holdBytes is how many bytes of case texts a command holds from opening its corpus: a
// corpus that fits (the bundled one has about 5 MB) is parsed once, a larger one is read
// again a batch at a time, beyond these.
const holdBytes = 8 << 20

// open opens the extractors and reads the corpus (corpus.OpenHolding): the pipeline reads
// the cases that were not held again a batch at a time. The caller closes the extractors.
func (in *inputs) open(ctx context.Context, name string, stderr io.Writer) ([]*extractor.Extractor, *corpus.Corpus, bool) {
	c, err := corpus.OpenHolding(in.corpora, holdBytes)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval %s: %v\n", name, err)
		return nil, nil, false
	}
	if n := len(c.Repeated); n > 0 {
		more := ""
		if n > 1 {
			more = fmt.Sprintf(" and %d more", n-1)
		}
		fmt.Fprintf(stderr, "compacteval %s: %s reached again through a later -corpus, read once from the first: %s%s\n", name, plural(n, "case file"), c.Repeated[0], more)
	}
	exs, err := in.openExtractors(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval %s: %v\n", name, err)
		return nil, nil, false
	}
	return exs, c, true
}

func (in *inputs) openExtractors(ctx context.Context) ([]*extractor.Extractor, error) {
	if len(in.extractors) == 0 {
		return extractor.Builtins(), nil
	}
	return extractor.OpenAll(ctx, in.extractors, extractor.OpenOptions{Timeout: in.timeout})
}
