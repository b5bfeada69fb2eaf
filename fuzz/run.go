package fuzz

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/par"
	"github.com/compacteval/compacteval/internal/proccpu"
	"github.com/compacteval/compacteval/internal/textgen"
)

// Target is the extractor a run checks, given as functions: a Go extraction function
// (Of), or a process behind them (compacteval's internal/fuzzrun wraps the extractors of
// the command line: built-in profiles, modules and commands).
type Target struct {
	// Name names the extractor in the Result.
	Name string
	// ExtractAll returns the extractions of texts, in order. An error ends the run.
	ExtractAll func(texts []string) ([]compact.Extraction, error)
	// Forget, when set, drops the answers the extractor kept: Run calls it after the time
	// check and after each batch of generated inputs, which are sent once each.
	Forget func()
	// TimedOut, when set, reports whether an error of ExtractAll is the extractor not
	// answering in time. In the time check such an error ends the run with a note, not an
	// error: the input was too slow, which is what the check looks for.
	TimedOut func(error) bool
	// CPU, when set, returns the CPU time the extractor has used so far (its process and
	// the processes it started, or for a Go extractor this process), and false where it
	// cannot be measured. The time check measures with it, so that other processes on the
	// same cores (a loaded CI runner) do not slow the extractor down in the measure; without
	// it, or where it is false, the check uses the wall clock.
	CPU func() (time.Duration, bool)
	// Superlinear lists the time families (Families) on which a reference is known to be
	// superlinear though Run does not time it: the Go port of the seed runs in linear time
	// where the upstream module under Node does not (SeedSuperlinear). A reference's
	// superlinear-time kind of such a family is known.
	Superlinear []string
}

// SeedSuperlinear are the time families on which the seed module (the upstream
// compaction.ts under Node) is superlinear: its regular expressions backtrack over every
// opener of a text without closers. internal/fuzzrun's TestRunSeedModule measures the seed
// module on every family and holds this list to what it measures.
var SeedSuperlinear = []string{"summary-openers", "analysis-openers", "inline-openers"}

// Of returns the target of a Go extractor: its Extract is called on every core at once,
// so it must be safe to call from several goroutines (compact's profiles are).
func Of(ex compact.Extractor) Target {
	return Target{Name: ex.Name, ExtractAll: func(texts []string) ([]compact.Extraction, error) {
		out := make([]compact.Extraction, len(texts))
		par.Do(len(texts), func(i int) { out[i] = ex.Extract(texts[i]) })
		return out, nil
	}, CPU: proccpu.SelfCPU}
}

// Options tune Run.
type Options struct {
	// Time is the run's budget: the corpus responses and the time check come first, then
	// generated inputs are sent until Time has passed since the start (none when the first
	// two took longer). Minimizing the failures found comes on top, within MinimizeBudget.
	Time time.Duration
	// Batches, when positive, sends exactly that many batches of generated inputs (256
	// each) whatever Time says: a test counts work, not seconds, so that a loaded machine
	// checks as many inputs as an idle one.
	Batches int
	// Seed makes the generated inputs; the same seed and corpus give the same inputs.
	Seed int64
	// Size is the small input of the time check (the large one is ten times as big); 0 is
	// DefaultSize, and a negative Size skips the check.
	Size int
	// Examples is how many distinct failures of each property are kept and minimized; 0 is
	// DefaultExamples.
	Examples int
	// MinimizeBudget bounds the extractions spent shrinking one failure; 0 is
	// DefaultMinimizeBudget.
	MinimizeBudget int
	// Reference, when set, is run on the same inputs (not timed, not checked for
	// determinism): a kind of failure it shows too is known (KindCount.Known), a behaviour
	// of the reference rather than of the change being fuzzed. compacteval fuzz gives the
	// built-in seed here for a module or command, a user's copy of the seed module.
	Reference *Target
	// Accept lists kinds and properties (a property accepts all its kinds) that do not make
	// the run fail (KindCount.Accepted): gate.yaml's fuzz section.
	Accept []string
}

