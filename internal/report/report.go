// Package report builds the document compacteval run writes (report.json) and renders it as
// Markdown, HTML and JUnit XML.
//
// The JSON document is the one canonical result of a run: the Markdown and HTML reports
// and the gate read only it. Its output is deterministic for a given corpus and tool
// version (no timestamps, sorted everywhere), so two runs can be compared byte for byte.
package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// SchemaVersion is the version of the report.json document. Adding a field keeps it; a
// change that breaks readers bumps it, and the gate refuses a baseline of another version.
const SchemaVersion = 1

// Report is the document compacteval run writes.
type Report struct {
	SchemaVersion int `json:"schema_version"`
	// Complete is true when every stage ran; a partial report never passes the gate.
	Complete bool     `json:"complete"`
	Stages   []string `json:"stages"`
	Corpus   Corpus   `json:"corpus"`
	// Extractors summarises each extractor over the corpus, seed first.
	Extractors []Extractor `json:"extractors"`
	// Problems are the regressions of this run against what the corpus records: golden
	// files that differ, deviations from intended that known_deviations does not list, and
	// listed deviations that no longer happen.
	Problems []Problem `json:"problems"`
	Cases    []Case    `json:"cases"`
	// Drift is the drift matrix with a fixed seed; Eval the scores of every eval case.
	Drift drift.MatrixResult `json:"drift"`
	Eval  eval.Report        `json:"eval"`
}

// Corpus describes the corpus the run read.
type Corpus struct {
	Dir        string         `json:"dir"`
	Cases      int            `json:"cases"`
	Categories []Count        `json:"categories"`
	Origins    map[string]int `json:"origins"`
	// LoadProblems counts the case files that did not load (each is also a Problem).
	LoadProblems int `json:"load_problems"`
}

// Count is a number of cases in a category.
type Count struct {
	Category string `json:"category"`
	Cases    int    `json:"cases"`
	// Intended counts the cases where an extractor returned the intended result.
	Intended int `json:"intended,omitempty"`
}

// Extractor is one extractor's record over the corpus.
type Extractor struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	// Intended counts the cases where it returns the intended result, out of Cases.
	Cases    int     `json:"cases"`
	Intended int     `json:"intended"`
	Rate     float64 `json:"intended_rate"`
	// KnownDeviations counts the cases that list it in known_deviations.
	KnownDeviations int     `json:"known_deviations"`
	Categories      []Count `json:"categories"`
	// GoldenMismatches counts the cases whose golden file differs or is missing.
	GoldenMismatches int `json:"golden_mismatches"`
	// DriftExact is the share of exact recoveries over every unambiguous drift sample.
	DriftExact float64 `json:"drift_exact"`
}

// Problem is one regression found by the run.
type Problem struct {
	// Kind is golden-mismatch, golden-missing, unlisted-deviation, stale-deviation or
	// load-error.
	Kind      string `json:"kind"`
	Case      string `json:"case"`
	Extractor string `json:"extractor,omitempty"`
	Detail    string `json:"detail"`
}

// Case is one corpus case and what each extractor made of it. Response and Intended are
// kept only for cases shown in detail (a problem, or a deviation of seed or robust).
type Case struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Categories    []string `json:"categories"`
	Origin        string   `json:"origin"`
	IntendedFound bool     `json:"intended_found"`
	Response      string   `json:"response,omitempty"`
	Intended      string   `json:"intended,omitempty"`
	Results       []Result `json:"results"`
}

// Result is one extractor's output on a case.
type Result struct {
	Extractor       string `json:"extractor"`
	OK              bool   `json:"ok"`
	Path            string `json:"path"`
	MatchesIntended bool   `json:"matches_intended"`
	// KnownDeviation is the case's known_deviations reason for this extractor.
	KnownDeviation string `json:"known_deviation,omitempty"`
	// Golden is match, mismatch or missing; empty when goldens were not checked.
	Golden string `json:"golden,omitempty"`
	// Summary is the output, kept where the case is shown in detail.
	Summary *string `json:"summary,omitempty"`
}

