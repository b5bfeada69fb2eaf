package compact_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/textgen"
)

// go test -run '^$' -bench . -benchmem ./compact (make bench); scripts/bench-reference.sh
// measures the reference under Node on the same inputs.

func BenchmarkExtract(b *testing.B) {
	for _, in := range textgen.BenchInputs() {
		b.Run(in.Name, func(b *testing.B) {
			b.SetBytes(int64(len(in.Text)))
			for b.Loop() {
				compact.Extract(in.Text)
			}
		})
	}
}

// naiveExtract is the port a first attempt writes with Go's regexp and strings.TrimSpace. It
// disagrees with the reference (see TestNaivePortDisagrees) and is here as the speed baseline.
var (
	naiveLineAnchored = regexp.MustCompile(`(?m)^[ \t]*<summary>[ \t]*\n([\s\S]*)\n[ \t]*</summary>[ \t]*$`)
	naiveAnalysis     = regexp.MustCompile(`<analysis>[\s\S]*?</analysis>`)
	naiveLoose        = regexp.MustCompile(`<summary>([\s\S]*)</summary>`)
)

func naiveExtract(text string) (string, bool) {
	if m := naiveLineAnchored.FindStringSubmatch(text); m != nil {
		s := strings.TrimSpace(m[1])
		return s, s != ""
	}
	rest := naiveAnalysis.ReplaceAllString(text, "")
	if m := naiveLoose.FindStringSubmatch(rest); m != nil {
		s := strings.TrimSpace(m[1])
		return s, s != ""
	}
	s := strings.TrimSpace(rest)
	return s, s != ""
}

func BenchmarkNaiveRegexp(b *testing.B) {
	for _, in := range textgen.BenchInputs() {
		b.Run(in.Name, func(b *testing.B) {
			b.SetBytes(int64(len(in.Text)))
			for b.Loop() {
				naiveExtract(in.Text)
			}
		})
	}
}

// BenchmarkExtractors runs every extractor profile on the same inputs as BenchmarkExtract.
func BenchmarkExtractors(b *testing.B) {
	for _, ex := range compact.Extractors() {
		for _, in := range textgen.BenchInputs() {
			b.Run(ex.Name+"/"+in.Name, func(b *testing.B) {
				b.SetBytes(int64(len(in.Text)))
				for b.Loop() {
					ex.Extract(in.Text)
				}
			})
		}
	}
}

// BenchmarkFamilies runs seed and robust on every adversarial family of textgen.Families
// at 100 KB, 1 MB and 10 MB, so that the sizes show whether time grows linearly:
// go test -run '^$' -bench Families ./compact
func BenchmarkFamilies(b *testing.B) {
	for _, size := range []int{100 << 10, 1 << 20, 10 << 20} {
		for _, f := range textgen.Families(size) {
			for _, name := range []string{"seed", "robust"} {
				ex, _ := compact.Lookup(name)
				b.Run(f.Name+"/"+sizeName(size)+"/"+name, func(b *testing.B) {
					b.SetBytes(int64(len(f.Text)))
					for b.Loop() {
						ex.Extract(f.Text)
					}
				})
			}
		}
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + "MB"
	}
	return strconv.Itoa(n>>10) + "KB"
}

// BenchmarkCorpusAnswers runs seed and robust over every response of the bundled corpus in
// turn (235 answers, 2.2 MB on 7 December 2026): answers shaped as models write them, beside
// textgen's.
func BenchmarkCorpusAnswers(b *testing.B) {
	cs, err := corpus.LoadFS(corpus.Embedded(), corpus.EmbeddedLabel)
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	var size int64
	for _, c := range cs {
		texts = append(texts, c.Response)
		size += int64(len(c.Response))
	}
	for _, name := range []string{"seed", "robust"} {
		e, _ := compact.Lookup(name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, t := range texts {
					e.Extract(t)
				}
			}
		})
	}
}
