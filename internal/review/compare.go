package review

import (
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
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/protocol"
)

// Options tune Compare.
type Options struct {
	// Cases are the corpus cases both versions run on; CorpusDir names where they came from.
	Cases     []*corpus.Case
	CorpusDir string
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

// Compare runs base and head on everything the review shows and returns what changed. An
// error means the review could not run: a version stopped answering or answered an
// extract request with an error.
func Compare(base, head *Version, opt Options) (*Review, error) {
	r := &Review{
		SchemaVersion: SchemaVersion, Base: base, Head: head,
		Corpus:     Corpus{Dir: opt.CorpusDir, Cases: len(opt.Cases)},
		Renders:    []TextChange{},
		Extractors: []ExtractorChange{},
		Absent:     []Absent{},
		Notes:      []string{},
	}
	logf := func(format string, args ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "review: "+format+"\n", args...)
		}
	}
	if err := r.compareTexts(base, head); err != nil {
		return nil, err
	}

	profiles := r.profiles()
	if len(profiles) == 0 {
		if len(base.Profiles) == 0 || len(head.Profiles) == 0 {
			r.note("extractors not compared: %s", noExtractors(base, head))
		}
		r.Regressions = []gate.Regression{}
		return r, nil
	}
	pair := make([][2]*remote, len(profiles))
	for i, p := range profiles {
		pair[i] = [2]*remote{newRemote(base, p), newRemote(head, p)}
	}
	failure := func() error {
		for _, rs := range pair {
			for _, x := range rs {
				if err := x.failure(); err != nil {
					return err
				}
			}
		}
		return nil
	}

	responses := make([]string, len(opt.Cases))
	for i, c := range opt.Cases {
		responses[i] = c.Response
	}
	logf("extracting %d cases with %s, base and head", len(opt.Cases), strings.Join(profiles, ", "))
	if err := prefetch(pair, responses); err != nil {
		return nil, err
	}
	for i, p := range profiles {
		r.Extractors = append(r.Extractors, compareCases(p, pair[i], opt))
	}

	if pairs := drift.PairsFromCorpus(opt.Cases); opt.DriftN > 0 && len(pairs) > 0 {
		r.Corpus.Pairs = len(pairs)
		texts := driftTexts(pairs, opt.DriftSeed, opt.DriftN)
		logf("drift: %d distinct responses from %d pairs, seed %d, n %d", len(texts), len(pairs), opt.DriftSeed, opt.DriftN)
		if err := prefetch(pair, texts); err != nil {
			return nil, err
		}
		var exs []compact.Extractor
		for i, p := range profiles {
			for _, x := range pair[i] {
				exs = append(exs, x.extractor(x.v.Label+" "+p))
			}
		}
		m := drift.Matrix(pairs, exs, opt.DriftSeed, opt.DriftN)
		if err := failure(); err != nil {
			return nil, err
		}
		r.Drift = newDriftChange(m, profiles)
	} else if opt.DriftN > 0 {
		r.note("drift not run: no well-formed case in the corpus to mutate")
	}

	evalName := opt.EvalExtractor
	if evalName == "" {
		evalName = "seed"
	}
	if i := slices.Index(profiles, evalName); i >= 0 {
		r.Eval = compareEval(evalName, pair[i], opt.Cases)
		r.Corpus.EvalCases = len(r.Eval.Cases)
		if err := failure(); err != nil {
			return nil, err
		}
	} else {
		r.note("eval not run: profile %s is not in both versions", evalName)
	}
	r.Regressions = regressions(r, opt.Gate)
	return r, nil
}

