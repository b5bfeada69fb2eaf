package eval

import (
	"slices"
	"strings"
)

// Summary formats, as Result.Format names them.
const (
	FormatClaudeFull    = "claude-code"         // the nine sections of Claude Code's full compaction
	FormatClaudePartial = "claude-code-partial" // its partial compaction: 8. Work Completed, 9. Context for Continuing Work
	FormatClaudeStored  = "claude-code-stored"  // the older stored form: Analysis: text before Summary:
	FormatPiSummary     = "pi"                  // pi's ## Goal, ## Progress, ## Next Steps, ## Critical Context, ...
	FormatGemini        = "gemini-cli"          // Gemini CLI's <state_snapshot>
	FormatMarkdown      = "markdown"            // headings, none of them known
	FormatUnstructured  = "unstructured"        // no heading at all
)

// role is what a line of a summary is for.
type role uint8

const (
	// roleTop: text before any heading (or under Summary:). An unstructured summary is all
	// top, and read whole as its own account of recent work.
	roleTop role = iota
	roleOther
	roleRecent
	// roleAnalysis: the Analysis: part of the stored Claude Code form, which the next
	// context does not need; scored apart.
	roleAnalysis
)

// sline is one line of a summary with what it is for.
type sline struct {
	text    string
	role    role
	section int // the nine-section number of its heading, 0 for none
	heading bool
	level   int  // a heading's level: 0 for Analysis: and Summary:, the number of # in markdown
	fence   bool // a code fence delimiter
	user    bool // under a heading of the user's constraints
}

// layout is a summary split into lines, each with the role its nearest heading gives it.
//
// A line's role depends only on the headings and fence delimiters above it, never on text
// after it or on the summary's format as a whole. So removing lines other than headings and
// fence delimiters, removing a section with its subsections, or cutting the end never moves
// a remaining line into the recent part: the measures are monotone under those deletions.
type layout struct {
	lines    []sline
	headings []heading
	format   string
}

// heading is a nine-section heading: its section number and its line.
type heading struct{ n, line int }

// vocabulary maps the lowercase opening of a heading's name to its role. Longer openings
// are tried first where two share a start.
var recentNames = []string{
	"current work", "optional next step", "next step", "work completed", "context for continuing",
	"in progress", "in-progress", "blocked", "critical context", "recent_actions", "recent actions",
	"current_plan", "current plan", "current task", "current state", "current status",
	"current focus", "recent work", "recent changes", "immediate next", "where we left off",
	"remaining work", "task_state",
}

var otherNames = []string{
	"goal", "constraints", "progress", "done", "key decisions", "overall_goal", "key_knowledge",
	"file_system_state", "active_constraints", "completed",
}

// geminiTags are the elements of Gemini CLI's state snapshot.
var geminiTags = set("state_snapshot", "overall_goal", "key_knowledge", "file_system_state",
	"recent_actions", "current_plan", "active_constraints", "task_state")

// parseLayout splits summary into lines and gives each its role by the titles this package
// knows.
func parseLayout(summary string) layout { return readLayout(summary, nil) }

