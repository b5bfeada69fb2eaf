package drift

import (
	"strings"
	"unicode/utf8"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// Kind says what a Part of a response is.
type Kind int

const (
	// Prose is text around the blocks ("Here is the summary:"); never summary.
	Prose Kind = iota
	// Analysis is an analysis block.
	Analysis
	// Summary is a summary block: the real one, or a draft that a retry replaces.
	Summary
	// Example is the prompt's <example> template, echoed; never summary.
	Example
	// Fence is one Markdown fence line.
	Fence
)

// Part is one piece of a response. A block is rendered as its opener line (OpenIndent, Open,
// OpenTrail and the Doc's EOL), Lead, the body, then the Doc's EOL and the closer line
// (CloseIndent, Close, CloseTrail). Other parts are their body alone.
type Part struct {
	Kind Kind
	// Open and Close are the block's tag spellings; "" when the model left the tag out.
	Open, Close string
	// OpenIndent and OpenTrail surround the opener on its line; CloseIndent and CloseTrail
	// surround the closer.
	OpenIndent, OpenTrail, CloseIndent, CloseTrail string
	// Lead stands between the opener line and the body: invisible characters that are not
	// body (a BOM).
	Lead string
	// Body is the text with "\n" line ends; rendering replaces them with the Doc's BodyEOL
	// (with EOL for an Example, which is mostly tag lines).
	Body string
}

// Doc is a response under construction: its parts in order and how they are written.
type Doc struct {
	Parts []*Part
	// EOL ends tag lines and separates parts: a blank line between parts, one line terminator
	// next to a fence line.
	EOL string
	// BodyEOL ends the lines inside bodies.
	BodyEOL string
	// Start comes before everything (a BOM).
	Start string
	// FinalEOL ends the response with an EOL.
	FinalEOL bool
	// Ambiguous is set by an operator that leaves the intended summary unknowable in a way
	// the structure does not show.
	Ambiguous bool

	analysis, summary *Part
	cuts              []cut
}

// cut is a truncation point, resolved when the Doc is rendered.
type cut struct {
	// part is the part whose span r falls in (nil: the whole response).
	part *Part
	r    uint64
	// afterBody cuts right after part's body instead.
	afterBody bool
}

// NewDoc returns the well-formed response of p: "<analysis>\n", the analysis, "\n</analysis>",
// a blank line, "<summary>\n", the summary, "\n</summary>".
func NewDoc(p Pair) *Doc {
	a := &Part{Kind: Analysis, Open: "<analysis>", Close: "</analysis>", Body: p.Analysis}
	s := &Part{Kind: Summary, Open: "<summary>", Close: "</summary>", Body: p.Summary}
	return &Doc{Parts: []*Part{a, s}, EOL: "\n", BodyEOL: "\n", analysis: a, summary: s}
}

// AnalysisPart returns the analysis block of the pair.
func (d *Doc) AnalysisPart() *Part { return d.analysis }

// SummaryPart returns the real summary block: the pair's summary, the one a reader should
// take when the response is complete.
func (d *Doc) SummaryPart() *Part { return d.summary }

// Index returns the position of p in d.Parts, or -1.
func (d *Doc) Index(p *Part) int {
	for i, q := range d.Parts {
		if q == p {
			return i
		}
	}
	return -1
}

// Insert puts parts at position i of d.Parts.
func (d *Doc) Insert(i int, parts ...*Part) {
	d.Parts = append(d.Parts[:i], append(parts, d.Parts[i:]...)...)
}

// CutIn truncates the response at a point of p's span chosen by r: from the start of its
// opener line to just before the end of its closer line, so that something is always cut.
func (d *Doc) CutIn(p *Part, r uint64) { d.cuts = append(d.cuts, cut{part: p, r: r}) }

// CutAnywhere truncates the response before a byte chosen by r.
func (d *Doc) CutAnywhere(r uint64) { d.cuts = append(d.cuts, cut{r: r}) }

// CutAfterBody truncates the response right after p's body.
func (d *Doc) CutAfterBody(p *Part) { d.cuts = append(d.cuts, cut{part: p, afterBody: true}) }

// span holds a rendered part's offsets in the response.
type span struct {
	start     int // the opener line, or the body when there is no opener
	openEnd   int // just past the opener tag
	bodyStart int
	bodyEnd   int
	closeEnd  int // just past the closer tag
	end       int
}

func (d *Doc) separator(prev, next *Part) string {
	if prev.Kind == Fence || next.Kind == Fence {
		return d.EOL
	}
	return d.EOL + d.EOL
}

func (d *Doc) render() (string, []span) {
	var b strings.Builder
	b.WriteString(d.Start)
	spans := make([]span, len(d.Parts))
	for i, p := range d.Parts {
		if i > 0 {
			b.WriteString(d.separator(d.Parts[i-1], p))
		}
		sp := &spans[i]
		sp.start = b.Len()
		if p.Open != "" {
			b.WriteString(p.OpenIndent)
			b.WriteString(p.Open)
			sp.openEnd = b.Len()
			b.WriteString(p.OpenTrail)
			b.WriteString(d.EOL)
		}
		b.WriteString(p.Lead)
		sp.bodyStart = b.Len()
		eol := d.BodyEOL
		if p.Kind == Example {
			eol = d.EOL
		}
		b.WriteString(strings.ReplaceAll(p.Body, "\n", eol))
		sp.bodyEnd = b.Len()
		if p.Close != "" {
			b.WriteString(d.EOL)
			b.WriteString(p.CloseIndent)
			b.WriteString(p.Close)
			sp.closeEnd = b.Len()
			b.WriteString(p.CloseTrail)
		}
		sp.end = b.Len()
	}
	if d.FinalEOL {
		b.WriteString(d.EOL)
	}
	return b.String(), spans
}

// cutAt returns the length of the response after the earliest cut, on a rune boundary.
func (d *Doc) cutAt(out string, spans []span) int {
	c := len(out)
	for _, k := range d.cuts {
		pos := len(out)
		switch i := d.Index(k.part); {
		case k.part == nil:
			pos = int(k.r % uint64(max(len(out), 1)))
		case i < 0:
			continue
		case k.afterBody:
			pos = spans[i].bodyEnd
		default:
			sp := spans[i]
			pos = sp.start + int(k.r%uint64(max(sp.end-sp.start, 1)))
		}
		c = min(c, pos)
	}
	for c > 0 && c < len(out) && !utf8.RuneStart(out[c]) {
		c--
	}
	return c
}

// Sample renders the Doc, truncates it at its earliest cut and judges the intended summary
// (see the package doc). Ops is left empty.
func (d *Doc) Sample() Sample {
	out, spans := d.render()
	c := d.cutAt(out, spans)
	intended, ambiguous := d.judge(out, spans, c)
	return Sample{
		Response:  out[:c],
		Intended:  intended,
		Ambiguous: ambiguous || d.Ambiguous,
		Analysis:  d.analysisLines(),
	}
}

// response is Sample().Response, without the rest.
func (d *Doc) response() string {
	out, spans := d.render()
	return out[:d.cutAt(out, spans)]
}

// judge returns the intended result of the response out[:c].
func (d *Doc) judge(out string, spans []span, c int) (corpus.Intended, bool) {
	started := func(i int) bool {
		if d.Parts[i].Open != "" {
			return spans[i].openEnd <= c
		}
		return spans[i].bodyStart < c
	}
	closed := func(i int) bool { return d.Parts[i].Close != "" && spans[i].closeEnd <= c }

	last, complete := -1, -1
	for i, p := range d.Parts {
		if p.Kind == Summary && started(i) {
			last = i
			if closed(i) {
				complete = i
			}
		}
	}
	chosen := complete
	ambiguous := false
	if chosen >= 0 {
		// A later block that the model never closed (not one the cut closed early) may be the
		// retry it meant: the last complete block is only a guess then.
		for j := chosen + 1; j < len(d.Parts); j++ {
			if d.Parts[j].Kind == Summary && started(j) && d.Parts[j].Close == "" {
				ambiguous = true
			}
		}
	} else {
		chosen = last
	}
	if chosen < 0 {
		return corpus.Intended{}, ambiguous
	}
	p, sp := d.Parts[chosen], spans[chosen]
	if p.Open == "" && (!closed(chosen) || !d.anchored(chosen, closed) || !namesSummary(p.Close) || hasOpenerLine(p.Body)) {
		// Untagged text, no mark where the summary starts, a closer naming another block, or
		// an opener line in the body (HTML) that a reader would take for the real one.
		ambiguous = true
	}
	end := min(c, sp.bodyEnd)
	if p.Close == "" && chosen+1 < len(d.Parts) && spans[chosen+1].start < c {
		next := d.Parts[chosen+1]
		if next.Kind == Prose || (next.Kind == Analysis || next.Kind == Summary) && next.Open == "" {
			ambiguous = true // nothing tells where an unclosed summary ends before untagged text
		}
	}
	if sp.bodyStart >= end {
		return corpus.Intended{}, ambiguous
	}
	body := out[sp.bodyStart:end]
	if !closed(chosen) {
		// The body ends where the response was cut or where the model stopped writing it.
		closer := p.Close
		if closer == "" {
			closer = "</summary>"
		}
		body = stripCloserFragment(body, closer)
		body = trimCut(body, d.BodyEOL)
	}
	s := compact.TrimJS(body)
	return corpus.Intended{Found: s != "", Summary: s}, ambiguous
}

// anchored reports whether the opener-less block at i starts at a mark a reader sees: the
// start of the response, a closed block, an echoed example or a fence line.
func (d *Doc) anchored(i int, closed func(int) bool) bool {
	if i == 0 {
		return true
	}
	switch prev := d.Parts[i-1]; prev.Kind {
	case Example, Fence:
		return true
	case Analysis, Summary:
		return closed(i - 1)
	}
	return false
}

// namesSummary reports whether a closer names the summary, in any letter case.
func namesSummary(tag string) bool { return strings.Contains(strings.ToLower(tag), "summary") }

// hasOpenerLine reports whether a line of body starts with a summary opener.
func hasOpenerLine(body string) bool {
	found := false
	eachLine(body, func(l string) {
		found = found || strings.HasPrefix(strings.ToLower(l), "<summary")
	})
	return found
}

// stripCloserFragment removes a proper prefix of closer, at least "</", that the cut left at
// the start of the body's last line (after spaces and tabs).
func stripCloserFragment(body, closer string) string {
	for n := len(closer) - 1; n >= 2; n-- {
		frag := closer[:n]
		if !strings.HasSuffix(body, frag) {
			continue
		}
		rest := strings.TrimRight(body[:len(body)-n], " \t")
		if rest == "" || isLineTerminatorEnd(rest) {
			return rest
		}
	}
	return body
}

// isLineTerminatorEnd reports whether s ends with a line terminator of any kind a model
// writes.
func isLineTerminatorEnd(s string) bool {
	for _, t := range []string{"\n", "\r", "\u2028", "\u2029", "\u0085"} {
		if strings.HasSuffix(s, t) {
			return true
		}
	}
	return false
}

// trimCut removes the line terminators and JavaScript whitespace at the end of a cut body.
// eol is removed even where JavaScript's trim keeps it (U+0085): there it ends a line.
func trimCut(body, eol string) string {
	for {
		t := compact.TrimJS(body)
		t = strings.TrimSuffix(t, eol)
		if t == body {
			return body
		}
		body = t
	}
}

// MinAnalysisLine is the shortest analysis line the leak check looks for: shorter lines
// ("```", "1.", "Done.") occur in any text.
const MinAnalysisLine = 16

// analysisLines returns Sample.Analysis: the distinct analysis lines of at least
// MinAnalysisLine bytes that are not lines of a summary block.
func (d *Doc) analysisLines() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range d.Parts {
		if p.Kind == Analysis {
			eachLine(p.Body, func(l string) {
				if len(l) >= MinAnalysisLine && !seen[l] {
					seen[l] = true
					out = append(out, l)
				}
			})
		}
	}
	if len(out) == 0 {
		return nil
	}
	for _, p := range d.Parts {
		if p.Kind == Summary {
			eachLine(p.Body, func(l string) { delete(seen, l) })
		}
	}
	kept := out[:0]
	for _, l := range out {
		if seen[l] {
			kept = append(kept, l)
		}
	}
	return kept
}

