package gate

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// selectA is the baseline run with -run ^a/: its two a/ cases and one of its eval cases.
func selectA(r *report.Report) {
	r.Selection = &report.Selection{Run: "^a/", Cases: 2, Of: 3}
	r.Cases = r.Cases[:2]
	r.Eval.Cases = r.Eval.Cases[:1]
	m := 0.8
	r.Eval.Totals.Coverage.Mean = &m
	zero := 0.0
	r.Eval.Totals.Score.Mean = &zero // a total over other cases than the baseline's
}

func TestCheckSelection(t *testing.T) {
	for _, tc := range []struct {
		name     string
		change   func(r *report.Report)
		cfg      func(c *Config)
		want     []string // regressions, as printed
		wantNote string   // a note that must be there ("" for none looked for)
		reason   string
	}{
		{
			name: "selection passes", change: selectA,
			wantNote: "eval totals not compared: the selection scored 1 of the baseline's 2 eval cases",
			reason:   "b/three is not selected, so not removed; the eval totals are over other cases",
		},
		{
			name: "same cases without a selection",
			change: func(r *report.Report) {
				selectA(r)
				r.Selection = nil
			},
			want:   []string{"(eval): score 0.6000 -> 0.0000 (allowed drop 0.0000)", "b/three: case present -> removed (removed_case: fail)"},
			reason: "the same cases in a run that does not say it is a selection are a removal, and its totals are compared",
		},
		{
			name: "selected case lost",
			change: func(r *report.Report) {
				selectA(r)
				r.Cases[0].Results[0].MatchesIntended = false
			},
			want:   []string{"(all): seed intended_rate (common cases) 0.5000 -> 0.0000 (allowed drop 0.0000)", "a/one: seed intended pass -> fail (allowed 0 of 1 lost cases)"},
			reason: "a selected case is gated as in a full run (the rate over the cases both have)",
		},
		{
			name: "selected eval case falls",
			change: func(r *report.Report) {
				selectA(r)
				r.Eval.Cases[0].Coverage = eval.Share{Hit: 1, Of: 10}
			},
			want:   []string{"eval/x: coverage 0.8000 -> 0.1000 (allowed drop 0.0000)"},
			reason: "each selected eval case is still compared with its baseline",
		},
		{
			name: "selected case missing",
			change: func(r *report.Report) {
				selectA(r)
				r.Selection.Run = "^(a|b)/"
			},
			want:   []string{"b/three: case present -> removed (removed_case: fail)"},
			reason: "a case the selection matches that the run lacks was removed, not unselected",
		},
		{
			name:     "must_pass outside the selection",
			change:   selectA,
			cfg:      func(c *Config) { c.MustPass = []MustPass{{Extractor: "seed", Cases: []string{"b/*"}}} },
			wantNote: "must_pass b/* for seed: no selected case matches",
			reason:   "a must_pass entry the selection leaves out is a note, not a failure",
		},
		{
			name: "drift over other pairs",
			change: func(r *report.Report) {
				selectA(r)
				r.Drift.Pairs = []string{"a/one"}
				r.Extractors[1].DriftExact = 0.5
			},
			wantNote: "robust drift_exact not compared: the selection's drift matrix mutates 1 of the baseline's 2 well-formed cases",
			reason:   "a drift matrix over fewer pairs is not the baseline's",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := baseline()
			if tc.name == "drift over other pairs" {
				base.Drift.Pairs = []string{"a/one", "b/three"}
			}
			run := clone(t, base)
			tc.change(run)
			cfg := DefaultConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			res, err := Check(clone(t, base), run, cfg)
			if err != nil {
				t.Fatalf("Check() error: %v (%s)", err, tc.reason)
			}
			var got []string
			for _, r := range res.Regressions {
				got = append(got, r.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Check() regressions mismatch (-want +got), %s:\n%s", tc.reason, diff)
			}
			if tc.wantNote != "" && !slices.Contains(res.Notes, tc.wantNote) {
				t.Errorf("Check() notes = %q, want %q (%s)", res.Notes, tc.wantNote, tc.reason)
			}
			if (run.Selection != nil) != (res.Selection != nil) {
				t.Errorf("Check().Selection = %v, want the run's %v", res.Selection, run.Selection)
			}
		})
	}
}

func TestCheckSelectionRefuses(t *testing.T) {
	sel := clone(t, baseline())
	selectA(sel)
	if _, err := Check(sel, baseline(), DefaultConfig()); !errors.Is(err, ErrIncomparable) || !strings.Contains(err.Error(), "bless a run on every case") {
		t.Errorf("Check(selected baseline, full run) error = %v, want a refusal", err)
	}
	if _, err := Check(sel, clone(t, sel), DefaultConfig()); err != nil {
		t.Errorf("Check(selection, same selection) error = %v, want none (review compares two sides of one selection)", err)
	}
	other := clone(t, sel)
	other.Corpus.SHA256 = "decaf"
	if _, err := Check(baseline(), other, DefaultConfig()); !errors.Is(err, ErrCorpusChanged) {
		t.Errorf("Check(selection of another corpus) error = %v, want ErrCorpusChanged", err)
	}
	bad := clone(t, sel)
	bad.Selection.Run = "a("
	if _, err := Check(baseline(), bad, DefaultConfig()); !errors.Is(err, ErrIncomparable) {
		t.Errorf("Check(selection with a bad pattern) error = %v, want ErrIncomparable", err)
	}
}

func TestSelectionMatcher(t *testing.T) {
	s := &report.Selection{Run: "two|three", Categories: []string{"fenced", "tags"}}
	match, err := s.Matcher()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		cats []string
		want bool
	}{
		{"a/two", []string{"tags"}, true},
		{"a/two", []string{"well-formed"}, false},
		{"b/one", []string{"fenced"}, false},
		{"b/three", []string{"well-formed", "fenced"}, true},
	} {
		if got := match(tc.id, tc.cats); got != tc.want {
			t.Errorf("match(%q, %q) = %v, want %v", tc.id, tc.cats, got, tc.want)
		}
	}
	f := &report.Selection{Failed: "r.json", FailedIDs: []string{"a/two"}}
	if m, _ := f.Matcher(); m("a/one", nil) || !m("a/two", nil) {
		t.Errorf("a -failed selection matches other cases than its failed ones")
	}
}
