package pipeline

import (
	"context"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/extractor"
)

// TestEvalExtractorAlias: -eval-extractor claude-code scores with the version it names.
func TestEvalExtractorAlias(t *testing.T) {
	opt := options(t, "../review/testdata/corpus", 0)
	ex, _ := compact.Lookup("claude-code")
	opt.Extractors = []*extractor.Extractor{extractor.Builtin(ex)}
	opt.EvalExtractor = "claude-code"
	r, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatalf("Run(-eval-extractor claude-code) = %v", err)
	}
	if r.Eval.Extractor != "claude-code@2.1.332" {
		t.Errorf("Run(-eval-extractor claude-code) scored with %q, want claude-code@2.1.332", r.Eval.Extractor)
	}
}