// Lines splits s at every line terminator ("\r\n", "\n", "\r", U+2028, U+2029, U+0085) and
// returns the lines trimmed with compact.TrimJS, without the empty ones.
func Lines(s string) []string {
	var out []string
	eachLine(s, func(l string) { out = append(out, l) })
	return out
}

// eachLine calls f with each line Lines would return, in order. A terminator starts with
// one of four bytes; it keeps the next place of each (strings.IndexByte, a vector search)
// and looks again only for one it has passed, so that a text is read a few times at the
// speed of IndexByte rather than once a byte at a time.
func eachLine(s string, f func(string)) {
	emit := func(l string) {
		if l = compact.TrimJS(l); l != "" {
			f(l)
		}
	}
	const nStarts = 4
	starts := [nStarts]byte{'\n', '\r', 0xc2, 0xe2}
	var next [nStarts]int
	find := func(k, from int) {
		if j := strings.IndexByte(s[from:], starts[k]); j >= 0 {
			next[k] = from + j
		} else {
			next[k] = len(s)
		}
	}
	for k := range starts {
		find(k, 0)
	}
	start := 0
	for {
		i, k := next[0], 0
		for j := 1; j < nStarts; j++ {
			if next[j] < i {
				i, k = next[j], j
			}
		}
		if i >= len(s) {
			break
		}
		n := compact.TerminatorLen(s, i)
		if n == 0 {
			find(k, i+1)
			continue
		}
		emit(s[start:i])
		start = i + n
		for j := range starts {
			if next[j] < start {
				find(j, start)
			}
		}
	}
	emit(s[start:])
}
