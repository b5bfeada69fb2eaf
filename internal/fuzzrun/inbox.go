package fuzzrun

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/internal/atomicfile"
)

// categoryOf is the corpus category a failure's case starts in; a person moving it into
// corpus/cases may choose another.
var categoryOf = map[string]string{
	fuzz.PropLeak:    "malformed-tags",
	fuzz.PropBareTag: "empty-and-degenerate",
	fuzz.PropTagKept: "truncated",
	fuzz.PropLost:    "malformed-tags",
}

// WriteInbox writes every kept failure with an input (not the time check, not a
// nondeterministic answer) as a new case below dir, in its category folder, named after the
// extractor, the property and the input's digest, and sets Failure.File. A file that is
// already there is kept as it is (the same failure found again): nothing is overwritten, the
// failure's File still names it, and existing lists it.
// Cases are marked corpus.Unreviewed, with intended from robust as compacteval record
// does, for a person to judge. keep, when not nil, chooses the kinds written (compacteval
// fuzz writes the new ones: not known in the reference, not accepted).
func WriteInbox(dir string, r *fuzz.Result, keep func(kind string) bool) (written int, existing []string, err error) {
	for i := range r.Examples {
		f := &r.Examples[i]
		cat, ok := categoryOf[f.Property]
		if !ok || f.Input == "" || keep != nil && !keep(f.Kind) {
			continue
		}
		sum := sha256.Sum256([]byte(f.Input))
		id := fmt.Sprintf("%s/fuzz-%s-%s-%x", cat, corpus.Slug(r.Extractor), f.Property, sum[:4])
		c := &corpus.Case{
			Version:    corpus.Version,
			ID:         id,
			Title:      fmt.Sprintf("%s breaks %s on a %s input found by compacteval fuzz", r.Extractor, f.Property, f.Generator),
			Categories: []string{cat},
			Notes: fmt.Sprintf("Found by compacteval fuzz (seed %d) on the extractor %s: %s. Input minimized from %d to %d bytes. "+
				"The extractor returned %s. Intended is robust's extraction, %s: judge it, then move the case into corpus/cases.",
				r.Seed, r.Extractor, f.Detail, f.OriginalBytes, len(f.Input), f.Answer(), corpus.Unreviewed),
			Origin:   corpus.Origin{Kind: corpus.Synthetic, DerivedFrom: derivedFrom(f)},
			Response: f.Input,
		}
		corpus.SetIntended(c)
		data, err := corpus.Format(c)
		if err != nil {
			return written, existing, fmt.Errorf("inbox case %s: %w", id, err)
		}
		if _, err := corpus.Parse(id+".yaml", data, id); err != nil {
			// A minimized input can hold what a case file may not (a raw control
			// character): keep the failure in the report only.
			f.File = ""
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(id)+".yaml")
		switch err := atomicfile.Create(path, data, 0o644); {
		case errors.Is(err, atomicfile.ErrExists):
			f.File = path
			existing = append(existing, path)
		case err != nil:
			return written, existing, err
		default:
			f.File = path
			written++
		}
	}
	return written, existing, nil
}

// derivedFrom names the corpus case a drift or corpus input came from.
func derivedFrom(f *fuzz.Failure) string {
	if f.Case != "" && (f.Generator == "corpus" || strings.HasSuffix(f.Generator, "drift")) {
		return f.Case
	}
	return ""
}