// Detailed are the extractors whose deviations the reports show in full: the port and
// compacteval's own extractor.
var Detailed = map[string]bool{"seed": true, "robust": true}

// Options configure a run.
type Options struct {
	// CorpusDir is the folder of cases; GoldenDir the folder of goldens ("" skips them).
	CorpusDir, GoldenDir string
	// DriftSeed and DriftN set the drift matrix (DriftN 0 skips it).
	DriftSeed int64
	DriftN    int
	// Eval scores eval cases with this extractor (default seed); SkipEval skips the stage.
	EvalExtractor string
	SkipEval      bool
	// Progress, when set, is told each stage as it starts and each step done of total.
	Progress func(stage string, done, total int)
}

// Build runs every extractor over the corpus, checks goldens and intended results, runs the
// drift matrix and scores the eval cases. Case files that do not load are problems of the
// report; an unreadable corpus folder is an error.
func Build(opt Options) (*Report, error) {
	progress := opt.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	cases, err := corpus.Load(opt.CorpusDir)
	var loadProblems corpus.Problems
	if err != nil && !errors.As(err, &loadProblems) {
		return nil, err
	}
	if len(cases) == 0 && len(loadProblems) == 0 {
		return nil, fmt.Errorf("no cases in %s", opt.CorpusDir)
	}
	r := &Report{SchemaVersion: SchemaVersion, Problems: []Problem{}, Cases: []Case{}}
	r.Corpus = Corpus{Dir: filepath.ToSlash(opt.CorpusDir), Cases: len(cases), Origins: map[string]int{}}
	files := map[string]bool{}
	for _, p := range loadProblems {
		if !files[p.File] {
			files[p.File] = true
			r.Corpus.LoadProblems++
		}
		r.Problems = append(r.Problems, Problem{Kind: "load-error", Case: filepath.ToSlash(p.File), Detail: p.String()})
	}

	exs := compact.Extractors()
	r.extract(cases, exs, opt, progress)
	r.Stages = append(r.Stages, "extract")
	if opt.GoldenDir != "" {
		r.Stages = append(r.Stages, "golden")
	}

	if opt.DriftN > 0 {
		progress("drift", 0, 1)
		r.Drift = drift.Matrix(drift.PairsFromCorpus(cases), exs, opt.DriftSeed, opt.DriftN)
		r.setDriftExact()
		progress("drift", 1, 1)
		r.Stages = append(r.Stages, "drift")
	}

	if !opt.SkipEval {
		name := opt.EvalExtractor
		if name == "" {
			name = "seed"
		}
		ex, ok := compact.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown extractor %q", name)
		}
		eopt := eval.Options{Extractor: ex}
		var results []eval.Result
		var inputs []eval.Input
		for _, c := range cases {
			if in, ok := eval.FromCase(c); ok {
				inputs = append(inputs, in)
			}
		}
		for i, in := range inputs {
			results = append(results, eval.Score(in, eopt))
			progress("eval", i+1, len(inputs))
		}
		r.Eval = eval.NewReport(results, eopt)
		r.Eval.Sources = append(r.Eval.Sources, eval.Source{Path: r.Corpus.Dir, Format: eval.FormatCorpus, Cases: len(inputs), Skipped: len(cases) - len(inputs)})
		r.Stages = append(r.Stages, "eval")
	}
	r.Complete = opt.GoldenDir != "" && opt.DriftN > 0 && !opt.SkipEval && len(loadProblems) == 0
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if a.Case != b.Case {
			return a.Case < b.Case
		}
		return a.Extractor < b.Extractor
	})
	return r, nil
}

