package pipeline

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/buildinfo"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/report"
)

// Building the report document: its header and corpus, the tally of each extracted batch
// (cases, extractors, counts, golden and deviation problems), the drift shares, and the
// last touches. The stages compute; what the report holds is filled in here.

// newReport starts the report of a run on entries of c: the tool, the corpus, and a
// load-error problem per case file that did not load.
func newReport(c *corpus.Corpus, entries []corpus.Entry) *report.Report {
	r := &report.Report{SchemaVersion: report.SchemaVersion, Tool: report.Tool(buildinfo.Read()), Problems: []report.Problem{}, Cases: []report.Case{}}
	r.Corpus = report.Corpus{Dir: label(c), SHA256: c.Digest(), Sources: c.Sources,
		Cases: len(entries), Origins: map[string]int{}}
	files := map[string]bool{}
	for _, p := range c.Problems {
		if !files[p.File] {
			files[p.File] = true
			r.Corpus.LoadProblems++
		}
		r.Problems = append(r.Problems, report.Problem{Kind: "load-error", Case: p.File, Detail: p.String()})
	}
	return r
}

// finishReport says whether the run is complete and sorts the problems by case, then
// extractor.
func finishReport(r *report.Report, opt Options) {
	r.Complete = opt.DriftN > 0 && !opt.SkipEval && len(opt.Corpus.Problems) == 0
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if a.Case != b.Case {
			return a.Case < b.Case
		}
		return a.Extractor < b.Extractor
	})
}

