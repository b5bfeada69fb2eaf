package gate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Table is a list of regressions arranged for a reader: the totals (rates, drift, eval
// means) one per line, and the case regressions grouped by extractor with one row per case,
// every check the case failed listed in it and the allowance of each check said once for
// the group.
type Table struct {
	// Totals are the regressions of a whole run: "(all)", "(eval)" and "(extractors)".
	Totals []Regression
	Groups []Group
}

// Group holds the case rows of one extractor, of the eval cases or of the corpus (removed
// and new cases).
type Group struct {
	// Name is the extractor, "eval cases" or "corpus".
	Name   string
	Limits []Limit
	Rows   []Row
}

// Limit is the allowance shared by the regressions of some checks in a group, such as
// "allowed 0 of 18 lost cases" for intended.
type Limit struct {
	Checks  []string
	Allowed string
}

// Row is one case of a group: the checks it failed, and what they were and are now as
// short values ("pass", "0.9268"), one per check that has its own.
type Row struct {
	Case     string
	Checks   []string
	Was, Now string
}

// Cases counts the rows of every group.
func (t Table) Cases() int {
	n := 0
	for _, g := range t.Groups {
		n += len(g.Rows)
	}
	return n
}

// Summary counts what failed in a line: "2 totals, 18 cases of seed, 1 eval case".
func (t Table) Summary() string {
	var parts []string
	if len(t.Totals) > 0 {
		parts = append(parts, plural(len(t.Totals), "total"))
	}
	for _, g := range t.Groups {
		switch g.Name {
		case GroupEval:
			parts = append(parts, plural(len(g.Rows), "eval case"))
		case GroupCorpus:
			parts = append(parts, plural(len(g.Rows), "corpus case"))
		default:
			parts = append(parts, fmt.Sprintf("%s of %s", plural(len(g.Rows), "case"), g.Name))
		}
	}
	return strings.Join(parts, ", ")
}

// Group names that are not extractors.
const (
	GroupEval   = "eval cases"
	GroupCorpus = "corpus"
)

// problemValues are the short values of the run's problems, whose Now is a sentence.
var problemValues = map[string][2]string{
	"golden-mismatch":    {"golden", "differs"},
	CheckPathOnly:        {"golden", "path only"},
	"golden-missing":     {"golden", "missing"},
	"unlisted-deviation": {"intended", "deviates"},
	"stale-deviation":    {"deviates", "intended"},
	"load-error":         {"loads", "error"},
}

// checkRank orders the checks of a row: those with values of their own first, the run's
// problems (which follow from them) last.
func checkRank(check string) int {
	switch check {
	case "must_pass":
		return 1
	case "boundary_coverage":
		return 1
	}
	if _, ok := problemValues[check]; ok {
		return 2
	}
	return 0
}

// Arrange arranges regressions (in Check's order) as a Table. Groups come in the order of
// their names, extractors first, then eval cases, then the corpus; rows in the order of
// their cases.
func Arrange(regs []Regression) Table {
	var t Table
	groups := map[string]*Group{}
	rows := map[[2]string]int{} // group and case -> index in its group's Rows
	cases := map[[2]string][]Regression{}
	for _, r := range regs {
		if strings.HasPrefix(r.Case, "(") {
			t.Totals = append(t.Totals, r)
			continue
		}
		name := r.Extractor
		switch {
		case name != "":
		case r.Family == famCaseCoverage || r.Family == famCaseBoundary:
			name = GroupEval
		default:
			name = GroupCorpus
		}
		g, ok := groups[name]
		if !ok {
			g = &Group{Name: name}
			groups[name] = g
		}
		key := [2]string{name, r.Case}
		if _, ok := rows[key]; !ok {
			rows[key] = len(g.Rows)
			g.Rows = append(g.Rows, Row{Case: r.Case})
		}
		cases[key] = append(cases[key], r)
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	order := func(name string) int {
		switch name {
		case GroupEval:
			return 1
		case GroupCorpus:
			return 2
		}
		return 0
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(order(a), order(b)), cmp.Compare(a, b)) })
	for _, name := range names {
		g := groups[name]
		var limits []Limit
		for i := range g.Rows {
			regs := cases[[2]string{name, g.Rows[i].Case}]
			slices.SortStableFunc(regs, func(a, b Regression) int { return cmp.Compare(checkRank(a.Check), checkRank(b.Check)) })
			g.Rows[i] = row(g.Rows[i].Case, regs)
			for _, r := range regs {
				limits = addLimit(limits, r.Check, r.Allowed)
			}
		}
		slices.SortStableFunc(limits, func(a, b Limit) int { return cmp.Compare(checkRank(a.Checks[0]), checkRank(b.Checks[0])) })
		g.Limits = limits
		t.Groups = append(t.Groups, *g)
	}
	return t
}

// row makes the row of a case from its regressions, sorted by checkRank.
func row(id string, regs []Regression) Row {
	r := Row{Case: id}
	var was, now []string
	seen := map[[2]string]bool{}
	add := func(w, n string) {
		if !seen[[2]string{w, n}] {
			seen[[2]string{w, n}] = true
			was, now = append(was, w), append(now, n)
		}
	}
	hasIntended := false
	for _, reg := range regs {
		r.Checks = appendNew(r.Checks, reg.Check)
		_, problem := problemValues[reg.Check]
		switch {
		case problem:
		case reg.Check == "must_pass" && hasIntended:
			// "must pass -> fail" says again what "pass -> fail" said.
		default:
			hasIntended = hasIntended || reg.Check == "intended"
			add(reg.Was, reg.Now)
		}
	}
	if len(was) == 0 && len(regs) > 0 {
		v := problemValues[regs[0].Check]
		add(v[0], v[1])
	}
	r.Was, r.Now = strings.Join(was, ", "), strings.Join(now, ", ")
	return r
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// addLimit records that check is allowed what allowed says, merging checks that share it.
func addLimit(limits []Limit, check, allowed string) []Limit {
	for i, l := range limits {
		if l.Allowed == allowed {
			limits[i].Checks = appendNew(l.Checks, check)
			return limits
		}
	}
	return append(limits, Limit{Checks: []string{check}, Allowed: allowed})
}

// TotalName names a total for a table: its metric, with "eval" before the eval means.
func TotalName(r Regression) string {
	if r.Case == "(eval)" {
		return "eval " + r.Metric
	}
	return r.Metric
}
