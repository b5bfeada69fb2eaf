package abtest

import (
	"math"
	"regexp"
	"testing"
	"time"
)

// TestLookupPrice: an id with a date is priced as its family (claude-haiku-4-5-20251001
// was "unknown"); an unknown model has no price; a local server costs nothing.
func TestLookupPrice(t *testing.T) {
	for _, tt := range []struct {
		model string
		local bool
		want  *Price
	}{
		{model: "claude-haiku-4-5", want: &Price{In: 1, Out: 5}},
		{model: "claude-haiku-4-5-20251001", want: &Price{In: 1, Out: 5}},
		{model: "gpt-5.4-nano-2026-03-17", want: &Price{In: 0.2, Out: 1.25}},
		{model: "claude-opus-5-5-latest", want: &Price{In: 4, Out: 20}},
		{model: "claude-haiku-4-5-2025", want: nil}, // no date: another model
		{model: "qwen2.5:7b", want: nil},
		{model: "qwen2.5:7b", local: true, want: &Price{}},
	} {
		got, ok := LookupPrice(tt.model, tt.local)
		if ok != (tt.want != nil) || (got != nil && tt.want != nil && *got != *tt.want) {
			t.Errorf("LookupPrice(%q, %v) = %v, %v; want %v", tt.model, tt.local, got, ok, tt.want)
		}
	}
}

// TestPricesTable: every entry is a family id (no date), with finite, positive prices, and
// the check date parses.
func TestPricesTable(t *testing.T) {
	if _, err := time.Parse(time.DateOnly, PricesChecked); err != nil {
		t.Errorf("PricesChecked %q: %v", PricesChecked, err)
	}
	id := regexp.MustCompile(`^(claude|gpt)-[a-z0-9.-]+$`)
	for model, p := range Prices {
		if Family(model) != model || !id.MatchString(model) {
			t.Errorf("Prices has %q, which is no family id", model)
		}
		for _, x := range []float64{p.In, p.Out} {
			if !validPrice(x) || x == 0 || math.IsInf(x, 0) {
				t.Errorf("Prices[%q] = %+v: want positive prices under %d", model, p, MaxPrice)
			}
		}
	}
}

func TestParsePriceRefuses(t *testing.T) {
	for _, s := range []string{"NaN,NaN", "1,Inf", "-1,5", "1", "1,5,6", "20000,1", "a,b"} {
		if _, err := ParsePrice(s); err == nil {
			t.Errorf("ParsePrice(%q) = nil error, want one", s)
		}
	}
	if p, err := ParsePrice(" 1.5 , 7 "); err != nil || p != (Price{In: 1.5, Out: 7}) {
		t.Errorf("ParsePrice(1.5,7) = %v, %v", p, err)
	}
}
