package gate

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/report"
)

// Regression is one metric that fell further than allowed.
type Regression struct {
	Case   string `json:"case"`
	Metric string `json:"metric"`
	// Extractor is the extractor the metric is of ("" for the corpus and eval checks); Check
	// names the check in a word or two (intended, must_pass, drift_exact, golden-mismatch,
	// coverage, ...) and Family the family of checks it belongs to (Result.Families).
	Extractor string `json:"extractor,omitempty"`
	Check     string `json:"check"`
	Family    string `json:"family"`
	Was       string `json:"was"`
	Now       string `json:"now"`
	Allowed   string `json:"allowed"`
}

func (r Regression) String() string {
	return fmt.Sprintf("%s: %s %s -> %s (%s)", r.Case, r.Metric, r.Was, r.Now, r.Allowed)
}

// Result is the gate's verdict.
type Result struct {
	Regressions []Regression `json:"regressions"`
	// Notes are changes that do not fail the gate (new cases, improvements).
	Notes []string `json:"notes"`
	// Checks counts the comparisons made.
	Checks int `json:"checks"`
	// Families counts the comparisons by family of checks and extractor. The set depends
	// only on the baseline, the run's extractors and the config, never on what failed, so
	// a JUnit file made from it has the same testcases on a pass and on a failure.
	Families []Family `json:"families"`
	// Selection is the run's selection when it ran on some cases only: the gate compared
	// those (a case it did not select is not a removed one), and nothing that depends on
	// the whole corpus (the drift and eval totals) unless both ran on the same cases.
	Selection *report.Selection `json:"selection,omitempty"`
}

// Family is one family of checks of one extractor ("" for the corpus and eval), such as
// seed's intended (every case seed handled) or eval's coverage. Checks counts its
// comparisons (an extractor's problems count each case, where Result.Checks counts the
// run's problems once), Failed its regressions.
type Family struct {
	Name      string `json:"name"`
	Extractor string `json:"extractor,omitempty"`
	Checks    int    `json:"checks"`
	Failed    int    `json:"failed"`
}

// Passed reports whether no regression was found.
func (r Result) Passed() bool { return len(r.Regressions) == 0 }

// ByFamily returns the regressions of each family, in the order of r.Families.
func (r Result) ByFamily() [][]Regression {
	index := map[[2]string]int{}
	for i, f := range r.Families {
		index[[2]string{f.Name, f.Extractor}] = i
	}
	out := make([][]Regression, len(r.Families))
	for _, reg := range r.Regressions {
		i, ok := index[[2]string{reg.Family, reg.Extractor}]
		if !ok {
			i, ok = index[[2]string{reg.Family, ""}]
		}
		if ok {
			out[i] = append(out[i], reg)
		}
	}
	return out
}

// ErrIncomparable marks a run the gate cannot evaluate: partial, or of another corpus shape.
var ErrIncomparable = errors.New("cannot evaluate")

// Check compares run with baseline under cfg; a caller that reads them from files first
// holds each to Verify. It returns an ErrIncomparable error for a partial run or
// baseline, and a *ConfigError (ErrConfig) when a must_pass entry names an
// extractor the run does not have: a misspelt name is a mistake in the config, not a
// regression of the run.
func Check(baseline, run *report.Report, cfg Config) (Result, error) {
	if !run.Complete {
		return Result{}, fmt.Errorf("%w: the run is partial (stages %s); a partial run never passes", ErrIncomparable, strings.Join(run.Stages, ", "))
	}
	if !baseline.Complete {
		return Result{}, fmt.Errorf("%w: the baseline is partial (stages %s); bless a complete run", ErrIncomparable, strings.Join(baseline.Stages, ", "))
	}
	if err := comparable(baseline, run); err != nil && !cfg.AllowCorpusChange {
		return Result{}, err
	}
	if !baseline.Selection.Empty() && !baseline.Selection.Same(run.Selection) {
		return Result{}, fmt.Errorf("%w: the baseline ran on a selection of %s; bless a run on every case", ErrIncomparable, baseline.Selection)
	}
	if err := checkMustPassNames(run, cfg); err != nil {
		return Result{}, err
	}
	g := &checker{cfg: cfg, index: map[[2]string]int{}, selected: func(string, []string) bool { return true }}
	if !run.Selection.Empty() {
		match, err := run.Selection.Matcher()
		if err != nil {
			return Result{}, fmt.Errorf("%w: the run's selection: %w", ErrIncomparable, err)
		}
		g.selected, g.res.Selection = match, run.Selection
	}
	g.families(baseline, run)
	g.problems(run)
	g.extractors(baseline, run)
	g.cases(baseline, run)
	g.mustPass(run)
	g.eval(baseline, run)
	sort.SliceStable(g.res.Regressions, func(i, j int) bool { return g.res.Regressions[i].Case < g.res.Regressions[j].Case })
	g.res.Families = make([]Family, len(g.fams))
	for i, f := range g.fams {
		g.res.Families[i] = *f
	}
	if g.res.Regressions == nil {
		g.res.Regressions = []Regression{}
	}
	if g.res.Notes == nil {
		g.res.Notes = []string{}
	}
	return g.res, nil
}

// ErrCorpusChanged marks two reports made on different corpora or drift parameters.
var ErrCorpusChanged = fmt.Errorf("%w: the reports ran on different inputs", ErrIncomparable)

// comparable returns an error wrapping ErrCorpusChanged when the two reports did not run
// on the same cases (corpus digest) or the same drift samples (seed and samples per
// operator).
func comparable(baseline, run *report.Report) error {
	var why []string
	switch b, r := baseline.Corpus.SHA256, run.Corpus.SHA256; {
	case b == "":
		why = append(why, "the baseline does not say which corpus it ran on (made by an older compacteval: bless it again)")
	case b != r:
		why = append(why, fmt.Sprintf("corpus %s (sha256 %.12s, %d cases) in the baseline, %s (sha256 %.12s, %d cases) in the run",
			baseline.Corpus.Dir, b, baseline.Corpus.Cases, run.Corpus.Dir, r, run.Corpus.Cases))
	}
	if b, r := len(baseline.Eval.Cases), len(run.Eval.Cases); b < r && run.Selection.Empty() && baseline.Selection.Empty() {
		why = append(why, fmt.Sprintf("%d eval cases in the baseline, %d in the run", b, r))
	}
	if bd, rd := baseline.Drift, run.Drift; bd.Seed != rd.Seed || bd.N != rd.N {
		why = append(why, fmt.Sprintf("drift seed %d, n %d in the baseline, seed %d, n %d in the run", bd.Seed, bd.N, rd.Seed, rd.N))
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s; bless a baseline made on the same inputs, or pass -allow-corpus-change", ErrCorpusChanged, strings.Join(why, "; "))
}

type checker struct {
	cfg   Config
	res   Result
	fams  []*Family
	index map[[2]string]int // family name and extractor -> index in fams
	// selected reports whether the run selected a case (every case without a selection).
	selected func(id string, categories []string) bool
}

// Families of checks: per extractor, of the corpus, and of eval.
const (
	famProblems     = "problems"
	famIntended     = "intended"
	famRate         = "intended_rate"
	famDrift        = "drift_exact"
	famMustPass     = "must_pass"
	famExtractors   = "extractors"
	famCases        = "cases"
	famScore        = "score"
	famCoverage     = "coverage"
	famBoundary     = "boundary_coverage"
	famTailLeakage  = "tail_leakage"
	famCaseCoverage = "case_coverage"
	famCaseBoundary = "case_boundary_coverage"
)

// families makes the families of checks in a fixed order, whatever the checks find: each
// extractor's (the baseline's, then those only the run has), the corpus's, then eval's.
func (g *checker) families(baseline, run *report.Report) {
	var names []string
	for _, r := range []*report.Report{baseline, run} {
		for _, e := range r.Extractors {
			if !slices.Contains(names, e.Name) {
				names = append(names, e.Name)
			}
		}
	}
	for _, name := range names {
		for _, f := range []string{famIntended, famRate, famDrift, famProblems} {
			g.family(f, name)
		}
		for _, m := range g.cfg.MustPass {
			if m.Extractor == name {
				g.family(famMustPass, name)
			}
		}
	}
	for _, f := range []string{famExtractors, famCases, famProblems, famScore, famCoverage, famBoundary, famTailLeakage, famCaseCoverage, famCaseBoundary} {
		g.family(f, "")
	}
}

// family returns the family name of extractor, made on first use.
func (g *checker) family(name, extractor string) *Family {
	key := [2]string{name, extractor}
	if i, ok := g.index[key]; ok {
		return g.fams[i]
	}
	g.index[key] = len(g.fams)
	g.fams = append(g.fams, &Family{Name: name, Extractor: extractor})
	return g.fams[len(g.fams)-1]
}

// checked counts one comparison of family f.
func (g *checker) checked(f *Family) {
	f.Checks++
	g.res.Checks++
}

// fail records a regression of family f.
func (g *checker) fail(f *Family, r Regression) {
	f.Failed++
	r.Family = f.Name
	if r.Check == "" {
		r.Check = f.Name
	}
	g.res.Regressions = append(g.res.Regressions, r)
}
func (g *checker) note(format string, args ...any) {
	g.res.Notes = append(g.res.Notes, fmt.Sprintf(format, args...))
}

// share compares a share of family f that may fall by allowed; it reports a regression
// below that. The metric's name is f's, after the extractor's.
func (g *checker) share(f *Family, caseID, metric string, was, now, allowed float64) {
	g.checked(f)
	if now < was-allowed-1e-9 {
		g.fail(f, Regression{Case: caseID, Metric: metric, Extractor: f.Extractor, Check: strings.TrimPrefix(f.Name, "case_"), Was: f4(was), Now: f4(now), Allowed: "allowed drop " + f4(allowed)})
	} else if now > was+1e-9 {
		g.note("%s: %s improved %s -> %s", caseID, metric, f4(was), f4(now))
	}
}

// rise compares a lower-is-better share that may rise by allowed.
func (g *checker) rise(f *Family, caseID, metric string, was, now, allowed float64) {
	g.checked(f)
	if now > was+allowed+1e-9 {
		g.fail(f, Regression{Case: caseID, Metric: metric, Extractor: f.Extractor, Was: f4(was), Now: f4(now), Allowed: "allowed rise " + f4(allowed)})
	} else if now < was-1e-9 {
		g.note("%s: %s improved %s -> %s", caseID, metric, f4(was), f4(now))
	}
}

// problems fails each problem of the run, in the problems family of its extractor. The
// gate counts the run's problems as one check; an extractor's family counts the cases
// the run checked for it.
func (g *checker) problems(run *report.Report) {
	g.checked(g.family(famProblems, ""))
	for _, c := range run.Cases {
		for _, r := range c.Results {
			if i, ok := g.index[[2]string{famProblems, r.Extractor}]; ok {
				g.fams[i].Checks++
			}
		}
	}
	if len(run.Problems) == 0 {
		return
	}
	if g.cfg.Problems == "pass" {
		g.note("the run has %d problems (problems: pass)", len(run.Problems))
		return
	}
	pathOnly := map[[2]string]bool{} // case and extractor whose golden differs in the path alone
	for _, c := range run.Cases {
		for _, r := range c.Results {
			if r.PathOnly {
				pathOnly[[2]string{c.ID, r.Extractor}] = true
			}
		}
	}
	for _, p := range run.Problems {
		who := p.Kind
		if p.Extractor != "" {
			who = p.Extractor + " " + p.Kind
		}
		f := g.family(famProblems, "")
		if i, ok := g.index[[2]string{famProblems, p.Extractor}]; ok && p.Extractor != "" {
			f = g.fams[i]
		}
		r := Regression{Case: p.Case, Metric: who, Extractor: p.Extractor, Check: p.Kind, Was: "none", Now: p.Detail, Allowed: "problems: fail"}
		if p.Kind == "golden-mismatch" && pathOnly[[2]string{p.Case, p.Extractor}] {
			// Still a mismatch (the golden is stale), but not a change of behaviour: say so.
			r.Check, r.Now = CheckPathOnly, p.Detail+" in the path alone: the summary is the golden's byte for byte"
		}
		g.fail(f, r)
	}
}

// CheckPathOnly is the check of a golden mismatch where only the path that decided
// differs: the golden file is stale, the summary is not changed.
const CheckPathOnly = "golden-path-only"

func (g *checker) extractors(baseline, run *report.Report) {
	now := map[string]report.Extractor{}
	for _, e := range run.Extractors {
		now[e.Name] = e
	}
	for _, was := range baseline.Extractors {
		e, ok := now[was.Name]
		if !ok {
			f := g.family(famExtractors, "")
			g.checked(f)
			g.fail(f, Regression{Case: "(extractors)", Metric: "extractor " + was.Name, Extractor: was.Name, Check: "extractor", Was: "present", Now: "missing", Allowed: "no extractor may disappear"})
			continue
		}
		rate, drift := g.cfg.AllowedDrop.IntendedRate, g.cfg.AllowedDrop.DriftExact
		if o, ok := g.cfg.drops(was.Name); ok {
			if o.IntendedRate != nil {
				rate = *o.IntendedRate
			}
			if o.DriftExact != nil {
				drift = *o.DriftExact
			}
		}
		// The rate is compared over the cases both runs have, so that adding harder cases
		// to the corpus is not a regression (new_case says what a new case means).
		wasRate, nowRate := commonRates(baseline, run, was.Name)
		g.share(g.family(famRate, was.Name), "(all)", was.Name+" intended_rate (common cases)", wasRate, nowRate, rate)
		if g.res.Selection == nil || slices.Equal(baseline.Drift.Pairs, run.Drift.Pairs) {
			g.share(g.family(famDrift, was.Name), "(all)", was.Name+" drift_exact", was.DriftExact, e.DriftExact, drift)
		} else {
			g.note("%s drift_exact not compared: the selection's drift matrix mutates %d of the baseline's %d well-formed cases", was.Name, len(run.Drift.Pairs), len(baseline.Drift.Pairs))
		}
	}
}

// commonRates returns an extractor's intended rate in baseline and in run over the cases
// both hold.
func commonRates(baseline, run *report.Report, extractor string) (was, now float64) {
	matched := func(r *report.Report) map[string]bool {
		m := map[string]bool{}
		for _, c := range r.Cases {
			for _, res := range c.Results {
				if res.Extractor == extractor {
					m[c.ID] = res.MatchesIntended
				}
			}
		}
		return m
	}
	b, n := matched(baseline), matched(run)
	common, wasHit, nowHit := 0, 0, 0
	for id, ok := range b {
		nowOK, in := n[id]
		if !in {
			continue
		}
		common++
		if ok {
			wasHit++
		}
		if nowOK {
			nowHit++
		}
	}
	if common == 0 {
		return 0, 0
	}
	return float64(wasHit) / float64(common), float64(nowHit) / float64(common)
}

// cases checks every case that passed in the baseline for each extractor.
func (g *checker) cases(baseline, run *report.Report) {
	now := map[string]report.Case{}
	for _, c := range run.Cases {
		now[c.ID] = c
	}
	was := map[string]bool{}
	lost := map[string][]Regression{}
	for _, b := range baseline.Cases {
		was[b.ID] = true
		c, ok := now[b.ID]
		if !ok && !g.selected(b.ID, b.Categories) {
			continue // not selected: neither removed nor lost
		}
		if !ok {
			f := g.family(famCases, "")
			g.checked(f)
			if g.cfg.RemovedCase == "fail" {
				g.fail(f, Regression{Case: b.ID, Metric: "case", Check: "removed", Was: "present", Now: "removed", Allowed: "removed_case: fail"})
			} else {
				g.note("%s: removed", b.ID)
			}
			continue
		}
		results := map[string]report.Result{}
		for _, r := range c.Results {
			results[r.Extractor] = r
		}
		for _, br := range b.Results {
			g.checked(g.family(famIntended, br.Extractor))
			r, ok := results[br.Extractor]
			switch {
			case br.MatchesIntended && (!ok || !r.MatchesIntended):
				lost[br.Extractor] = append(lost[br.Extractor], Regression{Case: b.ID, Metric: br.Extractor + " intended", Extractor: br.Extractor, Was: "pass", Now: "fail"})
			case !br.MatchesIntended && ok && r.MatchesIntended:
				g.note("%s: %s now returns the intended result", b.ID, br.Extractor)
			}
		}
	}
	names := make([]string, 0, len(lost))
	for name := range lost {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		allowed := g.cfg.AllowedDrop.IntendedCases
		if o, ok := g.cfg.drops(name); ok && o.IntendedCases != nil {
			allowed = *o.IntendedCases
		}
		if len(lost[name]) <= allowed {
			g.note("%s stopped handling %d cases (allowed %d)", name, len(lost[name]), allowed)
			continue
		}
		for _, r := range lost[name] {
			r.Allowed = fmt.Sprintf("allowed %d of %d lost cases", allowed, len(lost[name]))
			g.fail(g.family(famIntended, name), r)
		}
	}
	for _, c := range run.Cases {
		if was[c.ID] {
			continue
		}
		f := g.family(famCases, "")
		g.checked(f)
		if g.cfg.NewCase == "fail" {
			g.fail(f, Regression{Case: c.ID, Metric: "case", Check: "new", Was: "absent", Now: "new", Allowed: "new_case: fail (bless the baseline)"})
		} else {
			g.note("%s: new case", c.ID)
		}
	}
}

// drops returns the overrides for the extractor name: its own entry, or else its agent's.
func (cfg Config) drops(name string) (ExtractorDrops, bool) {
	if o, ok := cfg.Extractors[name]; ok {
		return o, true
	}
	o, ok := cfg.Extractors[compact.Family(name)]
	return o, ok
}

func (g *checker) mustPass(run *report.Report) {
	for _, m := range g.cfg.MustPass {
		f := g.family(famMustPass, m.Extractor)
		matched := 0
		for _, c := range run.Cases {
			if !matchAny(m.Cases, c.ID) {
				continue
			}
			for _, r := range c.Results {
				if r.Extractor != m.Extractor {
					continue
				}
				matched++
				g.checked(f)
				if !r.MatchesIntended {
					g.fail(f, Regression{Case: c.ID, Metric: m.Extractor + " intended", Extractor: m.Extractor, Was: "must pass", Now: "fail", Allowed: "must_pass"})
				}
			}
		}
		if matched == 0 && g.res.Selection != nil {
			g.note("must_pass %s for %s: no selected case matches", strings.Join(m.Cases, ","), m.Extractor)
		} else if matched == 0 {
			g.fail(f, Regression{Case: strings.Join(m.Cases, ","), Metric: m.Extractor + " must_pass", Extractor: m.Extractor, Was: "cases", Now: "none matched", Allowed: "a must_pass entry must match a case"})
		}
	}
}

// checkMustPassNames returns a *ConfigError for the first must_pass entry naming an
// extractor that is not in run.
func checkMustPassNames(run *report.Report, cfg Config) error {
	var names []string
	have := map[string]bool{}
	for _, e := range run.Extractors {
		names = append(names, e.Name)
		have[e.Name] = true
	}
	for _, m := range cfg.MustPass {
		if !have[m.Extractor] {
			return &ConfigError{File: cfg.File, Line: m.Line, Msg: fmt.Sprintf("must_pass names extractor %q, which the run does not have (it has %s)", m.Extractor, strings.Join(names, ", "))}
		}
	}
	return nil
}

// CheckExtractorNames returns a *ConfigError for the first extractors: entry of cfg (in
// file order) that names no extractor of run nor the family of one, with the closest
// name: such an entry would loosen nothing, silently. The gate command holds a run to it;
// review does not, as its sides run only the extractors they have.
func CheckExtractorNames(run *report.Report, cfg Config) error {
	var names []string
	have := map[string]bool{}
	for _, e := range run.Extractors {
		names = append(names, e.Name)
		have[e.Name] = true
	}
	for _, e := range run.Extractors {
		have[compact.Family(e.Name)] = true
	}
	keys := make([]string, 0, len(cfg.Extractors))
	for k := range cfg.Extractors {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		li, lj := cfg.Extractors[keys[i]].Line, cfg.Extractors[keys[j]].Line
		return li < lj || li == lj && keys[i] < keys[j]
	})
	for _, k := range keys {
		if have[k] {
			continue
		}
		hint := ""
		if c := closestName(k, names); c != "" {
			hint = fmt.Sprintf("did you mean %q? ", c)
		}
		return &ConfigError{File: cfg.File, Line: cfg.Extractors[k].Line, Msg: fmt.Sprintf("extractors names %q, which the run does not have (%sit has %s)", k, hint, strings.Join(names, ", "))}
	}
	return nil
}

// closestName returns the name closest to s, ignoring case and surrounding spaces (within
// two edits), or "".
func closestName(s string, names []string) string {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, n := range names {
		if strings.ToLower(n) == t {
			return n
		}
	}
	return closestKey(t, names)
}

// matchAny reports whether id matches one of patterns: path.Match patterns over case ids
// ("well-formed/*"), where a lone "*" matches every case.
func matchAny(patterns []string, id string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, id); ok || p == "*" {
			return true
		}
	}
	return false
}

func (g *checker) eval(baseline, run *report.Report) {
	d := g.cfg.AllowedDrop
	bt, rt := baseline.Eval.Totals, run.Eval.Totals
	if g.res.Selection != nil && !sameEvalCases(baseline, run) {
		g.note("eval totals not compared: the selection scored %d of the baseline's %d eval cases", len(run.Eval.Cases), len(baseline.Eval.Cases))
		bt, rt = eval.Totals{}, eval.Totals{}
	}
	if m, ok := mean(bt.Coverage); ok {
		n, _ := mean(rt.Coverage)
		g.share(g.family(famCoverage, ""), "(eval)", "coverage", m, n, d.Coverage)
	}
	if m, ok := mean(bt.BoundaryCoverage); ok {
		n, _ := mean(rt.BoundaryCoverage)
		g.share(g.family(famBoundary, ""), "(eval)", "boundary_coverage", m, n, d.BoundaryCoverage)
	}
	if m, ok := mean(bt.TailLeakage); ok {
		n, _ := mean(rt.TailLeakage)
		g.rise(g.family(famTailLeakage, ""), "(eval)", "tail_leakage", m, n, d.TailLeakage)
	}
	if bt.Score.Mean != nil { // the headline score, held to the coverage allowance
		n := 0.0
		if rt.Score.Mean != nil {
			n = *rt.Score.Mean
		}
		g.share(g.family(famScore, ""), "(eval)", "score", *bt.Score.Mean, n, d.Coverage)
	}
	now := map[string]eval.Result{}
	for _, r := range run.Eval.Cases {
		now[r.ID] = r
	}
	for _, b := range baseline.Eval.Cases {
		r, ok := now[b.ID]
		if !ok {
			continue // the corpus checks report removed cases
		}
		if w, ok := b.Coverage.Value(); ok {
			n, _ := r.Coverage.Value()
			g.share(g.family(famCaseCoverage, ""), b.ID, "coverage", w, n, d.CaseCoverage)
		}
		if w, ok := b.BoundaryCoverage.Value(); ok {
			n, _ := r.BoundaryCoverage.Value()
			g.share(g.family(famCaseBoundary, ""), b.ID, "boundary_coverage", w, n, d.CaseBoundaryCoverage)
		}
	}
}

// sameEvalCases reports whether the two reports scored the same eval cases.
func sameEvalCases(a, b *report.Report) bool {
	if len(a.Eval.Cases) != len(b.Eval.Cases) {
		return false
	}
	ids := map[string]bool{}
	for _, c := range a.Eval.Cases {
		ids[c.ID] = true
	}
	for _, c := range b.Eval.Cases {
		if !ids[c.ID] {
			return false
		}
	}
	return true
}

func mean(a eval.Aggregate) (float64, bool) {
	if a.Mean == nil {
		return 0, false
	}
	return *a.Mean, true
}

func f4(x float64) string { return fmt.Sprintf("%.4f", x) }
