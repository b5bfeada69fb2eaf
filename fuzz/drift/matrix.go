package drift

import (
	"fmt"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/par"
)

// Outcome is how one extraction compares with a sample's intended result.
//
//   - Exact: the sample is not ambiguous, and the extractor returns the intended summary byte
//     for byte (OK and Summary equal to Intended.Summary), or finds nothing (!OK) when the
//     intended is not found.
//   - Leaked: the extractor returns a summary one of whose lines (split at every line
//     terminator, trimmed, as Lines does) is one of the sample's Analysis lines: a line of
//     the analysis text, at least MinAnalysisLine bytes, that is no line of any summary block.
//     Ambiguous samples count: analysis is never summary.
//   - Lost: the sample is not ambiguous, its intended summary is found, and the extractor
//     returns nothing (!OK) or a summary holding fewer than half of the intended summary's
//     distinct lines (compared as Lines gives them, so line terminators and the blanks around
//     a line do not matter).
type Outcome struct {
	Exact, Leaked, Lost bool
}

// Judge returns the outcome of extraction e on sample s.
func Judge(s Sample, e compact.Extraction) Outcome {
	return newJudge(s).outcome(e)
}

// judge holds what every extraction of one sample is compared with.
type judge struct {
	s Sample
	// lines maps each analysis line and each distinct line of the intended summary to
	// what it is: one look-up a line of an extraction.
	lines map[string]judgedLine
	// intended counts the distinct lines of the intended summary.
	intended int
	// intendedLeaks says whether the intended summary itself holds an analysis line (a cut
	// can leave one as its last line), so that an exact extraction needs no second look.
	intendedLeaks bool
}

// judgedLine is what a line is to a judge: an analysis line, the line of the intended
// summary with an index (-1 when it is none), or both.
type judgedLine struct {
	intended int
	analysis bool
}

func newJudge(s Sample) *judge {
	j := &judge{s: s, lines: make(map[string]judgedLine, len(s.Analysis))}
	for _, l := range s.Analysis {
		j.lines[l] = judgedLine{intended: -1, analysis: true}
	}
	eachLine(s.Intended.Summary, func(l string) {
		jl, seen := j.lines[l]
		if !seen {
			jl.intended = -1
		}
		if jl.intended < 0 {
			jl.intended = j.intended
			j.intended++
			j.lines[l] = jl
		}
		j.intendedLeaks = j.intendedLeaks || jl.analysis
	})
	return j
}

func (j *judge) outcome(e compact.Extraction) Outcome {
	in := j.s.Intended
	if e.OK && in.Found && e.Summary == in.Summary {
		return Outcome{Exact: !j.s.Ambiguous, Leaked: j.intendedLeaks}
	}
	var o Outcome
	if !j.s.Ambiguous {
		o.Exact = !in.Found && !e.OK
	}
	held := make([]bool, j.intended)
	n := 0
	if e.OK {
		eachLine(e.Summary, func(l string) {
			jl, ok := j.lines[l]
			if !ok {
				return
			}
			if jl.analysis {
				o.Leaked = true
			}
			if i := jl.intended; i >= 0 && !held[i] {
				held[i] = true
				n++
			}
		})
	}
	if !j.s.Ambiguous && in.Found {
		o.Lost = !e.OK || 2*n < j.intended
	}
	return o
}

// Cell counts one extractor's outcomes over a row's samples.
type Cell struct {
	Extractor string `json:"extractor"`
	// Exact counts exact recoveries, out of the row's Samples minus Ambiguous.
	Exact int `json:"exact"`
	// Leaked counts summaries holding an analysis line, out of all the row's Samples.
	Leaked int `json:"analysis_leaked"`
	// Lost counts lost summaries, out of the row's Found.
	Lost int `json:"summary_lost"`
}

// Row is one group of samples: an operator's, or a total.
type Row struct {
	// Operator is the operator's name, "identity" or "total".
	Operator  string `json:"operator"`
	Samples   int    `json:"samples"`
	Ambiguous int    `json:"ambiguous"`
	// Found counts the samples that are not ambiguous and whose intended summary is found.
	Found int    `json:"intended_found"`
	Cells []Cell `json:"cells"`
}

