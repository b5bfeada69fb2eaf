package eval

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/compacteval/compacteval/corpus"
)

// Ablation names: the deliberately worse summaries a valid score must rank below the real
// one, and the shuffle it must rank the same.
const (
	AblationOtherCase    = "other-case"              // the summary of another conversation
	AblationLastThirdCut = "last-third-cut"          // the summary without its last third of lines
	AblationHalfSections = "half-sections-dropped"   // every second top-level section removed
	AblationRecentGone   = "recent-sections-deleted" // the sections of the work in progress removed (Current Work, Next Step, ...)
	AblationVague        = "vague"                   // a two-line summary that names nothing
	AblationCopyLast     = "copy-of-last-messages"   // the last messages before the cut, copied, as long as the summary
	AblationTailOnly     = "tail-only"               // a summary written only from the kept tail
	AblationShuffled     = "sections-shuffled"       // the same sections in another order: must tie
)

// AblationNames lists the ablations in the order Ablations returns them.
var AblationNames = []string{AblationOtherCase, AblationLastThirdCut, AblationHalfSections, AblationRecentGone, AblationVague, AblationCopyLast, AblationTailOnly, AblationShuffled}

// VagueSummary is the text of the vague ablation.
const VagueSummary = "The user and the assistant worked on the project and made good progress.\nThe remaining work will continue in the next session."

// Ablation is one deliberately worse (or, shuffled, equal) summary.
type Ablation struct {
	Name    string
	Summary string
	// Removed lists the lines of the real summary (indexes in its layout) a deletion
	// ablation removed; nil for the ablations that replace or reorder it.
	Removed []int
}

// Ablations returns the ablations of summary, the real summary of in, in AblationNames
// order. other is another conversation's summary ("" leaves that one out); recent-sections-
// deleted is left out when the summary has no section of the work in progress, tail-only
// when nothing is kept, shuffled when the summary has fewer than two top-level sections.
func Ablations(in Input, summary, other string, opt Options) []Ablation {
	var out []Ablation
	if other != "" {
		out = append(out, Ablation{Name: AblationOtherCase, Summary: other})
	}
	lay := parseLayout(summary)
	n := len(lay.lines)
	cutLines := make([]int, 0, n/3)
	for i := n - n/3; i < n; i++ {
		cutLines = append(cutLines, i)
	}
	out = append(out, deletion(lay, AblationLastThirdCut, cutLines))
	out = append(out, deletion(lay, AblationHalfSections, halfSections(lay)))
	if cur := currentLines(lay); len(cur) > 0 {
		out = append(out, deletion(lay, AblationRecentGone, cur))
	}
	out = append(out, Ablation{Name: AblationVague, Summary: VagueSummary})
	cut := in.Cut
	if cut < 0 {
		cut = Boundary(in.Conversation, opt.keepTokens())
	}
	cut = min(cut, len(in.Conversation))
	out = append(out, Ablation{Name: AblationCopyLast, Summary: copyLast(in.Conversation[:cut], len(summary))})
	if cut < len(in.Conversation) {
		out = append(out, Ablation{Name: AblationTailOnly, Summary: tailOnlySummary(in.Conversation[cut:])})
	}
	if s, ok := shuffled(lay, in.ID); ok {
		out = append(out, Ablation{Name: AblationShuffled, Summary: s})
	}
	return out
}

func deletion(lay layout, name string, removed []int) Ablation {
	drop := make(map[int]bool, len(removed))
	for _, i := range removed {
		drop[i] = true
	}
	var kept []string
	for i, l := range lay.lines {
		if !drop[i] {
			kept = append(kept, l.text)
		}
	}
	return Ablation{Name: name, Summary: strings.Join(kept, "\n"), Removed: removed}
}

