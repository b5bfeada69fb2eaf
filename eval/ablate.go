package eval

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/compacteval/compacteval/corpus"
)

// Ablation names: the deliberately worse summaries a valid score must rank below the real
// one.
const (
	AblationOtherCase     = "other-case"         // the summary of another conversation
	AblationLastThirdCut  = "last-third-removed" // the summary without its last third
	AblationTailOnly      = "tail-only"          // a summary written only from the kept tail
	AblationNoCurrentWork = "no-current-work"    // the summary without section 8
)

// Ablation is one deliberately worse summary.
type Ablation struct {
	Name    string
	Summary string
	// Removed is the text the ablation cut out of the real summary; empty for the
	// ablations that replace it.
	Removed string
}

// Ablations returns the ablations of summary, the real summary of in: other (another
// conversation's summary; "" leaves it out), summary without its last third (by lines, or
// by characters under three lines), a summary of in's kept tail alone under the nine
// headings (left out when nothing is kept), and summary without section 8 (left out when
// it has none).
func Ablations(in Input, summary, other string, opt Options) []Ablation {
	var out []Ablation
	if other != "" {
		out = append(out, Ablation{Name: AblationOtherCase, Summary: other})
	}
	kept, removed := splitLastThird(summary)
	out = append(out, Ablation{AblationLastThirdCut, kept, removed})
	cut := in.Cut
	if cut < 0 {
		cut = Boundary(in.Conversation, opt.keepTokens())
	}
	if cut < len(in.Conversation) {
		out = append(out, Ablation{Name: AblationTailOnly, Summary: tailOnlySummary(in.Conversation[cut:])})
	}
	if s, ok := WithoutSection(summary, 8); ok {
		section := ""
		for _, h := range findHeadings(summary) {
			if h.n == 8 {
				section += summary[h.start:h.end]
			}
		}
		out = append(out, Ablation{AblationNoCurrentWork, s, section})
	}
	return out
}

// splitLastThird splits s before its last third: by lines, or by characters under three
// lines.
func splitLastThird(s string) (kept, removed string) {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) >= 3 {
		k := len(lines) - len(lines)/3
		return strings.Join(lines[:k], ""), strings.Join(lines[k:], "")
	}
	r := []rune(s)
	k := len(r) - len(r)/3
	return string(r[:k]), string(r[k:])
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

// Pair is one comparison of a real summary with an ablation of it.
type Pair struct {
	Case     string `json:"case"`
	Ablation string `json:"ablation"`
	// Real and Ablated hold coverage and boundary_coverage, in that order.
	Real    [2]Share `json:"real"`
	Ablated [2]Share `json:"ablated"`
	// Outranks reports whether the real summary scores strictly higher on coverage or on
	// boundary_coverage.
	Outranks bool `json:"outranks"`
}

func (p Pair) String() string {
	return fmt.Sprintf("%s vs %s: coverage %d/%d vs %d/%d, boundary %d/%d vs %d/%d",
		p.Case, p.Ablation, p.Real[0].Hit, p.Real[0].Of, p.Ablated[0].Hit, p.Ablated[0].Of,
		p.Real[1].Hit, p.Real[1].Of, p.Ablated[1].Hit, p.Ablated[1].Of)
}

// Validity is the outcome of Validate.
type Validity struct {
	Pairs []Pair `json:"pairs"`
	// NotApplicable are the ablations that cut out text holding no fact of the summarized
	// messages (the empty Current Work of a summary that drops recent work): no score can
	// rank them lower, so they are not pairs.
	NotApplicable []Pair `json:"not_applicable"`
	// Skipped are the cases that could not be compared: no summary, or no facts before
	// the cut.
	Skipped []string `json:"skipped"`
}

// Outranked returns how many pairs the real summary won, of all pairs.
func (v Validity) Outranked() Share {
	s := Share{Of: len(v.Pairs)}
	for _, p := range v.Pairs {
		if p.Outranks {
			s.Hit++
		}
	}
	return s
}

// Wrong returns the pairs the real summary did not win.
func (v Validity) Wrong() []Pair {
	var out []Pair
	for _, p := range v.Pairs {
		if !p.Outranks {
			out = append(out, p)
		}
	}
	return out
}

// Validate checks that scores rank each real summary above its ablations. The other-case
// ablation of an input takes the summary of the next input, in order and wrapping around,
// that has a summary and a different conversation.
func Validate(ins []Input, opt Options) Validity {
	v := Validity{Pairs: []Pair{}, NotApplicable: []Pair{}, Skipped: []string{}}
	summaries := make([]string, len(ins))
	prints := make([]uint64, len(ins))
	results := make([]Result, len(ins))
	for i, in := range ins {
		results[i] = Score(in, opt)
		summaries[i] = in.summary(opt, &Result{})
		prints[i] = fingerprint(in.Conversation)
	}
	for i, in := range ins {
		got := results[i]
		if !got.Found || got.Coverage.Of == 0 {
			v.Skipped = append(v.Skipped, in.ID)
			continue
		}
		other := ""
		for k := 1; k < len(ins); k++ {
			j := (i + k) % len(ins)
			if results[j].Found && prints[j] != prints[i] {
				other = summaries[j]
				break
			}
		}
		facts := Facts(in.Conversation, in.Probes)
		for _, a := range Ablations(in, summaries[i], other, opt) {
			abl := in
			abl.Summary = &a.Summary
			ar := Score(abl, opt)
			p := Pair{
				Case:     in.ID,
				Ablation: a.Name,
				Real:     [2]Share{got.Coverage, got.BoundaryCoverage},
				Ablated:  [2]Share{ar.Coverage, ar.BoundaryCoverage},
				Outranks: got.Coverage.Hit > ar.Coverage.Hit || got.BoundaryCoverage.Hit > ar.BoundaryCoverage.Hit,
			}
			if a.Removed != "" && !holdsAny(a.Removed, facts, got.Cut) {
				v.NotApplicable = append(v.NotApplicable, p)
				continue
			}
			v.Pairs = append(v.Pairs, p)
		}
	}
	return v
}

// fingerprint hashes a conversation, to tell cases that share one.
func fingerprint(msgs []corpus.Message) uint64 {
	h := fnv.New64a()
	for _, m := range msgs {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", m.Role, m.Text, m.ToolCallID)
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(h, "%s\x00%s\x00%s\x00", tc.ID, tc.Name, tc.Input)
		}
	}
	return h.Sum64()
}

// holdsAny reports whether text holds a fact that occurs before cut.
func holdsAny(text string, facts []Fact, cut int) bool {
	x := newSummaryIndex(text)
	for i := range facts {
		if facts[i].in[0] < cut && x.holds(&facts[i]) {
			return true
		}
	}
	return false
}