// extract runs every extractor on every case and fills Cases, Extractors, Corpus counts
// and the golden and deviation problems.
func (r *Report) extract(cases []*corpus.Case, exs []compact.Extractor, opt Options, progress func(string, int, int)) {
	catCases := map[string]int{}
	perEx := make([]Extractor, len(exs))
	perCat := make([]map[string]int, len(exs))
	for i, ex := range exs {
		perEx[i] = Extractor{Name: ex.Name, Source: ex.Source}
		perCat[i] = map[string]int{}
	}
	for n, c := range cases {
		r.Corpus.Origins[c.Origin.Kind]++
		for _, cat := range c.Categories {
			catCases[cat]++
		}
		cr := Case{ID: c.ID, Title: c.Title, Categories: c.Categories, Origin: c.Origin.Kind, IntendedFound: c.Intended.Found}
		detailed := false
		for i, ex := range exs {
			got := ex.Extract(c.Response)
			res := Result{Extractor: ex.Name, OK: got.OK, Path: got.Path.String(), MatchesIntended: c.Matches(got)}
			reason, listed := c.KnownDeviations[ex.Name]
			res.KnownDeviation = reason
			e := &perEx[i]
			e.Cases++
			if listed {
				e.KnownDeviations++
			}
			if res.MatchesIntended {
				e.Intended++
				for _, cat := range c.Categories {
					perCat[i][cat]++
				}
			}
			show := false
			switch {
			case !res.MatchesIntended && !listed:
				r.Problems = append(r.Problems, Problem{Kind: "unlisted-deviation", Case: c.ID, Extractor: ex.Name,
					Detail: fmt.Sprintf("%s no longer returns the intended result and known_deviations does not list it", ex.Name)})
				show = true
			case res.MatchesIntended && listed:
				r.Problems = append(r.Problems, Problem{Kind: "stale-deviation", Case: c.ID, Extractor: ex.Name,
					Detail: fmt.Sprintf("known_deviations lists %s, but it now returns the intended result", ex.Name)})
			}
			if opt.GoldenDir != "" {
				res.Golden = goldenStatus(opt.GoldenDir, ex.Name, c.ID, got)
				if res.Golden != "match" {
					e.GoldenMismatches++
					r.Problems = append(r.Problems, Problem{Kind: "golden-" + res.Golden, Case: c.ID, Extractor: ex.Name,
						Detail: fmt.Sprintf("the output of %s differs from %s", ex.Name, filepath.ToSlash(corpus.GoldenPath(opt.GoldenDir, ex.Name, c.ID)))})
					show = show || res.Golden == "mismatch"
				}
			}
			if show || !res.MatchesIntended && Detailed[ex.Name] {
				s := got.Summary
				res.Summary = &s
				detailed = true
			}
			cr.Results = append(cr.Results, res)
		}
		if detailed {
			cr.Response, cr.Intended = c.Response, c.Intended.Summary
		}
		r.Cases = append(r.Cases, cr)
		progress("extract", n+1, len(cases))
	}
	r.Corpus.Categories = counts(catCases, nil)
	for i := range perEx {
		e := &perEx[i]
		if e.Cases > 0 {
			e.Rate = round4(float64(e.Intended) / float64(e.Cases))
		}
		e.Categories = counts(catCases, perCat[i])
	}
	r.Extractors = perEx
}

// counts lists the categories in corpus.Categories order, then any others sorted.
func counts(cases map[string]int, intended map[string]int) []Count {
	var out []Count
	seen := map[string]bool{}
	for _, cat := range corpus.Categories {
		seen[cat] = true
		if cases[cat] > 0 {
			out = append(out, Count{Category: cat, Cases: cases[cat], Intended: intended[cat]})
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
		out = append(out, Count{Category: cat, Cases: cases[cat], Intended: intended[cat]})
	}
	if out == nil {
		out = []Count{}
	}
	return out
}

func goldenStatus(dir, extractor, id string, got compact.Extraction) string {
	data, err := os.ReadFile(corpus.GoldenPath(dir, extractor, id))
	if err != nil {
		return "missing"
	}
	want, err := corpus.ParseGolden(data)
	if err != nil || want != got {
		return "mismatch"
	}
	return "match"
}

// setDriftExact copies each extractor's exact-recovery share over all drift samples.
func (r *Report) setDriftExact() {
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
