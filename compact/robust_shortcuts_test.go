package compact_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/textgen"
)

// shortcutsAgree fails t when ExtractRobust, with its paths for common cases, answers text
// differently from its general code alone.
func shortcutsAgree(t *testing.T, name, text string) {
	t.Helper()
	if got, want := compact.ExtractRobust(text), compact.ExtractRobustGeneral(text); got != want {
		t.Errorf("%s: ExtractRobust(%q) = %+v, its general code gives %+v", name, clip(text), got, want)
	}
}

// structuralSoup returns lines of soup joined by what robust's shortcuts look at: line
// starts, fences, <details>, markers, headings, section lines and backticks.
func structuralSoup(r *rand.Rand) string {
	var b strings.Builder
	for k := r.IntN(12); k > 0; k-- {
		b.WriteString(textgen.Soup(r, 6))
		b.WriteString([...]string{"\n", " ", "", "\n\n", "```\n", "<details>\n", "[summary]\n", "## Summary\n",
			"1. Primary Request and Intent:\n", "`", "<summary>\n", "</summary>\n", "<analysis>\n", "</analysis>\n"}[r.IntN(14)])
	}
	return b.String()
}

// TestRobustShortcutsAgree holds robust's shortcuts (the well-formed check, the fast path,
// and the scan's paths for tags alone on their lines, the four tags as the prompt spells
// them, texts without U+0085, blocks nothing can end, fences at line starts ...) to its
// general code on every input of the TypeScript test, the benchmark inputs, every family at
// three sizes and generated soups of structural lines. Each shortcut claims to answer as the
// general code would: one that does not (hasContent reading lines split at \n alone in a
// text with U+0085) is found here.
func TestRobustShortcutsAgree(t *testing.T) {
	names, texts := robustTSInputs(t)
	for i := range texts {
		shortcutsAgree(t, names[i], texts[i])
	}
	for _, in := range textgen.BenchInputs() {
		shortcutsAgree(t, "bench "+in.Name, in.Text)
	}
	for _, size := range []int{300, 5 << 10, 64 << 10} {
		for _, f := range textgen.Families(size) {
			shortcutsAgree(t, fmt.Sprintf("family %s %d", f.Name, size), f.Text)
		}
	}
	shortcutsAgree(t, "U+0085 inside a line", "<summary>\n1. Primary Request and Intent:\n\n1. Primary Request and Intent:\u00851. Primary Request and Intent:\n")
	r := rand.New(rand.NewPCG(14, 85))
	for i := range 200000 {
		shortcutsAgree(t, fmt.Sprintf("structural soup %d", i), structuralSoup(r))
		if t.Failed() {
			return
		}
	}
}

// go test -run='^$' -fuzz='^FuzzRobustShortcutsAgree$' -fuzztime=30s ./compact
//
// FuzzRobustShortcutsAgree holds robust's shortcuts to its general code; seeds are the
// corpus, the unit tests' traps and structural soups.
func FuzzRobustShortcutsAgree(f *testing.F) {
	for _, s := range seedTexts(f) {
		f.Add(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		f.Add(structuralSoup(r))
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := compact.ExtractRobust(text), compact.ExtractRobustGeneral(text); got != want {
			t.Fatalf("ExtractRobust(%q) = %+v, its general code gives %+v", text, got, want)
		}
	})
}
