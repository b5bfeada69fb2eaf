package eval

import (
	"strings"
)

// SectionNames are the nine sections the compaction instruction asks for, in order;
// section n is SectionNames[n-1].
var SectionNames = [9]string{
	"Primary Request and Intent", "Key Technical Concepts", "Files and Code Sections",
	"Errors and fixes", "Problem Solving", "All user messages", "Pending Tasks",
	"Current Work", "Optional Next Step",
}

// sectionKeys are the lowercase openings that name each section in a heading.
var sectionKeys = [9][]string{
	{"primary request"},
	{"key technical concept", "technical concept"},
	{"files and code"},
	{"errors and fix", "errors & fix", "errors and their fix"},
	{"problem solving"},
	{"all user messages", "user messages"},
	{"pending task"},
	{"current work", "work completed"},
	{"optional next step", "next step", "context for continuing"},
}

// Sections says which of the nine sections a summary has.
type Sections struct {
	// Present are the numbers (1 to 9) of the sections found, ascending; Missing the others.
	Present []int `json:"present"`
	Missing []int `json:"missing"`
	// InOrder reports whether the present sections appear in their numbered order.
	InOrder bool `json:"in_order"`
}

// Complete reports whether all nine sections are present and in order.
func (s Sections) Complete() bool { return len(s.Present) == 9 && s.InOrder }

// headingName splits a trimmed line into what may make it a heading: a markdown mark (#,
// **, __) at its start, a section number after its marks ("8.", "8)", "8:"), and the name
// that follows, lowercased, without the marks and spaces before it.
func headingName(t string) (name string, marked, numbered bool) {
	marked = strings.HasPrefix(t, "#") || strings.HasPrefix(t, "**") || strings.HasPrefix(t, "__")
	t = strings.TrimLeft(t, "#*_>- \t")
	if j := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); j > 0 && j <= 2 && strings.ContainsRune(".):", rune(t[j])) {
		t = t[j+1:]
		numbered = true
	}
	return strings.ToLower(strings.TrimLeft(t, "*_ \t")), marked, numbered
}

// sectionOf returns the section a trimmed line is the heading of, or 0.
func sectionOf(t string) int {
	t, marked, numbered := headingName(t)
	if !numbered && !marked {
		return 0
	}
	for i, keys := range sectionKeys {
		for _, k := range keys {
			if strings.HasPrefix(t, k) {
				return i + 1
			}
		}
	}
	return 0
}

// sectionsOf summarizes the headings of a summary.
func sectionsOf(hs []heading) Sections {
	first := map[int]int{} // section -> position of its first heading
	for i, h := range hs {
		if _, ok := first[h.n]; !ok {
			first[h.n] = i
		}
	}
	s := Sections{Present: []int{}, Missing: []int{}, InOrder: true}
	last := -1
	for n := 1; n <= 9; n++ {
		pos, ok := first[n]
		if !ok {
			s.Missing = append(s.Missing, n)
			continue
		}
		s.Present = append(s.Present, n)
		if pos < last {
			s.InOrder = false
		}
		last = pos
	}
	return s
}

// WithoutSection returns summary without every section numbered n (its heading, body and
// subsections), and false when the summary has no such section.
func WithoutSection(summary string, n int) (string, bool) {
	lay := parseLayout(summary)
	var keep []string
	found, skipping, level := false, false, 0
	for _, l := range lay.lines {
		if l.heading && skipping && l.level <= level {
			skipping = false
		}
		if l.heading && !skipping && sectionOf(strings.TrimSpace(l.text)) == n {
			found, skipping, level = true, true, l.level
		}
		if !skipping {
			keep = append(keep, l.text)
		}
	}
	if !found {
		return summary, false
	}
	return strings.Join(keep, "\n"), true
}
