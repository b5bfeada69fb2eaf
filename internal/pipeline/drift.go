package pipeline

import (
	"context"
	"fmt"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/report"
)

// checkPairs fails a run whose cases hold no pair the drift matrix can mutate, saying how
// many case files did not load where some did not.
func checkPairs(r *report.Report, c *corpus.Corpus, entries []corpus.Entry) error {
	found, err := anyPair(c, entries)
	if err != nil {
		return err
	}
	if !found {
		err := fmt.Errorf("no well-formed case among the %d loaded from %s for the drift matrix to mutate: add one (-corpus embedded -corpus DIR adds the bundled ones)", len(entries), r.Corpus.Dir)
		if ps := c.Problems; len(ps) > 0 { // the cases that did not load may be why
			files := fmt.Sprintf("%d case files", r.Corpus.LoadProblems)
			if r.Corpus.LoadProblems == 1 {
				files = "1 case file"
			}
			err = fmt.Errorf("%w; %s did not load:\n%v", err, files, ps)
		}
		return err
	}
	return nil
}

// anyPair reports whether any of entries is a pair the drift matrix can mutate, reading
// only the cases that may be one, a batch at a time, up to the first.
func anyPair(c *corpus.Corpus, entries []corpus.Entry) (bool, error) {
	var maybe []corpus.Entry
	for _, e := range entries {
		if e.HasCategory("well-formed") && e.IntendedFound {
			maybe = append(maybe, e)
		}
	}
	for from, to := 0, 0; from < len(maybe); from = to {
		to = batchEnd(maybe, from)
		cases, err := c.Read(maybe[from:to])
		if err != nil {
			return false, err
		}
		if len(drift.PairsFromCorpus(cases)) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// driftStage runs the drift matrix of pairs over every extractor, sending the samples to
// the external ones first, and adds the drift stage and each extractor's exact share.
func driftStage(ctx context.Context, r *report.Report, exs []*extractor.Extractor, pairs []drift.Pair, opt Options, progress func(string, int, int)) error {
	samples := 0
	if len(pairs) > 0 {
		samples = drift.Samples(opt.DriftN)
	}
	if ext := externals(exs); ext > 0 && samples > 0 {
		if err := prefetch(ctx, exs, drift.Responses(pairs, opt.DriftSeed, opt.DriftN), newMeter(StageDriftSend, samples*ext, progress)); err != nil {
			return err
		}
	}
	m := newMeter(StageDrift, samples, progress)
	cs := compacts(exs)
	for i := range cs { // a cancelled run's matrix is dropped: stop extracting
		extract := cs[i].Extract
		cs[i].Extract = func(text string) compact.Extraction {
			if ctx.Err() != nil {
				return compact.Extraction{}
			}
			return extract(text)
		}
	}
	if len(cs) > 0 { // each sample is given to every extractor once: count the first's
		first := cs[0].Extract
		cs[0].Extract = func(text string) compact.Extraction { defer m.add(1); return first(text) }
	}
	r.Drift = drift.Matrix(pairs, cs, opt.DriftSeed, opt.DriftN)
	if err := failure(exs); err != nil {
		return err
	}
	setDriftExact(r)
	r.Stages = append(r.Stages, StageDrift)
	return nil
}
