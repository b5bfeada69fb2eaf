package pipeline

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
)

// go test -run='^$' -bench=. -benchmem ./internal/pipeline
//
// BenchmarkRun runs every built-in extractor through every stage on the embedded corpus and
// on copies of it ten times as large: time and memory per case should stay flat.
func BenchmarkRun(b *testing.B) {
	base, err := corpus.Open(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, copies := range []int{1, 10} {
		c := replicate(base, copies)
		b.Run(fmt.Sprintf("cases=%d", len(c.Cases)), func(b *testing.B) {
			exs := extractor.Builtins()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(context.Background(), Options{Corpus: c, Extractors: exs, DriftSeed: 1, DriftN: 100}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.Cases)), "ns/case")
		})
	}
}

// BenchmarkRunModule runs the seed module under Node, one long-lived process, through every
// stage of the embedded corpus: the cost of an external extractor.
func BenchmarkRunModule(b *testing.B) {
	module := "../../../shared/seed/compaction.ts"
	if _, err := os.Stat(module); err != nil {
		b.Skip("SKIP: ../shared/seed/compaction.ts is absent")
	}
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("SKIP: node is not on PATH")
	}
	c, err := corpus.Open(nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ex, err := extractor.Open(context.Background(), "module:"+module, extractor.OpenOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Run(context.Background(), Options{Corpus: c, Extractors: []*extractor.Extractor{ex}, DriftSeed: 1, DriftN: 100}); err != nil {
			b.Fatal(err)
		}
		ex.Close()
	}
}

// replicate returns the corpus with n copies of every case, ids made distinct.
func replicate(c *corpus.Corpus, n int) *corpus.Corpus {
	if n == 1 {
		return c
	}
	out := &corpus.Corpus{Sources: c.Sources}
	for i := range n {
		for _, k := range c.Cases {
			cp := *k
			cp.ID = fmt.Sprintf("%s-%d", k.ID, i)
			out.Cases = append(out.Cases, &cp)
		}
	}
	return out
}
