package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/report"
)

// troubleRow is one case and extractor with problems: every problem of that pair, so that
// a case that breaks shows once per extractor, not once per problem. A problem without an
// extractor (a case file that did not load) is a row of its own.
type troubleRow struct {
	Case, Extractor string
	// Kinds are the problem kinds, in report order; Details their texts.
	Kinds, Details []string
	// PathOnly is true when every problem is a golden mismatch whose ok and summary are
	// the golden's byte for byte: the path that decided changed, not the behaviour.
	PathOnly bool
	// c and res are the case and result the row is about; nil when the report has none.
	c   *report.Case
	res *report.Result
}

// troubleRows groups r.Problems by case and extractor, in the order of their first problem.
// It reads the cases once and keeps those that have a problem.
func troubleRows(r *report.Report) ([]troubleRow, error) {
	cases := map[string]*report.Case{}
	for _, p := range r.Problems {
		cases[p.Case] = nil
	}
	for c, err := range r.AllCases() {
		if err != nil {
			return nil, err
		}
		if _, ok := cases[c.ID]; ok {
			cases[c.ID] = c
		}
	}
	var rows []troubleRow
	index := map[[2]string]int{}
	for _, p := range r.Problems {
		k := [2]string{p.Case, p.Extractor}
		i, ok := index[k]
		if !ok || p.Extractor == "" {
			i = len(rows)
			index[k] = i
			row := troubleRow{Case: p.Case, Extractor: p.Extractor, PathOnly: true, c: cases[p.Case]}
			if row.c != nil {
				for j := range row.c.Results {
					if row.c.Results[j].Extractor == p.Extractor {
						row.res = &row.c.Results[j]
					}
				}
			}
			rows = append(rows, row)
		}
		row := &rows[i]
		row.Kinds = append(row.Kinds, p.Kind)
		row.Details = append(row.Details, p.Detail)
		row.PathOnly = row.PathOnly && p.Kind == "golden-mismatch" && row.res != nil && row.res.PathOnly
	}
	return rows, nil
}

// verdict is what a reader must see first: whether the run passed and, if not, how much
// broke, split into behaviour changes and path-only changes per extractor.
type verdict struct {
	// Status is passed, regressed (a result got worse, a golden differs or a file did not
	// load), improved (only listed deviations that no longer happen), paths (only paths
	// changed) or incomplete (no problem, but the report is not Complete).
	Status   string
	Headline string
	// Lines break the problems down by extractor, or say why the run passed.
	Lines []string
	// Problems counts r.Problems, Cases the distinct cases they are about; Behaviour and
	// Paths count the rows of each sort.
	Problems, Cases  int
	Behaviour, Paths int
}

