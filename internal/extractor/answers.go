package extractor

import "github.com/compacteval/compacteval/compact"

// CacheBytes bounds the texts and answers an external extractor keeps (a variable: a test
// makes it small). The texts of a run's stages are sent in batches and asked again a stage
// later (eval asks for the responses the extraction sent): this keeps a corpus of some
// thousands of cases whole, and the last of a larger one, so that the memory of a run does
// not grow with the cases.
var CacheBytes = 64 << 20

// answers are the kept answers of an external extractor by text, the oldest dropped first
// once they pass CacheBytes. The zero value is empty.
type answers struct {
	m     map[string]compact.Extraction
	order []string // the texts in m, oldest first
	bytes int
}

func (a *answers) get(text string) (compact.Extraction, bool) {
	x, ok := a.m[text]
	return x, ok
}

// put keeps x as the answer to text, dropping the oldest answers past CacheBytes; an
// answer bigger than CacheBytes alone is not kept.
func (a *answers) put(text string, x compact.Extraction) {
	if _, ok := a.m[text]; ok {
		return
	}
	size := cost(text, x)
	if size > CacheBytes {
		return
	}
	if a.m == nil {
		a.m = map[string]compact.Extraction{}
	}
	for a.bytes+size > CacheBytes && len(a.order) > 0 {
		old := a.order[0]
		a.order[0] = ""
		a.order = a.order[1:]
		a.bytes -= cost(old, a.m[old])
		delete(a.m, old)
	}
	a.m[text] = x
	a.order = append(a.order, text)
	a.bytes += size
}

// cost is what an answer holds: its text, its summary and the map's entry.
func cost(text string, x compact.Extraction) int { return len(text) + len(x.Summary) + 64 }