// currentLines returns the lines of the sections of the work in progress, headings
// included: Current Work and Optional Next Step (or Work Completed and Context for
// Continuing Work), pi's In Progress, Blocked, Next Steps and Critical Context, Gemini
// CLI's recent_actions and current_plan, and headings such as Current Task in any format;
// not section 3 (Files and Code Sections), nor text under no known heading.
func currentLines(lay layout) []int {
	var out []int
	for i, l := range lay.lines {
		if currentLine(l) {
			out = append(out, i)
		}
	}
	return out
}

// currentLine reports whether a line is in a section of the work in progress: a recent
// section other than section 3.
func currentLine(l sline) bool { return l.role == roleRecent && l.section != 3 }

// halfSections returns the lines of every second top-level section (the second, the
// fourth, ...); with fewer than two sections, of every second paragraph, or every second
// line of a single paragraph.
func halfSections(lay layout) []int {
	var units [][2]int
	if bs := lay.sectionBlocks(); len(bs) >= 2 {
		units = bs
	} else {
		start := -1
		for i, l := range lay.lines {
			blank := strings.TrimSpace(l.text) == ""
			switch {
			case !blank && start < 0:
				start = i
			case blank && start >= 0:
				units = append(units, [2]int{start, i})
				start = -1
			}
		}
		if start >= 0 {
			units = append(units, [2]int{start, len(lay.lines)})
		}
		if len(units) < 2 {
			units = nil
			for i := range lay.lines {
				units = append(units, [2]int{i, i + 1})
			}
		}
	}
	var out []int
	for k := 1; k < len(units); k += 2 {
		for i := units[k][0]; i < units[k][1]; i++ {
			out = append(out, i)
		}
	}
	return out
}

// shuffled returns the summary with its top-level sections in another order, fixed by id;
// the text before the first section stays first.
func shuffled(lay layout, id string) (string, bool) {
	bs := lay.sectionBlocks()
	if len(bs) < 2 {
		return "", false
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	rng := rand.New(rand.NewPCG(h.Sum64(), 1))
	perm := rng.Perm(len(bs))
	identity := true
	for i, p := range perm {
		identity = identity && i == p
	}
	if identity {
		perm[0], perm[1] = perm[1], perm[0]
	}
	ranges := [][2]int{{0, bs[0][0]}}
	for _, p := range perm {
		ranges = append(ranges, bs[p])
	}
	if end := bs[len(bs)-1][1]; end < len(lay.lines) {
		ranges = append(ranges, [2]int{end, len(lay.lines)})
	}
	return lay.join(ranges...), true
}

// copyLast returns the newest messages of msgs, their text and tool call inputs, copied
// oldest first, cut at the front to budget bytes (at least one line).
func copyLast(msgs []corpus.Message, budget int) string {
	var parts []string
	size := 0
	for i := len(msgs) - 1; i >= 0 && size < budget; i-- {
		m := msgs[i]
		texts := []string{m.Text}
		for _, tc := range m.ToolCalls {
			texts = append(texts, tc.Input)
		}
		if t := strings.TrimSpace(strings.Join(texts, "\n")); t != "" {
			parts = append(parts, t)
			size += len(t) + 1
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	text := strings.Join(parts, "\n")
	for len(text) > budget {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			break
		}
		text = text[j+1:]
	}
	return text
}

// tailOnlySummary writes what a summarizer that read only the kept tail could write: the
// user's messages under sections 1 and 6, everything else said under section 8.
func tailOnlySummary(tail []corpus.Message) string {
	var users, all []string
	for _, m := range tail {
		if m.Role == corpus.RoleUser {
			users = append(users, "   - "+m.Text)
		}
		all = append(all, m.Text)
		for _, tc := range m.ToolCalls {
			all = append(all, tc.Name+" "+tc.Input)
		}
	}
	var b strings.Builder
	for n, name := range SectionNames {
		fmt.Fprintf(&b, "%d. %s:\n", n+1, name)
		switch n + 1 {
		case 1, 6:
			b.WriteString(strings.Join(users, "\n"))
		case 8:
			b.WriteString(strings.Join(all, "\n"))
		}
		b.WriteString("\n\n")
	}
	return strings.TrimSpace(b.String())
}