// MatrixResult is the outcome of every extractor on the mutations of every operator.
type MatrixResult struct {
	Seed int64 `json:"seed"`
	// N is the number of samples per operator in Single, and of the identity.
	N int `json:"n"`
	// Pairs are the ids of the pairs the samples were made from, in turn.
	Pairs      []string `json:"pairs"`
	Extractors []string `json:"extractors"`
	Operators  []string `json:"operators"`
	// Identity holds the unmutated pairs: every extractor should be exact there.
	Identity Row `json:"identity"`
	// Single has one row per operator, each over N samples where it is applied alone.
	Single      []Row `json:"single"`
	SingleTotal Row   `json:"single_total"`
	// Composed has one row per operator over the composed samples it takes part in: N times
	// the number of operators samples of 2 or 3 operators each, so a sample counts in the
	// rows of all its operators.
	Composed      []Row `json:"composed"`
	ComposedTotal Row   `json:"composed_total"`
	// Total counts every sample once: identity, single and composed.
	Total Row `json:"total"`
}

// job is one sample to make and judge.
type job struct {
	pair int
	seed int64
	op   int // the operator of a single sample; -1 for identity, -2 for composed
	k    int // the number of operators of a composed sample
}

// result is a job's sample and its outcome for each extractor.
type result struct {
	ops       []string
	ambiguous bool
	found     bool
	outcomes  []Outcome
}

// MaxN is the largest number of samples per operator that CheckN accepts: Matrix makes
// 1+2*len(Operators()) times n samples (410,000 at MaxN, about three minutes on two cores)
// and keeps an outcome for each, so a mistyped -n of 20,000,000 would need gigabytes.
const MaxN = 10_000

// CheckN returns an error unless n is a usable number of samples per operator for Matrix:
// from 1 to MaxN.
func CheckN(n int) error { return CheckNWithin(n, MaxN) }

// CheckNWithin is CheckN with the limit max instead of MaxN (a command's -max-samples).
func CheckNWithin(n, max int) error {
	switch {
	case n < 1:
		return fmt.Errorf("%d samples per operator: want at least 1", n)
	case n > max:
		return fmt.Errorf("%d samples per operator is over the limit of %d (%d samples in all at the limit; -max-samples raises it)", n, max, max*(1+2*len(Operators())))
	}
	return nil
}

// Matrix mutates pairs and runs every extractor on every sample: n identity samples, n single
// samples per operator, and n times the number of operators composed samples of 2 or 3
// operators. Pairs are used in turn; each sample's seed is drawn from seed in a fixed order,
// so the result depends only on its arguments (samples are judged in parallel and counted in
// order). It returns an empty result when pairs is empty or n < 1. Its memory grows with n:
// callers taking n from a user check it with CheckN first.
func Matrix(pairs []Pair, extractors []compact.Extractor, seed int64, n int) MatrixResult {
	ops := Operators()
	m := MatrixResult{Seed: seed, N: n, Operators: OperatorNames()}
	for _, p := range pairs {
		m.Pairs = append(m.Pairs, p.ID)
	}
	for _, e := range extractors {
		m.Extractors = append(m.Extractors, e.Name)
	}
	if len(pairs) == 0 || n < 1 {
		return m
	}
	jobs := plan(len(pairs), seed, n, len(ops))
	results := run(jobs, pairs, extractors, ops)

	newRow := func(name string) Row {
		r := Row{Operator: name, Cells: make([]Cell, len(extractors))}
		for i, e := range extractors {
			r.Cells[i].Extractor = e.Name
		}
		return r
	}
	m.Identity, m.SingleTotal, m.ComposedTotal, m.Total = newRow("identity"), newRow("total"), newRow("total"), newRow("total")
	for _, op := range ops {
		m.Single = append(m.Single, newRow(op.Name))
		m.Composed = append(m.Composed, newRow(op.Name))
	}
	index := map[string]int{}
	for i, op := range ops {
		index[op.Name] = i
	}
	for i, jb := range jobs {
		res := results[i]
		rows := []*Row{&m.Total}
		switch jb.op {
		case -1:
			rows = append(rows, &m.Identity)
		case -2:
			rows = append(rows, &m.ComposedTotal)
			for _, name := range res.ops {
				rows = append(rows, &m.Composed[index[name]])
			}
		default:
			rows = append(rows, &m.SingleTotal, &m.Single[jb.op])
		}
		for _, r := range rows {
			r.add(res)
		}
	}
	return m
}

