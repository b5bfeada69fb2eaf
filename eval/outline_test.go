package eval

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/google/go-cmp/cmp"
)

// The nine titles in French, as a translated instruction names them.
var frenchTitles = [9]string{
	"Demande principale et intention", "Concepts techniques clés", "Fichiers et sections de code",
	"Erreurs et corrections", "Résolution de problèmes", "Tous les messages de l'utilisateur",
	"Tâches en attente", "Travail en cours", "Prochaine étape facultative",
}

// An edit of the instruction's section titles and the same edit of a summary written to it.
type titleEdit struct {
	name string
	// instruction edits compact.Instruction; summary a summary's heading lines (those of
	// a nine-section section n) and the lines under them.
	instruction func(string) string
	summary     func(string) (string, bool)
}

// renameIn replaces the title of section n by title on the numbered lines of s that name it.
func renameIn(s string, n int, title string) string {
	re := regexp.MustCompile(`(?mi)^([ \t#*]*` + fmt.Sprint(n) + `\.[ \t*]*)` + regexp.QuoteMeta(SectionNames[n-1]))
	return re.ReplaceAllString(s, "${1}"+title)
}

// renameHeadings renames the headings of the sections in titles (section -> title) of a
// nine-section summary; false when a heading does not spell its title as SectionNames does.
func renameHeadings(summary string, titles map[int]string) (string, bool) {
	lines := strings.Split(summary, "\n")
	done := map[int]bool{}
	for i, l := range lines {
		n := sectionOf(strings.TrimSpace(l))
		title, ok := titles[n]
		if !ok {
			continue
		}
		j := strings.Index(strings.ToLower(l), strings.ToLower(SectionNames[n-1]))
		if j < 0 {
			return "", false
		}
		lines[i] = l[:j] + title + l[j+len(SectionNames[n-1]):]
		done[n] = true
	}
	return strings.Join(lines, "\n"), len(done) == len(titles)
}

const mergedTitle = "Errors, fixes and problem solving"

var titleEdits = []titleEdit{
	{
		name:        "section 8 in French",
		instruction: func(s string) string { return renameIn(s, 8, frenchTitles[7]) },
		summary: func(s string) (string, bool) {
			return renameHeadings(s, map[int]string{8: frenchTitles[7]})
		},
	},
	{
		name: "every title in French",
		instruction: func(s string) string {
			for n := 1; n <= 9; n++ {
				s = renameIn(s, n, frenchTitles[n-1])
			}
			return s
		},
		summary: func(s string) (string, bool) {
			titles := map[int]string{}
			for n := 1; n <= 9; n++ {
				titles[n] = frenchTitles[n-1]
			}
			return renameHeadings(s, titles)
		},
	},
	{
		name: "sections 4 and 5 merged",
		instruction: func(s string) string {
			s = renameIn(s, 4, mergedTitle)
			s = regexp.MustCompile(`(?m)^5\. Problem Solving:.*\n(\n)?`).ReplaceAllString(s, "")
			for n := 6; n <= 9; n++ {
				s = regexp.MustCompile(`(?m)^`+fmt.Sprint(n)+`\. `+regexp.QuoteMeta(SectionNames[n-1])).ReplaceAllString(s, fmt.Sprint(n-1)+". "+SectionNames[n-1])
			}
			return s
		},
		summary: func(s string) (string, bool) {
			lines := strings.Split(s, "\n")
			var out []string
			merged := false
			for _, l := range lines {
				switch sectionOf(strings.TrimSpace(l)) {
				case 5:
					merged = true
					continue // its lines now follow section 4's
				case 4:
					j := strings.Index(strings.ToLower(l), strings.ToLower(SectionNames[3]))
					if j < 0 {
						return "", false
					}
					l = l[:j] + mergedTitle + l[j+len(SectionNames[3]):]
				}
				out = append(out, l)
			}
			return strings.Join(out, "\n"), merged
		},
	},
	{
		name: "sections 8 and 9 renamed to new English titles",
		instruction: func(s string) string {
			return renameIn(renameIn(s, 8, "State of the task"), 9, "What to do now")
		},
		summary: func(s string) (string, bool) {
			return renameHeadings(s, map[int]string{8: "State of the task", 9: "What to do now"})
		},
	},
}

