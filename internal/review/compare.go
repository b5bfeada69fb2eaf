package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/pipeline"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/report"
)

// Options tune Compare.
type Options struct {
	// Corpus is the cases both versions run on.
	Corpus *corpus.Corpus
	// DriftSeed and DriftN are drift.Matrix's seed and samples per operator; DriftN < 1
	// skips the drift stage.
	DriftSeed int64
	DriftN    int
	// EvalExtractor is the profile whose summaries eval scores; "" is seed.
	EvalExtractor string
	// Gate sets the allowed drops (gate.yaml); the zero Config allows none.
	Gate gate.Config
	// Log receives progress lines; nil discards them.
	Log io.Writer
	// Progress, when set, is each side's pipeline.Options.Progress, on the track of its
	// label (base, head); the two sides run at once.
	Progress func(track, stage string, done, total int)
}

// The custom instructions and kept tail of the rendered instructions.
const (
	renderCustom  = "Focus on the failing integration tests and keep every file path."
	renderOpening = "Run the tests again with -race"
	renderTail    = 4
	renderSummary = "1. Primary Request and Intent:\n   Fix the flaky integration test."
	renderPath    = "/home/me/.pi/sessions/2025-01-02.jsonl"
)

// renders returns the requests whose answers a review compares, with their names.
func renders() (names []string, reqs []protocol.Request) {
	for _, reason := range []string{"manual", "threshold", "overflow"} {
		for _, v := range []struct {
			name         string
			custom, tail bool
		}{{"", false, false}, {"custom instructions", true, false}, {"kept tail", false, true}, {"custom instructions, kept tail", true, true}} {
			req := protocol.Request{Op: "instruction", Reason: protocol.Str(reason)}
			name := reason
			if v.custom {
				req.CustomInstructions = protocol.Str(renderCustom)
			}
			if v.tail {
				req.KeptTail = &protocol.KeptTail{Count: protocol.Int(renderTail), Opening: protocol.Str(renderOpening)}
			}
			if v.name != "" {
				name += ", " + v.name
			}
			names = append(names, name)
			reqs = append(reqs, req)
		}
	}
	names = append(names, "continuation summary", "continuation summary, transcript path")
	reqs = append(reqs,
		protocol.Request{Op: "continuation", Summary: protocol.Str(renderSummary)},
		protocol.Request{Op: "continuation", Summary: protocol.Str(renderSummary), TranscriptPath: protocol.Str(renderPath)})
	return names, reqs
}

