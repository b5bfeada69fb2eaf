package pipeline

import (
	"io/fs"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// hasGoldens reports whether goldens has a folder for the extractor.
func hasGoldens(goldens fs.FS, extractor string) bool {
	if goldens == nil {
		return false
	}
	st, err := fs.Stat(goldens, extractor)
	return err == nil && st.IsDir()
}

// goldenStatus compares got with the extractor's golden of case id: match, mismatch or
// missing, and the golden's extraction where it parsed.
func goldenStatus(goldens fs.FS, extractor, id string, got compact.Extraction) (string, *compact.Extraction) {
	data, err := fs.ReadFile(goldens, extractor+"/"+id+".txt")
	if err != nil {
		return "missing", nil
	}
	want, err := corpus.ParseGolden(data)
	if err != nil {
		return "mismatch", nil
	}
	if want != got {
		return "mismatch", &want
	}
	return "match", &want
}
