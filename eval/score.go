package eval

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
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

// Weighted is a share of weighted facts: Hit is the sum of the weights of the facts held,
// Of the sum of the weights of the facts counted. Its value is undefined when Of is 0.
type Weighted struct {
	Hit float64
	Of  float64
}

// Value returns Hit/Of, and false when Of is 0.
func (w Weighted) Value() (float64, bool) {
	if w.Of == 0 {
		return 0, false
	}
	return w.Hit / w.Of, true
}

// MarshalJSON writes {"hit":3.2,"of":7.5,"value":0.4267}, each rounded to four decimals,
// the value null when Of is 0.
func (w Weighted) MarshalJSON() ([]byte, error) {
	var v *float64
	if x, ok := w.Value(); ok {
		x = round4(x)
		v = &x
	}
	return json.Marshal(struct {
		Hit   float64  `json:"hit"`
		Of    float64  `json:"of"`
		Value *float64 `json:"value"`
	}{round4(w.Hit), round4(w.Of), v})
}

// UnmarshalJSON reads what MarshalJSON writes; the value is derived, so it is ignored.
func (w *Weighted) UnmarshalJSON(b []byte) error {
	var v struct {
		Hit float64 `json:"hit"`
		Of  float64 `json:"of"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*w = Weighted{v.Hit, v.Of}
	return nil
}

func (w *Weighted) count(weight float64, hit bool) {
	w.Of += weight
	if hit {
		w.Hit += weight
	}
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

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
	// WindowGrownFrom is the window the options gave, when it held fewer than
	// MinWindowFacts facts and grew back to reach them; 0 when it did not grow.
	WindowGrownFrom int `json:"boundary_window_grown_from,omitempty"`
	// NotEnoughToJudge is set when the summarized messages hold fewer than MinWindowFacts
	// facts in all: no judgement can rest on so few, so Score is nil (never 0) and
	// totals and validity tables count the case apart.
	NotEnoughToJudge bool `json:"not_enough_to_judge,omitempty"`
	// Found reports whether there is a summary; Path is the extractor's branch
	// (compact.Path names) or "given" for a summary that came extracted.
	Found     bool   `json:"summary_found"`
	Extractor string `json:"extractor,omitempty"`
	Path      string `json:"path"`

	// Coverage is the share of the facts of the summarized messages that the summary
	// holds. BoundaryCoverage is the share of the facts of the window that the summary's
	// recent part holds: where its format puts recent work (the package documentation
	// lists them; a summary without known headings is read whole). CoverageCurve is coverage by
	// decile of the summarized messages, a fact counted where it was last said.
	Coverage         Share     `json:"coverage"`
	BoundaryCoverage Share     `json:"boundary_coverage"`
	CoverageCurve    [10]Share `json:"coverage_curve"`
	// WeightedCoverage and WeightedBoundaryCoverage are coverage and boundary coverage
	// with each fact weighing by how specific it is to where it is said (Fact.Weight): a
	// fact that every message mentions tells little. The headline score reads these.
	WeightedCoverage         Weighted `json:"weighted_coverage"`
	WeightedBoundaryCoverage Weighted `json:"weighted_boundary_coverage"`
	// BoundaryFacts lists the facts of the boundary window, each with its weight and
	// whether the summary's recent part holds it.
	BoundaryFacts []WindowFact `json:"boundary_facts"`
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

	// Score is the headline score (see the package documentation), nil when neither
	// coverage nor boundary coverage has anything to count.
	Score *float64 `json:"score"`
	// Format is the summary format recognised (FormatClaudeFull, FormatPiSummary, ...).
	Format string `json:"format"`
	// Copied is the share of the summary's words that lie in runs of CopyRun or more words
	// copied from an assistant or tool message; those words earn no coverage.
	Copied Share `json:"copied"`
	// Analysis scores the Analysis: part of the stored Claude Code form on its own; nil
	// when there is none. The measures above read only what follows it.
	Analysis *AnalysisPart `json:"analysis,omitempty"`
	// SecretsLeaked counts the secrets of the conversation (as internal/redact finds them)
	// that the summary carries; Flaws then holds "secrets_leaked".
	SecretsLeaked int `json:"secrets_leaked"`

	Sections Sections `json:"sections"`
	// SummaryTokens and SummarizedTokens are estimated as pi does (characters / 4);
	// the summarized part counts the previous summary. CompressionRatio is their
	// quotient, nil for an empty summary.
	SummaryTokens    int      `json:"summary_tokens"`
	SummarizedTokens int      `json:"summarized_tokens"`
	CompressionRatio *float64 `json:"compression_ratio"`

	// Flaws are the case's labelled flaws, then FlawSecretsLeaked when the summary carries
	// a secret.
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
		return given(*in.Summary, r)
	}
	ex := opt.extractor()
	e := ex.Extract(in.Response)
	r.Found, r.Path, r.Extractor = e.OK, e.Path.String(), ex.Name
	return e.Summary
}

// given returns a given summary to score and records it in r.
func given(summary string, r *Result) string {
	s := strings.TrimSpace(summary)
	r.Found, r.Path = s != "", "given"
	return s
}

// WindowFact is a fact of the boundary window and whether the summary's recent part
// holds it; its Message is the first message of the window that says it.
type WindowFact struct {
	Fact
	Held bool `json:"held"`
}

// AnalysisPart is the Analysis: part of a stored Claude Code summary.
type AnalysisPart struct {
	Tokens   int   `json:"tokens"`
	Coverage Share `json:"coverage"`
}

// FlawSecretsLeaked is the flaw of a summary that carries a secret of the conversation.
const FlawSecretsLeaked = "secrets_leaked"

// Score scores one summary. It is deterministic and does not change in.
func Score(in Input, opt Options) Result {
	p := prepare(in, opt)
	var r Result
	summary := in.summary(opt, &r)
	return p.score(summary, r)
}

// ScoreSummaries scores several summaries of one input: its i-th result is what Score
// returns for in with Summary set to summaries[i]. What scoring computes from the
// conversation alone (its redaction, its facts, the boundary) is computed once, so it
// costs less than a Score per summary (the samples of one input in an A/B review).
func ScoreSummaries(in Input, summaries []string, opt Options) []Result {
	sc := NewScorer(in, opt)
	out := make([]Result, len(summaries))
	for i, s := range summaries {
		out[i] = sc.Score(s, opt.Outline)
	}
	return out
}

// A Scorer scores summaries of one input, computing once what scoring takes from the
// conversation alone (its redaction, its facts, the boundary). Its methods may be called
// from several goroutines at once.
type Scorer struct {
	p   *prepared
	opt Options
}

// NewScorer returns a scorer of in's summaries; opt.Extractor and opt.Outline are used by
// ScoreInput only (Score is given the summary and its outline).
func NewScorer(in Input, opt Options) *Scorer { return &Scorer{prepare(in, opt), opt} }

// ScoreInput returns what Score returns for in with the scorer's options. When in has the
// scorer's conversation, cut, probes and previous summary (another summary of the same
// session, as the corpus's eval cases are), nothing is computed from the conversation
// again; any other input is scored on its own.
func (s *Scorer) ScoreInput(in Input) Result {
	p := s.p
	if SameConversation(p.in, in) {
		q := *p
		q.in = in
		p = &q
	} else {
		p = prepare(in, s.opt)
	}
	var r Result
	summary := in.summary(s.opt, &r)
	return p.score(summary, r)
}

// SameConversation reports whether what Score computes from the conversation alone is the
// same for a and b: their conversations, cuts, probes and previous summaries are equal.
func SameConversation(a, b Input) bool {
	return a.Cut == b.Cut && a.PreviousSummary == b.PreviousSummary &&
		slices.Equal(a.Probes, b.Probes) &&
		slices.EqualFunc(a.Conversation, b.Conversation, func(x, y corpus.Message) bool {
			return x.Role == y.Role && x.Text == y.Text && x.ToolCallID == y.ToolCallID && slices.Equal(x.ToolCalls, y.ToolCalls)
		})
}

// Score returns what Score returns for the input with Summary set to summary and
// Options.Outline to outline.
func (s *Scorer) Score(summary string, outline *Outline) Result {
	var r Result
	summary = given(summary, &r)
	return s.p.scoreRead(summary, r, outline)
}

// prepared holds what scoring computes from an input's conversation, whatever the summary.
type prepared struct {
	in          Input
	conv        []corpus.Message // redacted
	cut, window int
	grownFrom   int
	notEnough   bool
	computed    bool
	facts       []Fact // each with its Weight
	constraints []Fact
	fakes       []Fact
	copies      copySources
	secrets     []secret
	sawBefore   []bool // per fact of the kept tail alone: the summarized messages mention it
	summarized  int
	outline     *Outline
	noBoundary  bool
}

func prepare(in Input, opt Options) *prepared {
	p := &prepared{in: in, outline: opt.Outline, noBoundary: opt.NoBoundary}
	p.conv, p.secrets = redactMessages(in.Conversation, opt.Redact)
	cut := in.Cut
	if cut < 0 {
		cut = Boundary(in.Conversation, opt.keepTokens())
		p.computed = true
	}
	p.cut = min(cut, len(p.conv))
	p.facts = Facts(p.conv, in.Probes)
	weigh(p.facts, p.cut, opt.Sessions)
	p.window, p.notEnough = growWindow(p.facts, p.cut, opt.window(p.cut))
	if base := opt.window(p.cut); p.window > base {
		p.grownFrom = base
	}
	p.constraints = constraints(p.conv, p.cut)
	p.fakes = fakeUserTurns(p.conv, p.cut)
	p.copies = newCopySources(p.conv)
	p.sawBefore = make([]bool, len(p.facts))
	seen := &seenBefore{msgs: p.conv[:p.cut]}
	for i := range p.facts {
		if p.facts[i].in[0] >= p.cut {
			p.sawBefore[i] = seen.saw(&p.facts[i])
		}
	}
	for _, m := range in.Conversation[:p.cut] {
		p.summarized += EstimateTokens(m)
	}
	p.summarized += (utf16Len(in.PreviousSummary) + 3) / 4
	return p
}

// score scores summary; r holds where it came from (Found, Path, Extractor).
func (p *prepared) score(summary string, r Result) Result {
	return p.scoreRead(summary, r, p.outline)
}

// scoreRead is score with the summary read by outline.
func (p *prepared) scoreRead(summary string, r Result, outline *Outline) Result {
	in := p.in
	r.ID, r.Source, r.Messages, r.Flaws = in.ID, in.Source, len(p.conv), in.Flaws
	r.Cut, r.BoundaryComputed, r.Window = p.cut, p.computed, p.window
	r.WindowGrownFrom, r.NotEnoughToJudge = p.grownFrom, p.notEnough
	cut := p.cut

	lay := readLayout(summary, outline)
	r.Format = lay.format
	r.Sections = sectionsOf(lay.headings)
	var all, credited, recent, files, userOK strings.Builder
	for _, l := range lay.lines {
		if !scored(l) {
			continue
		}
		all.WriteString(l.text + "\n")
		kept, copied, words := p.copies.maskCopied(l.text, userSection(l), true)
		r.Copied.Hit += copied
		r.Copied.Of += words
		credited.WriteString(kept + "\n")
		switch {
		case filesLine(l):
			files.WriteString(kept + "\n")
		case recentLine(l):
			recent.WriteString(kept + "\n")
		}
		if !userSection(l) && kept == "" {
			// Only a whole line copied from a user's message (or an empty line) makes
			// kept empty; otherwise the user's lines changed nothing and kept stands.
			kept, _, _ = p.copies.maskCopied(l.text, true, true)
		}
		userOK.WriteString(kept + "\n")
	}
	// The four texts are often equal (nothing copied, a summary read whole): an index
	// depends on its text alone, so equal texts share one.
	whole := newSummaryIndex(all.String()) // for what the summary re-tells: copying is no excuse
	idx := sharedIndex(credited.String(), whole)
	rec := sharedIndex(recent.String(), idx, whole)
	fx := sharedIndex(files.String(), rec, idx, whole)
	constr := sharedIndex(userOK.String(), idx, whole) // constraints are to be kept word for word
	if analysis := lay.text(func(l sline) bool { return !scored(l) }); strings.TrimSpace(analysis) != "" {
		a := &AnalysisPart{Tokens: EstimateTextTokens(analysis)}
		ax := newSummaryIndex(analysis)
		for i := range p.facts {
			if p.facts[i].in[0] < cut {
				a.Coverage.count(ax.holds(&p.facts[i]))
			}
		}
		r.Analysis = a
	}

	r.Missed, r.Leaked, r.BoundaryFacts = []Fact{}, []Fact{}, []WindowFact{}
	windowStart := cut - r.Window
	for i, f := range p.facts {
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
		if before < 0 {
			if p.sawBefore[i] {
				continue // the model saw it before the cut: re-telling it is no leak
			}
			held := whole.holds(&f)
			r.TailLeakage.count(held)
			if held {
				f.Message = f.in[0]
				r.Leaked = append(r.Leaked, f)
			}
			continue
		}
		held := idx.holds(&f)
		r.Coverage.count(held)
		r.WeightedCoverage.count(f.Weight, held)
		r.CoverageCurve[last*10/cut].count(held)
		if inWindow && !p.noBoundary {
			current := held // holds depends on the index and the fact alone
			if rec != idx {
				current = rec.holds(&f)
			}
			r.BoundaryCoverage.count(current)
			r.WeightedBoundaryCoverage.Of += f.Weight
			switch {
			case current:
				r.WeightedBoundaryCoverage.Hit += f.Weight
			case fx.text != "" && fx.holds(&f):
				r.WeightedBoundaryCoverage.Hit += filesCredit * f.Weight
			}
			wf := WindowFact{Fact: f, Held: current}
			for _, m := range f.in {
				if m >= windowStart {
					wf.Message = m // the first message of the window that says it
					break
				}
			}
			r.BoundaryFacts = append(r.BoundaryFacts, wf)
		}
		if f.Kind == KindRequest {
			r.UserMessages.count(held)
		}
		if !held {
			f.Message = before
			r.Missed = append(r.Missed, f)
		}
	}
	for _, c := range p.constraints {
		held := constr.holds(&c)
		r.ConstraintsVerbatim.count(held)
		if !held {
			r.Missed = append(r.Missed, c)
		}
	}
	r.FakeUserTurns = len(p.fakes)
	r.Misattributed = misattributed(lay, p.fakes)

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
	if r.SecretsLeaked = leakedSecrets(summary, p.secrets); r.SecretsLeaked > 0 {
		r.Flaws = append(append([]string{}, r.Flaws...), FlawSecretsLeaked)
	}

	r.SummaryTokens = EstimateTextTokens(summary)
	r.SummarizedTokens = p.summarized
	if r.SummaryTokens > 0 {
		ratio := math.Round(float64(r.SummarizedTokens)/float64(r.SummaryTokens)*100) / 100
		r.CompressionRatio = &ratio
	}
	if !r.NotEnoughToJudge {
		r.Score = headline(r)
	}
	return r
}

// filesLine reports whether a line is in section 3, Files and Code Sections: recent work by
// the instruction, but a list of files that names every file of the last messages whatever
// the summary says of the work in progress.
func filesLine(l sline) bool { return l.role == roleRecent && l.section == 3 }

// filesCredit is the share of its weight that a window fact earns in weighted boundary
// coverage when section 3 alone holds it: the section names the files of the last
// messages, but says nothing of where the work on them stands. Boundary coverage, a count,
// gives it nothing.
const filesCredit = 0.5

// sharedIndex returns the first of built whose text is text, else a new index of text.
func sharedIndex(text string, built ...*summaryIndex) *summaryIndex {
	for _, x := range built {
		if x.text == text {
			return x
		}
	}
	return newSummaryIndex(text)
}

// MinWindowFacts is the fewest facts a judgement of boundary coverage rests on. With one
// or two facts in the last messages (a job polled, short status lines), boundary coverage
// is 0 or 1 on a coin flip, and every ablation ties with the real summary.
const MinWindowFacts = 4

// growWindow returns the boundary window: w messages before cut, grown back one message at
// a time until it holds MinWindowFacts facts. When the summarized messages hold fewer in
// all, it grows to hold every one there is and reports notEnough. The window depends on the conversation
// only, never on the summary, so the measures stay monotone under deletion.
func growWindow(facts []Fact, cut, w int) (window int, notEnough bool) {
	need := make([]int, 0, len(facts)) // per fact, the window that would hold it
	for i := range facts {
		last := -1
		for _, m := range facts[i].in {
			if m < cut {
				last = m
			}
		}
		if last >= 0 {
			need = append(need, cut-last)
		}
	}
	if len(need) < MinWindowFacts {
		return max(w, min(cut, maxOf(need))), true
	}
	sort.Ints(need)
	return max(w, need[MinWindowFacts-1]), false
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// Weights of the headline score.
const (
	weightCoverage    = 2
	weightBoundary    = 2
	weightConstraints = 1
	leakPenalty       = 0.25
)

// headline returns the headline score of r, nil when neither coverage nor boundary
// coverage has anything to count. Coverage and boundary coverage enter weighted.
func headline(r Result) *float64 {
	var sum, weight float64
	cv, cok := r.WeightedCoverage.Value()
	bv, bok := r.WeightedBoundaryCoverage.Value()
	kv, kok := r.ConstraintsVerbatim.Value()
	for _, part := range []struct {
		v, w float64
		ok   bool
	}{{cv, weightCoverage, cok}, {bv, weightBoundary, bok}, {kv, weightConstraints, kok}} {
		if part.ok {
			sum += part.w * part.v
			weight += part.w
		}
	}
	_, cov := r.Coverage.Value()
	_, bound := r.BoundaryCoverage.Value()
	if !cov && !bound {
		return nil
	}
	v := sum / weight
	if leak, ok := r.TailLeakage.Value(); ok {
		v -= leakPenalty * leak
	}
	v = math.Round(max(v, 0)*1e4) / 1e4
	return &v
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
