// Package pipeline runs extractors over a corpus and produces the one report document
// (package report) that every command renders or compares: run, drift, fuzz, review and,
// through the reports it reads, gate.
//
// An extractor is any extractor.Extractor: a built-in profile, a user's module or a command
// speaking docs/protocol.md. Each stage first sends every text it needs to every external
// extractor in pipelined batches (one long-lived process each, all at once), so a stage
// costs a few round trips per extractor; built-in extractors run on every core.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/buildinfo"
	"github.com/compacteval/compacteval/internal/casefile"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/fuzzrun"
	"github.com/compacteval/compacteval/internal/par"
	"github.com/compacteval/compacteval/internal/redact"
	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/compacteval/compacteval/report"
)

// Stages a report can hold, in the order they run.
const (
	StageExtract = "extract"
	StageGolden  = "golden"
	StageDrift   = "drift"
	StageEval    = "eval"
	StageFuzz    = "fuzz"
	// StageDriftSend is not a stage of the report: the progress of sending the drift
	// samples to the external extractors ahead of the matrix.
	StageDriftSend = "drift-send"
)

// Options configure a run.
type Options struct {
	// Corpus is the cases to run on (corpus.Open).
	Corpus *corpus.Corpus
	// Extractors run on every case; at least one.
	Extractors []*extractor.Extractor
	// DriftSeed and DriftN set the drift matrix; DriftN 0 skips it.
	DriftSeed int64
	DriftN    int
	// EvalExtractor names the extractor whose summaries eval scores ("" is the first of
	// Extractors); SkipEval skips the stage.
	EvalExtractor string
	SkipEval      bool
	// Fuzz, when set, fuzzes every extractor after the other stages (compacteval fuzz).
	Fuzz *fuzz.Options
	// FuzzFor, when set, adjusts a copy of Fuzz for one extractor (its reference, the
	// kinds it accepts).
	FuzzFor func(ex *extractor.Extractor, opt *fuzz.Options)
	// KeepSummaries keeps every result's summary in the report (review compares them);
	// otherwise only those of cases shown in detail are kept.
	KeepSummaries bool
	// Select, when it selects by anything, runs only the cases it matches; the report
	// records it (report.Selection) with the digest of the whole corpus, so that the gate
	// compares the selected cases only, and only with a baseline of the same corpus.
	Select *report.Selection
	// Store, when set, keeps the report's cases instead of Cases (report.Stored), so that
	// the run holds one at a time; the caller closes it once the report is rendered.
	Store *casefile.File
	// EvalStore, when set, keeps the report's eval cases instead of Eval.Cases
	// (report.StoredEval), as Store keeps its cases; the caller closes it alike.
	EvalStore *casefile.EvalFile
	// Progress, when set, is told each stage as it starts and each step done of total:
	// answers (texts times extractors) for extract and drift-send, samples for drift, cases
	// for eval, extractors for fuzz. It may be called from several goroutines at once.
	Progress func(stage string, done, total int)
}

// ErrExtractor marks a run that stopped because an external extractor failed (it stopped
// answering, timed out, or answered an error): a failing extractor never passes.
var ErrExtractor = errors.New("extractor failed")

// Run runs every stage and returns the report. Case files that did not load are problems
// of the report; an extractor that fails is an error wrapping ErrExtractor.
//
// Run stops when ctx is done: it kills the processes of opt.Extractors at once (a request
// being answered fails), closes the extractors and returns an error wrapping
// context.Cause(ctx). A built-in extractor stops at the end of its batch.
func Run(ctx context.Context, opt Options) (*report.Report, error) {
	killed := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(killed)
		for _, e := range opt.Extractors {
			e.Kill()
		}
	})
	r, err := run(ctx, opt)
	if !stop() {
		<-killed
	}
	if ctx.Err() != nil {
		extractor.CloseAll(opt.Extractors)
		return nil, fmt.Errorf("pipeline stopped: %w", context.Cause(ctx))
	}
	return r, err
}

func run(ctx context.Context, opt Options) (*report.Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Corpus == nil {
		return nil, errors.New("pipeline: no corpus")
	}
	if len(opt.Extractors) == 0 {
		return nil, errors.New("pipeline: no extractor")
	}
	progress := opt.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	entries := opt.Corpus.Entries()
	if len(entries) == 0 && len(opt.Corpus.Problems) == 0 {
		return nil, fmt.Errorf("no cases in %s", label(opt.Corpus))
	}
	r := &report.Report{SchemaVersion: report.SchemaVersion, Tool: report.Tool(buildinfo.Read()), Problems: []report.Problem{}, Cases: []report.Case{}}
	r.Corpus = report.Corpus{Dir: label(opt.Corpus), SHA256: opt.Corpus.Digest(), Sources: opt.Corpus.Sources,
		Cases: len(entries), Origins: map[string]int{}}
	files := map[string]bool{}
	for _, p := range opt.Corpus.Problems {
		if !files[p.File] {
			files[p.File] = true
			r.Corpus.LoadProblems++
		}
		r.Problems = append(r.Problems, report.Problem{Kind: "load-error", Case: p.File, Detail: p.String()})
	}
	exs := opt.Extractors
	if !opt.Select.Empty() {
		sel := *opt.Select
		match, err := sel.Matcher()
		if err != nil {
			return nil, err
		}
		var picked []corpus.Entry
		for _, e := range entries {
			if match(e.ID, e.Categories) {
				picked = append(picked, e)
			}
		}
		if why := unknownCategories(sel.Categories, entries); why != "" {
			return nil, fmt.Errorf("-category: %s in %s", why, r.Corpus.Dir) // a typo would shrink the selection unseen
		}
		if len(picked) == 0 {
			return nil, fmt.Errorf("the selection (%s) matches none of the %d cases in %s", sel.Criteria(), len(entries), r.Corpus.Dir)
		}
		sel.Cases, sel.Of = len(picked), len(entries)
		r.Selection = &sel
		entries = picked
	}

	// The drift matrix needs only the cases: a corpus it cannot mutate fails before the
	// extraction, not after it.
	if opt.DriftN > 0 && r.Selection == nil { // a selection may hold no well-formed case: an empty matrix
		found, err := anyPair(opt.Corpus, entries)
		if err != nil {
			return nil, err
		}
		if !found {
			err := fmt.Errorf("no well-formed case among the %d loaded from %s for the drift matrix to mutate: add one (-corpus embedded -corpus DIR adds the bundled ones)", len(entries), r.Corpus.Dir)
			if ps := opt.Corpus.Problems; len(ps) > 0 { // the cases that did not load may be why
				files := fmt.Sprintf("%d case files", r.Corpus.LoadProblems)
				if r.Corpus.LoadProblems == 1 {
					files = "1 case file"
				}
				err = fmt.Errorf("%w; %s did not load:\n%v", err, files, ps)
			}
			return nil, err
		}
	}

	// The cases stream through the extraction a batch at a time: the report keeps their
	// results, and the drift pairs the matrix reads.
	t := newTally(r, exs, opt)
	if opt.Store != nil {
		r.Cases, r.Stored = nil, opt.Store
	} else {
		r.Cases = make([]report.Case, 0, len(entries))
	}
	var pairs []drift.Pair
	keepPairs := drift.PairsRead(len(entries), opt.DriftN)
	m := newMeter(StageExtract, len(entries)*len(exs), progress)
	for from, to := 0, 0; from < len(entries); from = to {
		to = batchEnd(entries, from)
		cases, err := opt.Corpus.Read(entries[from:to])
		if err != nil {
			return nil, err
		}
		responses := make([]string, len(cases))
		for i, c := range cases {
			responses[i] = c.Response
		}
		results, err := extractAll(ctx, exs, responses, m)
		if err != nil {
			return nil, err
		}
		if err := t.add(cases, results); err != nil {
			return nil, err
		}
		if opt.DriftN > 0 {
			for _, p := range drift.PairsFromCorpus(cases) {
				if len(pairs) < keepPairs { // the texts of the pairs the matrix reads, apart from the cases'
					pairs = append(pairs, drift.Pair{ID: p.ID, Analysis: strings.Clone(p.Analysis), Summary: strings.Clone(p.Summary)})
				} else {
					pairs = append(pairs, drift.Pair{ID: p.ID})
				}
			}
		}
	}
	golden := t.finish()
	r.Stages = append(r.Stages, StageExtract)
	if golden {
		r.Stages = append(r.Stages, StageGolden)
	}

	if opt.DriftN > 0 && ctx.Err() == nil {
		samples := 0
		if len(pairs) > 0 {
			samples = drift.Samples(opt.DriftN)
		}
		if ext := externals(exs); ext > 0 && samples > 0 {
			if err := prefetch(ctx, exs, drift.Responses(pairs, opt.DriftSeed, opt.DriftN), newMeter(StageDriftSend, samples*ext, progress)); err != nil {
				return nil, err
			}
		}
		m := newMeter(StageDrift, samples, progress)
		cs := compacts(exs)
		for i := range cs { // a cancelled run's matrix is dropped: stop extracting
			extract := cs[i].Extract
			cs[i].Extract = func(text string) compact.Extraction {
				if ctx.Err() != nil {
					return compact.Extraction{}
				}
				return extract(text)
			}
		}
		if len(cs) > 0 { // each sample is given to every extractor once: count the first's
			first := cs[0].Extract
			cs[0].Extract = func(text string) compact.Extraction { defer m.add(1); return first(text) }
		}
		r.Drift = drift.Matrix(pairs, cs, opt.DriftSeed, opt.DriftN)
		if err := failure(exs); err != nil {
			return nil, err
		}
		setDriftExact(r)
		r.Stages = append(r.Stages, StageDrift)
	}
	pairs = nil

	if !opt.SkipEval && ctx.Err() == nil {
		if err := evalStage(ctx, r, opt.Corpus, entries, exs, opt, progress); err != nil {
			return nil, err
		}
		r.Stages = append(r.Stages, StageEval)
	}
	if opt.Fuzz != nil && ctx.Err() == nil {
		cases, err := opt.Corpus.Read(entries) // fuzzing seeds from every case at once
		if err != nil {
			return nil, err
		}
		for i, ex := range exs {
			progress(StageFuzz, i, len(exs))
			fo := *opt.Fuzz
			if opt.FuzzFor != nil {
				opt.FuzzFor(ex, &fo)
			}
			res, err := fuzzrun.Run(ctx, ex, cases, fo)
			r.Fuzz = append(r.Fuzz, res)
			if err != nil {
				return r, fmt.Errorf("%w: fuzz: %w", ErrExtractor, err)
			}
		}
		progress(StageFuzz, len(exs), len(exs))
		r.Stages = append(r.Stages, StageFuzz)
	}
	r.Complete = opt.DriftN > 0 && !opt.SkipEval && len(opt.Corpus.Problems) == 0
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if a.Case != b.Case {
			return a.Case < b.Case
		}
		return a.Extractor < b.Extractor
	})
	return r, nil
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

// chunk is how many texts an extractor gets between two progress steps: a few of an
// external extractor's pipelined batches, which go one after the other anyway.
const chunk = 4 * extractor.Batch

// extractAll runs every extractor on texts, the external ones at the same time (each is
// its own process) and the built-in ones on every core.
func extractAll(ctx context.Context, exs []*extractor.Extractor, texts []string, m *meter) ([][]compact.Extraction, error) {
	out := make([][]compact.Extraction, len(exs))
	errs := make([]error, len(exs))
	all := func(ex *extractor.Extractor) ([]compact.Extraction, error) {
		res := make([]compact.Extraction, 0, len(texts))
		for i := 0; i < len(texts); i += chunk {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			part, err := ex.ExtractAll(texts[i:min(i+chunk, len(texts))])
			if err != nil {
				return nil, err
			}
			res = append(res, part...)
			m.add(len(part))
		}
		return res, nil
	}
	var wg sync.WaitGroup
	for i, ex := range exs {
		if !ex.External() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = all(ex)
		}()
	}
	for i, ex := range exs {
		if !ex.External() {
			out[i], _ = all(ex)
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrExtractor, err)
	}
	return out, nil
}

// prefetch sends texts ahead to every external extractor, all at once.
func prefetch(ctx context.Context, exs []*extractor.Extractor, texts []string, m *meter) error {
	errs := make([]error, len(exs))
	var wg sync.WaitGroup
	for i, ex := range exs {
		if ex.External() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < len(texts) && errs[i] == nil && ctx.Err() == nil; j += chunk {
					part := texts[j:min(j+chunk, len(texts))]
					errs[i] = ex.Prefetch(part)
					m.add(len(part))
				}
			}()
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrExtractor, err)
	}
	return nil
}

func externals(exs []*extractor.Extractor) int {
	n := 0
	for _, ex := range exs {
		if ex.External() {
			n++
		}
	}
	return n
}

