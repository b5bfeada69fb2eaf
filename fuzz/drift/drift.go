// Package drift turns well-formed answers to the compaction prompt into what a drifting model
// writes, and knows the intended summary of every answer it makes.
//
// A Pair (an analysis and a summary, taken from the corpus's well-formed cases) becomes a Doc:
// the response as parts (prose, analysis block, summary blocks, an echoed example, fence
// lines) with their tag spellings, line terminators and truncation points. Operators change
// the Doc; Doc.Sample renders it and judges the intended summary from the structure, following
// the corpus rules (corpus/FORMAT.md and the corpus brief's "careful reader's judgement"):
//
//   - The summary is the body of the last complete summary block (opener and closer both
//     written), trimmed with JavaScript's trim; tags in other spellings are still tags, because
//     the Doc knows which part is which.
//   - When no summary block is complete, the last one that was opened is the summary, from its
//     opener to the cut or to the next part that is clearly not summary (a tagged block or a
//     fence line), minus a partial closer fragment left at the start of the last line.
//   - Nothing opened, or a body that trims to nothing: no summary (found false).
//   - Inside the body every byte stays as written, line terminators included; the terminators
//     that separate the tags from the body are not body.
//
// Where the structure leaves the reader without a defensible answer (a summary with neither a
// closer nor anything that ends it before prose, an opener-less block after prose), the sample
// is marked Ambiguous and Matrix leaves it out of the exact and lost counts.
//
// Every response is made deterministically from a seed with math/rand/v2's PCG, so a seed
// reproduces a sample on every platform and Go version.
package drift

import (
	"math/rand/v2"

	"github.com/compacteval/compacteval/corpus"
)

// MaxOps is the largest number of operators Mutate composes.
const MaxOps = 3

// Sample is one mutated response with its intended summary.
type Sample struct {
	// Response is the model's answer as the mutation wrote it.
	Response string
	// Intended is the careful reader's judgement: Summary is trimmed and, when Found, a
	// substring of Response.
	Intended corpus.Intended
	// Ops are the names of the operators applied, in order; empty for the identity.
	Ops []string
	// Ambiguous is true when the intended summary cannot be told from the response; Intended
	// then holds the best guess.
	Ambiguous bool
	// Analysis holds the distinct lines of the analysis text (trimmed, at least
	// MinAnalysisLine bytes) that are not lines of any summary block: a summary holding one
	// of them has taken in analysis.
	Analysis []string
}

// Mutate applies k operators, chosen from Operators by seed, to base; k is clamped to
// [0, MaxOps]. The chosen operators run in the order of Operators, which is what keeps
// compositions meaningful (the retry draft is placed before the summary is moved, truncation
// comes last). The same base, seed and k always give the same Sample.
func Mutate(base Pair, seed int64, k int) Sample {
	r := newRand(seed)
	return apply(base, r, pickOps(r, k))
}

// pickOps returns k operators chosen with r, in the order of Operators.
func pickOps(r *rand.Rand, k int) []Operator {
	ops := Operators()
	k = max(0, min(k, MaxOps, len(ops)))
	pick := make([]bool, len(ops))
	for _, i := range r.Perm(len(ops))[:k] {
		pick[i] = true
	}
	var chosen []Operator
	for i, op := range ops {
		if pick[i] {
			chosen = append(chosen, op)
		}
	}
	return chosen
}

// MutateWith applies ops to base in the order given, with randomness from seed.
func MutateWith(base Pair, seed int64, ops ...Operator) Sample {
	return apply(base, newRand(seed), ops)
}

func apply(base Pair, r *rand.Rand, ops []Operator) Sample {
	return sampleOf(build(base, r, ops))
}

// sampleOf returns d's sample made by the operators names.
func sampleOf(d *Doc, names []string) Sample {
	s := d.Sample()
	s.Ops = names
	return s
}

// build returns the document of base with ops applied, and the operators' names.
func build(base Pair, r *rand.Rand, ops []Operator) (*Doc, []string) {
	d := NewDoc(base)
	names := make([]string, 0, len(ops))
	for _, op := range ops {
		op.Apply(d, r)
		names = append(names, op.Name)
	}
	return d, names
}

// newRand returns the generator for seed. The seed goes through SplitMix64 first: PCG states
// that differ in a few low bits give correlated first outputs, and neighbouring seeds would
// then often make the same choices.
func newRand(seed int64) *rand.Rand {
	x := uint64(seed)
	return rand.New(rand.NewPCG(splitmix(&x), splitmix(&x)))
}

// splitmix advances *x and returns the next SplitMix64 output.
func splitmix(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