// prefetch sends texts to every profile of both versions, base and head at the same time
// (each version is one process, which answers one request at a time).
func prefetch(pair [][2]*remote, texts []string) error {
	var errs [2]error
	var wg sync.WaitGroup
	for side := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, rs := range pair {
				if errs[side] = rs[side].prefetch(texts); errs[side] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs[0], errs[1])
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
// others in r.Absent.
func (r *Review) profiles() []string {
	var both []string
	for _, p := range r.Head.Profiles {
		if slices.Contains(r.Base.Profiles, p) {
			both = append(both, p)
		} else if len(r.Base.Profiles) > 0 {
			r.Absent = append(r.Absent, Absent{Profile: p, In: "head"})
		}
	}
	for _, p := range r.Base.Profiles {
		if !slices.Contains(r.Head.Profiles, p) && len(r.Head.Profiles) > 0 {
			r.Absent = append(r.Absent, Absent{Profile: p, In: "base"})
		}
	}
	return both
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

// compareCases runs both versions of one profile on every case.
func compareCases(name string, rs [2]*remote, opt Options) ExtractorChange {
	ec := ExtractorChange{Name: name, Cases: len(opt.Cases), Categories: []CategoryChange{}}
	ec.AllowedAway = opt.Gate.AllowedDrop.IntendedCases
	if o, ok := opt.Gate.Extractors[name]; ok && o.IntendedCases != nil {
		ec.AllowedAway = *o.IntendedCases
	}
	byCat := map[string][]CaseChange{}
	for _, c := range opt.Cases {
		b, h := rs[0].extract(c.Response), rs[1].extract(c.Response)
		bm, hm := c.Matches(b), c.Matches(h)
		if bm {
			ec.BaseIntended++
		}
		if hm {
			ec.HeadIntended++
		}
		if b.OK == h.OK && b.Summary == h.Summary {
			continue
		}
		cc := CaseChange{
			ID: c.ID, Title: c.Title, Categories: c.Categories, Direction: Neither,
			Intended: Output{Found: c.Intended.Found, Summary: c.Intended.Summary},
			Base:     Output{Found: b.OK, Summary: b.Summary},
			Head:     Output{Found: h.OK, Summary: h.Summary},
		}
		ec.Changed++
		switch {
		case hm:
			cc.Direction = Toward
			ec.Toward++
		case bm:
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

// newDriftChange pairs the base and head cells of a matrix run with the extractors
// "base P" and "head P" for each profile P, in that order.
func newDriftChange(m drift.MatrixResult, profiles []string) *DriftChange {
	d := &DriftChange{Seed: m.Seed, N: m.N, Extractors: profiles, Rows: []DriftRow{}}
	add := func(group string, row drift.Row) {
		dr := DriftRow{Group: group, Operator: row.Operator, Samples: row.Samples, Ambiguous: row.Ambiguous, Found: row.Found}
		for i, p := range profiles {
			b, h := row.Cells[2*i], row.Cells[2*i+1]
			dr.Cells = append(dr.Cells, DriftCell{
				Extractor: p,
				BaseExact: b.Exact, HeadExact: h.Exact,
				BaseLeaked: b.Leaked, HeadLeaked: h.Leaked,
				BaseLost: b.Lost, HeadLost: h.Lost,
			})
		}
		d.Rows = append(d.Rows, dr)
	}
	add("identity", m.Identity)
	for _, row := range m.Single {
		add("single", row)
	}
	add("single", m.SingleTotal)
	add("composed", m.ComposedTotal)
	add("all", m.Total)
	return d
}

// compareEval scores every eval case with both versions of one profile.
func compareEval(name string, rs [2]*remote, cases []*corpus.Case) *EvalChange {
	e := &EvalChange{Extractor: name, Cases: []EvalCase{}}
	bopt := eval.Options{Extractor: rs[0].extractor(name)}
	hopt := eval.Options{Extractor: rs[1].extractor(name)}
	var bres, hres []eval.Result
	for _, c := range cases {
		in, ok := eval.FromCase(c)
		if !ok {
			continue
		}
		b, h := eval.Score(in, bopt), eval.Score(in, hopt)
		bres, hres = append(bres, b), append(hres, h)
		e.Cases = append(e.Cases, EvalCase{
			ID: c.ID, BaseFound: b.Found, HeadFound: h.Found,
			Coverage:         shareChange(b.Coverage, h.Coverage),
			BoundaryCoverage: shareChange(b.BoundaryCoverage, h.BoundaryCoverage),
		})
	}
	bt, ht := eval.Total(bres), eval.Total(hres)
	e.Coverage = meanChange(bt.Coverage.Mean, ht.Coverage.Mean)
	e.BoundaryCoverage = meanChange(bt.BoundaryCoverage.Mean, ht.BoundaryCoverage.Mean)
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
