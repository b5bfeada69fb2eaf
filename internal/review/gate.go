package review

import (
	"fmt"

	"github.com/compacteval/compacteval/internal/gate"
)

// regressions returns what fails the review under cfg, with the gate's thresholds:
//
//   - a profile whose cases moved away from intended number more than
//     allowed_drop.intended_cases (or the profile's own intended_cases): each such case;
//   - a profile's exact share over all drift samples fell by more than drift_exact;
//   - an eval case's coverage or boundary coverage fell by more than case_coverage or
//     case_boundary_coverage, or their means by more than coverage or boundary_coverage.
//
// Text changes never fail a review: they are for the reviewer to read.
func regressions(r *Review, cfg gate.Config) []gate.Regression {
	out := []gate.Regression{}
	for _, ec := range r.Extractors {
		if ec.Away <= ec.AllowedAway {
			continue
		}
		for _, cat := range ec.Categories {
			for _, c := range cat.Cases {
				if c.Direction == Away {
					out = append(out, gate.Regression{
						Case: c.ID, Metric: ec.Name + " intended", Was: "pass", Now: "fail",
						Allowed: fmt.Sprintf("%d cases moved away, %d allowed", ec.Away, ec.AllowedAway),
					})
				}
			}
		}
	}
	if d := r.Drift; d != nil {
		all := d.Rows[len(d.Rows)-1]
		n := all.Samples - all.Ambiguous
		for _, c := range all.Cells {
			allowed := cfg.AllowedDrop.DriftExact
			if o, ok := cfg.Extractors[c.Extractor]; ok && o.DriftExact != nil {
				allowed = *o.DriftExact
			}
			if n > 0 {
				out = share(out, "(drift)", c.Extractor+" drift_exact", float64(c.BaseExact)/float64(n), float64(c.HeadExact)/float64(n), allowed)
			}
		}
	}
	if e := r.Eval; e != nil {
		d := cfg.AllowedDrop
		for _, c := range e.Cases {
			if b, ok := c.Coverage.Base.Value(); ok {
				h, _ := c.Coverage.Head.Value()
				out = share(out, c.ID, "coverage", b, h, d.CaseCoverage)
			}
			if b, ok := c.BoundaryCoverage.Base.Value(); ok {
				h, _ := c.BoundaryCoverage.Head.Value()
				out = share(out, c.ID, "boundary_coverage", b, h, d.CaseBoundaryCoverage)
			}
		}
		if m := e.Coverage; m.Base != nil {
			out = share(out, "(eval)", "coverage", *m.Base, deref64(m.Head), d.Coverage)
		}
		if m := e.BoundaryCoverage; m.Base != nil {
			out = share(out, "(eval)", "boundary_coverage", *m.Base, deref64(m.Head), d.BoundaryCoverage)
		}
	}
	return out
}

// share adds a regression when now fell more than allowed below was, as the gate compares.
func share(out []gate.Regression, caseID, metric string, was, now, allowed float64) []gate.Regression {
	if now < was-allowed-1e-9 {
		out = append(out, gate.Regression{Case: caseID, Metric: metric, Was: f4(was), Now: f4(now), Allowed: "allowed drop " + f4(allowed)})
	}
	return out
}

func f4(x float64) string { return fmt.Sprintf("%.4f", x) }

func deref64(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