// Defaults of Options.
const (
	DefaultSize           = 8 << 10
	DefaultExamples       = 3
	DefaultMinimizeBudget = 2000
	batchSize             = 256
	recheck               = 16 // texts of a batch sent again in the next, for determinism
)

// Run checks t against the properties on the corpus responses, the time families and
// generated inputs for opt.Time. An error means the extractor failed (stopped answering,
// timed out outside the time check, answered an error); what was found until then is in
// the result.
func Run(t Target, cases []*corpus.Case, opt Options) (*Result, error) {
	if opt.Size == 0 {
		opt.Size = DefaultSize
	}
	if opt.Examples == 0 {
		opt.Examples = DefaultExamples
	}
	if opt.MinimizeBudget == 0 {
		opt.MinimizeBudget = DefaultMinimizeBudget
	}
	f := &fuzzer{t: t, opt: opt, seen: map[[32]byte]bool{}, kinds: map[string]int{}, refKinds: map[string]int{},
		res: &Result{Extractor: t.Name, Seed: opt.Seed, Inputs: map[string]int{}, Counts: map[string]int{}, Ambiguous: map[string]int{},
			Examples: []Failure{}, Timings: []Timing{}, Kinds: []KindCount{}}}
	if opt.Reference != nil {
		f.res.Reference = opt.Reference.Name
	}
	for _, p := range Properties {
		f.res.Counts[p] = 0
		f.res.Ambiguous[p] = 0
	}
	start := time.Now()
	f.start = start
	err := f.run(cases)
	if errors.Is(err, errStopped) {
		err = nil
	}
	f.tally()
	f.res.Seconds = round2(time.Since(start).Seconds())
	if f.res.Seconds > 0 {
		f.res.ExecsPerSecond = float64(int64(float64(f.res.Execs) / time.Since(start).Seconds()))
	}
	return f.res, err
}

type fuzzer struct {
	t     Target
	opt   Options
	res   *Result
	seen  map[[32]byte]bool // examples kept, by property and minimized input
	last  []compact.Extraction
	start time.Time
	// kinds counts the failures of each kind, refKinds the reference's on the same inputs.
	kinds, refKinds map[string]int
}

// tally sets the result's Kinds from the counts, in the order of Kinds.
func (f *fuzzer) tally() {
	order := Kinds()
	names := make([]string, 0, len(f.kinds))
	for k := range f.kinds {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(slices.Index(order, a), slices.Index(order, b)), cmp.Compare(a, b))
	})
	for _, k := range names {
		f.res.Kinds = append(f.res.Kinds, KindCount{Kind: k, Property: PropertyOf(k), Count: f.kinds[k],
			ReferenceCount: f.refKinds[k], Known: f.refKinds[k] > 0, Accepted: Accepts(f.opt.Accept, k)})
	}
}

// input is one text to check, with what is known of it.
type input struct {
	gen  string
	text string
	want *corpus.Intended
	s    *drift.Sample
	id   string
}

func (f *fuzzer) extract(texts []string) ([]compact.Extraction, error) {
	f.res.Execs += len(texts)
	return f.t.ExtractAll(texts)
}

func (f *fuzzer) forget() {
	if f.t.Forget != nil {
		f.t.Forget()
	}
}

func (f *fuzzer) run(cases []*corpus.Case) error {
	var ins []input
	for _, c := range cases {
		ins = append(ins, input{gen: "corpus", text: c.Response, want: &c.Intended, id: c.ID})
	}
	for len(ins) > 0 {
		n := min(batchSize, len(ins))
		if err := f.check(ins[:n], nil); err != nil {
			return err
		}
		ins = ins[n:]
	}
	if f.opt.Size > 0 {
		if err := f.timeCheck(); err != nil {
			return err
		}
	}
	f.forget()
	pairs := drift.PairsFromCorpus(cases)
	r := rand.New(rand.NewPCG(uint64(f.opt.Seed), 0x636f6d7061637465))
	deadline := f.start.Add(f.opt.Time)
	var pending []answered
	more := func(n int) bool {
		if f.opt.Batches > 0 {
			return n < f.opt.Batches
		}
		return time.Now().Before(deadline)
	}
	for n := 0; more(n); n++ {
		batch := make([]input, batchSize)
		for i := range batch {
			batch[i] = generate(r, pairs, n*batchSize+i)
		}
		if err := f.check(batch, pending); err != nil {
			return err
		}
		pending = nil
		for i := 0; i < len(batch); i += len(batch) / recheck {
			pending = append(pending, answered{batch[i], f.last[i]})
		}
		f.forget()
	}
	return nil
}

