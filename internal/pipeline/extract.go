package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/report"
)

// extractStage runs every extractor on every case's response, the cases streaming through
// a batch at a time: the report keeps their results (the tally), and the drift pairs the
// matrix reads are returned. It adds the stages extract and, where goldens were compared,
// golden.
func extractStage(ctx context.Context, r *report.Report, exs []*extractor.Extractor, entries []corpus.Entry, opt Options, progress func(string, int, int)) ([]drift.Pair, error) {
	t := newTally(r, exs, opt)
	if opt.Store != nil {
		r.Cases, r.Stored = nil, opt.Store
	} else {
		r.Cases = make([]report.Case, 0, len(entries))
	}
	var pairs []drift.Pair
	keepPairs := drift.PairsRead(len(entries), opt.DriftN)
	m := newMeter(StageExtract, len(entries)*len(exs), progress)
	for from, to := 0, 0; from < len(entries); from = to {
		to = batchEnd(entries, from)
		cases, err := opt.Corpus.Read(entries[from:to])
		if err != nil {
			return nil, err
		}
		responses := make([]string, len(cases))
		for i, c := range cases {
			responses[i] = c.Response
		}
		results, err := extractAll(ctx, exs, responses, m)
		if err != nil {
			return nil, err
		}
		if err := t.add(cases, results); err != nil {
			return nil, err
		}
		if opt.DriftN > 0 {
			for _, p := range drift.PairsFromCorpus(cases) {
				if len(pairs) < keepPairs { // the texts of the pairs the matrix reads, apart from the cases'
					pairs = append(pairs, drift.Pair{ID: p.ID, Analysis: strings.Clone(p.Analysis), Summary: strings.Clone(p.Summary)})
				} else {
					pairs = append(pairs, drift.Pair{ID: p.ID})
				}
			}
		}
	}
	golden := t.finish()
	r.Stages = append(r.Stages, StageExtract)
	if golden {
		r.Stages = append(r.Stages, StageGolden)
	}
	return pairs, nil
}

// chunk is how many texts an extractor gets between two progress steps: a few of an
// external extractor's pipelined batches, which go one after the other anyway.
const chunk = 4 * extractor.Batch

// extractAll runs every extractor on texts, the external ones at the same time (each is
// its own process) and the built-in ones on every core.
func extractAll(ctx context.Context, exs []*extractor.Extractor, texts []string, m *meter) ([][]compact.Extraction, error) {
	out := make([][]compact.Extraction, len(exs))
	errs := make([]error, len(exs))
	all := func(ex *extractor.Extractor) ([]compact.Extraction, error) {
		res := make([]compact.Extraction, 0, len(texts))
		for i := 0; i < len(texts); i += chunk {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			part, err := ex.ExtractAll(texts[i:min(i+chunk, len(texts))])
			if err != nil {
				return nil, err
			}
			res = append(res, part...)
			m.add(len(part))
		}
		return res, nil
	}
	var wg sync.WaitGroup
	for i, ex := range exs {
		if !ex.External() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = all(ex)
		}()
	}
	for i, ex := range exs {
		if !ex.External() {
			out[i], _ = all(ex)
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrExtractor, err)
	}
	return out, nil
}

// prefetch sends texts ahead to every external extractor, all at once.
func prefetch(ctx context.Context, exs []*extractor.Extractor, texts []string, m *meter) error {
	errs := make([]error, len(exs))
	var wg sync.WaitGroup
	for i, ex := range exs {
		if ex.External() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < len(texts) && errs[i] == nil && ctx.Err() == nil; j += chunk {
					part := texts[j:min(j+chunk, len(texts))]
					errs[i] = ex.Prefetch(part)
					m.add(len(part))
				}
			}()
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrExtractor, err)
	}
	return nil
}

func externals(exs []*extractor.Extractor) int {
	n := 0
	for _, ex := range exs {
		if ex.External() {
			n++
		}
	}
	return n
}

func failure(exs []*extractor.Extractor) error {
	for _, ex := range exs {
		if err := ex.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrExtractor, err)
		}
	}
	return nil
}

func compacts(exs []*extractor.Extractor) []compact.Extractor {
	out := make([]compact.Extractor, len(exs))
	for i, e := range exs {
		out[i] = e.Compact()
	}
	return out
}

// batch is how many cases the stages read and hold at once, and batchBytes how many bytes
// of their texts (corpus.Entry.Bytes): variables, so that a test makes them small.
var (
	batch      = 2 * extractor.Batch
	batchBytes = 4 << 20
)

// batchEnd returns the end of the batch of entries that starts at from: at most batch
// cases, and no more than batchBytes of their texts unless one case alone has more. A
// batch costs several times its texts while it is read (parsing allocates about nine times
// a case's YAML, and every extractor answers), and a corpus sorted by id holds its large
// cases together: 512 of the bundled large ones (108 KB of texts each) at once took a run
// to a peak of 706 MB.
func batchEnd(entries []corpus.Entry, from int) int {
	to, bytes := from, 0
	for to < len(entries) && to-from < batch && (to == from || bytes+entries[to].Bytes <= batchBytes) {
		bytes += entries[to].Bytes
		to++
	}
	return to
}