// readLayout splits summary into lines and gives each its role: a heading that opens with
// a title of the outline takes the part's sections; any other, the role parseLayout gives.
func readLayout(summary string, o *Outline) layout {
	var lay layout
	type open struct {
		level, section int
		role           role
		user           bool
	}
	var stack []open // headings in force, outermost first
	cur := roleTop
	section, curUser := 0, false
	inFence, inAnalysis := false, false
	var fenceOpen byte
	hasName := map[string]bool{}
	for _, text := range strings.Split(summary, "\n") {
		t := strings.TrimSpace(text)
		l := sline{text: text}
		var delim bool
		if fenceOpen, delim = fenceStep(t, fenceOpen); delim {
			inFence = fenceOpen != 0
			l.fence = true
			l.role, l.section, l.user = cur, section, curUser
			lay.lines = append(lay.lines, l)
			continue
		}
		if !inFence {
			level, r, n, name, ok := headingOf(t, inAnalysis)
			var parts []int // the sections of an outline part's heading
			if p := o.part(t); p != nil && !inAnalysis {
				level, r, n, name, ok = outlineHeading(t, p)
				parts = p.Sections
			}
			if ok {
				hasName[name] = true
				if k := knownName(t); k != "" && !inAnalysis {
					hasName[k] = true
				}
				for len(stack) > 0 && stack[len(stack)-1].level >= level {
					stack = stack[:len(stack)-1]
				}
				user := name == "constraints" || name == "active_constraints" || slices.Contains(parts, 1) || slices.Contains(parts, 6)
				if name == "" {
					// An unknown heading: its parent's part, or like text before any heading.
					r = roleTop
					if len(stack) > 0 && stack[len(stack)-1].level > 0 {
						top := stack[len(stack)-1]
						r, n, user = top.role, top.section, top.user
					}
				}
				if level == 0 {
					stack = stack[:0]
				}
				stack = append(stack, open{level, n, r, user})
				l.level = level
				curUser = user
				cur, section = r, n
				inAnalysis = r == roleAnalysis
				l.heading = true
				switch {
				case len(parts) > 0:
					for _, n := range parts {
						lay.headings = append(lay.headings, heading{n, len(lay.lines)})
					}
				case name == "section" && n > 0:
					lay.headings = append(lay.headings, heading{n, len(lay.lines)})
				}
			}
		}
		l.role, l.section, l.user = cur, section, curUser
		lay.lines = append(lay.lines, l)
	}
	lay.format = formatOf(hasName, lay.headings, len(stack) > 0 || len(lay.headings) > 0)
	return lay
}

// headingOf recognises a heading line: a markdown heading (its level the number of #), a
// known XML tag of a state snapshot or an analysis/summary block (level 1), Analysis: or
// Summary: alone on a line (level 0), or a numbered or bold line that names a known
// section (level 2). name is the known name it matched ("" for an unknown markdown
// heading), n its nine-section number. Inside an Analysis: part only a level-0 heading or
// a closing tag ends it.
func headingOf(t string, inAnalysis bool) (level int, r role, n int, name string, ok bool) {
	lower := strings.ToLower(t)
	switch strings.TrimRight(lower, ": \t") {
	case "analysis", "<analysis>":
		return 0, roleAnalysis, 0, "analysis", true
	case "summary", "<summary>", "</analysis>", "</summary>":
		return 0, roleTop, 0, "summary", true
	}
	if inAnalysis {
		return 0, 0, 0, "", false
	}
	if strings.HasPrefix(lower, "<") {
		tag := strings.TrimPrefix(lower[1:], "/")
		if j := strings.IndexByte(tag, '>'); j > 0 && geminiTags[tag[:j]] {
			tag = tag[:j]
			if tag == "state_snapshot" {
				return 0, roleTop, 0, tag, true
			}
			if lower[1] == '/' {
				return 1, roleOther, 0, tag, true
			}
			return 1, roleOf(tag), 0, tag, true
		}
		return 0, 0, 0, "", false
	}
	md := 0
	for md < len(t) && t[md] == '#' {
		md++
	}
	if md > 0 && (md == len(t) || t[md] != ' ' && t[md] != '\t') {
		md = 0 // "#include", "#123"
	}
	n = sectionOf(t)
	known := knownName(t)
	switch {
	case md > 0:
		if n > 0 {
			return md, sectionRole(n, known), n, "section", true
		}
		if known != "" {
			return md, roleOf(known), 0, known, true
		}
		return md, roleTop, 0, "", true
	case n > 0:
		return 2, sectionRole(n, known), n, "section", true
	case known != "" && (strings.HasPrefix(t, "**") || strings.HasPrefix(t, "__")):
		return 2, roleOf(known), 0, known, true
	}
	return 0, 0, 0, "", false
}

// outlineHeading is headingOf for a heading line that names part p of the outline: a
// markdown heading keeps its level, any other is a section (level 2). Its role is recent
// when the part is (Part.Recent).
func outlineHeading(t string, p *Part) (level int, r role, n int, name string, ok bool) {
	level = 2
	if md := strings.IndexFunc(t, func(r rune) bool { return r != '#' }); md > 0 && (t[md] == ' ' || t[md] == '\t') {
		level = md
	}
	r = roleOther
	if p.Recent {
		r = roleRecent
	}
	if len(p.Sections) > 0 {
		n = p.Sections[0]
	}
	return level, r, n, "section", true
}

// sectionRole is the role of nine-section heading n: the instruction asks for the most
// recent work in sections 3 (Files and Code Sections: "pay special attention to the most
// recent messages"), 8 and 9, and so do the partial variant's Work Completed and Context
// for Continuing Work, whatever their number.
func sectionRole(n int, known string) role {
	if n == 3 || n == 8 || n == 9 || known != "" && roleOf(known) == roleRecent {
		return roleRecent
	}
	return roleOther
}

// knownName returns the known heading name a heading line opens with, after markdown marks
// and a number, or "".
func knownName(t string) string {
	t, _, _ = headingName(t)
	for _, names := range [][]string{recentNames, otherNames} {
		for _, k := range names {
			if strings.HasPrefix(t, k) && (len(t) == len(k) || !isLetter(t[len(k)])) {
				return k
			}
		}
	}
	return ""
}

func roleOf(name string) role {
	for _, k := range recentNames {
		if k == name {
			return roleRecent
		}
	}
	return roleOther
}

// formatOf names a summary's format from the headings found.
func formatOf(has map[string]bool, hs []heading, anyHeading bool) string {
	nine := map[int]bool{}
	for _, h := range hs {
		nine[h.n] = true
	}
	switch {
	case has["analysis"]:
		return FormatClaudeStored
	case has["state_snapshot"] || has["overall_goal"] || has["recent_actions"] || has["current_plan"]:
		return FormatGemini
	case has["goal"] && (has["progress"] || has["in progress"] || has["done"] || has["critical context"] || has["key decisions"] || has["constraints"] || has["next step"]):
		return FormatPiSummary
	case len(nine) >= 3 && (has["work completed"] || has["context for continuing"]):
		return FormatClaudePartial
	case len(nine) >= 3:
		return FormatClaudeFull
	case anyHeading || len(has) > 0:
		return FormatMarkdown
	}
	return FormatUnstructured
}

// text returns the lines with a role in keep, one per line.
func (lay layout) text(keep func(sline) bool) string {
	var b strings.Builder
	for _, l := range lay.lines {
		if keep(l) {
			b.WriteString(l.text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func scored(l sline) bool { return l.role != roleAnalysis }

// userSection reports whether a line is where a summary lists the user's requests,
// messages or constraints (sections 1 and 6, pi's Constraints & Preferences), which may
// quote the user word for word.
func userSection(l sline) bool { return l.section == 1 || l.section == 6 || l.user }
func recentLine(l sline) bool {
	return l.role == roleRecent || l.role == roleTop
}

// blocks returns the line ranges [start, end) of the summary's top-level sections: each
// from a heading of the block level (the smallest level above 0 that has two headings, or
// the smallest there is) or a level-0 heading to the next such heading, subsections
// included. Lines before the first block are in none.
func (lay layout) blocks() [][2]int {
	count := map[int]int{}
	for _, l := range lay.lines {
		if l.heading && l.level > 0 {
			count[l.level]++
		}
	}
	level := 0
	for lv := 1; lv <= 6; lv++ {
		if count[lv] >= 2 {
			level = lv
			break
		}
	}
	if level == 0 {
		for lv := 1; lv <= 6; lv++ {
			if count[lv] > 0 {
				level = lv
				break
			}
		}
	}
	var out [][2]int
	for i, l := range lay.lines {
		if l.heading && l.level <= level {
			if n := len(out); n > 0 {
				out[n-1][1] = i
			}
			out = append(out, [2]int{i, len(lay.lines)})
		}
	}
	return out
}

// join returns lines [from, to) of the summary as text.
func (lay layout) join(ranges ...[2]int) string {
	var parts []string
	for _, r := range ranges {
		for _, l := range lay.lines[r[0]:r[1]] {
			parts = append(parts, l.text)
		}
	}
	return strings.Join(parts, "\n")
}

// sectionBlocks returns the blocks after the last level-0 heading (Analysis:, Summary:,
// <state_snapshot>): the sections that can be dropped or reordered on their own.
func (lay layout) sectionBlocks() [][2]int {
	bs := lay.blocks()
	for i := len(bs) - 1; i >= 0; i-- {
		if lay.lines[bs[i][0]].level == 0 {
			return bs[i+1:]
		}
	}
	return bs
}
