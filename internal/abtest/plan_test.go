package abtest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/record"
)

// TestPlanBounds: -samples 1e9 planned for ten minutes and ignored SIGINT. A plan holds at
// most MaxSamples per input and side, and stops when its context is done.
func TestPlanBounds(t *testing.T) {
	target := record.Target{Provider: record.OpenAI, Model: "m", Params: record.Params{MaxTokens: 100}, Samples: MaxSamples + 1}
	if _, err := NewPlan(target, [2]Side{{Name: "base"}, {Name: "head"}}, []Input{{}}, t.TempDir()); err == nil || !strings.Contains(err.Error(), "samples must be 1 to 100") {
		t.Errorf("NewPlan(%d samples) = %v, want refused", MaxSamples+1, err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupt signal received"))
	p := &Plan{Samples: 1, Inputs: []Input{{}}, Jobs: []record.Job{{}}}
	if _, err := p.EstimateContext(ctx, nil, 100); err == nil || !strings.Contains(err.Error(), "interrupt signal received") {
		t.Errorf("EstimateContext(cancelled) = %v, want the cause", err)
	}
}
