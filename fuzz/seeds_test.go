package fuzz

import (
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// robustSeeds are the seeds TestRobustSeeds fuzzes robust under besides seed 1 (which
// TestRunRobust and the testscripts use): compacteval fuzz draws a fresh seed for every run,
// so robust is held to more inputs than one seed makes. 20261207 is the seed under which
// issue 39 found robust losing summaries.
var robustSeeds = []int64{20261207, 7, 1 << 40}

// robustSeedBatches is how many batches of generated inputs (256 each) each seed sends: a
// count, not a time, so that a loaded machine checks as many inputs as an idle one.
const robustSeedBatches = 12

// TestRobustSeeds fuzzes robust under each of robustSeeds for a fixed number of generated
// inputs: no property may fail under any of them.
func TestRobustSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: fuzzes three seeds")
	}
	robust, _ := compact.Lookup("robust")
	c, err := corpus.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range robustSeeds {
		res, err := Run(Of(robust), c.Cases, Options{Seed: seed, Size: -1, Batches: robustSeedBatches})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if res.Failed() {
			for _, f := range res.Examples {
				t.Errorf("seed %d: %s: %s\n  input %q", seed, f.Kind, f.Detail, f.Input)
			}
		}
		if want := robustSeedBatches * batchSize; sum(res.Inputs)-res.Inputs["corpus"] != want {
			t.Errorf("seed %d: %d generated inputs, want %d", seed, sum(res.Inputs)-res.Inputs["corpus"], want)
		}
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