// newVerdict computes the verdict of r from its problems and stages alone.
func newVerdict(r *report.Report, rows []troubleRow) verdict {
	v := verdict{Problems: len(r.Problems)}
	cases := map[string]bool{}
	type tally struct {
		behaviour, paths int
		kinds            map[string]int
		order            []string
	}
	per := map[string]*tally{}
	var order []string
	worse := false // a row has a problem other than a deviation that stopped happening
	for _, row := range rows {
		cases[row.Case] = true
		name := row.Extractor
		t := per[name]
		if t == nil {
			t = &tally{kinds: map[string]int{}}
			per[name] = t
			order = append(order, name)
		}
		if row.PathOnly {
			t.paths++
			v.Paths++
			continue
		}
		t.behaviour++
		v.Behaviour++
		for _, k := range row.Kinds {
			worse = worse || k != "stale-deviation"
			if t.kinds[k] == 0 {
				t.order = append(t.order, k)
			}
			t.kinds[k]++
		}
	}
	for _, t := range per {
		slices.SortStableFunc(t.order, func(a, b string) int { return kindRank(a) - kindRank(b) })
	}
	v.Cases = len(cases)
	missing := missingStages(r)
	switch {
	case v.Problems == 0 && !r.Complete:
		v.Status = "incomplete"
		v.Headline = "Incomplete: no problems in what ran"
		v.Lines = append(v.Lines, fmt.Sprintf("Stages that did not run: %s. A partial report never passes the gate.", strings.Join(missing, ", ")))
	case v.Problems == 0:
		v.Status, v.Headline = "passed", "Passed: no problems"
		builtin := false
		for _, e := range r.Extractors {
			builtin = builtin || !e.External
		}
		switch {
		case builtin && containsStage(r.Stages, "golden"):
			v.Lines = append(v.Lines, "Every golden file matches, and every deviation from intended is listed in known_deviations.")
		case builtin:
			v.Lines = append(v.Lines, "Every deviation from intended is listed in known_deviations; the corpus has no golden files to compare.")
		default:
			v.Lines = append(v.Lines, "None of the run itself: a module or command has no goldens and no known_deviations; compacteval gate compares it with the baseline it blessed.")
		}
	case v.Behaviour == 0:
		v.Status = "paths"
		v.Headline = fmt.Sprintf("Not passed: %s in %s, no behaviour change", plural(v.Problems, "problem", "problems"), plural(v.Cases, "case", "cases"))
	case !worse:
		v.Status = "improved"
		v.Headline = fmt.Sprintf("Not passed: %s in %s, none a regression", plural(v.Problems, "problem", "problems"), plural(v.Cases, "case", "cases"))
	default:
		v.Status = "regressed"
		v.Headline = fmt.Sprintf("Regressed: %s in %s", plural(v.Problems, "problem", "problems"), plural(v.Cases, "case", "cases"))
	}
	if sel := r.Selection; !sel.Empty() {
		v.Lines = append([]string{fmt.Sprintf("On a selection of %s: the gate compares these cases only.", sel)}, v.Lines...)
	}
	for _, name := range order {
		t := per[name]
		who := name
		if who == "" {
			who = "corpus"
		}
		if t.behaviour > 0 {
			var ks []string
			for _, k := range t.order {
				ks = append(ks, kindText(k, t.kinds[k]))
			}
			what := verb(t.behaviour, "changes behaviour", "change behaviour")
			if name == "" {
				what = "did not load"
			}
			v.Lines = append(v.Lines, fmt.Sprintf("%s: %s %s (%s).", who, plural(t.behaviour, "case", "cases"), what, strings.Join(ks, ", ")))
		}
		if t.paths > 0 {
			v.Lines = append(v.Lines, fmt.Sprintf("%s: %s %s only the path that decided; the summary is the golden's byte for byte, not a behaviour change.", who, plural(t.paths, "case", "cases"), verb(t.paths, "changes", "change")))
		}
	}
	return v
}

// missingStages are the stages of a complete run that r lacks.
func missingStages(r *report.Report) []string {
	var out []string
	for _, s := range allStages {
		if !containsStage(r.Stages, s) {
			out = append(out, s)
		}
	}
	return out
}

// kindRank orders problem kinds from the worst: a behaviour that stopped matching first.
func kindRank(kind string) int {
	for i, k := range []string{"unlisted-deviation", "golden-mismatch", "golden-missing", "stale-deviation", "load-error"} {
		if k == kind {
			return i
		}
	}
	return 99
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// kindText names n problems of kind for people: "3 golden mismatches".
func kindText(kind string, n int) string {
	one, many := kind, kind
	switch kind {
	case "golden-mismatch":
		one, many = "golden mismatch", "golden mismatches"
	case "golden-missing":
		one, many = "golden file missing", "golden files missing"
	case "unlisted-deviation":
		one, many = "unlisted deviation", "unlisted deviations"
	case "stale-deviation":
		one, many = "stale deviation", "stale deviations"
	case "load-error":
		one, many = "load error", "load errors"
	}
	return plural(n, one, many)
}

// kindLabel is a problem kind as a badge says it.
func kindLabel(kind string) string {
	s := kindText(kind, 1)
	return strings.TrimPrefix(s, "1 ")
}

// referenceNote and referenceGate explain the reference extractors wherever they appear.
const (
	referenceNote = "other agents' formatters that do not aim at the intended summary, reported for comparison; their low rates are by design, not failures"
	referenceGate = "The gate.yaml of compacteval's own repository does not hold their rates; their goldens are still checked."
)

// referenceWho names the reference extractors: "claude-code and plain are reference behaviours".
func referenceWho(names []string) string {
	if len(names) == 1 {
		return names[0] + " is a reference behaviour"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " are reference behaviours"
}