// answered is an input with the answer it got.
type answered struct {
	in  input
	got compact.Extraction
}

// check extracts from ins and, first, from the texts of again, which must get the answers
// they got before, then judges every answer of ins; f.last holds them.
func (f *fuzzer) check(ins []input, again []answered) error {
	texts := make([]string, 0, len(again)+len(ins))
	for _, a := range again {
		texts = append(texts, a.in.text)
	}
	for _, in := range ins {
		texts = append(texts, in.text)
		f.res.Inputs[in.gen]++
	}
	got, err := f.extract(texts)
	if err != nil {
		return err
	}
	for i, a := range again {
		if got[i] != a.got {
			f.fail(a.in, a.got, newViolation(PropNondeterministic, "", fmt.Sprintf("answered %s, then %s", describe(a.got), describe(got[i]))))
		}
	}
	f.last = got[len(again):]
	for i, in := range ins {
		for _, v := range check(in.text, f.last[i], in.want, in.s) {
			if v.ambiguous {
				f.res.Ambiguous[v.prop]++
				continue
			}
			f.fail(in, f.last[i], v)
		}
	}
	return f.reference(ins)
}

// reference counts the kinds of failure the reference shows on ins.
func (f *fuzzer) reference(ins []input) error {
	if f.opt.Reference == nil {
		return nil
	}
	texts := make([]string, len(ins))
	for i, in := range ins {
		texts[i] = in.text
	}
	got, err := f.opt.Reference.ExtractAll(texts)
	if err != nil {
		return fmt.Errorf("reference %s: %w", f.opt.Reference.Name, err)
	}
	for i, in := range ins {
		for _, v := range check(in.text, got[i], in.want, in.s) {
			if !v.ambiguous {
				f.refKinds[v.kind]++
			}
		}
	}
	if f.opt.Reference.Forget != nil {
		f.opt.Reference.Forget()
	}
	return nil
}

// fail counts a failure and keeps it, minimized, when it is one of the first distinct ones
// of its kind.
func (f *fuzzer) fail(in input, got compact.Extraction, v violation) {
	f.res.Counts[v.prop]++
	f.kinds[v.kind]++
	kept := 0
	for _, e := range f.res.Examples {
		if e.Kind == v.kind {
			kept++
		}
	}
	if kept >= f.opt.Examples {
		return
	}
	text := in.text
	// A failure judged against an intended result may not fail by the text alone; then
	// minimizing finds nothing smaller, or a smaller text that shows the same kind alone.
	// Two kinds need the intended result by definition: no text alone shows them.
	if v.prop != PropNondeterministic && v.kind != kindOf(PropLost, "intended") && v.kind != kindOf(PropLeak, "marked") {
		small, _, err := minimize(v.kind, text, f.extract, f.opt.MinimizeBudget)
		if err == nil && small != text {
			text = small
			if again, err := f.extract([]string{text}); err == nil {
				got = again[0]
			}
			// Say what the small input shows, not the original.
			for _, w := range check(text, got, nil, nil) {
				if w.kind == v.kind && !w.ambiguous {
					v.detail = w.detail
				}
			}
		}
	}
	key := sha256.Sum256([]byte(v.kind + "\x00" + text))
	if f.seen[key] {
		return
	}
	f.seen[key] = true
	f.res.Examples = append(f.res.Examples, Failure{Property: v.prop, Kind: v.kind, Generator: in.gen, Case: in.id, Detail: v.detail,
		Input: text, OriginalBytes: len(in.text), Output: got.Summary, Found: got.OK})
}

