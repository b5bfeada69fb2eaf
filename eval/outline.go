package eval

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// An Outline is the list of sections an instruction asks for, read from the instruction
// itself: a summary is then read in the words its own instruction used, so that renaming,
// translating, merging or reordering the sections' titles moves no measure.
//
// ParseOutline reads it; Options.Outline hands it to Score. A nil Outline reads a summary
// by the titles this package knows (see Formats in the package doc).
type Outline struct {
	// Parts are the numbered sections, in the instruction's order.
	Parts []Part `json:"parts"`
}

// A Part is one section an instruction asks for.
type Part struct {
	// Number is its number in the instruction; Title its name there, as written.
	Number int    `json:"number"`
	Title  string `json:"title"`
	// Sections are the sections of the nine (SectionNames) it stands for: one, several
	// when it merges them ("Errors, fixes and problem solving"), none when unknown.
	Sections []int `json:"sections"`
	// ByNumber reports that Sections was taken from its number, not its title: a title
	// this package does not know (a translation, a new wording) on a number that no
	// known title claims.
	ByNumber bool `json:"by_number,omitempty"`
	// Recent reports whether it is where the instruction asks for the most recent work:
	// one of its sections is (3, 8 or 9), or, for a part of no known section, its
	// description in English asks for the latest state ("the most recent messages",
	// "currently", "next"). Known is false for a part eval cannot place: of no known
	// section, and described in words eval cannot read for recency.
	Recent bool `json:"recent"`
	Known  bool `json:"known"`

	key  string
	desc string // the title as headings are compared: lowercased, spaces collapsed
}

// Unknown returns the parts eval cannot place (Part.Known). Where there is one, eval cannot tell
// whether it holds recent work, and boundary coverage of the outline's summaries is not
// comparable with another instruction's. A nil Outline has none: a summary is then read
// by the titles eval knows.
func (o *Outline) Unknown() []Part {
	if o == nil {
		return nil
	}
	var out []Part
	for _, p := range o.Parts {
		if !p.Known {
			out = append(out, p)
		}
	}
	return out
}

var (
	outlineExample = regexp.MustCompile(`(?s)<example>.*?</example>`)
	// outlineItem is a numbered line that names a section: "8. Current Work: Describe...".
	// The name stops at the first colon and holds no full stop, so the numbered steps of
	// the analysis ("1. Chronologically analyze each message ... For each section:") are
	// not sections.
	outlineItem = regexp.MustCompile(`(?m)^[ \t]*(?:\*\*)?(\d{1,2})[.)][ \t]+(?:\*\*)?([^:.\n]{1,80}?)(?:\*\*)?[ \t]*:(.*)$`)
)

// ParseOutline returns the sections an instruction asks for: its longest list of numbered
// lines that each name a section before a colon, outside <example> blocks. A list starts
// at a line numbered 1 and takes every later line of a number it does not have yet, so a
// section taken out (a gap) or added out of order (10 before 9) stays in the list.
// It returns nil when the instruction numbers fewer than two sections.
//
// Each part's Sections come from its title where it names one or more of the nine
// (titleWords, searched anywhere in the title, so merged titles name each); in an edit
// of the nine, a part whose title names none takes the section of its own number when no
// other part claims it (a translated or reworded title); any other part is placed by its
// description (describedRecent) or not at all.
func ParseOutline(instruction string) *Outline {
	text := outlineExample.ReplaceAllString(instruction, "")
	var best, run []Part
	for _, m := range outlineItem.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1]) // one or two digits
		title := strings.TrimSpace(strings.Trim(strings.TrimSpace(m[2]), "*_`"))
		if !hasLetter(title) {
			continue
		}
		switch {
		case n == 1:
			run = []Part{{Number: 1, Title: title, desc: m[3]}}
		case len(run) > 0 && !slices.ContainsFunc(run, func(p Part) bool { return p.Number == n }):
			run = append(run, Part{Number: n, Title: title, desc: m[3]})
		}
		if len(run) >= len(best) && len(run) > 0 {
			best = append([]Part(nil), run...)
		}
	}
	if len(best) < 2 {
		return nil
	}
	claimed := map[int]bool{}
	byTitle := 0
	for i := range best {
		p := &best[i]
		p.key = headingKey(p.Title)
		p.Sections = sectionsNamed(p.key)
		for _, n := range p.Sections {
			claimed[n] = true
		}
		if len(p.Sections) > 0 {
			byTitle++
		}
	}
	// An outline is an edit of the nine when three or more of its titles name one of
	// them, or it has eight or more parts (the nine, translated): there a part's number
	// says which section it is.
	nine := byTitle >= 3 || len(best) >= 8
	for i := range best {
		p := &best[i]
		if len(p.Sections) == 0 && nine && p.Number <= len(SectionNames) && !claimed[p.Number] {
			p.Sections, p.ByNumber = []int{p.Number}, true
			claimed[p.Number] = true
		}
		if p.Sections == nil {
			p.Sections = []int{}
		}
		p.Known, p.Recent = true, false
		for _, n := range p.Sections {
			p.Recent = p.Recent || sectionRole(n, "") == roleRecent
		}
		if len(p.Sections) == 0 {
			p.Known, p.Recent = describedRecent(p.desc)
		}
	}
	return &Outline{Parts: best}
}