func label(c *corpus.Corpus) string {
	var names []string
	for _, s := range c.Sources {
		if s.Kind == corpus.EmbeddedLabel {
			names = append(names, corpus.EmbeddedLabel)
		} else {
			names = append(names, path.Clean(strings.ReplaceAll(s.Dir, `\`, "/")))
		}
	}
	return strings.Join(names, " + ")
}

// tally fills the report from the extraction of each batch of cases: Cases, Extractors,
// Corpus counts, and the golden and deviation problems.
type tally struct {
	r        *report.Report
	exs      []*extractor.Extractor
	opt      Options
	catCases map[string]int
	perEx    []report.Extractor
	perCat   []map[string]int
	compared bool
}

func newTally(r *report.Report, exs []*extractor.Extractor, opt Options) *tally {
	t := &tally{r: r, exs: exs, opt: opt, catCases: map[string]int{}, perEx: make([]report.Extractor, len(exs)), perCat: make([]map[string]int, len(exs))}
	for i, ex := range exs {
		t.perEx[i] = report.Extractor{Name: ex.Name, Source: ex.Source, External: ex.External()}
		if !ex.External() {
			t.perEx[i].Reference, _ = compact.ReferenceOnly(ex.Name)
		}
		t.perCat[i] = map[string]int{}
	}
	return t
}

// add adds cases and results[extractor][case], to opt.Store when it is set. What the report
// keeps of a case is its own copy: it keeps no case alive once the batch is done.
func (t *tally) add(cases []*corpus.Case, results [][]compact.Extraction) error {
	r, exs, opt := t.r, t.exs, t.opt
	for n, c := range cases {
		r.Corpus.Origins[c.Origin.Kind]++
		for _, cat := range c.Categories {
			t.catCases[cat]++
		}
		cr := report.Case{ID: c.ID, Title: c.Title, Categories: c.Categories, Origin: c.Origin.Kind, IntendedFound: c.Intended.Found,
			Results: make([]report.Result, 0, len(exs))}
		goldens := opt.Corpus.GoldenOf(c.ID)
		detailed := false
		for i, ex := range exs {
			got := results[i][n]
			res := report.Result{Extractor: ex.Name, OK: got.OK, Path: got.Path.String(), MatchesIntended: c.Matches(got)}
			reason, listed := c.Deviation(ex.Name)
			res.KnownDeviation = reason
			e := &t.perEx[i]
			e.Cases++
			if listed {
				e.KnownDeviations++
			}
			if res.MatchesIntended {
				e.Intended++
				for _, cat := range c.Categories {
					t.perCat[i][cat]++
				}
			}
			show := false
			switch {
			case ex.External():
				// A user's extractor has no known_deviations: its expectations are intended
				// and its blessed baseline, which the gate compares.
				show = !res.MatchesIntended
			case !res.MatchesIntended && !listed:
				r.Problems = append(r.Problems, report.Problem{Kind: "unlisted-deviation", Case: c.ID, Extractor: ex.Name,
					Detail: fmt.Sprintf("%s no longer returns the intended result and known_deviations does not list it", ex.Name)})
				show = true
			case res.MatchesIntended && listed:
				r.Problems = append(r.Problems, report.Problem{Kind: "stale-deviation", Case: c.ID, Extractor: ex.Name,
					Detail: fmt.Sprintf("known_deviations lists %s, but it now returns the intended result", ex.Name)})
			}
			if !ex.External() && hasGoldens(goldens, ex.Name) {
				t.compared = true
				e.GoldenChecked++
				var want *compact.Extraction
				res.Golden, want = goldenStatus(goldens, ex.Name, c.ID, got)
				if want != nil && res.Golden == "mismatch" {
					res.GoldenPath = want.Path.String()
					res.PathOnly = want.OK == got.OK && want.Summary == got.Summary && want.Path != got.Path
				}
				if res.Golden != "match" {
					e.GoldenMismatches++
					r.Problems = append(r.Problems, report.Problem{Kind: "golden-" + res.Golden, Case: c.ID, Extractor: ex.Name,
						Detail: fmt.Sprintf("the output of %s differs from golden/%s/%s.txt", ex.Name, ex.Name, c.ID)})
					show = show || res.Golden == "mismatch"
				}
			}
			if opt.KeepSummaries || show || !res.MatchesIntended && report.Detailed[ex.Name] {
				s := got.Summary
				res.Summary = &s
				detailed = detailed || show || !res.MatchesIntended
			}
			cr.Results = append(cr.Results, res)
		}
		// The report keeps its own copy of what it shows: the response of a case shown in
		// detail, and the texts it holds (most summaries and intended ones) as parts of it,
		// so that the case and its batch go.
		if detailed {
			cr.Response, cr.Intended = c.Response, within(c.Response, c.Intended.Summary)
		}
		for i := range cr.Results {
			if s := cr.Results[i].Summary; s != nil {
				*s = within(cr.Response, *s)
			}
		}
		if opt.Store != nil {
			if err := opt.Store.Add(&cr); err != nil {
				return err
			}
			continue
		}
		r.Cases = append(r.Cases, cr)
	}
	return nil
}

// within returns s as a part of text where text holds it, or a copy of s.
func within(text, s string) string {
	if i := strings.Index(text, s); i >= 0 && s != "" {
		return text[i : i+len(s)]
	}
	return strings.Clone(s)
}

// finish fills the counts of every case added. It reports whether any golden file was
// compared: only built-in extractors have goldens, and only where the case's source has a
// folder for them.
func (t *tally) finish() bool {
	t.r.Corpus.Categories = counts(t.catCases, nil)
	for i := range t.perEx {
		e := &t.perEx[i]
		if e.Cases > 0 {
			e.Rate = round4(float64(e.Intended) / float64(e.Cases))
		}
		e.Categories = counts(t.catCases, t.perCat[i])
	}
	t.r.Extractors = t.perEx
	return t.compared
}

// counts lists the categories in corpus.Categories order, then any others sorted.
func counts(cases map[string]int, intended map[string]int) []report.Count {
	var out []report.Count
	seen := map[string]bool{}
	for _, cat := range corpus.Categories {
		seen[cat] = true
		if cases[cat] > 0 {
			out = append(out, report.Count{Category: cat, Cases: cases[cat], Intended: intended[cat]})
		}
	}
	var rest []string
	for cat := range cases {
		if !seen[cat] {
			rest = append(rest, cat)
		}
	}
	sort.Strings(rest)
	for _, cat := range rest {
		out = append(out, report.Count{Category: cat, Cases: cases[cat], Intended: intended[cat]})
	}
	if out == nil {
		out = []report.Count{}
	}
	return out
}

// setDriftExact copies each extractor's exact-recovery share over all drift samples.
func setDriftExact(r *report.Report) {
	t := r.Drift.Total
	unambiguous := t.Samples - t.Ambiguous
	if unambiguous <= 0 {
		return
	}
	for _, cell := range t.Cells {
		for i := range r.Extractors {
			if r.Extractors[i].Name == cell.Extractor {
				r.Extractors[i].DriftExact = round4(float64(cell.Exact) / float64(unambiguous))
			}
		}
	}
}

func round4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }
