package pipeline

import (
	"context"
	"fmt"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/fuzzrun"
	"github.com/compacteval/compacteval/report"
)

// fuzzStage fuzzes every extractor in turn, seeded from cases, and adds the fuzz stage. An
// extractor that fails stops it with an error wrapping ErrExtractor; the report then holds
// the results so far.
func fuzzStage(ctx context.Context, r *report.Report, exs []*extractor.Extractor, cases []*corpus.Case, opt Options, progress func(string, int, int)) error {
	for i, ex := range exs {
		progress(StageFuzz, i, len(exs))
		fo := *opt.Fuzz
		if opt.FuzzFor != nil {
			opt.FuzzFor(ex, &fo)
		}
		res, err := fuzzrun.Run(ctx, ex, cases, fo)
		r.Fuzz = append(r.Fuzz, res)
		if err != nil {
			return fmt.Errorf("%w: fuzz: %w", ErrExtractor, err)
		}
	}
	progress(StageFuzz, len(exs), len(exs))
	r.Stages = append(r.Stages, StageFuzz)
	return nil
}
