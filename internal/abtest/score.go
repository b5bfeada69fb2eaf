package abtest

import (
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/record"
)

// Options tune Score.
type Options struct {
	Provider, Model string
	// Eval tunes eval.Score (its Extractor is not used: each side extracts).
	Eval eval.Options
	// MinDelta is the fall of the headline score the run tolerates: it fails when the
	// whole interval lies below -MinDelta.
	MinDelta float64
	// AllowedHeadLost is how many summaries head may lose that base kept from the same
	// answer, and how many more than base head may lose where the answers differ.
	AllowedHeadLost int
	// MaxSummaryTokens fails a head whose summaries average more tokens; 0 for no limit.
	MaxSummaryTokens int
	// Price is the cost of a million tokens in and out, nil when unknown.
	Price *Price
}

// Score scores the outcomes of a plan's jobs (in job order) and compares the sides. An
// input with a call that gave no answer is left out and listed in Result.Unscorable; when
// no input is left, the error is a *NoInputError.
func Score(p *Plan, outs []record.Outcome, opt Options) (*Result, error) {
	if len(outs) != len(p.Jobs) || len(outs) == 0 {
		return nil, fmt.Errorf("%d outcomes for %d jobs", len(outs), len(p.Jobs))
	}
	texts, unscorable := answers(p, outs)
	r := &Result{
		SchemaVersion: SchemaVersion, Provider: opt.Provider, Model: opt.Model, Samples: p.Samples,
		Base: SideInfo{Desc: p.Sides[0].Desc}, Head: SideInfo{Desc: p.Sides[1].Desc},
		MinDelta: opt.MinDelta, AllowedHeadLost: opt.AllowedHeadLost, MaxSummaryTokens: opt.MaxSummaryTokens,
		Lost: []Lost{}, HeadOnlyLost: []Lost{}, Failures: []string{}, Notes: []string{}, Unscorable: []Unscorable{},
	}
	half := len(outs) / 2
	var extractions [2][]extracted
	for s := range 2 {
		exs, err := p.Sides[s].Extract(texts[s*half : (s+1)*half])
		if err != nil {
			return nil, fmt.Errorf("%s extractor: %w", p.Sides[s].Name, err)
		}
		for _, e := range exs {
			extractions[s] = append(extractions[s], extracted{found: e.OK && e.Summary != "", summary: e.Summary})
		}
	}
	infos := [2]*SideInfo{&r.Base, &r.Head}
	outline := outlines(p, r)
	evalOpt := opt.Eval
	evalOpt.NoBoundary = !r.BoundaryComparable
	for s := range 2 {
		infos[s].Tags = append([]string{}, namedTags(p.Jobs[s*half].Request.Instruction)...)
	}
	for i, in := range p.Inputs {
		if unscorable[i] != "" {
			r.Unscorable = append(r.Unscorable, Unscorable{Input: in.Eval.ID, Reason: unscorable[i]})
			continue
		}
		ir := InputResult{ID: in.Eval.ID, Source: in.Eval.Source, Base: []SampleResult{}, Head: []SampleResult{}}
		// Every sample of both sides is scored against the input's conversation prepared
		// once (eval.Scorer), each read by its own instruction's outline.
		var summaries []string
		for s := range 2 {
			for n := 1; n <= p.Samples; n++ {
				k := (s*len(p.Inputs)+i)*p.Samples + n - 1
				summaries = append(summaries, extractions[s][k-s*half].text())
			}
		}
		sc := eval.NewScorer(in.Eval, evalOpt)
		results := make([]eval.Result, len(summaries))
		for k, sum := range summaries {
			s := k / p.Samples
			results[k] = sc.Score(sum, outline(p.Jobs[(s*len(p.Inputs)+i)*p.Samples+k%p.Samples].Request.Instruction))
		}
		replaced := replacedTokens(in.Eval, opt.Eval)
		for s := range 2 {
			for n := 1; n <= p.Samples; n++ {
				k := (s*len(p.Inputs)+i)*p.Samples + n - 1
				sr := sampleResult(extractions[s][k-s*half], results[s*p.Samples+n-1], replaced)
				sr.Sample, sr.Case = n, p.Jobs[k].ID
				sr.InstructionSHA256 = p.Jobs[k].Request.InstructionSHA256()
				sr.TokensIn, sr.TokensOut = usage(outs[k])
				sr.Fallback = sr.Found && !tagged(texts[k], p.Jobs[k].Request.Instruction, sr.Summary)
				infos[s].Found += b2i(sr.Found)
				infos[s].Fallback += b2i(sr.Fallback)
				infos[s].Calls++
				infos[s].TokensIn += sr.TokensIn
				infos[s].TokensOut += sr.TokensOut
				if s == 0 {
					ir.Base = append(ir.Base, sr)
				} else {
					ir.Head = append(ir.Head, sr)
				}
				if !sr.Found {
					r.Lost = append(r.Lost, Lost{Side: p.Sides[s].Name, Input: ir.ID, Sample: n, Case: sr.Case})
				}
			}
		}
		for n := range p.Samples {
			// Only where both sides sent the same request, and so read the same answer,
			// is a sample of head's paired with base's (lostTest compares the others).
			same := ir.Base[n].InstructionSHA256 == ir.Head[n].InstructionSHA256
			if same && ir.Base[n].Found && !ir.Head[n].Found {
				r.HeadOnlyLost = append(r.HeadOnlyLost, Lost{Side: p.Sides[1].Name, Input: ir.ID, Sample: n + 1, Case: ir.Head[n].Case})
			}
		}
		ir.Delta = map[string]float64{}
		for _, m := range Measures {
			b, okb := mean(ir.Base, m)
			h, okh := mean(ir.Head, m)
			if okb && okh {
				ir.Delta[m] = h - b
			}
		}
		r.Inputs = append(r.Inputs, ir)
	}
	if len(r.Inputs) == 0 {
		return nil, &NoInputError{Unscorable: r.Unscorable}
	}
	sort.SliceStable(r.Lost, func(a, b int) bool { return r.Lost[a].Side == "base" && r.Lost[b].Side != "base" })
	for _, m := range Measures {
		c := compare(r.Inputs, m)
		if m == MeasureBoundary && !r.BoundaryComparable {
			c.Verdict.Verdict = NotComparable
		}
		r.Measures = append(r.Measures, c)
	}
	r.Verdict = r.Measures[0].Verdict
	spent := Spend(outs)
	r.Spent = &spent
	if opt.Price != nil {
		for _, info := range infos {
			c := opt.Price.Cost(info.TokensIn, info.TokensOut)
			info.Cost = &c
		}
		c := opt.Price.Cost(spent.TokensIn, spent.TokensOut)
		spent.Cost = &c
	}
	// Worse says the whole interval is below zero; with one input there is none.
	if r.Verdict.Verdict == Worse && (opt.MinDelta == 0 || r.Verdict.High < -opt.MinDelta) {
		floor := "zero"
		if opt.MinDelta > 0 {
			floor = fmt.Sprintf("-%g (-min-delta)", opt.MinDelta)
		}
		r.Failures = append(r.Failures, fmt.Sprintf("the headline score fell: %s, 95%% interval %s to %s, all of it below %s",
			signed(r.Verdict.Mean), signed(r.Verdict.Low), signed(r.Verdict.High), floor))
	}
	if len(r.HeadOnlyLost) > opt.AllowedHeadLost {
		r.Failures = append(r.Failures, fmt.Sprintf("head lost %d summaries that base kept from the same answers (%d allowed)", len(r.HeadOnlyLost), opt.AllowedHeadLost))
	}
	if tokens := r.Measures[slices.Index(Measures, MeasureSummaryTokens)]; opt.MaxSummaryTokens > 0 && tokens.Head != nil && *tokens.Head > float64(opt.MaxSummaryTokens) {
		r.Failures = append(r.Failures, fmt.Sprintf("head's summaries average %.0f tokens, over review.max_summary_tokens %d (base's: %s)",
			*tokens.Head, opt.MaxSummaryTokens, ptrText(tokens.Base, "%.0f")))
	}
	r.LostTest = lostTest(r.Inputs)
	if t := r.LostTest; t != nil && t.P < Level && t.Head-t.Base > opt.AllowedHeadLost {
		r.Failures = append(r.Failures, fmt.Sprintf("head lost %d of %d summaries, base %d: more than chance allows (exact p = %.4f; %d more allowed)",
			t.Head, t.Samples, t.Base, t.P, opt.AllowedHeadLost))
	}
	return r, nil
}

