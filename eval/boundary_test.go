package eval

import (
	"strings"
	"testing"
)

// The window of scoreInput (messages 3 to 5) holds yield_per, jobs/export.py, the pytest
// command, its path and the error.
const (
	filesOnly = "1. Primary Request and Intent:\n   The nightly export times out.\n" +
		"3. Files and Code Sections:\n   - jobs/export.py: `yield_per` streaming; tests/test_export.py\n" +
		"8. Current Work:\n   Making the export stream."
	filesAndCurrent = "1. Primary Request and Intent:\n   The nightly export times out.\n" +
		"3. Files and Code Sections:\n   - jobs/export.py: `yield_per` streaming; tests/test_export.py\n" +
		"8. Current Work:\n   Streaming with `yield_per` in jobs/export.py; pytest tests/test_export.py fails.\n" +
		"9. Optional Next Step:\n   Fix the sort order in jobs/export.py."
)

func TestBoundaryReadsTheWorkInProgress(t *testing.T) {
	files := Score(scoreInput(filesOnly), Options{})
	both := Score(scoreInput(filesAndCurrent), Options{})
	// Section 3 names the files of the window, but says nothing of where the work stands:
	// no count, half of each weight.
	if files.BoundaryCoverage.Hit != 0 {
		t.Errorf("boundary coverage with the window's names in section 3 only = %d/%d, want 0", files.BoundaryCoverage.Hit, files.BoundaryCoverage.Of)
	}
	if files.WeightedBoundaryCoverage.Hit <= 0 || both.WeightedBoundaryCoverage.Hit <= 2*files.WeightedBoundaryCoverage.Hit-1e-9 {
		t.Errorf("weighted boundary coverage: section 3 only %.4f, with Current Work %.4f; want section 3 only above 0 and at most half the other",
			files.WeightedBoundaryCoverage.Hit, both.WeightedBoundaryCoverage.Hit)
	}
	if both.BoundaryCoverage.Hit < 4 {
		t.Errorf("boundary coverage with Current Work naming the window = %d/%d, want at least 4", both.BoundaryCoverage.Hit, both.BoundaryCoverage.Of)
	}
	for _, f := range files.BoundaryFacts {
		if f.Held {
			t.Errorf("boundary fact %s %q held by section 3 alone", f.Kind, f.Text)
		}
	}
}

func TestRecentSectionsDeletedAblation(t *testing.T) {
	tests := []struct {
		name, summary string
		want          string // the summary without its recent sections; "" for no ablation
		reason        string
	}{
		{
			name: "nine sections", summary: filesAndCurrent,
			want:   "1. Primary Request and Intent:\n   The nightly export times out.\n3. Files and Code Sections:\n   - jobs/export.py: `yield_per` streaming; tests/test_export.py",
			reason: "sections 8 and 9 go, section 3 stays",
		},
		{
			name: "pi", summary: "## Goal\nExport.\n## Progress\n### Done\n- read it\n### In Progress\n- streaming\n## Next Steps\n1. sort\n## Critical Context\n- jobs/export.py",
			want:   "## Goal\nExport.\n## Progress\n### Done\n- read it",
			reason: "In Progress, Next Steps and Critical Context are pi's recent sections",
		},
		{
			name: "unstructured", summary: "We streamed the export in jobs/export.py.",
			reason: "no section of the work in progress: nothing to delete",
		},
	}
	for _, tc := range tests {
		in := scoreInput(tc.summary)
		var got *Ablation
		for _, a := range Ablations(in, tc.summary, "", Options{}) {
			if a.Name == AblationRecentGone {
				got = &a
			}
		}
		switch {
		case tc.want == "" && got != nil:
			t.Errorf("%s: Ablations made %s = %q, want none (%s)", tc.name, AblationRecentGone, got.Summary, tc.reason)
		case tc.want != "" && got == nil:
			t.Errorf("%s: Ablations made no %s, want %q (%s)", tc.name, AblationRecentGone, tc.want, tc.reason)
		case got != nil && got.Summary != tc.want:
			t.Errorf("%s: %s = %q, want %q (%s)", tc.name, AblationRecentGone, got.Summary, tc.want, tc.reason)
		}
	}
}

// pairOf returns the pair of ablation name in v.
func pairOf(t *testing.T, v Validity, name string) Pair {
	t.Helper()
	for _, p := range v.Pairs {
		if p.Ablation == name {
			return p
		}
	}
	t.Fatalf("no %s pair in %v", name, v.Pairs)
	return Pair{}
}