func (r *Row) add(res result) {
	r.Samples++
	if res.ambiguous {
		r.Ambiguous++
	} else if res.found {
		r.Found++
	}
	for i, o := range res.outcomes {
		c := &r.Cells[i]
		c.Exact += b2i(o.Exact)
		c.Leaked += b2i(o.Leaked)
		c.Lost += b2i(o.Lost)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plan returns the jobs of a matrix over npairs pairs: n identity samples, n per operator,
// and n times nops composed ones, each with its seed drawn from seed in that order.
func plan(npairs int, seed int64, n, nops int) []job {
	master := newRand(seed)
	var jobs []job
	for i := range n {
		jobs = append(jobs, job{pair: i % npairs, seed: master.Int64(), op: -1})
	}
	for o := range nops {
		for i := range n {
			jobs = append(jobs, job{pair: i % npairs, seed: master.Int64(), op: o})
		}
	}
	for i := range n * nops {
		jobs = append(jobs, job{pair: i % npairs, seed: master.Int64(), op: -2, k: 2 + i%2})
	}
	return jobs
}

// Samples returns the number of samples Matrix and Responses make for n samples per
// operator (and a well-formed pair at least): n unchanged, n per operator alone, and n per
// operator composed.
func Samples(n int) int {
	if n < 1 {
		return 0
	}
	return n * (1 + 2*len(Operators()))
}

// PairsRead returns how many of npairs pairs Matrix(pairs, _, _, n) and Responses(pairs, _,
// n) read: the first ones, as pairs are used in turn. The texts of the others are never
// read (only their ids, in MatrixResult.Pairs), so a caller with many pairs may keep the
// texts of these first ones only.
func PairsRead(npairs, n int) int {
	if n < 1 {
		return 0
	}
	return min(npairs, n*max(1, len(Operators())))
}

// run makes and judges every job, in parallel; results[i] belongs to jobs[i].
func run(jobs []job, pairs []Pair, extractors []compact.Extractor, ops []Operator) []result {
	results := make([]result, len(jobs))
	parallel(len(jobs), func(i int) { results[i] = runJob(jobs[i], pairs, extractors, ops) })
	return results
}

// parallel calls f(0) ... f(n-1) on every core.
func parallel(n int, f func(i int)) { par.Do(n, f) }

func makeSample(jb job, pairs []Pair, ops []Operator) Sample {
	return sampleOf(jobDoc(jb, pairs, ops))
}

// jobDoc returns the document of jb's sample, as Mutate or MutateWith makes it, and its
// operators' names.
func jobDoc(jb job, pairs []Pair, ops []Operator) (*Doc, []string) {
	r := newRand(jb.seed)
	switch jb.op {
	case -1:
		return build(pairs[jb.pair], r, nil)
	case -2:
		return build(pairs[jb.pair], r, pickOps(r, jb.k))
	}
	return build(pairs[jb.pair], r, ops[jb.op:jb.op+1])
}

func runJob(jb job, pairs []Pair, extractors []compact.Extractor, ops []Operator) result {
	s := makeSample(jb, pairs, ops)
	j := newJudge(s)
	res := result{ops: s.Ops, ambiguous: s.Ambiguous, found: s.Intended.Found, outcomes: make([]Outcome, len(extractors))}
	// Extractors mostly agree: an extraction equal to an earlier one of this sample has its
	// outcome, without a second walk over its lines.
	got := make([]compact.Extraction, 0, len(extractors))
next:
	for i, e := range extractors {
		x := e.Extract(s.Response)
		for k, g := range got {
			if g.OK == x.OK && (!x.OK || g.Summary == x.Summary) {
				res.outcomes[i] = res.outcomes[k]
				got = append(got, x)
				continue next
			}
		}
		res.outcomes[i] = j.outcome(x)
		got = append(got, x)
	}
	return res
}

// Percent returns 100*k/n rounded, but never 0 for k > 0 nor 100 for k < n, so that a rare
// failure or success stays visible; 0 when n is 0. compacteval drift and the reports print
// the matrix with it.
func Percent(k, n int) int {
	if n == 0 {
		return 0
	}
	p := (200*k + n) / (2 * n)
	switch {
	case k > 0 && p == 0:
		return 1
	case k < n && p == 100:
		return 99
	}
	return p
}

// Responses returns every response Matrix(pairs, _, seed, n) extracts from, in the order
// Matrix makes them (the samples depend only on pairs, seed and n), so that an external
// extractor can be sent them ahead in batches.
func Responses(pairs []Pair, seed int64, n int) []string {
	if len(pairs) == 0 || n < 1 {
		return nil
	}
	jobs := plan(len(pairs), seed, n, len(Operators()))
	ops := Operators()
	out := make([]string, len(jobs))
	parallel(len(jobs), func(i int) { // the response alone: no intended summary, no analysis lines
		d, _ := jobDoc(jobs[i], pairs, ops)
		out[i] = d.response()
	})
	return out
}
