package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
)

// copies writes n copies of the bundled eval case file (each under an id of its own, as
// internal/cmd/bigcorpus does) in a new folder and opens it lazily (corpus.OpenLazy, as run
// opens what does not fit in what it holds).
func copies(t *testing.T, file string, n int) *corpus.Corpus {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Parse(file, data, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "eval"), 0o755); err != nil {
		t.Fatal(err)
	}
	idLine := []byte("\nid: " + c.ID + "\n")
	if !bytes.Contains(data, idLine) {
		t.Fatalf("%s has no line %q", file, idLine)
	}
	for i := range n {
		id := fmt.Sprintf("%s-copy-%d", c.ID, i)
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(id)+".yaml"), bytes.Replace(data, idLine, []byte("\nid: "+id+"\n"), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lazy, err := corpus.OpenLazy([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return lazy
}

// evalPeak runs the extraction and eval of seed on c, keeping the report's cases and eval
// cases in files as run does (held false) or in the report (held true), and returns the
// largest live heap measured after a collection every step eval cases, and the live heap
// once the run is done, the report still held.
func evalPeak(t *testing.T, c *corpus.Corpus, step int, held bool) (peak, after uint64) {
	t.Helper()
	var mu sync.Mutex
	measure := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	opt := Options{Corpus: c, Extractors: extractor.Builtins()[:1], // seed
		Progress: func(stage string, done, total int) {
			if stage == StageEval && done%step == 0 {
				mu.Lock()
				defer mu.Unlock()
				peak = max(peak, measure())
			}
		}}
	if !held {
		storeCases(t, &opt)
	}
	r, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	after = measure()
	if r.NumEvalCases() != c.Len() {
		t.Fatalf("the run scored %d eval cases, want %d", r.NumEvalCases(), c.Len())
	}
	runtime.KeepAlive(r)
	return peak, after
}

// TestEvalHoldsOneBatch: a run whose eval cases wait in a file (Options.EvalStore, as
// compacteval run sets it) holds one batch of them at a time (of n/4 cases here), so that
// its live heap while eval scores 10n cases, and once the run is done, is that of n cases,
// give or take what grows by the entry alone (corpus.Entry, a few hundred bytes): well
// under the 9n results more (12 KB each of this case, most of it their facts) that a run
// holding them keeps, which the same run with the results in the report shows. It
// measures the heap after a collection, never time.
func TestEvalHoldsOneBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("scores 240 eval cases")
	}
	const n = 20
	defer func(n int) { batch = n }(batch)
	batch = n / 4 // both runs read their cases in batches of the same size
	file := filepath.Join(corpusDir, "eval", "cfirm-stm32-uart-dma-dropped-bytes-incomplete-misattributed.yaml")
	small, large := copies(t, file, n), copies(t, file, 10*n)
	peakSmall, afterSmall := evalPeak(t, small, n/4, false)
	peakLarge, afterLarge := evalPeak(t, large, n/4, false)
	_, afterHeld := evalPeak(t, large, 10*n, true)
	// What a run holding the results keeps of each over a run keeping them in a file.
	perResult := (int64(afterHeld) - int64(afterLarge)) / (10 * n)
	t.Logf("live heap: %d eval cases peak %d KB, after %d KB; %d cases peak %d KB, after %d KB; holding the results %d KB after (%d bytes each)",
		n, peakSmall>>10, afterSmall>>10, 10*n, peakLarge>>10, afterLarge>>10, afterHeld>>10, perResult)
	if perResult < 4<<10 {
		t.Fatalf("holding the results keeps %d bytes each over keeping them in a file, want at least 4 KB: the test measures nothing", perResult)
	}
	// Growing by a third of a held result per case would be 3n held results: the bound.
	bound := uint64(9 * n * perResult / 3)
	if peakLarge > peakSmall+bound {
		t.Errorf("the live heap while eval scores %d cases peaks at %d KB, over that of %d cases (%d KB) by more than %d KB: it grows with the cases",
			10*n, peakLarge>>10, n, peakSmall>>10, bound>>10)
	}
	if afterLarge > afterSmall+bound {
		t.Errorf("the live heap after a run of %d eval cases is %d KB, over that of %d cases (%d KB) by more than %d KB: the report holds them",
			10*n, afterLarge>>10, n, afterSmall>>10, bound>>10)
	}
}