func TestValidateStrictRule(t *testing.T) {
	// Deleting the recent sections of a summary whose section 3 repeats their names
	// loses boundary coverage: a win. The former rule agrees.
	v := Validate([]Input{scoreInput(filesAndCurrent)}, Options{})
	p := pairOf(t, v, AblationRecentGone)
	if p.Verdicts[1] != Win {
		t.Errorf("recent sections deleted: boundary verdict %s, want %s: %s", p.Verdicts[1], Win, p)
	}

	// A tie where the removed lines hold facts the rest also holds is a tie, counted
	// against the real summary; the former rule left it out.
	dup := filesAndCurrent + "\n   Then rerun pytest tests/test_export.py."
	v = Validate([]Input{scoreInput(dup)}, Options{})
	p = pairOf(t, v, AblationLastThirdCut)
	if p.Verdicts[0] != Tie || p.Former[0] != NotApplicable {
		t.Errorf("last third restating the rest: coverage verdicts %s (former %s), want %s (former %s): %s", p.Verdicts[0], p.Former[0], Tie, NotApplicable, p)
	}

	// Removed lines that hold no fact at all are of no contrast, on every measure.
	empty := filesAndCurrent + "\n\nThat is all for now.\nMore later.\nGood luck.\nThanks."
	v = Validate([]Input{scoreInput(empty)}, Options{})
	p = pairOf(t, v, AblationLastThirdCut)
	for k, verdict := range p.Verdicts {
		if verdict != NoContrast {
			t.Errorf("last third without facts: %s verdict %s, want %s: %s", ValidityMeasures[k], verdict, NoContrast, p)
		}
	}
	if tl := v.Tallies()[AblationLastThirdCut][0]; tl.NoContrast != 1 || tl.Rate().Of != 0 || tl.NoContrastRate() != (Share{1, 1}) {
		t.Errorf("tally of a pair of no contrast = %+v, want it counted apart", tl)
	}

	// A real summary that holds nothing of the window ties with the vague one: no win, and
	// not dropped.
	v = Validate([]Input{scoreInput("1. Primary Request and Intent:\n   The nightly export in jobs/export.py times out.\n8. Current Work:\n   Thinking.")}, Options{})
	p = pairOf(t, v, AblationVague)
	if p.Verdicts[1] != Tie || p.Former[1] != NotApplicable {
		t.Errorf("real summary at 0 boundary coverage vs vague: verdict %s (former %s), want %s (former %s): %s", p.Verdicts[1], p.Former[1], Tie, NotApplicable, p)
	}
}

func TestFenceClosesOnlyOnItsCharacter(t *testing.T) {
	// A Python traceback quoted in section 4 underlines the failing call with ~~~~^^^^:
	// read as a fence delimiter, it left a fence open, and a shuffle that moved section 8
	// after section 4 put Current Work inside code, changing boundary coverage.
	summary := "4. Errors and fixes:\n```python\n    build(step)\n    ~~~~~^^^^^^\nKeyError: 0\n```\n" +
		"8. Current Work:\n   Streaming with `yield_per` in jobs/export.py; pytest tests/test_export.py fails.\n" +
		"3. Files and Code Sections:\n   - jobs/export.py"
	lay := parseLayout(summary)
	var current *sline
	for i, l := range lay.lines {
		if l.text == "8. Current Work:" {
			current = &lay.lines[i]
		}
	}
	if current == nil || !current.heading || current.role != roleRecent {
		t.Fatalf("parseLayout: the Current Work heading after a fence holding ~~~~^^^^ is %+v, want a recent heading", current)
	}
	in := scoreInput(summary)
	a, b := Score(in, Options{}), Score(scoreInput("8. Current Work:\n   Streaming with `yield_per` in jobs/export.py; pytest tests/test_export.py fails.\n"+
		"3. Files and Code Sections:\n   - jobs/export.py\n4. Errors and fixes:\n```python\n    build(step)\n    ~~~~~^^^^^^\nKeyError: 0\n```"), Options{})
	if a.BoundaryCoverage != b.BoundaryCoverage || a.WeightedBoundaryCoverage != b.WeightedBoundaryCoverage {
		t.Errorf("boundary coverage %v (weighted %v) with section 4 first, %v (%v) with it last; want the same",
			a.BoundaryCoverage, a.WeightedBoundaryCoverage, b.BoundaryCoverage, b.WeightedBoundaryCoverage)
	}
}

func TestFormatTalliesStrictFirst(t *testing.T) {
	// One win, one deletion that ties, one of no contrast: the strict rate is 1 of 2, the
	// former rule's 1 of 1 is printed beside it, never in the measure's column.
	pair := func(verdict, former string) Pair {
		var p Pair
		p.Ablation = AblationLastThirdCut
		for k := range p.Verdicts {
			p.Verdicts[k], p.Former[k] = verdict, former
		}
		return p
	}
	v := Validity{Pairs: []Pair{pair(Win, Win), pair(Tie, NotApplicable), pair(NoContrast, NotApplicable)}}
	got := FormatTallies(v.Tallies())
	want := "| last-third-cut | 50.0% (1/2) | 50.0% (1/2) | 50.0% (1/2) | 50.0% (1/2) | 50.0% (1/2) | 1, 1, 1, 1, 1 of 3 | 100.0% (1/1), 100.0% (1/1), 100.0% (1/1) |\n"
	if !strings.Contains(got, want) {
		t.Errorf("FormatTallies() =\n%s\nwant a row\n%s", got, want)
	}
}
