package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// counts are the numbers that removing text from a summary must never raise: the hits of
// every share, the misattributed turns, the secrets carried, the copied words, and the
// headline score without its tail-leakage penalty. (The score itself rises when text that
// re-tells the kept tail is removed: that is the penalty at work, checked apart.)
type counts struct {
	values [12]float64
	leak   float64
}

var countNames = [12]string{"coverage", "boundary_coverage", "tail_leakage", "user_messages", "constraints_verbatim",
	"previous_summary_survival", "misattributed", "secrets_leaked", "copied", "score without the leak penalty",
	"weighted_coverage", "weighted_boundary_coverage"}

func countsOf(r Result) counts {
	var c counts
	prev := 0
	if r.PreviousSummarySurvival != nil {
		prev = r.PreviousSummarySurvival.Hit
	}
	c.values = [12]float64{float64(r.Coverage.Hit), float64(r.BoundaryCoverage.Hit), float64(r.TailLeakage.Hit),
		float64(r.UserMessages.Hit), float64(r.ConstraintsVerbatim.Hit), float64(prev), float64(len(r.Misattributed)),
		float64(r.SecretsLeaked), float64(r.Copied.Hit), 0, r.WeightedCoverage.Hit, r.WeightedBoundaryCoverage.Hit}
	if leak, ok := r.TailLeakage.Value(); ok {
		c.leak = leak
	}
	if r.Score != nil {
		c.values[9] = *r.Score + leakPenalty*c.leak
	}
	return c
}

// deletions returns the summaries made by removing text from summary in the ways the
// package documentation promises are monotone: any one line other than a heading or a
// fence delimiter, any section with its subsections, an end cut at any line, and random
// sets of such lines (single lines and end cuts sampled, about 40 of each).
func deletions(summary string, rng *rand.Rand) map[string]string {
	lay := parseLayout(summary)
	lines := make([]string, len(lay.lines))
	for i, l := range lay.lines {
		lines[i] = l.text
	}
	without := func(drop func(int) bool) string {
		var kept []string
		for i, l := range lines {
			if !drop(i) {
				kept = append(kept, l)
			}
		}
		return strings.Join(kept, "\n")
	}
	out := map[string]string{}
	var plain []int
	for i, l := range lay.lines {
		if !l.heading && !l.fence {
			plain = append(plain, i)
		}
	}
	step := max(1, len(plain)/40) // at most about 40 single lines, spread over the summary
	for k := rng.IntN(step); k < len(plain); k += step {
		i := plain[k]
		out[fmt.Sprintf("line %d", i+1)] = without(func(j int) bool { return j == i })
	}
	for i, l := range lay.lines {
		if !l.heading {
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lay.lines); j++ {
			if lay.lines[j].heading && lay.lines[j].level <= l.level {
				end = j
				break
			}
		}
		out[fmt.Sprintf("section at line %d", i+1)] = without(func(j int) bool { return j >= i && j < end })
	}
	step = max(1, len(lines)/40)
	for k := rng.IntN(step); k < len(lines); k += step {
		out[fmt.Sprintf("end cut after line %d", k)] = strings.Join(lines[:k], "\n")
	}
	for n := 0; n < 20 && len(plain) > 1; n++ {
		drop := map[int]bool{}
		for _, i := range plain {
			if rng.IntN(3) == 0 {
				drop[i] = true
			}
		}
		out[fmt.Sprintf("random lines %d", n)] = without(func(j int) bool { return drop[j] })
	}
	return out
}

// checkMonotone scores every deletion of summary and fails on any count that rises.
func checkMonotone(t *testing.T, in Input, summary string, rng *rand.Rand) int {
	t.Helper()
	p := prepare(in, Options{})
	base := p.score(summary, Result{Found: true})
	bc := countsOf(base)
	checked := 0
	for name, s := range deletions(summary, rng) {
		r := p.score(s, Result{Found: true})
		c := countsOf(r)
		checked++
		for k := range c.values {
			if c.values[k] > bc.values[k]+1e-4 { // the score has four decimals
				t.Errorf("%s: removing the %s raises %s from %v to %v", in.ID, name, countNames[k], bc.values[k], c.values[k])
			}
		}
		if base.Score != nil && r.Score != nil && *r.Score > *base.Score+leakPenalty*(bc.leak-c.leak)+1e-4 {
			t.Errorf("%s: removing the %s raises the score from %v to %v, more than its lower tail leakage explains", in.ID, name, *base.Score, *r.Score)
		}
	}
	return checked
}

func TestMonotoneEvalCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	for _, dir := range []string{"../corpus/cases", "testdata/cases"} {
		for _, c := range loadEvalCases(t, dir) {
			in, _ := FromCase(c)
			summary := c.Intended.Summary
			n += checkMonotone(t, in, summary, rng)
		}
	}
	if n < 500 {
		t.Errorf("checked %d deletions, want at least 500 over the eval cases", n)
	}
	t.Logf("%d deletions of every eval case's summary: no count rose", n)
}

// generatedSummary writes a summary of conv in one of the known formats (or none), from
// its own facts, copied message lines, code fences and headings nested at random.
func generatedSummary(conv []corpus.Message, rng *rand.Rand) string {
	facts := Facts(conv, nil)
	var texts []string
	for _, f := range facts {
		texts = append(texts, f.Text)
	}
	for _, m := range conv {
		for _, l := range strings.Split(m.Text, "\n") {
			if strings.TrimSpace(l) != "" && rng.IntN(4) == 0 {
				texts = append(texts, l)
			}
		}
	}
	headings := [][]string{
		{"1. Primary Request and Intent:", "3. Files and Code Sections:", "6. All user messages:", "8. Current Work:", "9. Optional Next Step:"},
		{"8. Work Completed:", "9. Context for Continuing Work:", "2. Key Technical Concepts:"},
		{"## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"},
		{"<state_snapshot>", "<overall_goal>", "</overall_goal>", "<recent_actions>", "</recent_actions>", "<current_plan>", "</current_plan>"},
		{"# Notes", "## Whatever", "### Detail", "**Current Work:**"},
		{"Analysis:", "Summary:", "1. Primary Request and Intent:", "8. Current Work:"},
		nil,
	}[rng.IntN(7)]
	var b strings.Builder
	for i := 0; i < 10+rng.IntN(30); i++ {
		switch r := rng.IntN(10); {
		case r == 0 && len(headings) > 0:
			b.WriteString(headings[rng.IntN(len(headings))] + "\n")
		case r == 1:
			b.WriteString("```\n")
		case len(texts) > 0:
			line := texts[rng.IntN(len(texts))]
			if rng.IntN(2) == 0 && len(texts) > 1 {
				line += " and `" + texts[rng.IntN(len(texts))] + "`"
			}
			b.WriteString([]string{"", "- ", "   ", "> "}[rng.IntN(4)] + line + "\n")
		}
	}
	return b.String()
}

func TestMonotoneGeneratedSummaries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ins []Input
	for _, dir := range []string{"../corpus/cases", "testdata/cases"} {
		ins = append(ins, inputsOf(loadEvalCases(t, dir))...)
	}
	n := 0
	for k := 0; k < 60; k++ {
		in := ins[k%len(ins)]
		n += checkMonotone(t, in, generatedSummary(in.Conversation, rng), rng)
	}
	t.Logf("%d deletions of 60 generated summaries: no count rose", n)
}

func TestShuffleChangesOnlyOrder(t *testing.T) {
	for _, dir := range []string{"../corpus/cases", "testdata/cases"} {
		for _, c := range loadEvalCases(t, dir) {
			in, _ := FromCase(c)
			s, ok := shuffled(parseLayout(c.Intended.Summary), c.ID)
			if !ok {
				continue
			}
			p := prepare(in, Options{})
			a, b := p.score(c.Intended.Summary, Result{}), p.score(s, Result{})
			a.Sections.InOrder, b.Sections.InOrder = true, true
			ca, cb := countsOf(a), countsOf(b)
			if ca != cb || a.Format != b.Format || fmt.Sprint(a.Sections) != fmt.Sprint(b.Sections) {
				t.Errorf("%s: shuffling its sections changes %+v to %+v", c.ID, ca, cb)
			}
		}
	}
}