// Compare runs base and head on everything the review shows and returns what changed. Each
// side's extractors run through the pipeline (internal/pipeline) into a report, and the two
// reports are compared with the gate (gate.Check) under opt.Gate. An error means the review
// could not run: a version stopped answering, timed out or answered an extract request with
// an error. Such a side is a failure, never a pass.
//
// When ctx is done both versions' processes are killed and Compare returns an error
// wrapping context.Cause(ctx).
func Compare(ctx context.Context, base, head *Version, opt Options) (*Review, error) {
	killed := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(killed)
		base.Kill()
		head.Kill()
	})
	defer func() {
		if !stop() {
			<-killed
		}
	}()
	r := &Review{
		SchemaVersion: SchemaVersion, Base: base, Head: head,
		Renders:    []TextChange{},
		Extractors: []ExtractorChange{},
		Absent:     []Absent{},
		Notes:      []string{},
	}
	if opt.Corpus != nil {
		r.Corpus = Corpus{Dir: corpusLabel(opt.Corpus), Cases: len(opt.Corpus.Cases)}
	}
	r.EvalCode = compareEvalCode(base, head)
	logf := func(format string, args ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "review: "+format+"\n", args...)
		}
	}
	if err := r.compareTexts(base, head); err != nil {
		return nil, err
	}

	profiles, baseName := r.profiles()
	r.Regressions = []gate.Regression{}
	if len(profiles) == 0 {
		if len(base.Profiles) == 0 || len(head.Profiles) == 0 {
			r.note("extractors not compared: %s", noExtractors(base, head))
		}
		return r, nil
	}
	if opt.Corpus == nil {
		return nil, errors.New("review: no corpus")
	}
	evalName := opt.EvalExtractor
	if evalName == "" {
		evalName = "seed"
	}
	skipEval := !slices.Contains(profiles, evalName)
	if skipEval {
		r.note("eval not run: profile %s is not in both versions", evalName)
	}
	driftN := opt.DriftN
	if pairs := drift.PairsFromCorpus(opt.Corpus.Cases); driftN > 0 && len(pairs) == 0 {
		r.note("drift not run: no well-formed case in the corpus to mutate")
		driftN = 0
	} else if driftN > 0 {
		r.Corpus.Pairs = len(pairs)
	}
	var reports [2]*report.Report
	var errs [2]error
	var wg sync.WaitGroup
	for side, v := range []*Version{base, head} {
		exs := make([]*extractor.Extractor, len(profiles))
		for i, p := range profiles {
			asked := p
			if side == 0 {
				asked = baseName[p]
			}
			exs[i] = extractor.Remote(v.Impl, asked, p)
		}
		logf("%s: %s on %d cases, drift n %d", v.Label, strings.Join(profiles, ", "), len(opt.Corpus.Cases), driftN)
		var progress func(string, int, int)
		if opt.Progress != nil {
			label := v.Label
			progress = func(stage string, done, total int) { opt.Progress(label, stage, done, total) }
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[side], errs[side] = pipeline.Run(ctx, pipeline.Options{
				Corpus: opt.Corpus, Extractors: exs, DriftSeed: opt.DriftSeed, DriftN: driftN,
				EvalExtractor: evalName, SkipEval: skipEval, KeepSummaries: true, Progress: progress,
			})
			if errs[side] != nil {
				errs[side] = fmt.Errorf("%s: %w", v.Label, errs[side])
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	b, h := reports[0], reports[1]
	r.Reports = [2]*report.Report{b, h}
	for i, p := range profiles {
		r.Extractors = append(r.Extractors, compareCases(p, i, b, h, opt))
	}
	if driftN > 0 {
		r.Drift = newDriftChange(b.Drift, h.Drift, profiles)
	}
	if !skipEval {
		r.Eval = compareEval(evalName, b.Eval, h.Eval)
		r.Corpus.EvalCases = len(r.Eval.Cases)
	}
	// The review is about the change: what both sides already do wrong (a deviation that
	// known_deviations does not list) is the gate's business, not the review's; a partial
	// side (drift or eval not run) is compared on what both ran.
	cfg := opt.Gate
	cfg.Problems = "pass"
	cfg.MustPass = slices.DeleteFunc(slices.Clone(cfg.MustPass), func(m gate.MustPass) bool { return !slices.Contains(profiles, m.Extractor) })
	b.Complete, h.Complete = true, true
	res, err := gate.Check(b, h, cfg)
	if err != nil {
		return nil, fmt.Errorf("review: compare: %w", err)
	}
	r.Regressions = res.Regressions
	r.Checks = res.Checks
	return r, nil
}

func corpusLabel(c *corpus.Corpus) string {
	var names []string
	for _, s := range c.Sources {
		if s.Kind == corpus.EmbeddedLabel {
			names = append(names, s.Kind)
		} else {
			names = append(names, s.Dir)
		}
	}
	return strings.Join(names, " + ")
}

// compareEvalCode compares the eval/ trees of two versions built at git revisions; nil
// when either is not one.
func compareEvalCode(base, head *Version) *EvalCode {
	if base.rev == nil || head.rev == nil {
		return nil
	}
	e := &EvalCode{BaseTree: base.rev.evalTree, HeadTree: head.rev.evalTree}
	if e.BaseTree == e.HeadTree {
		return e
	}
	tree := func(t string) string {
		if t == "" {
			return "none"
		}
		return t[:min(len(t), 12)]
	}
	e.Differs = true
	e.Note = fmt.Sprintf("eval/ differs between base and head (git tree %s, %s); both sides were scored with head's eval code "+
		"(that of the compacteval running this review), so scorer changes are not shown", tree(e.BaseTree), tree(e.HeadTree))
	return e
}

func (r *Review) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

func noExtractors(base, head *Version) string {
	var why []string
	for _, v := range []*Version{base, head} {
		if len(v.Profiles) == 0 {
			if v.Kind == KindText {
				why = append(why, v.Label+" is an instruction text")
			} else {
				why = append(why, v.Label+" answers no extract request")
			}
		}
	}
	return strings.Join(why, ", ")
}

// profiles returns the profiles both versions have, in head's order, and records the
// others in r.Absent; baseName maps such a profile to the name the base knows it by. A base
// from before profiles named their version calls claude-code@2.1.88 "claude-code" and
// windmill@67ef1eb "windmill" (compact.LegacyName): those pairs are the same profile.
func (r *Review) profiles() (both []string, baseName map[string]string) {
	baseName = map[string]string{}
	for _, p := range r.Base.Profiles {
		if v, ok := compact.LegacyName(p); ok && !slices.Contains(r.Base.Profiles, v) && slices.Contains(r.Head.Profiles, v) {
			baseName[v] = p
		} else if slices.Contains(r.Head.Profiles, p) {
			baseName[p] = p
		}
	}
	for _, p := range r.Head.Profiles {
		if _, ok := baseName[p]; ok {
			both = append(both, p)
		} else if len(r.Base.Profiles) > 0 {
			r.Absent = append(r.Absent, Absent{Profile: p, In: "head"})
		}
	}
	for _, p := range r.Base.Profiles {
		paired := false
		for _, b := range baseName {
			paired = paired || b == p
		}
		if !paired && len(r.Head.Profiles) > 0 {
			r.Absent = append(r.Absent, Absent{Profile: p, In: "base"})
		}
	}
	return both, baseName
}

// compareTexts diffs the instruction text and every render.
func (r *Review) compareTexts(base, head *Version) error {
	change := func(name string, b, h string, bok, hok bool) TextChange {
		t := TextChange{Name: name, BaseOK: bok, HeadOK: hok, base: b, head: h, Diff: []Edit{}}
		switch {
		case !bok && !hok:
			t.Note = fmt.Sprintf("neither version has it (base: %s; head: %s)", b, h)
		case !bok:
			t.Note = "base does not have it: " + b
		case !hok:
			t.Note = "head does not have it: " + h
		case b != h:
			t.Changed, t.Diff = true, WordDiff(b, h)
		}
		return t
	}
	bi, berr := base.Instruction()
	hi, herr := head.Instruction()
	r.Instruction = change("instruction", errText(bi, berr), errText(hi, herr), berr == nil, herr == nil)

	names, reqs := renders()
	bt, bok, err := base.Render(reqs)
	if err != nil {
		return fmt.Errorf("base: render: %w", err)
	}
	ht, hok, err := head.Render(reqs)
	if err != nil {
		return fmt.Errorf("head: render: %w", err)
	}
	for i, name := range names {
		if reqs[i].Op != "instruction" && (base.Kind == KindText || head.Kind == KindText) {
			continue // the continuation summary is not part of an instruction text
		}
		r.Renders = append(r.Renders, change(name, bt[i], ht[i], bok[i], hok[i]))
	}
	return nil
}

func errText(s string, err error) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// compareCases compares the results of profile index x of two reports, case by case.
func compareCases(name string, x int, b, h *report.Report, opt Options) ExtractorChange {
	ec := ExtractorChange{Name: name, Cases: len(opt.Corpus.Cases), Categories: []CategoryChange{}}
	ec.AllowedAway = opt.Gate.AllowedDrop.IntendedCases
	if o, ok := opt.Gate.Extractors[name]; ok && o.IntendedCases != nil {
		ec.AllowedAway = *o.IntendedCases
	}
	byCase := map[string]*corpus.Case{}
	for _, c := range opt.Corpus.Cases {
		byCase[c.ID] = c
	}
	byCat := map[string][]CaseChange{}
	for i, bc := range b.Cases {
		br, hr := bc.Results[x], h.Cases[i].Results[x]
		if br.MatchesIntended {
			ec.BaseIntended++
		}
		if hr.MatchesIntended {
			ec.HeadIntended++
		}
		bs, hs := deref(br.Summary), deref(hr.Summary)
		if br.OK == hr.OK && bs == hs {
			continue
		}
		c := byCase[bc.ID]
		cc := CaseChange{
			ID: c.ID, Title: c.Title, Categories: c.Categories, Direction: Neither,
			Intended: Output{Found: c.Intended.Found, Summary: c.Intended.Summary},
			Base:     Output{Found: br.OK, Summary: bs},
			Head:     Output{Found: hr.OK, Summary: hs},
		}
		ec.Changed++
		switch {
		case hr.MatchesIntended:
			cc.Direction = Toward
			ec.Toward++
		case br.MatchesIntended:
			cc.Direction = Away
			ec.Away++
		default:
			ec.Neither++
		}
		byCat[c.Folder()] = append(byCat[c.Folder()], cc)
	}
	order := slices.Clone(corpus.Categories)
	for cat := range byCat {
		if !slices.Contains(order, cat) {
			order = append(order, cat)
		}
	}
	slices.Sort(order[len(corpus.Categories):])
	for _, cat := range order {
		if cs := byCat[cat]; len(cs) > 0 {
			ec.Categories = append(ec.Categories, CategoryChange{Category: cat, Cases: cs})
		}
	}
	return ec
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// newDriftChange pairs the cells of the base and head matrices for each profile.
func newDriftChange(bm, hm drift.MatrixResult, profiles []string) *DriftChange {
	d := &DriftChange{Seed: hm.Seed, N: hm.N, Extractors: profiles, Rows: []DriftRow{}}
	add := func(group string, b, h drift.Row) {
		dr := DriftRow{Group: group, Operator: h.Operator, Samples: h.Samples, Ambiguous: h.Ambiguous, Found: h.Found}
		for i, p := range profiles {
			bc, hc := b.Cells[i], h.Cells[i]
			dr.Cells = append(dr.Cells, DriftCell{
				Extractor: p,
				BaseExact: bc.Exact, HeadExact: hc.Exact,
				BaseLeaked: bc.Leaked, HeadLeaked: hc.Leaked,
				BaseLost: bc.Lost, HeadLost: hc.Lost,
			})
		}
		d.Rows = append(d.Rows, dr)
	}
	add("identity", bm.Identity, hm.Identity)
	for i := range hm.Single {
		add("single", bm.Single[i], hm.Single[i])
	}
	add("single", bm.SingleTotal, hm.SingleTotal)
	add("composed", bm.ComposedTotal, hm.ComposedTotal)
	add("all", bm.Total, hm.Total)
	return d
}

// compareEval pairs the eval scores of both reports, case by case.
func compareEval(name string, b, h eval.Report) *EvalChange {
	e := &EvalChange{Extractor: name, Cases: []EvalCase{}}
	for i, bc := range b.Cases {
		hc := h.Cases[i]
		e.Cases = append(e.Cases, EvalCase{
			ID: bc.ID, BaseFound: bc.Found, HeadFound: hc.Found,
			Score:            meanChange(bc.Score, hc.Score),
			Coverage:         shareChange(bc.Coverage, hc.Coverage),
			BoundaryCoverage: shareChange(bc.BoundaryCoverage, hc.BoundaryCoverage),
			TailLeakage:      shareChange(bc.TailLeakage, hc.TailLeakage),
		})
	}
	bt, ht := b.Totals, h.Totals
	e.Score = meanChange(bt.Score.Mean, ht.Score.Mean)
	e.Coverage = meanChange(bt.Coverage.Mean, ht.Coverage.Mean)
	e.BoundaryCoverage = meanChange(bt.BoundaryCoverage.Mean, ht.BoundaryCoverage.Mean)
	e.TailLeakage = meanChange(bt.TailLeakage.Mean, ht.TailLeakage.Mean)
	return e
}

func shareChange(b, h eval.Share) ShareChange {
	s := ShareChange{Base: b, Head: h}
	bv, bok := b.Value()
	hv, hok := h.Value()
	if bok && hok {
		d := round4(hv - bv)
		s.Delta = &d
	}
	return s
}

func meanChange(b, h *float64) MeanChange {
	m := MeanChange{Base: b, Head: h}
	if b != nil && h != nil {
		d := round4(*h - *b)
		m.Delta = &d
	}
	return m
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
