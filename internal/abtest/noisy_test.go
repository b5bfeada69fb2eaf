package abtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record"
	"github.com/compacteval/compacteval/internal/record/recordtest"
)

// directPlan returns the plan of comparing base and head on inputs, samples answers each.
func directPlan(t *testing.T, base, head Side, inputs []Input, samples int) *Plan {
	t.Helper()
	target := record.Target{Provider: record.OpenAI, Model: "fake", Params: record.Params{MaxTokens: 4000}, Reason: compact.ReasonThreshold, Samples: samples}
	p, err := NewPlan(target, [2]Side{base, head}, inputs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runDirect runs plan p as fixture.run does, asking fake in process instead of over HTTP
// and through the recorder (which writes every answer as a case): the same request,
// sample included, gets the same answer, as the replay cache gives it.
func runDirect(t *testing.T, fake *recordtest.FakeModel, p *Plan, opts ...Options) *Result {
	t.Helper()
	answers := map[string]string{}
	outs := make([]record.Outcome, len(p.Jobs))
	for i := range p.Jobs {
		req := p.Jobs[i].Request
		key := fmt.Sprint(req.Sample, "\x00", req.Instruction, "\x00", p.Jobs[i].Source.ID)
		text, ok := answers[key]
		if !ok {
			rep := fake.Reply(fakeBody(req))
			if rep.Status != 0 {
				t.Fatalf("the fake answers %s with %d: %s", p.Jobs[i].ID, rep.Status, rep.ErrMessage)
			}
			text = rep.Text
			answers[key] = text
		}
		outs[i] = record.Outcome{Job: &p.Jobs[i], Status: record.StatusRecorded, Response: &record.Response{Text: text}}
	}
	opt := Options{Provider: record.OpenAI, Model: "fake"}
	if len(opts) > 0 {
		opt = opts[0]
	}
	r, err := Score(p, outs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fakeBody is a chat completions body for req, as the fake reads one: each message's text,
// tool calls with their arguments, the instruction last.
func fakeBody(req *record.Request) []byte {
	type call struct {
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	type msg struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		ToolCalls []call `json:"tool_calls,omitempty"`
	}
	var msgs []msg
	for _, m := range req.Messages {
		out := msg{Role: m.Role, Content: m.Text}
		for _, tc := range m.ToolCalls {
			var c call
			c.Function.Name = tc.Name
			c.Function.Arguments = tc.Input
			if !json.Valid([]byte(strings.TrimSpace(tc.Input))) {
				data, _ := json.Marshal(map[string]string{"input": tc.Input})
				c.Function.Arguments = string(data)
			}
			out.ToolCalls = append(out.ToolCalls, c)
		}
		msgs = append(msgs, out)
	}
	msgs = append(msgs, msg{Role: corpus.RoleUser, Content: req.Instruction})
	data, _ := json.Marshal(map[string]any{"model": req.Model, "messages": msgs})
	return data
}

// worseOn returns the measures r judges worse.
func worseOn(r *Result) []string {
	var out []string
	for _, m := range r.Measures {
		if m.Verdict.Verdict == Worse {
			out = append(out, m.Measure)
		}
	}
	return out
}

// TestNoisyAA runs A/A reviews against a noisy fake that breaks a tenth of its tags, both
// sides extracting with an extractor that loses every broken summary: head is base with a
// double space the model does not read. Over 40 seeds (40 runs of the model), at least 38
// must pass with no measure worse. Without section 8, boundary coverage must be worse in
// each of 5 other seeds.
func TestNoisyAA(t *testing.T) {
	inputs := evalInputs(t)
	base := goSide("base", compact.Instruction, strictExtract)
	aa := goSide("head", edit(t, "Your task is to create", "Your task is to  create"), strictExtract)
	noSection8 := goSide("head", edit(t, section8...), strictExtract)
	const seeds = 40
	aaPlan, dropPlan := directPlan(t, base, aa, inputs, 2), directPlan(t, base, noSection8, inputs, 2)
	bad := 0
	for seed := range uint64(seeds) {
		fake := &recordtest.FakeModel{BreakRate: 0.1, Noise: 0.3, Seed: seed + 1}
		r := runDirect(t, fake, aaPlan)
		if worse := worseOn(r); !r.Passed() || len(worse) > 0 {
			bad++
			t.Logf("seed %d: A/A fails %q, worse on %q", seed+1, r.Failures, worse)
		}
	}
	if bad > seeds/20 {
		t.Errorf("A/A failed or found a measure worse in %d of %d seeds, want at most %d", bad, seeds, seeds/20)
	}
	for seed := range uint64(5) {
		fake := &recordtest.FakeModel{BreakRate: 0.1, Noise: 0.3, Seed: 100 + seed}
		r := runDirect(t, fake, dropPlan)
		if c := measure(r, MeasureBoundary); c.Verdict.Verdict != Worse {
			t.Errorf("seed %d: without section 8 boundary coverage is %s (%+.3f, %+.3f to %+.3f), want worse", 100+seed, c.Verdict.Verdict, c.Mean, c.Low, c.High)
		}
	}
}

// TestLengthMeasures checks the length measures on an edit that makes the fake write the
// user's messages twice: head's summaries are longer, and so is their compression ratio,
// while the scores see the same facts; with review.max_summary_tokens between base's mean
// and head's the review fails, naming it.
func TestLengthMeasures(t *testing.T) {
	inputs := evalInputs(t)
	base := goSide("base", compact.Instruction, seedExtract)
	twice := goSide("head", edit(t, "9. Optional Next Step: List", "10. All user messages again: Repeat them.\n9. Optional Next Step: List"), seedExtract)
	p := directPlan(t, base, twice, inputs, 2)
	r := runDirect(t, &recordtest.FakeModel{BreakRate: 0.1, Noise: 0.2, Seed: 3}, p)
	tokens, ratio := measure(r, MeasureSummaryTokens), measure(r, MeasureCompression)
	for _, c := range []Comparison{tokens, ratio} {
		t.Logf("%s: base %v head %v, %+.4f (%+.4f to %+.4f) %s", c.Measure, *c.Base, *c.Head, c.Mean, c.Low, c.High, c.Verdict.Verdict)
		if c.Verdict.Verdict != Longer || !(c.Low > 0) || *c.Head <= *c.Base {
			t.Errorf("%s = %s, %+.4f to %+.4f (base %v, head %v), want longer, above zero", c.Measure, c.Verdict.Verdict, c.Low, c.High, *c.Base, *c.Head)
		}
	}
	if !r.Passed() {
		t.Errorf("Passed() = false (%q), want true: a longer summary fails only under max_summary_tokens", r.Failures)
	}
	limit := int((*tokens.Base + *tokens.Head) / 2)
	r = runDirect(t, &recordtest.FakeModel{BreakRate: 0.1, Noise: 0.2, Seed: 3}, p, Options{MaxSummaryTokens: limit})
	if len(r.Failures) != 1 || !strings.Contains(r.Failures[0], fmt.Sprintf("over review.max_summary_tokens %d", limit)) {
		t.Errorf("with max_summary_tokens %d, Failures = %q, want one naming it", limit, r.Failures)
	}
	r = runDirect(t, &recordtest.FakeModel{BreakRate: 0.1, Noise: 0.2, Seed: 3}, p, Options{MaxSummaryTokens: int(*tokens.Head) + 1})
	if !r.Passed() {
		t.Errorf("with max_summary_tokens above head's mean, Failures = %q, want none", r.Failures)
	}
}