func failure(exs []*extractor.Extractor) error {
	for _, ex := range exs {
		if err := ex.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrExtractor, err)
		}
	}
	return nil
}

func compacts(exs []*extractor.Extractor) []compact.Extractor {
	out := make([]compact.Extractor, len(exs))
	for i, e := range exs {
		out[i] = e.Compact()
	}
	return out
}

// batch is how many cases the stages read and hold at once, and batchBytes how many bytes
// of their texts (corpus.Entry.Bytes): variables, so that a test makes them small.
var (
	batch      = 2 * extractor.Batch
	batchBytes = 4 << 20
)

// batchEnd returns the end of the batch of entries that starts at from: at most batch
// cases, and no more than batchBytes of their texts unless one case alone has more. A
// batch costs several times its texts while it is read (parsing allocates about nine times
// a case's YAML, and every extractor answers), and a corpus sorted by id holds its large
// cases together: 512 of the bundled large ones (108 KB of texts each) at once took a run
// to a peak of 706 MB.
func batchEnd(entries []corpus.Entry, from int) int {
	to, bytes := from, 0
	for to < len(entries) && to-from < batch && (to == from || bytes+entries[to].Bytes <= batchBytes) {
		bytes += entries[to].Bytes
		to++
	}
	return to
}

// anyPair reports whether any of entries is a pair the drift matrix can mutate, reading
// only the cases that may be one, a batch at a time, up to the first.
func anyPair(c *corpus.Corpus, entries []corpus.Entry) (bool, error) {
	var maybe []corpus.Entry
	for _, e := range entries {
		if e.HasCategory("well-formed") && e.IntendedFound {
			maybe = append(maybe, e)
		}
	}
	for from, to := 0, 0; from < len(maybe); from = to {
		to = batchEnd(maybe, from)
		cases, err := c.Read(maybe[from:to])
		if err != nil {
			return false, err
		}
		if len(drift.PairsFromCorpus(cases)) > 0 {
			return true, nil
		}
	}
	return false, nil
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

// hasGoldens reports whether goldens has a folder for the extractor.
func hasGoldens(goldens fs.FS, extractor string) bool {
	if goldens == nil {
		return false
	}
	st, err := fs.Stat(goldens, extractor)
	return err == nil && st.IsDir()
}

// goldenStatus compares got with the extractor's golden of case id: match, mismatch or
// missing, and the golden's extraction where it parsed.
func goldenStatus(goldens fs.FS, extractor, id string, got compact.Extraction) (string, *compact.Extraction) {
	data, err := fs.ReadFile(goldens, extractor+"/"+id+".txt")
	if err != nil {
		return "missing", nil
	}
	want, err := corpus.ParseGolden(data)
	if err != nil {
		return "mismatch", nil
	}
	if want != got {
		return "mismatch", &want
	}
	return "match", &want
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
		scores := make([]eval.Result, len(inputs))
		par.Do(len(inputs), func(i int) {
			if ctx.Err() != nil {
				return // a cancelled run's scores are dropped
			}
			scores[i] = detach(eval.Score(inputs[i], eopt))
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

// unknownCategories says which of want no case has, each with the closest category a case
// has (within two edits), or returns "".
func unknownCategories(want []string, entries []corpus.Entry) string {
	have := map[string]bool{}
	for _, c := range entries {
		for _, cat := range c.Categories {
			have[cat] = true
		}
	}
	var why []string
	for _, w := range want {
		if have[w] {
			continue
		}
		best, bestD := "", 3
		for cat := range have {
			if d := textdiff.EditDistance(w, cat); d < bestD || d == bestD && cat < best {
				best, bestD = cat, d
			}
		}
		if best != "" {
			why = append(why, fmt.Sprintf("no case has category %s (did you mean %s?)", w, best))
		} else {
			why = append(why, "no case has category "+w)
		}
	}
	return strings.Join(why, "; ")
}

// meter counts the steps of one stage for Options.Progress, from any goroutine.
type meter struct {
	stage    string
	total    int
	done     atomic.Int64
	progress func(stage string, done, total int)
}

// newMeter tells progress that stage starts with total steps.
func newMeter(stage string, total int, progress func(string, int, int)) *meter {
	progress(stage, 0, total)
	return &meter{stage: stage, total: total, progress: progress}
}

func (m *meter) add(n int) {
	done := int(m.done.Add(int64(n)))
	m.progress(m.stage, min(done, m.total), m.total)
}

func round4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }
