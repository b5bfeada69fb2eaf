package report_test

import (
	"encoding/json"
	"fmt"

	"github.com/compacteval/compacteval/report"
)

// Read a report.json: Parse checks its schema version and refuses unknown fields;
// json.Unmarshal into a Report reads it too, without the checks. (This report leaves out
// the drift matrix and the eval scores, which a complete run holds.)
func ExampleParse() {
	data := []byte(`{
  "schema_version": 1,
  "tool": {"module": "v0.3.0", "go": "go1.26.0"},
  "complete": true,
  "stages": ["extract", "golden", "drift", "eval"],
  "corpus": {"dir": "corpus/cases", "sha256": "ab12", "sources": [], "cases": 2, "categories": [], "origins": {"synthetic": 2}, "load_problems": 0},
  "extractors": [
    {"name": "seed", "source": "compact", "cases": 2, "intended": 1, "intended_rate": 0.5, "known_deviations": 1, "categories": [], "golden_mismatches": 0, "drift_exact": 0.9},
    {"name": "robust", "source": "compact", "cases": 2, "intended": 2, "intended_rate": 1, "known_deviations": 0, "categories": [], "golden_mismatches": 0, "drift_exact": 1}
  ],
  "problems": [{"kind": "golden-mismatch", "case": "truncated/unclosed", "extractor": "seed", "detail": "summary differs"}],
  "cases": [{"id": "truncated/unclosed", "title": "An unclosed summary", "categories": ["truncated"], "origin": "synthetic", "intended_found": true, "results": []}]
}`)
	r, err := report.Parse("report.json", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range r.Extractors {
		fmt.Printf("%s: %d of %d intended\n", e.Name, e.Intended, e.Cases)
	}
	fmt.Println("failed:", report.FailedCases(r))

	var plain report.Report
	fmt.Println(json.Unmarshal(data, &plain), plain.Corpus.Cases)

	_, err = report.Parse("old.json", []byte(`{"schema_version": 0}`))
	fmt.Println(err)
	// Output:
	// seed: 1 of 2 intended
	// robust: 2 of 2 intended
	// failed: [truncated/unclosed]
	// <nil> 2
	// old.json: report schema version 0, this compacteval reads version 1
}
