package eval

import (
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/compacteval/compacteval/corpus"
)

// Share is a fraction: Hit of Of. Its value is undefined when Of is 0 (nothing to count),
// which reports and gates must tell apart from 0 and from 1.
type Share struct {
	Hit int
	Of  int
}

// Value returns Hit/Of, and false when Of is 0.
func (s Share) Value() (float64, bool) {
	if s.Of == 0 {
		return 0, false
	}
	return float64(s.Hit) / float64(s.Of), true
}

// MarshalJSON writes {"hit":3,"of":4,"value":0.75}, with the value rounded to four
// decimals and null when Of is 0.
func (s Share) MarshalJSON() ([]byte, error) {
	var v *float64
	if x, ok := s.Value(); ok {
		x = math.Round(x*1e4) / 1e4
		v = &x
	}
	return json.Marshal(struct {
		Hit   int      `json:"hit"`
		Of    int      `json:"of"`
		Value *float64 `json:"value"`
	}{s.Hit, s.Of, v})
}

// UnmarshalJSON reads what MarshalJSON writes; the value is derived, so it is ignored.
func (s *Share) UnmarshalJSON(b []byte) error {
	var v struct {
		Hit int `json:"hit"`
		Of  int `json:"of"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Share{v.Hit, v.Of}
	return nil
}

func (s *Share) count(hit bool) {
	s.Of++
	if hit {
		s.Hit++
	}
}

// Result is the score of one summary. Lists are never nil, so that JSON has [] for none.
type Result struct {
	ID     string `json:"id"`
	Source string `json:"source,omitempty"`
	// Messages is the length of the conversation; Cut the index of its first kept
	// message (Messages when nothing is kept), computed with Boundary when
	// BoundaryComputed is set.
	Messages         int  `json:"messages"`
	Cut              int  `json:"cut"`
	BoundaryComputed bool `json:"boundary_computed,omitempty"`
	// Window is the number of messages just before the cut that boundary_coverage reads.
	Window int `json:"boundary_window"`
	// Found reports whether there is a summary; Path is the extractor's branch
	// (compact.Path names) or "given" for a summary that came extracted.
	Found     bool   `json:"summary_found"`
	Extractor string `json:"extractor,omitempty"`
	Path      string `json:"path"`

	// Coverage is the share of the facts of the summarized messages that the summary
	// holds. BoundaryCoverage is the share of the facts of the window that the summary's
	// account of recent work holds: its Current Work and Optional Next Step sections (the
	// last third of a summary without section headings). CoverageCurve is coverage by
	// decile of the summarized messages, a fact counted where it was last said.
	Coverage         Share     `json:"coverage"`
	BoundaryCoverage Share     `json:"boundary_coverage"`
	CoverageCurve    [10]Share `json:"coverage_curve"`
	// TailLeakage is the share of the facts found only in the kept tail that the summary
	// re-tells (lower is better). A tail fact that the summarized messages mention in
	// another form (a command quoted in prose, a request whose words were said before, a
	// name in a file read) is not tail-only.
	TailLeakage Share `json:"tail_leakage"`
	// UserMessages is the share of the user's messages before the cut that the summary
	// represents; ConstraintsVerbatim the share of their security-relevant instructions it
	// keeps word for word.
	UserMessages        Share `json:"user_messages"`
	ConstraintsVerbatim Share `json:"constraints_verbatim"`
	// FakeUserTurns counts the lines of assistant text before the cut shaped like a user's
	// turn; Misattributed lists those the summary presents as the user's.
	FakeUserTurns int    `json:"fake_user_turns"`
	Misattributed []Fact `json:"misattributed"`
	// PreviousSummarySurvival is the share of the facts of the previous summary that this
	// one keeps; nil without a previous summary.
	PreviousSummarySurvival *Share `json:"previous_summary_survival,omitempty"`

	Sections Sections `json:"sections"`
	// SummaryTokens and SummarizedTokens are estimated as pi does (characters / 4);
	// the summarized part counts the previous summary. CompressionRatio is their
	// quotient, nil for an empty summary.
	SummaryTokens    int      `json:"summary_tokens"`
	SummarizedTokens int      `json:"summarized_tokens"`
	CompressionRatio *float64 `json:"compression_ratio"`

	Flaws []string `json:"flaws,omitempty"`
	// Missed lists the facts of the summarized messages the summary lacks, then the
	// constraints it does not keep verbatim; Leaked the tail-only facts it re-tells;
	// PreviousSummaryLost the facts of the previous summary it dropped.
	Missed              []Fact `json:"missed"`
	Leaked              []Fact `json:"leaked"`
	PreviousSummaryLost []Fact `json:"previous_summary_lost,omitempty"`
}

// summary returns the summary to score and records where it came from in r.
func (in Input) summary(opt Options, r *Result) string {
	if in.Summary != nil {
		s := strings.TrimSpace(*in.Summary)
		r.Found, r.Path = s != "", "given"
		return s
	}
	ex := opt.extractor()
	e := ex.Extract(in.Response)
	r.Found, r.Path, r.Extractor = e.OK, e.Path.String(), ex.Name
	return e.Summary
}

// Score scores one summary. It is deterministic and does not change in.
func Score(in Input, opt Options) Result {
	conv := in.Conversation
	r := Result{ID: in.ID, Source: in.Source, Messages: len(conv), Flaws: in.Flaws}
	cut := in.Cut
	if cut < 0 {
		cut = Boundary(conv, opt.keepTokens())
		r.BoundaryComputed = true
	}
	cut = min(cut, len(conv))
	r.Cut = cut
	r.Window = opt.window(cut)

	summary := in.summary(opt, &r)
	idx := newSummaryIndex(summary)
	hs := findHeadings(summary)
	r.Sections = sectionsOf(hs)
	recent := newSummaryIndex(recentPart(summary, hs))

	r.Missed, r.Leaked = []Fact{}, []Fact{}
	windowStart := cut - r.Window
	seen := seenBefore{msgs: conv[:cut]}
	for _, f := range Facts(conv, in.Probes) {
		before, last, inWindow := -1, -1, false
		for _, m := range f.in {
			if m < cut {
				if before < 0 {
					before = m
				}
				last = m
				inWindow = inWindow || m >= windowStart
			}
		}
		held := idx.holds(&f)
		if before < 0 {
			if seen.saw(&f) {
				continue // the model saw it before the cut: re-telling it is no leak
			}
			r.TailLeakage.count(held)
			if held {
				f.Message = f.in[0]
				r.Leaked = append(r.Leaked, f)
			}
			continue
		}
		r.Coverage.count(held)
		r.CoverageCurve[last*10/cut].count(held)
		if inWindow {
			r.BoundaryCoverage.count(recent.holds(&f))
		}
		if f.Kind == KindRequest {
			r.UserMessages.count(held)
		}
		if !held {
			f.Message = before
			r.Missed = append(r.Missed, f)
		}
	}
	for _, c := range constraints(conv, cut) {
		held := idx.holds(&c)
		r.ConstraintsVerbatim.count(held)
		if !held {
			r.Missed = append(r.Missed, c)
		}
	}
	fakes := fakeUserTurns(conv, cut)
	r.FakeUserTurns = len(fakes)
	r.Misattributed = misattributed(summary, hs, fakes)

	if strings.TrimSpace(in.PreviousSummary) != "" {
		var s Share
		for _, f := range textFacts(in.PreviousSummary) {
			held := idx.holds(&f)
			s.count(held)
			if !held {
				r.PreviousSummaryLost = append(r.PreviousSummaryLost, f)
			}
		}
		r.PreviousSummarySurvival = &s
	}

	r.SummaryTokens = EstimateTextTokens(summary)
	chars := utf16Len(in.PreviousSummary)
	for _, m := range conv[:cut] {
		r.SummarizedTokens += EstimateTokens(m)
	}
	r.SummarizedTokens += (chars + 3) / 4
	if r.SummaryTokens > 0 {
		ratio := math.Round(float64(r.SummarizedTokens)/float64(r.SummaryTokens)*100) / 100
		r.CompressionRatio = &ratio
	}
	return r
}

// recentPart returns the part of a summary that accounts for the most recent work: its
// sections 8 and 9 (Current Work, Optional Next Step). A summary with fewer than three
// section headings is not structured, and its last third stands in for them; a structured
// summary without sections 8 and 9 has no such part.
func recentPart(summary string, hs []heading) string {
	if len(hs) < 3 {
		lines := strings.SplitAfter(summary, "\n")
		return strings.Join(lines[len(lines)-(len(lines)+2)/3:], "")
	}
	var b strings.Builder
	for _, h := range hs {
		if h.n == 8 || h.n == 9 {
			b.WriteString(summary[h.start:h.end])
		}
	}
	return b.String()
}

// seenBefore tells whether the summarized messages mention a fact in any form, reading
// them only when first asked: the user and assistant messages indexed like a summary,
// then the tool output as lowercase text.
type seenBefore struct {
	msgs      []corpus.Message
	idx       *summaryIndex
	tools     string
	toolsRead bool
}

func (s *seenBefore) saw(f *Fact) bool {
	if s.idx == nil {
		s.idx = newSummaryIndex(joinTexts(s.msgs))
	}
	if s.idx.mentions(f) {
		return true
	}
	if !s.toolsRead {
		s.tools, s.toolsRead = lowerToolTexts(s.msgs), true
	}
	return mentionedIn(s.tools, f)
}

// joinTexts returns the texts and tool call inputs of the user and assistant messages in
// msgs, one per line.
func joinTexts(msgs []corpus.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Role == corpus.RoleTool {
			continue
		}
		b.WriteString(m.Text)
		b.WriteByte('\n')
		for _, tc := range m.ToolCalls {
			b.WriteString(tc.Input)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// lowerToolTexts returns the texts of the tool messages in msgs, lowercased, one per line.
func lowerToolTexts(msgs []corpus.Message) string {
	n := 0
	for _, m := range msgs {
		if m.Role == corpus.RoleTool {
			n += len(m.Text) + 1
		}
	}
	b := make([]byte, 0, n)
	for _, m := range msgs {
		if m.Role != corpus.RoleTool {
			continue
		}
		for i := 0; i < len(m.Text); i++ {
			c := m.Text[i]
			if c >= utf8.RuneSelf {
				b = append(b[:len(b)-i], strings.ToLower(m.Text)...) // rare: redo this text in full
				break
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
		b = append(b, '\n')
	}
	return string(b)
}

// mentionedIn reports whether lowercase text names fact f: its key as a word, or for a
// path its last two components, for an identifier its shaped last part.
func mentionedIn(text string, f *Fact) bool {
	if containsWord(text, f.key) {
		return true
	}
	switch f.Kind {
	case KindPath:
		if j := strings.LastIndexByte(f.key, '/'); j >= 0 {
			if k := strings.LastIndexByte(f.key[:j], '/'); k >= 0 {
				return containsWord(text, f.key[k+1:])
			}
		}
	case KindIdentifier:
		return f.alt != "" && containsWord(text, f.alt)
	}
	return false
}
