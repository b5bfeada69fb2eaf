package extractor

import (
	"hash/maphash"

	"github.com/compacteval/compacteval/compact"
)

// CacheBytes bounds the answers an external extractor keeps (a variable: a test makes it
// small). The texts of a run's stages are sent in batches and asked again a stage later
// (the drift matrix asks for the samples drift-send sent, eval for the responses the
// extraction sent): this keeps the answers of a corpus of some thousands of cases and its
// drift samples whole, and the last of a larger one, so that the memory of a run does not
// grow with the cases.
var CacheBytes = 64 << 20

// answers are the kept answers of an external extractor by text, the oldest dropped first
// once they pass CacheBytes. The zero value is empty.
//
// They are keyed by a 128-bit hash of the text and its length, not the text: the texts a
// stage sends (4,100 drift samples of the bundled corpus, 90 MB) need not stay in memory
// until the stage after asks for them, and a text asked again costs a hash, not a
// comparison. The two hashes are seeded at random for each process, so no input is chosen
// to collide; two of a million texts share a key with a chance under 10^-26.
type answers struct {
	m     map[textKey]compact.Extraction
	order []textKey // the keys in m, oldest first
	bytes int
}

// textKey names a text in answers.
type textKey struct {
	h1, h2 uint64
	n      int
}

var seed1, seed2 = maphash.MakeSeed(), maphash.MakeSeed()

func keyOf(text string) textKey {
	return textKey{maphash.String(seed1, text), maphash.String(seed2, text), len(text)}
}

func (a *answers) get(k textKey) (compact.Extraction, bool) {
	x, ok := a.m[k]
	return x, ok
}

// put keeps x as the answer to the text of k, dropping the oldest answers past
// CacheBytes; an answer bigger than CacheBytes alone is not kept.
func (a *answers) put(k textKey, x compact.Extraction) {
	if _, ok := a.m[k]; ok {
		return
	}
	size := cost(x)
	if size > CacheBytes {
		return
	}
	if a.m == nil {
		a.m = map[textKey]compact.Extraction{}
	}
	for a.bytes+size > CacheBytes && len(a.order) > 0 {
		old := a.order[0]
		a.order = a.order[1:]
		a.bytes -= cost(a.m[old])
		delete(a.m, old)
	}
	a.m[k] = x
	a.order = append(a.order, k)
	a.bytes += size
}

// cost is what an answer holds: its summary and the map's entry.
func cost(x compact.Extraction) int { return len(x.Summary) + 96 }