// outlines reads each side's instruction for the sections it asks for (eval.ParseOutline),
// so that each side's summaries are read in its own instruction's words, and records in r
// whether boundary coverage is comparable: it is not when eval cannot tell the recent
// part of one side's summaries (a section of its instruction is none eval knows, by
// title or number, so it may hold recent work eval would not read as such), and then
// neither side's boundary coverage is counted, in its measure or in the score. It returns
// the outline of an instruction, parsed once.
func outlines(p *Plan, r *Result) func(instruction string) *eval.Outline {
	memo := map[string]*eval.Outline{}
	get := func(instruction string) *eval.Outline {
		o, ok := memo[instruction]
		if !ok {
			o = eval.ParseOutline(instruction)
			memo[instruction] = o
		}
		return o
	}
	r.BoundaryComparable = true
	half := len(p.Jobs) / 2
	for s, info := range [2]*SideInfo{&r.Base, &r.Head} {
		o := get(p.Jobs[s*half].Request.Instruction)
		info.Outline = o
		for _, part := range o.Unknown() {
			r.BoundaryComparable = false
			r.Notes = append(r.Notes, fmt.Sprintf("boundary coverage is not comparable: %s's section %d %q is none eval knows, by its title or its number, so eval cannot tell whether it holds the most recent work; neither side's boundary coverage is counted, in its measure or in the score", p.Sides[s].Name, part.Number, part.Title))
		}
		if o == nil {
			continue
		}
		for _, part := range o.Parts {
			if part.ByNumber {
				r.Notes = append(r.Notes, fmt.Sprintf("%s's section %d %q is read as %q, by its number: its title names none of the nine sections", p.Sides[s].Name, part.Number, part.Title, eval.SectionNames[part.Sections[0]-1]))
			}
		}
	}
	return get
}

type extracted struct {
	found   bool
	summary string
}

// text is the summary scored: the extracted one, or "" when none was found.
func (e extracted) text() string {
	if e.found {
		return e.summary
	}
	return ""
}

// replacedTokens returns the estimated tokens a summary of in replaces: the messages
// before the kept tail and an earlier summary.
func replacedTokens(in eval.Input, opt eval.Options) int {
	cut := in.Cut
	if cut < 0 {
		cut = eval.Boundary(in.Conversation, opt.KeepTokens)
	}
	n := 0
	for _, m := range in.Conversation[:min(cut, len(in.Conversation))] {
		n += eval.EstimateTokens(m)
	}
	if in.PreviousSummary != "" {
		n += eval.EstimateTextTokens(in.PreviousSummary)
	}
	return n
}

func ptrText(p *float64, format string) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprintf(format, *p)
}

// sampleResult is one answer's result, from its extraction, the score of its text and
// the tokens its summary replaces. A lost summary has no length.
func sampleResult(e extracted, res eval.Result, replaced int) SampleResult {
	sr := SampleResult{Found: e.found, Summary: e.text(), Values: map[string]float64{}, Missed: facts(res.Missed), Leaked: facts(res.Leaked), Boundary: boundaryFacts(res.BoundaryFacts)}
	lost := 0.0
	if !e.found {
		lost = 1
	}
	sr.Values[MeasureLost] = lost
	for m, s := range map[string]eval.Share{MeasureCoverage: res.Coverage, MeasureBoundary: res.BoundaryCoverage, MeasureLeakage: res.TailLeakage} {
		if v, ok := s.Value(); ok {
			sr.Values[m] = v
		}
	}
	if e.found {
		tokens := eval.EstimateTextTokens(e.summary)
		sr.Values[MeasureSummaryTokens] = float64(tokens)
		if replaced > 0 {
			sr.Values[MeasureCompression] = float64(tokens) / float64(replaced)
		}
	}
	switch {
	case !e.found:
		sr.Values[MeasureScore] = 0
	case res.Score != nil:
		sr.Values[MeasureScore] = *res.Score
	}
	return sr
}

// usage returns the tokens in and out the provider counted for an answer, from the
// response or, for an answer already written, from its case.
func usage(o record.Outcome) (in, out int) {
	var u map[string]int
	switch {
	case o.Response != nil:
		u = o.Response.Usage
	case o.Case != nil:
		u = o.Case.Origin.Usage
	}
	resp := record.Response{Usage: u}
	in, _ = resp.PromptTokens()
	out = u["completion_tokens"] + u["output_tokens"]
	return in, out
}

// mean returns the mean of a measure over samples that have it.
func mean(samples []SampleResult, m string) (float64, bool) {
	sum, n := 0.0, 0
	for _, s := range samples {
		if v, ok := s.Values[m]; ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