func describe(e compact.Extraction) string {
	if !e.OK {
		return "no summary"
	}
	return quote(e.Summary, 40)
}

// timeCheck times every family; a superlinear family or a timeout is a failure.
func (f *fuzzer) timeCheck() error {
	timings, err := timeFamilies(func(s string) (compact.Extraction, error) {
		f.forget()
		got, err := f.extract([]string{s})
		if err != nil {
			return compact.Extraction{}, err
		}
		return got[0], nil
	}, f.opt.Size, newClock(f.t.CPU))
	f.res.Timings = timings
	for _, t := range timings {
		if t.Verdict == "linear" {
			continue
		}
		f.res.Counts[PropSuperlinear]++
		f.kinds[kindOf(PropSuperlinear, t.Family)]++
		if ref := f.opt.Reference; ref != nil && slices.Contains(ref.Superlinear, t.Family) {
			f.refKinds[kindOf(PropSuperlinear, t.Family)]++
		}
		large := "no answer within the timeout"
		if t.LargeSeconds != nil {
			large = fmt.Sprintf("%.3fs", *t.LargeSeconds)
		}
		f.res.Examples = append(f.res.Examples, Failure{Property: PropSuperlinear, Kind: kindOf(PropSuperlinear, t.Family), Generator: "time", Case: t.Family,
			Detail: fmt.Sprintf("%s: %d bytes in %.3fs, %d bytes in %s (x%.0f for a x10 input)", t.Family, t.SmallBytes, t.SmallSeconds, t.LargeBytes, large, t.Ratio)})
	}
	if err != nil && f.t.TimedOut != nil && f.t.TimedOut(err) {
		f.res.Notes = append(f.res.Notes, fmt.Sprintf("the extractor did not answer the %s input of %d bytes in time and was killed; no generated input was sent",
			timings[len(timings)-1].Family, timings[len(timings)-1].LargeBytes))
		return errStopped
	}
	if err != nil {
		return fmt.Errorf("time check %s: %w", timings[len(timings)-1].Family, err)
	}
	return nil
}

// errStopped ends a run whose extractor can answer no more; Run returns what it found.
var errStopped = errors.New("stopped")

// generate returns input number i: a drift sample of a well-formed pair, a structured
// text, a marker text (a closed analysis block between soups) or a soup, in turn.
func generate(r *rand.Rand, pairs []drift.Pair, i int) input {
	switch i % 4 {
	case 0:
		if len(pairs) > 0 {
			p := pairs[r.IntN(len(pairs))]
			s := drift.Mutate(p, r.Int64(), 1+r.IntN(drift.MaxOps))
			return input{gen: "drift", text: s.Response, want: &s.Intended, s: &s, id: p.ID}
		}
		fallthrough
	case 1:
		return input{gen: "structured", text: textgen.Structured(r)}
	case 2:
		return input{gen: "marker", text: markerText(r)}
	}
	return input{gen: "soup", text: textgen.Soup(r, 40)}
}

// markerText is a closed analysis block, on lines of its own, whose lines nobody could take
// for summary, between two texts without fences; a summary block often follows.
func markerText(r *rand.Rand) string {
	noFence := strings.NewReplacer("```", "", "~~~", "")
	var b strings.Builder
	b.WriteString(noFence.Replace(textgen.Soup(r, 8)))
	b.WriteString("\n<analysis>\n")
	fmt.Fprintf(&b, "The analysis notes marker %d before the summary.\n", r.IntN(1e6))
	b.WriteString("</analysis>\n")
	if r.IntN(3) != 0 {
		b.WriteString("<summary>\n1. Primary Request and Intent:\n   Keep the marker out.\n</summary>\n")
	}
	b.WriteString(noFence.Replace(textgen.Soup(r, 8)))
	return b.String()
}
