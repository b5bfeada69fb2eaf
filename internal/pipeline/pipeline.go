// Package pipeline runs extractors over a corpus and produces the one report document
// (package report) that every command renders or compares: run, drift, fuzz, review and,
// through the reports it reads, gate.
//
// An extractor is any extractor.Extractor: a built-in profile, a user's module or a command
// speaking docs/protocol.md. Each stage first sends every text it needs to every external
// extractor in pipelined batches (one long-lived process each, all at once), so a stage
// costs a few round trips per extractor; built-in extractors run on every core.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/internal/casefile"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/report"
)

// Stages a report can hold, in the order they run.
const (
	StageExtract = "extract"
	StageGolden  = "golden"
	StageDrift   = "drift"
	StageEval    = "eval"
	StageFuzz    = "fuzz"
	// StageDriftSend is not a stage of the report: the progress of sending the drift
	// samples to the external extractors ahead of the matrix.
	StageDriftSend = "drift-send"
)

// Options configure a run.
type Options struct {
	// Corpus is the cases to run on (corpus.Open).
	Corpus *corpus.Corpus
	// Extractors run on every case; at least one.
	Extractors []*extractor.Extractor
	// DriftSeed and DriftN set the drift matrix; DriftN 0 skips it.
	DriftSeed int64
	DriftN    int
	// EvalExtractor names the extractor whose summaries eval scores ("" is the first of
	// Extractors); SkipEval skips the stage.
	EvalExtractor string
	SkipEval      bool
	// Fuzz, when set, fuzzes every extractor after the other stages (compacteval fuzz).
	Fuzz *fuzz.Options
	// FuzzFor, when set, adjusts a copy of Fuzz for one extractor (its reference, the
	// kinds it accepts).
	FuzzFor func(ex *extractor.Extractor, opt *fuzz.Options)
	// KeepSummaries keeps every result's summary in the report (review compares them);
	// otherwise only those of cases shown in detail are kept.
	KeepSummaries bool
	// Select, when it selects by anything, runs only the cases it matches; the report
	// records it (report.Selection) with the digest of the whole corpus, so that the gate
	// compares the selected cases only, and only with a baseline of the same corpus.
	Select *report.Selection
	// Store, when set, keeps the report's cases instead of Cases (report.Stored), so that
	// the run holds one at a time; the caller closes it once the report is rendered.
	Store *casefile.File
	// EvalStore, when set, keeps the report's eval cases instead of Eval.Cases
	// (report.StoredEval), as Store keeps its cases; the caller closes it alike.
	EvalStore *casefile.EvalFile
	// Progress, when set, is told each stage as it starts and each step done of total:
	// answers (texts times extractors) for extract and drift-send, samples for drift, cases
	// for eval, extractors for fuzz. It may be called from several goroutines at once.
	Progress func(stage string, done, total int)
}

// ErrExtractor marks a run that stopped because an external extractor failed (it stopped
// answering, timed out, or answered an error): a failing extractor never passes.
var ErrExtractor = errors.New("extractor failed")

// Run runs every stage and returns the report. Case files that did not load are problems
// of the report; an extractor that fails is an error wrapping ErrExtractor.
//
// Run stops when ctx is done: it kills the processes of opt.Extractors at once (a request
// being answered fails), closes the extractors and returns an error wrapping
// context.Cause(ctx). A built-in extractor stops at the end of its batch.
func Run(ctx context.Context, opt Options) (*report.Report, error) {
	killed := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(killed)
		for _, e := range opt.Extractors {
			e.Kill()
		}
	})
	r, err := run(ctx, opt)
	if !stop() {
		<-killed
	}
	if ctx.Err() != nil {
		extractor.CloseAll(opt.Extractors)
		return nil, fmt.Errorf("pipeline stopped: %w", context.Cause(ctx))
	}
	return r, err
}

// run checks the options and runs the stages in order, one file each: the selection
// (select.go), extract with the goldens (extract.go, golden.go), drift (drift.go), eval
// (eval.go) and fuzz (fuzz.go); document.go builds the report they fill.
func run(ctx context.Context, opt Options) (*report.Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Corpus == nil {
		return nil, errors.New("pipeline: no corpus")
	}
	if len(opt.Extractors) == 0 {
		return nil, errors.New("pipeline: no extractor")
	}
	progress := opt.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	entries := opt.Corpus.Entries()
	if len(entries) == 0 && len(opt.Corpus.Problems) == 0 {
		return nil, fmt.Errorf("no cases in %s", label(opt.Corpus))
	}
	r := newReport(opt.Corpus, entries)
	exs := opt.Extractors
	if !opt.Select.Empty() {
		var err error
		if entries, err = selectCases(r, *opt.Select, entries); err != nil {
			return nil, err
		}
	}

	// The drift matrix needs only the cases: a corpus it cannot mutate fails before the
	// extraction, not after it.
	if opt.DriftN > 0 && r.Selection == nil { // a selection may hold no well-formed case: an empty matrix
		if err := checkPairs(r, opt.Corpus, entries); err != nil {
			return nil, err
		}
	}

	pairs, err := extractStage(ctx, r, exs, entries, opt, progress)
	if err != nil {
		return nil, err
	}
	if opt.DriftN > 0 && ctx.Err() == nil {
		if err := driftStage(ctx, r, exs, pairs, opt, progress); err != nil {
			return nil, err
		}
	}
	pairs = nil

	if !opt.SkipEval && ctx.Err() == nil {
		if err := evalStage(ctx, r, opt.Corpus, entries, exs, opt, progress); err != nil {
			return nil, err
		}
		r.Stages = append(r.Stages, StageEval)
	}
	if opt.Fuzz != nil && ctx.Err() == nil {
		cases, err := opt.Corpus.Read(entries) // fuzzing seeds from every case at once
		if err != nil {
			return nil, err
		}
		if err := fuzzStage(ctx, r, exs, cases, opt, progress); err != nil {
			return r, err
		}
	}
	finishReport(r, opt)
	return r, nil
}

// meter counts the steps of one stage for Options.Progress, from any goroutine.
type meter struct {
	stage    string
	total    int
	done     atomic.Int64
	progress func(stage string, done, total int)
}

// newMeter tells progress that stage starts with total steps.
func newMeter(stage string, total int, progress func(string, int, int)) *meter {
	progress(stage, 0, total)
	return &meter{stage: stage, total: total, progress: progress}
}

func (m *meter) add(n int) {
	done := int(m.done.Add(int64(n)))
	m.progress(m.stage, min(done, m.total), m.total)
}
