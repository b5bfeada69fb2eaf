package abtest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record"
)

// Plan is every call of a run: per side, input and sample, a record job.
type Plan struct {
	Sides  [2]Side
	Inputs []Input
	// Samples is the number of answers per input and side.
	Samples int
	// Jobs are base's jobs then head's, each input's samples together.
	Jobs []record.Job
}

// NewPlan returns the jobs of a run: t says whom to ask and how (its Prompt and Out are
// set per side: a side's cases go below out/base or out/head). A case's id ends in the
// first 8 hex digits of its request's cache key, so that an answer to another instruction
// or model never stands in for this one.
func NewPlan(t record.Target, sides [2]Side, inputs []Input, out string) (*Plan, error) {
	return NewPlanContext(context.Background(), t, sides, inputs, out)
}

// NewPlanContext is NewPlan that stops with ctx's error when ctx is done (a run
// interrupted while it plans).
func NewPlanContext(ctx context.Context, t record.Target, sides [2]Side, inputs []Input, out string) (*Plan, error) {
	if t.Samples < 1 || t.Samples > MaxSamples {
		return nil, fmt.Errorf("samples must be 1 to %d, not %d", MaxSamples, t.Samples)
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("no input to compare the sides on")
	}
	p := &Plan{Sides: sides, Inputs: inputs, Samples: t.Samples}
	cases := make([]*corpus.Case, len(inputs))
	for i, in := range inputs {
		cases[i] = in.Case
	}
	// One job per input is built, for base (redacting a conversation is the slow part):
	// head's are base's with head's prompt, and the other samples are copies that differ
	// in Sample.
	var firsts []record.Job
	for k, s := range sides {
		st := t
		st.Prompt = s.Prompt
		st.Out = filepath.Join(out, s.Name)
		st.Samples = 1
		var err error
		if k == 0 {
			var skipped []string
			firsts, skipped, err = st.Jobs(cases)
			if err == nil && len(skipped) > 0 {
				err = fmt.Errorf("input %s has no conversation", skipped[0])
			}
		} else {
			firsts, err = st.Reprompt(firsts)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		for i, first := range firsts {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("planning stopped: %w", context.Cause(ctx))
			}
			for n := 1; n <= t.Samples; n++ {
				j := first
				req := *first.Request
				req.Sample = n
				j.Request = &req
				j.ID = record.CaseID(inputs[i].Case, t.Provider, t.Model, n) + "-" + req.Key()[:8]
				j.Path = record.CasePath(st.Out, j.ID)
				p.Jobs = append(p.Jobs, j)
			}
		}
	}
	return p, nil
}

// Estimate is what the calls of a plan not yet answered would use.
type Estimate struct {
	// Calls counts the calls to make (neither a case file nor the cache has the answer,
	// and no earlier job asks the same request: an extractor-only change asks head what
	// base asked, and the run replays base's answer); Answered the others.
	Calls, Answered [2]int
	// TokensIn is estimated from the requests (4 bytes a token); TokensOut assumes every
	// answer as long as OutPerCall.
	TokensIn, TokensOut [2]int
}

// OutPerCall is the answer length an estimate assumes, in tokens: a full nine-section
// summary with its analysis runs 1,000 to 3,000.
const OutPerCall = 2000

// Estimate counts the calls the plan still needs. cache may be nil.
func (p *Plan) Estimate(cache *record.Cache, maxTokens int) Estimate {
	e, _ := p.EstimateContext(context.Background(), cache, maxTokens)
	return e
}

// EstimateContext is Estimate that stops with ctx's error when ctx is done.
func (p *Plan) EstimateContext(ctx context.Context, cache *record.Cache, maxTokens int) (Estimate, error) {
	var e Estimate
	per := p.Samples * len(p.Inputs)
	asked := map[string]bool{} // the requests of the calls counted
	for i := range p.Jobs {
		if err := ctx.Err(); err != nil {
			return e, fmt.Errorf("estimate stopped: %w", context.Cause(ctx))
		}
		j := &p.Jobs[i]
		side := i / max(per, 1)
		key := j.Request.Key()
		if asked[key] || answered(j, cache) {
			e.Answered[side]++
			continue
		}
		asked[key] = true
		e.Calls[side]++
		e.TokensIn[side] += j.Request.EstimatedTokens()
		e.TokensOut[side] += min(OutPerCall, maxTokens)
	}
	return e, nil
}

// EstimateJobs is Estimate for the jobs of compacteval record: the calls to make (no case
// file, no cached answer, no earlier job asking the same request) and their tokens.
func EstimateJobs(jobs []record.Job, cache *record.Cache, maxTokens int) (calls, tokensIn, tokensOut int) {
	asked := map[string]bool{}
	for i := range jobs {
		j := &jobs[i]
		key := j.Request.Key()
		if asked[key] || answered(j, cache) {
			continue
		}
		asked[key] = true
		calls++
		tokensIn += j.Request.EstimatedTokens()
		tokensOut += min(OutPerCall, maxTokens)
	}
	return calls, tokensIn, tokensOut
}

func answered(j *record.Job, cache *record.Cache) bool {
	if fileExists(j.Path) {
		return true
	}
	if cache == nil {
		return false
	}
	_, err := cache.Get(j.Request)
	return err == nil
}

// Dedupe returns the inputs without those that repeat an earlier one's conversation, cut
// and previous summary (the corpus keeps several responses to one conversation: they are
// one input here), and the ids of those dropped.
func Dedupe(inputs []Input) (kept []Input, dropped []string) {
	seen := map[[32]byte]bool{}
	for _, in := range inputs {
		data, err := json.Marshal(struct {
			Conv []corpus.Message
			Cut  int
			Prev string
		}{in.Eval.Conversation, in.Eval.Cut, in.Eval.PreviousSummary})
		if err != nil {
			panic("abtest: marshal a conversation: " + err.Error())
		}
		k := sha256.Sum256(data)
		if seen[k] {
			dropped = append(dropped, in.Eval.ID)
			continue
		}
		seen[k] = true
		kept = append(kept, in)
	}
	return kept, dropped
}

// MaxSamples is the most answers per input and side a run asks for (review -samples,
// record -n): each is a paid call, and the plan holds them all.
const MaxSamples = 100
