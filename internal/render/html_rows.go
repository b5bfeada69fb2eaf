package render

import (
	"strings"

	"github.com/compacteval/compacteval/report"
)

// rowView is a case and extractor with problems, as the regressions section shows it: one
// line with the kinds of trouble as badges, then the intended summary against the output.
type rowView struct {
	Case, Extractor, Anchor string
	// CaseAnchor is the case's section among the known deviations, "" when it has none.
	CaseAnchor string
	Badges     []badgeView
	// Path is the path that decided, GoldenPath the one the golden records ("" when the
	// golden was not compared or records the same).
	Path, GoldenPath string
	Reason           string // the case's known_deviations entry for the extractor
	Reference        bool
	Title, Origin    string
	Categories       []string
	IntendedFound    bool
	// Matches is true when the output is the intended result (a stale deviation).
	Matches bool
	// Output is the diff of intended against the output; nil when the report keeps no
	// output for the pair (a file that did not load, a missing golden).
	Output   *outputView
	Details  []string // problem texts without a case of their own (a load error)
	Response responseView
}

type badgeView struct {
	Kind, Label, Detail string
}

// pathRowView is a golden mismatch in the path alone.
type pathRowView struct {
	Case, Extractor, Anchor string
	Path, GoldenPath        string
	Bytes                   int
}

// responseView is a case's response, shown collapsed.
type responseView struct {
	Text         string
	Bytes, Lines int
}

func newResponseView(c *report.Case) responseView {
	return responseView{Text: strings.ToValidUTF8(c.Response, "\uFFFD"), Bytes: len(c.Response), Lines: len(splitLines(c.Response))}
}

// newRowViews splits rows into those that change behaviour and those that change only the
// path, each with an anchor of its own.
func newRowViews(r *report.Report, rows []troubleRow, caseAnchor map[string]string) ([]rowView, []pathRowView) {
	keys := make([]string, len(rows))
	for i, row := range rows {
		keys[i] = row.Case + "/" + row.Extractor
	}
	ids := anchors("row-", keys)
	ref := map[string]bool{}
	for _, e := range r.Extractors {
		ref[e.Name] = e.Reference != ""
	}
	var out []rowView
	var paths []pathRowView
	for i, row := range rows {
		if row.PathOnly {
			pv := pathRowView{Case: row.Case, Extractor: row.Extractor, Anchor: ids[keys[i]], Path: row.res.Path, GoldenPath: row.res.GoldenPath}
			if row.res.Summary != nil {
				pv.Bytes = len(*row.res.Summary)
			}
			paths = append(paths, pv)
			continue
		}
		v := rowView{Case: row.Case, Extractor: row.Extractor, Anchor: ids[keys[i]], CaseAnchor: caseAnchor[row.Case], Reference: ref[row.Extractor]}
		for j, k := range row.Kinds {
			v.Badges = append(v.Badges, badgeView{Kind: k, Label: kindLabel(k), Detail: row.Details[j]})
		}
		if c := row.c; c != nil {
			v.Title, v.Origin, v.Categories, v.IntendedFound = c.Title, c.Origin, c.Categories, c.IntendedFound
			if c.Response != "" {
				v.Response = newResponseView(c)
			}
		}
		if res := row.res; res != nil {
			v.Path, v.Reason, v.Matches = res.Path, res.KnownDeviation, res.MatchesIntended
			if res.GoldenPath != res.Path {
				v.GoldenPath = res.GoldenPath
			}
			if res.Summary != nil {
				o := newOutputView(*row.c, *res)
				v.Output = &o
			}
		} else {
			v.Details = row.Details
		}
		out = append(out, v)
	}
	return out, paths
}
