package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseRenamesLegacyNames: a report written before profiles named their version says
// claude-code and windmill for claude-code@2.1.88 and windmill@67ef1eb; Parse gives them
// those names everywhere a report names an extractor, and leaves other names alone.
func TestParseRenamesLegacyNames(t *testing.T) {
	old := `{"schema_version": 1,
		"extractors": [{"name": "seed"}, {"name": "claude-code"}, {"name": "windmill"}, {"name": "cmd:claude-code"}],
		"problems": [{"kind": "golden-mismatch", "case": "a/b", "extractor": "windmill"}],
		"cases": [{"id": "a/b", "results": [{"extractor": "claude-code"}, {"extractor": "seed"}]}],
		"drift": {"extractors": ["seed", "claude-code", "windmill"]},
		"eval": {"extractor": "claude-code", "cases": [{"id": "e", "extractor": "windmill"}]}}`
	r, err := Parse("old.json", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{r.Extractors[0].Name, r.Extractors[1].Name, r.Extractors[2].Name, r.Extractors[3].Name,
		r.Problems[0].Extractor, r.Cases[0].Results[0].Extractor, r.Cases[0].Results[1].Extractor,
		r.Drift.Extractors[1], r.Drift.Extractors[2], r.Eval.Extractor, r.Eval.Cases[0].Extractor}
	want := []string{"seed", "claude-code@2.1.88", "windmill@67ef1eb", "cmd:claude-code",
		"windmill@67ef1eb", "claude-code@2.1.88", "seed",
		"claude-code@2.1.88", "windmill@67ef1eb", "claude-code@2.1.88", "windmill@67ef1eb"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse(old report) names mismatch (-want +got):\n%s", diff)
	}
}