func TestParseOutline(t *testing.T) {
	base := ParseOutline(compact.Instruction)
	if base == nil || len(base.Parts) != 9 {
		t.Fatalf("ParseOutline(compact.Instruction) = %+v, want nine parts", base)
	}
	for i, p := range base.Parts {
		if p.Number != i+1 || p.Title != SectionNames[i] || fmt.Sprint(p.Sections) != fmt.Sprint([]int{i + 1}) || p.ByNumber {
			t.Errorf("part %d = %+v, want number %d, title %q, section %d by its title", i, p, i+1, SectionNames[i], i+1)
		}
	}
	for _, tc := range []struct {
		name        string
		instruction string
		sections    [][]int // each part's
		unknown     int
	}{
		{name: "section 8 in French: its number", instruction: titleEdits[0].instruction(compact.Instruction),
			sections: [][]int{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}}},
		{name: "merged: both sections, the rest by title", instruction: titleEdits[2].instruction(compact.Instruction),
			sections: [][]int{{1}, {2}, {3}, {4, 5}, {6}, {7}, {8}, {9}}},
		{name: "reordered: by title", instruction: "1. Current Work: now\n2. Primary Request and Intent: what\n3. Optional Next Step: then\n",
			sections: [][]int{{8}, {1}, {9}}},
		{name: "section 8 taken out: a gap in the numbers", instruction: "1. Primary Request and Intent: a\n2. Pending Tasks: b\n4. Optional Next Step: c\n",
			sections: [][]int{{1}, {7}, {9}}},
		{name: "an outline of its own: no part placed by its number", instruction: "1. Current Work: now\n2. Ce qui reste: then\n",
			sections: [][]int{{8}, {}}, unknown: 1},
		{name: "unknown title on a number another part claims: unknown", instruction: "1. Goals: a\n2. Files and Code Sections: b\n3. Pending tasks: c\n4. Errors: d\n7. Sonstiges: e\n",
			sections: [][]int{{1}, {3}, {7}, {4}, {}}, unknown: 1},
		{name: "a new section described in English: known, older work", instruction: strings.Replace(compact.Instruction, "9. Optional Next Step:", "10. Security Constraints: List the constraints the user stated.\n9. Optional Next Step:", 1),
			sections: [][]int{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {}, {9}}},
		{name: "a tenth section: unknown", instruction: strings.Replace(compact.Instruction, "9. Optional Next Step:", "10. Où on en est: décrivez l'état du travail.\n9. Optional Next Step:", 1),
			sections: [][]int{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {}, {9}}, unknown: 1},
	} {
		o := ParseOutline(tc.instruction)
		var got [][]int
		for _, p := range o.Parts {
			got = append(got, p.Sections)
		}
		if diff := cmp.Diff(tc.sections, got); diff != "" {
			t.Errorf("%s: sections mismatch (-want +got):\n%s", tc.name, diff)
		}
		if tc.name == "a new section described in English: known, older work" && (o.Parts[8].Recent || !o.Parts[8].Known) {
			t.Errorf("%s: %+v, want known and not recent", tc.name, o.Parts[8])
		}
		if len(o.Unknown()) != tc.unknown {
			t.Errorf("%s: Unknown() = %v, want %d parts", tc.name, o.Unknown(), tc.unknown)
		}
	}
	o := ParseOutline("1. Goal: what the user wants.\n2. Where we stopped: describe the most recent state of the work and what comes next.\n")
	if p := o.Parts[1]; !p.Known || !p.Recent || len(p.Sections) != 0 {
		t.Errorf("a new section asking for the latest state = %+v, want known, recent, of no section", p)
	}
	if o := ParseOutline("Summarize the conversation in a paragraph.\n1. Be brief.\n"); o != nil {
		t.Errorf("ParseOutline(free form) = %+v, want nil", o)
	}
}

// measuresOf are the measures a review compares, and the counts behind them.
func measuresOf(r Result) map[string]string {
	v := func(s Share) string { return fmt.Sprintf("%d/%d", s.Hit, s.Of) }
	score := "null"
	if r.Score != nil {
		score = fmt.Sprint(*r.Score)
	}
	return map[string]string{
		"coverage": v(r.Coverage), "boundary_coverage": v(r.BoundaryCoverage),
		"weighted_coverage": fmt.Sprint(r.WeightedCoverage), "weighted_boundary_coverage": fmt.Sprint(r.WeightedBoundaryCoverage),
		"tail_leakage": v(r.TailLeakage), "constraints_verbatim": v(r.ConstraintsVerbatim),
		"user_messages": v(r.UserMessages), "misattributed": fmt.Sprint(len(r.Misattributed)), "score": score,
	}
}

// TestTitleEditsMoveNothing: a summary whose section titles were renamed, translated or
// merged the way its instruction's were, read by that instruction's outline, scores what
// the summary scores under the unchanged instruction, on every measure.
func TestTitleEditsMoveNothing(t *testing.T) {
	base := ParseOutline(compact.Instruction)
	moved := map[string]int{} // edits that move a measure when read without an outline
	checked := map[string]int{}
	for _, dir := range []string{"../corpus/cases", "testdata/cases"} {
		for _, c := range loadEvalCases(t, dir) {
			in, _ := FromCase(c)
			summary := c.Intended.Summary
			if parseLayout(summary).format != FormatClaudeFull {
				continue
			}
			sc := NewScorer(in, Options{})
			want := measuresOf(sc.Score(summary, base))
			if fmt.Sprint(want) != fmt.Sprint(measuresOf(sc.Score(summary, nil))) {
				t.Errorf("%s: the unchanged instruction's outline reads the summary otherwise than the known titles", c.ID)
			}
			for _, e := range titleEdits {
				edited, ok := e.summary(summary)
				if !ok {
					continue
				}
				checked[e.name]++
				got := measuresOf(sc.Score(edited, ParseOutline(e.instruction(compact.Instruction))))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s, %s: measures mismatch (-unchanged +edited):\n%s", c.ID, e.name, diff)
				}
				if fmt.Sprint(measuresOf(sc.Score(edited, nil))) != fmt.Sprint(want) {
					moved[e.name]++
				}
			}
		}
	}
	for _, e := range titleEdits {
		if checked[e.name] < 5 {
			t.Errorf("%s: checked on %d eval cases, want at least 5", e.name, checked[e.name])
		}
		t.Logf("%s: %d summaries read alike; without the outline %d would have moved", e.name, checked[e.name], moved[e.name])
	}
	if moved[titleEdits[0].name] == 0 {
		t.Errorf("no summary moved with section 8 in French read without its outline: the test cannot see what the outline does")
	}
}
