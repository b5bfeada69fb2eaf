package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/abtest"
	"github.com/compacteval/compacteval/internal/record"
)

// TestBatchHint: the hint says what -batch changes where the run calls: half the cost on
// the provider's API, a batch API that another server may lack, nothing on this machine.
func TestBatchHint(t *testing.T) {
	est := abtest.Estimate{TokensIn: [2]int{1_000_000, 0}, TokensOut: [2]int{0, 0}}
	price := &abtest.Price{In: 2, Out: 10}
	for _, tt := range []struct {
		reason  string
		baseURL string
		batch   bool
		price   *abtest.Price
		want    string
	}{
		{reason: "the provider's API halves the cost", price: price, want: "-batch would cost about $1.0000 instead, half"},
		{reason: "another server may have no batch API", baseURL: "https://llm.example.com/v1", price: price, want: "which https://llm.example.com/v1 may not have"},
		{reason: "a server on this machine has none: no hint", baseURL: "http://localhost:11434/v1", price: price, want: ""},
		{reason: "a -batch run needs no hint", batch: true, price: price, want: ""},
	} {
		f := &abFlags{}
		f.call.baseURL, f.call.batch = tt.baseURL, tt.batch
		got := batchHint(f, tt.price, est)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: batchHint() = %q, want %q", tt.reason, got, tt.want)
		}
	}
	h := recordHint{provider: record.OpenAI, baseURL: "http://localhost:11434/v1", batch: true}
	if got := h.explain(fmt.Errorf("POST /v1/files: %w", record.ErrEndpointNotFound)); !strings.Contains(got, "has no batch API") {
		t.Errorf("explain(404 of a batch) = %q, want it to say the server has no batch API", got)
	}
}
