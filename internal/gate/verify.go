package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/report"
)

// ErrContradiction marks a report whose counts contradict its own rows (edited by hand,
// rows removed, a rate out of range): the gate never passes or blesses one.
var ErrContradiction = fmt.Errorf("%w: the report contradicts itself", ErrIncomparable)

// Verify recomputes from r's rows what can be recomputed and returns an error wrapping
// ErrContradiction that names each field that differs: every rate within [0, 1]; a
// complete report's stages; each extractor's cases, intended, intended_rate, golden
// counts and drift_exact against the case rows and the drift matrix; the drift rows'
// cells and totals; eval's totals against eval.cases. name says which report it is
// ("the run", "the baseline").
func Verify(name string, r *report.Report) error {
	v := &verifier{}
	v.stages(r)
	v.extractors(r)
	v.drift(r)
	v.eval(r)
	if len(v.bad) == 0 {
		return nil
	}
	more := ""
	if len(v.bad) > 5 {
		more = fmt.Sprintf("; and %d more", len(v.bad)-5)
		v.bad = v.bad[:5]
	}
	return fmt.Errorf("%w: %s: %s%s", ErrContradiction, name, strings.Join(v.bad, "; "), more)
}

type verifier struct{ bad []string }

func (v *verifier) add(format string, args ...any) {
	v.bad = append(v.bad, fmt.Sprintf(format, args...))
}

// count checks that field says got, as the rows say want.
func (v *verifier) count(field string, got, want int) {
	if got != want {
		v.add("%s is %d, the rows give %d", field, got, want)
	}
}

