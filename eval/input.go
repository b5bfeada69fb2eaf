package eval

import (
	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// DefaultKeepTokens is pi's default keepRecentTokens: the estimated tokens of the newest
// messages that stay verbatim after a compaction.
const DefaultKeepTokens = 20000

// Input is one summary to score, with the conversation it summarizes.
type Input struct {
	// ID names the case in reports: a corpus id, or FILE#compaction-N for a session.
	ID string
	// Source says where the input was read: a case file, or FILE:LINE of the compaction.
	Source string
	// Conversation is every message the model had in context when it was asked for the
	// summary, oldest first, kept tail included.
	Conversation []corpus.Message
	// Cut is the index of the first kept message: Conversation[:Cut] is summarized and
	// Conversation[Cut:] stays verbatim after the summary. It is len(Conversation) when
	// nothing is kept. A negative Cut means unknown: Score computes it with Boundary.
	Cut int
	// PreviousSummary is the summary of an earlier compaction that the model had in context
	// (pi sessions); Score reports how much of it survived.
	PreviousSummary string
	// Response is the model's answer to the compaction instruction.
	Response string
	// Summary is the already extracted summary; nil runs Options.Extractor on Response.
	Summary *string
	// Probes are hand-written facts the summary must hold, on top of the extracted ones.
	Probes []corpus.Probe
	// Flaws are a reader's judgement of the summary (corpus summary_flaws), passed through
	// to the result for reports.
	Flaws []string
}

// Options tune Score. The zero value scores with the seed extractor, pi's default kept
// tail and the default boundary window.
type Options struct {
	// Extractor takes the summary out of Input.Response; a zero Extractor is seed.
	Extractor compact.Extractor
	// BoundaryWindow is how many messages just before the cut count as the work in
	// progress for boundary_coverage; 0 means a quarter of the summarized messages, at
	// least 3 and at most 12.
	BoundaryWindow int
	// KeepTokens is pi's keepRecentTokens for inputs with an unknown Cut; 0 means
	// DefaultKeepTokens.
	KeepTokens int
	// Redact finds the secrets of the conversation: they are removed before facts are
	// taken from it, and a summary that carries one is flawed (secrets_leaked). Nil finds
	// only credentials in URL query parameters.
	Redact Redactor
	// Sessions, when set, weighs each fact also by how many of the sessions scored
	// together mention it (NewSessionFrequency); nil weighs by the session alone.
	Sessions *SessionFrequency
	// Outline, when set, reads each summary's sections in the words of the instruction
	// that asked for it (ParseOutline); nil reads them by the titles this package knows.
	Outline *Outline
	// NoBoundary leaves boundary coverage uncounted (nothing to count, so the score
	// leaves its term out): for comparing summaries of which eval cannot tell the recent
	// part of one (Outline.Recent).
	NoBoundary bool
}

func (o Options) extractor() compact.Extractor {
	if o.Extractor.Extract != nil {
		return o.Extractor
	}
	seed, ok := compact.Lookup("seed")
	if !ok {
		panic("eval: the seed extractor is not registered")
	}
	return seed
}

func (o Options) keepTokens() int {
	if o.KeepTokens > 0 {
		return o.KeepTokens
	}
	return DefaultKeepTokens
}

// window returns the number of messages before cut that form the boundary window.
func (o Options) window(cut int) int {
	w := o.BoundaryWindow
	if w <= 0 {
		w = min(max(cut/4, 3), 12)
	}
	return min(w, cut)
}

// FromCase returns the input for a corpus case, and false when the case has no
// conversation. The summary is left to the extractor (Input.Summary is nil); to score the
// case's intended summary instead, set Summary to &c.Intended.Summary.
func FromCase(c *corpus.Case) (Input, bool) {
	if len(c.Conversation) == 0 {
		return Input{}, false
	}
	cut := len(c.Conversation) - c.KeptTail
	cut = min(max(cut, 0), len(c.Conversation))
	return Input{
		ID:           c.ID,
		Source:       c.File,
		Conversation: c.Conversation,
		Cut:          cut,
		Response:     c.Response,
		Probes:       c.Probes,
		Flaws:        c.SummaryFlaws,
	}, true
}

// EstimateTokens is pi's estimate of a message's size: its characters (UTF-16 code units,
// as JavaScript counts them) divided by 4, rounded up. Tool calls count their name and
// input, as pi counts the name and the JSON of the arguments.
func EstimateTokens(m corpus.Message) int {
	chars := utf16Len(m.Text)
	for _, tc := range m.ToolCalls {
		chars += utf16Len(tc.Name) + utf16Len(tc.Input)
	}
	return (chars + 3) / 4
}

// EstimateTextTokens is EstimateTokens for a bare text, such as a summary.
func EstimateTextTokens(s string) int { return (utf16Len(s) + 3) / 4 }

// utf16Len returns the length of s in UTF-16 code units: one per rune, two for a rune
// outside the Basic Multilingual Plane. Invalid bytes count one each.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x80 || c >= 0xC0 && c < 0xF0:
			n++ // an ASCII byte or the lead byte of a 2- or 3-byte sequence
		case c >= 0xF0:
			n += 2 // the lead byte of a 4-byte sequence: a surrogate pair
		}
	}
	return n
}

// Boundary returns the index of the first kept message when the newest keepTokens
// estimated tokens stay verbatim, as pi's findCutPoint computes it: walk back from the
// newest message adding EstimateTokens until keepTokens is reached, then cut at the first
// user or assistant message at or after that point, never at a tool result, so tool
// results stay with their call. keepTokens <= 0 means DefaultKeepTokens.
//
// When the whole conversation fits, Boundary returns the first cut point (usually 0):
// everything is kept and nothing summarized. Like pi, it also keeps everything when the
// budget is reached inside trailing tool results with no user or assistant message after
// them. Without any user or assistant message it returns 0.
func Boundary(msgs []corpus.Message, keepTokens int) int {
	if keepTokens <= 0 {
		keepTokens = DefaultKeepTokens
	}
	first := -1
	for i, m := range msgs {
		if m.Role != corpus.RoleTool {
			first = i
			break
		}
	}
	if first < 0 {
		return 0
	}
	acc := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		acc += EstimateTokens(msgs[i])
		if acc < keepTokens {
			continue
		}
		for j := i; j < len(msgs); j++ {
			if msgs[j].Role != corpus.RoleTool {
				return j
			}
		}
		return first // reproduces pi: no cut point after the budget keeps everything
	}
	return first
}
