package pipeline

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
)

// TestRunStopsOnCancel: a context cancelled as the drift stage starts ends the run there.
// The work is counted: the extractor extracts each case's response once (the extract
// stage) and nothing of the drift or eval stages, and Run returns the context's error.
func TestRunStopsOnCancel(t *testing.T) {
	c, err := corpus.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	robust, _ := compact.Lookup("robust")
	var calls atomic.Int64
	counting := extractor.Builtin(compact.Extractor{Name: robust.Name, Source: robust.Source, Extract: func(s string) compact.Extraction {
		calls.Add(1)
		return robust.Extract(s)
	}})
	run := func(ctx context.Context, progress func(string, int, int)) (int64, error) {
		calls.Store(0)
		_, err := Run(ctx, Options{Corpus: c, Extractors: []*extractor.Extractor{counting}, DriftSeed: 1, DriftN: 5, Progress: progress})
		return calls.Load(), err
	}

	all, err := run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if all <= int64(len(c.Cases)) {
		t.Fatalf("a whole run extracted %d texts, want more than the %d responses (drift and eval extract too)", all, len(c.Cases))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, err := run(ctx, func(stage string, done, total int) {
		if stage == StageDrift {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run(cancelled at drift) error = %v, want context.Canceled", err)
	}
	if n != int64(len(c.Cases)) {
		t.Errorf("Run(cancelled at drift) extracted %d texts, want the %d responses of the extract stage only (a whole run: %d)", n, len(c.Cases), all)
	}

	if _, err := run(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Run(cancelled context) error = %v, want context.Canceled", err)
	}
}
