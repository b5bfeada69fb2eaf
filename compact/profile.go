package compact

import "sort"

// Extractor is a named extraction profile: the seed port, or another agent's behaviour that
// compacteval compares with it.
type Extractor struct {
	// Name is the profile's name on the command line, in goldens and in reports.
	Name string
	// Source says where the behaviour comes from (repository, path, version).
	Source string
	// Extract returns the extraction for a model response.
	Extract func(text string) Extraction
}

var profiles = map[string]Extractor{}

func register(e Extractor) {
	if _, dup := profiles[e.Name]; dup {
		panic("compact: extractor registered twice: " + e.Name)
	}
	profiles[e.Name] = e
}

func init() {
	register(Extractor{
		Name:    "seed",
		Source:  "../shared/seed/compaction.ts extractSummary (the module this package ports)",
		Extract: Extract,
	})
}

// Lookup returns the extractor named name.
func Lookup(name string) (Extractor, bool) {
	e, ok := profiles[name]
	return e, ok
}

// Extractors returns every extractor, sorted by name with seed first.
func Extractors() []Extractor {
	out := make([]Extractor, 0, len(profiles))
	for _, e := range profiles {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Name == "seed") != (out[j].Name == "seed") {
			return out[i].Name == "seed"
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// ExtractorNames returns the names of Extractors, in the same order.
func ExtractorNames() []string {
	var names []string
	for _, e := range Extractors() {
		names = append(names, e.Name)
	}
	return names
}
