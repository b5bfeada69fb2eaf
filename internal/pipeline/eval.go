package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/par"
	"github.com/compacteval/compacteval/internal/redact"
	"github.com/compacteval/compacteval/report"
)

// EvalExtractor returns the extractor of exs named name (Options.EvalExtractor; an alias
// names its target), the first for "", or an error naming those there are: a command
// checks it before the work.
func EvalExtractor(exs []*extractor.Extractor, name string) (*extractor.Extractor, error) {
	if name == "" && len(exs) > 0 {
		return exs[0], nil
	}
	want := name
	if target, ok := compact.Alias(name); ok { // -eval-extractor claude-code
		want = target
	}
	var ex *extractor.Extractor
	for _, e := range exs {
		if e.Name == want {
			ex = e
		}
	}
	if ex == nil {
		return nil, fmt.Errorf("eval extractor %q is not among the extractors run (%s)", name, strings.Join(extractor.Names(exs), ", "))
	}
	return ex, nil
}

// evalStage scores every eval case with the eval extractor, on every core, reading the
// cases that have a conversation a batch at a time.
func evalStage(ctx context.Context, r *report.Report, c *corpus.Corpus, entries []corpus.Entry, exs []*extractor.Extractor, opt Options, progress func(string, int, int)) error {
	ex, err := EvalExtractor(exs, opt.EvalExtractor)
	if err != nil {
		return err
	}
	var scored []corpus.Entry
	for _, e := range entries {
		if e.Conversation { // eval.FromCase takes exactly these
			scored = append(scored, e)
		}
	}
	m := newMeter(StageEval, len(scored), progress)
	eopt := eval.Options{Extractor: ex.Compact(), Redact: redact.String}
	// The results go to the report (or its store) a batch at a time, totalled as they go.
	var results []eval.Result
	totals := eval.Totals{Formats: map[string]int{}}
	for from, to := 0, 0; from < len(scored) && ctx.Err() == nil; from = to {
		to = batchEnd(scored, from)
		cases, err := c.Read(scored[from:to])
		if err != nil {
			return err
		}
		inputs := make([]eval.Input, len(cases))
		for i, k := range cases {
			var ok bool
			if inputs[i], ok = eval.FromCase(k); !ok {
				return fmt.Errorf("eval: case %s has no conversation", k.ID) // a broken invariant: Entry.Conversation said it had
			}
		}
		if ex.External() { // the extraction asked for them, but a large corpus's answers are not all kept
			texts := make([]string, len(inputs))
			for i := range inputs {
				texts[i] = inputs[i].Response
			}
			if err := ex.Prefetch(texts); err != nil {
				return fmt.Errorf("%w: %w", ErrExtractor, err)
			}
		}
		// The eval cases of one session (its summaries, complete and flawed) share what
		// scoring computes from the conversation: one scorer each.
		leaders, scorerOf := sessions(inputs)
		scorers := make([]*eval.Scorer, len(leaders))
		par.Do(len(leaders), func(g int) {
			if ctx.Err() == nil {
				scorers[g] = eval.NewScorer(inputs[leaders[g]], eopt)
			}
		})
		scores := make([]eval.Result, len(inputs))
		par.Do(len(inputs), func(i int) {
			if ctx.Err() != nil {
				return // a cancelled run's scores are dropped
			}
			scores[i] = detach(scorers[scorerOf[i]].ScoreInput(inputs[i]))
			m.add(1)
		})
		for i := range scores {
			totals.Add(&scores[i])
			if opt.EvalStore != nil {
				if err := opt.EvalStore.Add(&scores[i]); err != nil {
					return err
				}
			}
		}
		if opt.EvalStore == nil {
			results = append(results, scores...)
		}
	}
	if err := ex.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrExtractor, err)
	}
	r.Eval = eval.NewReport(results, eopt)
	r.Eval.Totals = totals
	if opt.EvalStore != nil {
		r.Eval.Cases, r.StoredEval = nil, opt.EvalStore
	}
	r.Eval.Sources = append(r.Eval.Sources, eval.Source{Path: r.Corpus.Dir, Format: eval.FormatCorpus, Cases: len(scored), Skipped: len(entries) - len(scored)})
	return nil
}

// sessions groups inputs by conversation (eval.SameConversation): leaders holds the
// first input of each group, scorerOf[i] the group of input i.
func sessions(inputs []eval.Input) (leaders, scorerOf []int) {
	scorerOf = make([]int, len(inputs))
next:
	for i := range inputs {
		for g, l := range leaders {
			if eval.SameConversation(inputs[l], inputs[i]) {
				scorerOf[i] = g
				continue next
			}
		}
		scorerOf[i] = len(leaders)
		leaders = append(leaders, i)
	}
	return leaders, scorerOf
}

// detach returns res with its own copy of the texts it shares with its input, so that it
// keeps no conversation alive.
func detach(res eval.Result) eval.Result {
	for _, facts := range []*[]eval.Fact{&res.Misattributed, &res.Missed, &res.Leaked, &res.PreviousSummaryLost} {
		if *facts == nil {
			continue
		}
		out := make([]eval.Fact, len(*facts))
		for i, f := range *facts {
			out[i] = eval.Fact{Kind: f.Kind, Text: strings.Clone(f.Text), Message: f.Message}
		}
		*facts = out
	}
	if res.BoundaryFacts != nil {
		out := make([]eval.WindowFact, len(res.BoundaryFacts))
		for i, f := range res.BoundaryFacts {
			out[i] = f
			out[i].Text = strings.Clone(f.Text)
		}
		res.BoundaryFacts = out
	}
	return res
}