// rate checks that field is a share (within [0, 1]) and, when want is known, the share
// the rows give, rounded to four decimals as run writes it.
func (v *verifier) rate(field string, got float64, want float64, known bool) {
	switch {
	case math.IsNaN(got) || got < 0 || got > 1:
		v.add("%s is %g, not within [0, 1]", field, got)
	case known && got != round4(want):
		v.add("%s is %s, the rows give %s", field, f4(got), f4(round4(want)))
	}
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func (v *verifier) stages(r *report.Report) {
	if !r.Complete {
		return
	}
	for _, s := range []string{"extract", "drift", "eval"} {
		if !slices.Contains(r.Stages, s) {
			v.add("complete is true, but stages (%s) lack %s", strings.Join(r.Stages, ", "), s)
		}
	}
}

func (v *verifier) extractors(r *report.Report) {
	type tally struct{ cases, intended, golden, mismatches int }
	rows := map[string]*tally{}
	for _, e := range r.Extractors {
		if rows[e.Name] != nil {
			v.add("extractors lists %s twice", e.Name)
		}
		rows[e.Name] = &tally{}
	}
	for _, c := range r.Cases {
		for _, res := range c.Results {
			t := rows[res.Extractor]
			if t == nil {
				v.add("cases[%s] has a result of %s, which extractors does not list", c.ID, res.Extractor)
				rows[res.Extractor] = &tally{}
				continue
			}
			t.cases++
			if res.MatchesIntended {
				t.intended++
			}
			if res.Golden != "" {
				t.golden++
				if res.Golden != "match" {
					t.mismatches++
				}
			}
		}
	}
	if r.Selection.Empty() {
		v.count("corpus.cases", r.Corpus.Cases, len(r.Cases))
	}
	unambiguous := r.Drift.Total.Samples - r.Drift.Total.Ambiguous
	drifted := slices.Contains(r.Stages, "drift") && unambiguous > 0
	for i, e := range r.Extractors {
		t := rows[e.Name]
		f := fmt.Sprintf("extractors[%d] (%s).", i, e.Name)
		v.count(f+"cases", e.Cases, t.cases)
		v.count(f+"intended", e.Intended, t.intended)
		v.rate(f+"intended_rate", e.Rate, float64(t.intended)/float64(max(t.cases, 1)), t.cases > 0)
		v.count(f+"golden_checked", e.GoldenChecked, t.golden)
		v.count(f+"golden_mismatches", e.GoldenMismatches, t.mismatches)
		exact, ok := 0, false
		for _, c := range r.Drift.Total.Cells {
			if c.Extractor == e.Name {
				exact, ok = c.Exact, true
			}
		}
		v.rate(f+"drift_exact", e.DriftExact, float64(exact)/float64(max(unambiguous, 1)), drifted && ok)
		if drifted && !ok {
			v.add("%sdrift_exact: the drift matrix has no cell of %s", f, e.Name)
		}
	}
}

func (v *verifier) drift(r *report.Report) {
	d := r.Drift
	if !slices.Contains(r.Stages, "drift") {
		return
	}
	check := func(field string, row drift.Row) {
		if len(row.Cells) != len(d.Extractors) && row.Samples > 0 { // a selection may have no samples
			v.add("drift.%s has %d cells for %d extractors", field, len(row.Cells), len(d.Extractors))
		}
		if row.Ambiguous < 0 || row.Ambiguous > row.Samples || row.Found < 0 || row.Found > row.Samples-row.Ambiguous {
			v.add("drift.%s: ambiguous %d and intended_found %d do not fit in %d samples", field, row.Ambiguous, row.Found, row.Samples)
		}
		for _, c := range row.Cells {
			if c.Exact < 0 || c.Exact > row.Samples-row.Ambiguous || c.Leaked < 0 || c.Leaked > row.Samples || c.Lost < 0 || c.Lost > row.Found {
				v.add("drift.%s cell of %s: exact %d, analysis_leaked %d, summary_lost %d do not fit in the row", field, c.Extractor, c.Exact, c.Leaked, c.Lost)
			}
		}
	}
	check("identity", d.Identity)
	check("single_total", d.SingleTotal)
	check("composed_total", d.ComposedTotal)
	check("total", d.Total)
	single := 0
	for i, row := range d.Single {
		check(fmt.Sprintf("single[%d]", i), row)
		single += row.Samples
	}
	for i, row := range d.Composed {
		check(fmt.Sprintf("composed[%d]", i), row)
	}
	v.count("drift.single_total.samples", d.SingleTotal.Samples, single)
	v.count("drift.total.samples", d.Total.Samples, d.Identity.Samples+d.SingleTotal.Samples+d.ComposedTotal.Samples)
	for i := range d.Total.Cells {
		if i >= len(d.Identity.Cells) || i >= len(d.SingleTotal.Cells) || i >= len(d.ComposedTotal.Cells) {
			break
		}
		want := d.Identity.Cells[i].Exact + d.SingleTotal.Cells[i].Exact + d.ComposedTotal.Cells[i].Exact
		v.count(fmt.Sprintf("drift.total.cells[%d] (%s).exact", i, d.Total.Cells[i].Extractor), d.Total.Cells[i].Exact, want)
	}
}

func (v *verifier) eval(r *report.Report) {
	if !slices.Contains(r.Stages, "eval") {
		return
	}
	sources := 0
	for _, s := range r.Eval.Sources {
		sources += s.Cases
	}
	v.count("eval.sources[].cases (their sum)", sources, len(r.Eval.Cases))
	got, err1 := json.Marshal(r.Eval.Totals)
	want, err2 := json.Marshal(eval.Total(r.Eval.Cases))
	if err := errors.Join(err1, err2); err != nil {
		v.add("eval.totals: %v", err)
		return
	}
	if bytes.Equal(got, want) {
		return
	}
	var g, w map[string]json.RawMessage
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal(want, &w)
	// A baseline's cases lose their misattributed facts (Slim), not the total of them.
	slim := !slices.ContainsFunc(r.Eval.Cases, func(c eval.Result) bool { return len(c.Misattributed) > 0 })
	var fields []string
	for k := range w {
		if !bytes.Equal(g[k], w[k]) && !(k == "misattributed" && slim) {
			fields = append(fields, k)
		}
	}
	if len(fields) == 0 {
		return
	}
	slices.Sort(fields)
	v.add("eval.totals (%s) differ from what the %d eval.cases give", strings.Join(fields, ", "), len(r.Eval.Cases))
}

// DuplicateKeys returns an error naming the first JSON object key that appears twice in
// one object of data (encoding/json keeps the last silently), with its path
// ("eval.totals.cases"), or nil.
func DuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				p := k
				if path != "" {
					p = path + "." + k
				}
				if seen[k] {
					return fmt.Errorf("%w: key %s appears twice", ErrContradiction, p)
				}
				seen[k] = true
				if err := walk(p); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk(""); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
