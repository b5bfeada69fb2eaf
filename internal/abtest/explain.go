package abtest

import (
	"cmp"
	"math"
	"slices"
)

// Directions of an input's headline score, head against base.
const (
	Up        = "up"
	Down      = "down"
	Unchanged = "unchanged"
)

// Direction returns which way the input's headline score went from base to head: Up,
// Down, or Unchanged (also when a side has no score).
func (in InputResult) Direction() string {
	switch d := in.Delta[MeasureScore]; {
	case d > 0:
		return Up
	case d < 0:
		return Down
	}
	return Unchanged
}

// Changed reports whether any measure of the input moved.
func (in InputResult) Changed() bool {
	for _, d := range in.Delta {
		if d != 0 {
			return true
		}
	}
	return false
}

// Means returns base's and head's mean of a measure over their samples; ok is false for a
// side that has none.
func (in InputResult) Means(m string) (base, head float64, okBase, okHead bool) {
	base, okBase = mean(in.Base, m)
	head, okHead = mean(in.Head, m)
	return base, head, okBase, okHead
}

// Counts returns how many inputs' headline score went up, down, or stayed.
func (r *Result) Counts() (up, down, unchanged int) {
	for _, in := range r.Inputs {
		switch in.Direction() {
		case Up:
			up++
		case Down:
			down++
		default:
			unchanged++
		}
	}
	return up, down, unchanged
}

// Moved returns the inputs that changed on any measure, those whose headline score moved
// most first, then those that moved most on coverage and boundary coverage (ties in input
// order); at most n of them (n < 0: all).
func (r *Result) Moved(n int) []InputResult {
	var moved []InputResult
	for _, in := range r.Inputs {
		if in.Changed() {
			moved = append(moved, in)
		}
	}
	rest := func(in InputResult) float64 {
		return math.Abs(in.Delta[MeasureCoverage]) + math.Abs(in.Delta[MeasureBoundary])
	}
	slices.SortStableFunc(moved, func(a, b InputResult) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Delta[MeasureScore]), math.Abs(a.Delta[MeasureScore])), cmp.Compare(rest(b), rest(a)))
	})
	if n >= 0 && n < len(moved) {
		moved = moved[:n]
	}
	return moved
}

// FactChange is a fact that one side's summaries hold more often than the other's: Base
// and Head are the shares of each side's samples that hold it. Measure is coverage (the
// summary as a whole) or boundary_coverage (its recent part, of the facts of the boundary
// window).
type FactChange struct {
	Measure string `json:"measure"`
	Fact
	Base float64 `json:"base"`
	Head float64 `json:"head"`
}

// Gain is head's share minus base's: above zero a fact gained, below it one lost.
func (c FactChange) Gain() float64 { return c.Head - c.Base }

// FactChanges returns the facts whose share of samples holding them differs between the
// sides, for coverage and for boundary coverage: gained (head holds it more often) and
// lost. Each list is ordered by how much the fact moves the score (weight times the change
// of share), then by measure, kind and text.
func (in InputResult) FactChanges() (gained, lost []FactChange) {
	type key struct{ measure, kind, text string }
	type count struct {
		fact      Fact
		base, hed int // samples holding it
	}
	counts := map[key]*count{}
	var order []key
	add := func(k key, f Fact) *count {
		c, ok := counts[k]
		if !ok {
			c = &count{fact: f}
			counts[k] = c
			order = append(order, k)
		}
		return c
	}
	// Coverage: a fact is held by every sample that does not list it as missed.
	missed := func(samples []SampleResult, side int) {
		for _, s := range samples {
			for _, f := range s.Missed {
				c := add(key{MeasureCoverage, f.Kind, f.Text}, f)
				if side == 0 {
					c.base-- // counted down from the number of samples below
				} else {
					c.hed--
				}
			}
		}
	}
	missed(in.Base, 0)
	missed(in.Head, 1)
	for _, k := range order {
		counts[k].base += len(in.Base)
		counts[k].hed += len(in.Head)
	}
	for side, samples := range [][]SampleResult{in.Base, in.Head} {
		for _, s := range samples {
			for _, f := range s.Boundary {
				c := add(key{MeasureBoundary, f.Kind, f.Text}, f.Fact)
				if f.Held && side == 0 {
					c.base++
				} else if f.Held {
					c.hed++
				}
			}
		}
	}
	for _, k := range order {
		c := counts[k]
		fc := FactChange{Measure: k.measure, Fact: c.fact, Base: share(c.base, len(in.Base)), Head: share(c.hed, len(in.Head))}
		switch {
		case fc.Gain() > 0:
			gained = append(gained, fc)
		case fc.Gain() < 0:
			lost = append(lost, fc)
		}
	}
	byMove := func(a, b FactChange) int {
		ma, mb := math.Abs(a.Gain())*max(a.Weight, 1e-9), math.Abs(b.Gain())*max(b.Weight, 1e-9)
		return cmp.Or(cmp.Compare(mb, ma), cmp.Compare(a.Measure, b.Measure), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Text, b.Text))
	}
	slices.SortFunc(gained, byMove)
	slices.SortFunc(lost, byMove)
	return gained, lost
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}