// titleWords are the words that name each of the nine sections in an instruction's
// title: looser than a summary's headings (sectionKeys), since a title is the
// instruction's own wording of a section and merged titles join two names.
var titleWords = [9][]string{
	{"primary request", "request", "intent"},
	{"concept"},
	{"files and code", "files", "code section"},
	{"error"},
	{"problem solving", "problem"},
	{"user message"},
	{"pending"},
	{"current work", "work completed"},
	{"next step", "continuing"},
}

// recencyWords in a part's description ask for the latest state of the work.
var recencyWords = []string{"recent", "current", "immediately before", "next", "in progress", "left off", "latest", "right now"}

// describedRecent reads a part's description: known when it is in English (three or
// more common English words), and then recent when it asks for the latest state.
func describedRecent(desc string) (known, recent bool) {
	d := strings.ToLower(desc)
	common := 0
	for _, w := range strings.FieldsFunc(d, func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "the", "and", "of", "to", "a", "any", "that", "list", "all", "what", "with", "for", "in", "was", "were", "you", "your", "each":
			common++
		}
	}
	if common < 3 {
		return false, false
	}
	for _, w := range recencyWords {
		if opensWordAt(d, w) {
			return true, true
		}
	}
	return true, false
}

// sectionsNamed returns the sections of the nine whose names a title holds, ascending.
func sectionsNamed(key string) []int {
	var out []int
	for i, keys := range titleWords {
		for _, k := range keys {
			if opensWordAt(key, k) {
				out = append(out, i+1)
				break
			}
		}
	}
	return out
}

// opensWordAt reports whether s holds k starting at a word boundary (its end may run on:
// "errors and fix" is in "errors and fixes").
func opensWordAt(s, k string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], k)
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || !isLetter(s[j-1]) {
			return true
		}
		i = j + 1
	}
}

// headingKey is a title or heading as parts are compared: lowercased, without markdown
// marks and a leading number, spaces collapsed.
func headingKey(t string) string {
	name, _, _ := headingName(strings.TrimSpace(t))
	return strings.Join(strings.Fields(name), " ")
}

// part returns the part a trimmed summary line is the heading of, or nil: a numbered or
// marked (#, **, __) line whose text opens with a part's title, the longest that fits.
func (o *Outline) part(t string) *Part {
	if o == nil {
		return nil
	}
	name, marked, numbered := headingName(t)
	if !marked && !numbered {
		return nil
	}
	key := strings.Join(strings.Fields(name), " ")
	var best *Part
	for i := range o.Parts {
		p := &o.Parts[i]
		if p.key == "" || !strings.HasPrefix(key, p.key) {
			continue
		}
		if rest := key[len(p.key):]; rest != "" && isLetterRune(rest) {
			continue // "Current Work" is not the heading "Current Workflow"
		}
		if best == nil || len(p.key) > len(best.key) {
			best = p
		}
	}
	return best
}

// isLetterRune reports whether s starts with a letter.
func isLetterRune(s string) bool {
	for _, r := range s {
		return unicode.IsLetter(r)
	}
	return false
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }
