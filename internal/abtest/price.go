package abtest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/internal/record"
)

// Price is what a million tokens cost, in US dollars.
type Price struct {
	In  float64 `json:"in"`
	Out float64 `json:"out"`
}

// Cost returns the cost of tokens in and out.
func (p Price) Cost(in, out int) float64 {
	return round4((float64(in)*p.In + float64(out)*p.Out) / 1e6)
}

// PricesChecked is the day Prices was last checked against the providers' own pages
// (platform.claude.com's models overview and model pages, developers.openai.com's model
// pages).
const PricesChecked = "2026-12-07"

// Prices are the list prices of the providers' current models per million tokens,
// standard (not batch) rates; a batch costs half at both providers, which estimates do not
// count. Where a price rises with the prompt's length the higher rate is listed (a
// compaction prompt is long, and a cap must not be underestimated): Claude Haiku 5.5 costs
// $0.10/$0.50 up to 100K prompt tokens. A model not listed needs -price; an id with a date
// (claude-haiku-4-5-20251001, gpt-5.4-nano-2026-03-17) has its family's price.
var Prices = map[string]Price{
	"claude-fable-5-2":  {In: 8, Out: 40},
	"claude-fable-5-1":  {In: 10, Out: 50},
	"claude-opus-5-5":   {In: 4, Out: 20},
	"claude-sonnet-5-5": {In: 2, Out: 10},
	"claude-haiku-5-5":  {In: 0.5, Out: 2.5},
	"claude-opus-5":     {In: 5, Out: 25},
	"claude-sonnet-5":   {In: 2, Out: 10},
	"claude-haiku-4-5":  {In: 1, Out: 5},
	"gpt-6-luna":        {In: 0.1, Out: 0.5},
	"gpt-5.4-nano":      {In: 0.2, Out: 1.25},
	"gpt-5-nano":        {In: 0.05, Out: 0.4},
}

// datedID is a model id's date suffix: Anthropic's -YYYYMMDD, OpenAI's -YYYY-MM-DD, or
// -latest.
var datedID = regexp.MustCompile(`-(?:20[0-9]{6}|20[0-9]{2}-[0-9]{2}-[0-9]{2}|latest)$`)

// Family returns the model id without its date suffix: the id Prices lists.
func Family(model string) string { return datedID.ReplaceAllString(model, "") }

// Spent is what a run did with its jobs: the calls it made and the tokens the provider
// counted for them (what this run spent), and the answers it did not pay for.
type Spent struct {
	Calls     int `json:"calls"`
	TokensIn  int `json:"tokens_in"`
	TokensOut int `json:"tokens_out"`
	// Replayed answers came from the cache, Existing from case files written before;
	// Failed jobs have no answer (a call that failed after it was made is also a call).
	Replayed int `json:"replayed"`
	Existing int `json:"existing"`
	Failed   int `json:"failed"`
	// Cost is what the calls made cost at the price given, nil when none is known.
	Cost *float64 `json:"cost_usd"`
}

// Spend counts what outcomes spent: a call is counted when the provider was asked,
// whatever became of its answer.
func Spend(outs []record.Outcome) Spent {
	var s Spent
	for _, o := range outs {
		if o.Called {
			s.Calls++
			if o.Response != nil {
				in, out := usage(o)
				s.TokensIn += in
				s.TokensOut += out
			}
		}
		switch o.Status {
		case record.StatusReplayed:
			s.Replayed++
		case record.StatusExists:
			s.Existing++
		case record.StatusFailed:
			s.Failed++
		}
	}
	return s
}

// ParsePrice reads a -price value: IN,OUT, dollars per million tokens in and out.
func ParsePrice(s string) (Price, error) {
	a, b, ok := strings.Cut(s, ",")
	in, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	out, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil || !validPrice(in) || !validPrice(out) {
		return Price{}, fmt.Errorf("-price %q: want IN,OUT, dollars per million tokens in and out (such as 1,5)", s)
	}
	return Price{In: in, Out: out}, nil
}

// MaxPrice is the highest price per million tokens ParsePrice takes: the dearest models
// cost a few hundred dollars.
const MaxPrice = 10000

func validPrice(x float64) bool { return !math.IsNaN(x) && x >= 0 && x <= MaxPrice }

// LookupPrice returns the price of a model: its entry in Prices (or its family's, for a
// dated id), else nothing. A model on
// the local machine (local true) costs nothing.
func LookupPrice(model string, local bool) (*Price, bool) {
	if local {
		return &Price{}, true
	}
	p, ok := Prices[model]
	if !ok {
		p, ok = Prices[Family(model)]
	}
	if !ok {
		return nil, false
	}
	return &p, true
}
