package fuzzrun

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/internal/proccpu"
)

// TestTimeCheckUnderLoad runs the seed module's time check beside a CPU hog (spinning
// goroutines, four per core): measured in the CPU time of the extractor's processes,
// the families the seed module answers in linear time stay linear, which wall time on a
// loaded machine did not (three "new" superlinear kinds on the unchanged seed module).
func TestTimeCheckUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("times the seed module beside a CPU hog")
	}
	if _, ok := proccpu.SelfCPU(); !ok {
		t.Skip("no CPU clock here: the time check uses the wall clock")
	}
	ex := openSeedModule(t)

	// The hog runs while the large input of a linear family is answered and not while the
	// small one is: load that comes and goes, as on a shared CI runner, and the worst case
	// for a ratio. In wall time it makes a linear family look superlinear (at the default
	// size); in CPU time it does not. The quadratic families are left unloaded: loaded,
	// their large inputs take minutes of wall time.
	quadratic := []string{"summary-openers", "analysis-openers", "inline-openers"} // docs/fuzzing.md
	large := map[string]bool{}
	for _, f := range fuzz.Families {
		if !slices.Contains(quadratic, f.Name) {
			large[f.Build(10*fuzz.DefaultSize)] = true
		}
	}
	t0 := Target(ex)
	inner := t0.ExtractAll
	t0.ExtractAll = func(texts []string) ([]compact.Extraction, error) {
		if len(texts) == 1 && large[texts[0]] {
			var stop atomic.Bool
			defer stop.Store(true)
			for range 4 * runtime.NumCPU() {
				go func() {
					for x := 0; !stop.Load(); x++ {
						_ = x * x
					}
				}()
			}
		}
		return inner(texts)
	}
	// The corpus is not needed: the time check runs first, on the families alone.
	res, err := fuzz.Run(t0, nil, fuzz.Options{Batches: 1, Seed: 1, Size: fuzz.DefaultSize})
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range res.Timings {
		if !slices.Contains(quadratic, tm.Family) && tm.Verdict != "linear" {
			t.Errorf("beside a CPU hog, the seed module's %s timing is %s (%+v), want linear", tm.Family, tm.Verdict, tm)
		}
	}
	if len(res.Timings) != len(fuzz.Families) {
		t.Errorf("%d timings, want one per family (%d)", len(res.Timings), len(fuzz.Families))
	}
}
