package report

import "github.com/compacteval/compacteval/compact"

// renameLegacy gives the built-in profiles of a report written before profiles named their
// version the versioned names they had: such a report says "claude-code" for what is now
// claude-code@2.1.88 and "windmill" for windmill@67ef1eb (compact.LegacyName). A report
// written since never holds a bare name, as a built-in profile is recorded under its
// version even when the run named its alias; so an old baseline still gates a new run.
func renameLegacy(r *Report) {
	rename := func(s *string) {
		if v, ok := compact.LegacyName(*s); ok {
			*s = v
		}
	}
	for i := range r.Extractors {
		rename(&r.Extractors[i].Name)
	}
	for i := range r.Problems {
		rename(&r.Problems[i].Extractor)
	}
	for i := range r.Cases {
		for j := range r.Cases[i].Results {
			rename(&r.Cases[i].Results[j].Extractor)
		}
	}
	for i := range r.Drift.Extractors {
		rename(&r.Drift.Extractors[i])
	}
	rename(&r.Eval.Extractor)
	for i := range r.Eval.Cases {
		rename(&r.Eval.Cases[i].Extractor)
	}
	for _, f := range r.Fuzz {
		if f != nil {
			rename(&f.Extractor)
		}
	}
}
