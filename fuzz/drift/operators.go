package drift

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/compacteval/compacteval/compact"
)

// Operator is one way a drifting model departs from the format. Apply changes the Doc, drawing
// any choice from r; its doc comment states what the intended summary becomes, which
// Doc.Sample then derives from the structure.
type Operator struct {
	Name  string
	Apply func(d *Doc, r *rand.Rand)
}

// Operators returns every operator in the order compositions apply them: parts are added and
// moved first, then tags are respelled or dropped, then lines and fences are laid out, then
// line terminators and BOMs, and truncation comes last.
func Operators() []Operator {
	return []Operator{
		{"prose-before", proseBefore},
		{"prose-after", proseAfter},
		{"echo-example", echoExample},
		{"inline-mention", inlineMention},
		{"html-summary", htmlSummary},
		{"retry", retry},
		{"summary-first", summaryFirst},
		{"loop", loop},
		{"tag-case", tagCase},
		{"tag-attributes", tagAttributes},
		{"wrong-closer", wrongCloser},
		{"missing-opener", missingOpener},
		{"missing-closer", missingCloser},
		{"tag-spacing", tagSpacing},
		{"fence-block", fenceBlock},
		{"fence-all", fenceAll},
		{"crlf", crlf},
		{"line-terminators", lineTerminators},
		{"bom", bom},
		{"truncate", truncate},
	}
}

// OperatorNames returns the names of Operators, in order.
func OperatorNames() []string {
	var names []string
	for _, op := range Operators() {
		names = append(names, op.Name)
	}
	return names
}

// LookupOperator returns the operator named name.
func LookupOperator(name string) (Operator, bool) {
	for _, op := range Operators() {
		if op.Name == name {
			return op, true
		}
	}
	return Operator{}, false
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// summaries returns the summary blocks, drafts included.
func (d *Doc) summaries() []*Part {
	var out []*Part
	for _, p := range d.Parts {
		if p.Kind == Summary {
			out = append(out, p)
		}
	}
	return out
}

// insertParagraph puts text into body at a paragraph break chosen by r (or at the end, when
// atEnd or when body has none), as a paragraph of its own.
func insertParagraph(r *rand.Rand, body, text string, atEnd bool) string {
	var breaks []int
	for i := 0; ; {
		j := strings.Index(body[i:], "\n\n")
		if j < 0 {
			break
		}
		breaks = append(breaks, i+j)
		i += j + 2
	}
	if atEnd || len(breaks) == 0 {
		if body == "" {
			return text
		}
		return body + "\n\n" + text
	}
	i := pick(r, breaks)
	return body[:i] + "\n\n" + text + body[i:]
}

var proseBeforeTexts = []string{
	"Here is my analysis of the conversation, followed by the summary.",
	"Sure. I'll write the analysis first and then the summary, as plain text.",
	"I have all the context I need, so no tools are necessary.\n\nLet me organize my thoughts first.",
	"Understood: text only, no tool calls.",
}

// proseBefore puts a sentence or two of prose before everything. Intended: unchanged; prose
// before the blocks is not summary.
func proseBefore(d *Doc, r *rand.Rand) {
	d.Insert(0, &Part{Kind: Prose, Body: pick(r, proseBeforeTexts)})
}

var proseAfterTexts = []string{
	"Let me know if you want me to continue with the next step.",
	"I did not call any tools, as instructed. Ready to continue when you are.",
	"That is the full summary. The most important thing to carry over is the list of user messages in section 6.",
	"---\n\nNext, I will pick up exactly where section 9 leaves off.",
}

// proseAfter appends a closing remark after everything. Intended: unchanged; prose after the
// blocks is not summary. After an unclosed summary nothing marks where the summary ends, so
// that sample is ambiguous (see missingCloser).
func proseAfter(d *Doc, r *rand.Rand) {
	d.Parts = append(d.Parts, &Part{Kind: Prose, Body: pick(r, proseAfterTexts)})
}

// exampleTemplate is the prompt's first <example>, tags included.
var exampleTemplate = func() string {
	s := compact.Instruction
	i := strings.Index(s, "<example>\n")
	j := strings.Index(s[max(i, 0):], "</example>")
	if i < 0 || j < 0 {
		panic("drift: the compaction instruction holds no <example> template")
	}
	return s[i : i+j+len("</example>")]
}()

// echoExample echoes the prompt's <example> template, [placeholders] and all, wrapped in its
// <example> tags or bare (its own <analysis> and <summary> blocks), before the analysis or
// between the analysis and the summary. Intended: unchanged; the template is not the
// summary, the real block is, even when the template's summary block is the last complete one
// because the real one was cut.
func echoExample(d *Doc, r *rand.Rand) {
	text := exampleTemplate
	if r.IntN(3) == 0 {
		text = strings.TrimPrefix(text, "<example>\n")
		text = strings.TrimSuffix(text, "\n</example>")
	}
	i := d.Index(d.analysis)
	if r.IntN(3) == 0 {
		i++
	}
	d.Insert(i, &Part{Kind: Example, Body: text})
}

var mentions = []string{
	"Next I'll wrap the final answer in `<analysis>` and `<summary>` tags as requested.",
	"The <summary> block below must keep the user's security constraints verbatim.",
	"<summary> has to hold all nine sections, so I'll double-check section 6 against the transcript.",
	"I must make sure the </summary> tag comes right after section 9.",
	"</summary> goes last, and nothing after it.",
	"Format reminder: <summary>...</summary> after this analysis.",
}

// inlineMention adds a sentence naming the tags to the analysis (at its end or at a paragraph
// break): in backticks, mid-line, or at the start of a line followed by more words. Intended:
// unchanged; a mention inside the analysis is analysis.
func inlineMention(d *Doc, r *rand.Rand) {
	d.analysis.Body = insertParagraph(r, d.analysis.Body, pick(r, mentions), r.IntN(2) == 0)
}

var htmlDetails = []string{
	"<details><summary>Full stack trace</summary>\n\n```\npanic: runtime error: index out of range [3] with length 3\n```\n\n</details>",
	"<details>\n<summary>\nEarlier decisions (collapsed)\n</summary>\n\n- Kept the public API unchanged.\n- Left the CI matrix alone.\n</details>",
	"   Background: <details><summary>why the retry budget is shared</summary>every attempt reuses the caller's deadline</details>",
}

// htmlSummary puts an HTML <details><summary>...</summary> element into the summary body at a
// paragraph break: on one line, inline in a sentence, or with <summary> and </summary> alone on
// their lines. Intended: the body with the element; HTML in the body is body.
func htmlSummary(d *Doc, r *rand.Rand) {
	d.summary.Body = insertParagraph(r, d.summary.Body, pick(r, htmlDetails), false)
}

var retryTexts = []string{
	"Wait, I left out the user's constraints. Let me redo the summary.",
	"Let me rewrite that summary more carefully.",
	"Actually, that summary is incomplete. Here is the full version:",
}

// retry writes a complete draft summary block (the first half of the summary's lines) and a
// sentence announcing a retry before the summary. Intended: the last complete summary block,
// which is the real one unless a later operator cuts or unclosed it; the draft and the
// sentence are not summary.
func retry(d *Doc, r *rand.Rand) {
	draft := *d.summary
	draft.Body = draftOf(d.summary.Body)
	d.Insert(d.Index(d.summary), &draft, &Part{Kind: Prose, Body: pick(r, retryTexts)})
}

// draftOf returns the first half of body's lines, or body with a note when that is all of it.
func draftOf(body string) string {
	lines := strings.Split(body, "\n")
	draft := compact.TrimJS(strings.Join(lines[:(len(lines)+1)/2], "\n"))
	if draft == "" || draft == compact.TrimJS(body) {
		return body + "\n\n(Draft: details to follow.)"
	}
	return draft
}

// summaryFirst moves the analysis block after the last summary block. Intended: unchanged; the
// order of the blocks does not change which one is the summary.
func summaryFirst(d *Doc, r *rand.Rand) {
	i := d.Index(d.analysis)
	d.Parts = append(d.Parts[:i], d.Parts[i+1:]...)
	last := 0
	for j, p := range d.Parts {
		if p.Kind == Summary {
			last = j + 1
		}
	}
	d.Insert(last, d.analysis)
}

// loop repeats one line of the summary (or, one time in four, of the analysis) tens to
// hundreds of times, at most about twice the block's size. Two times in three the model never
// recovers: the response is cut inside the next repetition. Otherwise the body goes on after
// the loop and the block closes. Intended: the body as written up to the cut, repetitions
// included; a runaway loop in the analysis ends the response before any summary (found
// false), unless a summary block came first.
func loop(d *Doc, r *rand.Rand) {
	p := d.summary
	if r.IntN(4) == 0 && compact.TrimJS(d.analysis.Body) != "" {
		p = d.analysis
	}
	lines := strings.Split(p.Body, "\n")
	var candidates []int
	for i, l := range lines {
		if compact.TrimJS(l) != "" {
			candidates = append(candidates, i)
		}
	}
	if len(candidates) == 0 {
		return
	}
	i := pick(r, candidates)
	line := lines[i]
	n := max(2, min((2*len(p.Body)+4096)/(len(line)+1), 20+r.IntN(300)))
	head := strings.Join(lines[:i+1], "\n") + strings.Repeat("\n"+line, n)
	if r.IntN(3) == 0 {
		if i+1 < len(lines) {
			head += "\n" + strings.Join(lines[i+1:], "\n")
		}
		p.Body = head
		return
	}
	k := r.IntN(len(line) + 1)
	for k > 0 && k < len(line) && !utf8.RuneStart(line[k]) {
		k--
	}
	p.Body = head + "\n" + line[:k]
	d.CutAfterBody(p)
}

// recase applies f to the letters of a tag; a missing tag stays missing.
func recase(tag string, f func(string) string) string {
	if tag == "" {
		return ""
	}
	return f(tag)
}

// title upper-cases the first letter of a tag.
func title(tag string) string {
	i := strings.IndexFunc(tag, unicode.IsLetter)
	if i < 0 {
		return tag
	}
	return tag[:i] + strings.ToUpper(tag[i:i+1]) + tag[i+1:]
}

// tagCase respells the summary tags (drafts included) in upper case or title case, only the
// opener in upper case, or every tag, the analysis's too, in upper case. Intended: unchanged;
// a reader takes <SUMMARY> for <summary>.
func tagCase(d *Doc, r *rand.Rand) {
	variant := r.IntN(4)
	for _, p := range d.summaries() {
		switch variant {
		case 0, 3:
			p.Open, p.Close = recase(p.Open, strings.ToUpper), recase(p.Close, strings.ToUpper)
		case 1:
			p.Open, p.Close = recase(p.Open, title), recase(p.Close, title)
		case 2:
			p.Open = recase(p.Open, strings.ToUpper)
		}
	}
	if variant == 3 {
		a := d.analysis
		a.Open, a.Close = recase(a.Open, strings.ToUpper), recase(a.Close, strings.ToUpper)
	}
}

// withAttr adds attr inside an opener; a missing opener stays missing.
func withAttr(tag, attr string) string {
	if !strings.HasSuffix(tag, ">") {
		return tag
	}
	return tag[:len(tag)-1] + " " + attr + ">"
}

// tagAttributes gives the summary openers (drafts included) an attribute, such as
// type="final", and one time in four the analysis opener too. Intended: unchanged;
// <summary type="final"> opens the summary.
func tagAttributes(d *Doc, r *rand.Rand) {
	attr := pick(r, []string{`type="final"`, `lang="en"`, `id="compaction-summary"`})
	for _, p := range d.summaries() {
		p.Open = withAttr(p.Open, attr)
	}
	if r.IntN(4) == 0 {
		d.analysis.Open = withAttr(d.analysis.Open, `type="scratchpad"`)
	}
}

// wrongCloser closes the analysis with </think> or </summary>, or the summary with
// </analysis>. Intended: unchanged; the reader knows which block a mistyped closer ends.
func wrongCloser(d *Doc, r *rand.Rand) {
	switch r.IntN(3) {
	case 0:
		if d.analysis.Close != "" {
			d.analysis.Close = "</think>"
		}
	case 1:
		if d.analysis.Close != "" {
			d.analysis.Close = "</summary>"
		}
	default:
		if d.summary.Close != "" {
			d.summary.Close = "</analysis>"
		}
	}
}

// missingOpener leaves out the summary's opener (or, one time in four, the analysis's).
// Intended for the summary, as the corpus judges an orphan closer: the body between the end of
// the part before it (a closed block, the echoed example, a fence line, or the start of the
// response) and the closer. Ambiguous when prose or an unclosed block comes before it (no mark
// where the summary starts), when its closer is missing, cut, or names another block
// (</analysis>), or when a line of the body starts with <summary (HTML that a reader would
// take for the opener). For the analysis: unchanged.
func missingOpener(d *Doc, r *rand.Rand) {
	p := d.summary
	if r.IntN(4) == 0 {
		p = d.analysis
	}
	p.Open = ""
}

// missingCloser leaves out the summary's closer (or, one time in three, the analysis's); half
// the time the response then ends with a line terminator. Intended for the summary: the body
// to the end of the response, or to the next tagged block or fence line. Ambiguous when
// prose follows (no mark where the summary ends) or when an earlier summary block is complete
// (the last complete block, or the unclosed retry). For the analysis: unchanged; the summary
// opener ends it.
func missingCloser(d *Doc, r *rand.Rand) {
	if r.IntN(3) == 0 {
		d.analysis.Close = ""
		return
	}
	d.summary.Close = ""
	d.FinalEOL = r.IntN(2) == 0
}

var (
	indents = []string{"  ", "    ", "\t", " \t", "\u00a0"}
	trails  = []string{" ", "  ", "\t", " \t"}
)

// tagSpacing indents the tag lines and/or leaves spaces and tabs after the tags, on the
// summary blocks, the analysis, or every block. Intended: unchanged; blanks on the tag lines
// are not body.
func tagSpacing(d *Doc, r *rand.Rand) {
	var blocks []*Part
	switch r.IntN(3) {
	case 0:
		blocks = d.summaries()
	case 1:
		blocks = []*Part{d.analysis}
	default:
		blocks = append(d.summaries(), d.analysis)
	}
	mode := r.IntN(3) // indent, trail, both
	for _, p := range blocks {
		if mode != 1 {
			p.OpenIndent, p.CloseIndent = pick(r, indents)+p.OpenIndent, pick(r, indents)+p.CloseIndent
		}
		if mode != 0 {
			p.OpenTrail, p.CloseTrail = p.OpenTrail+pick(r, trails), p.CloseTrail+pick(r, trails)
		}
	}
}

var fences = [][2]string{{"```", "```"}, {"```xml", "```"}, {"```markdown", "```"}, {"~~~", "~~~"}}

// fenceBlock wraps the summary (or, one time in three, the analysis) in a Markdown fence.
// Intended: unchanged; fence lines are not body, and they end an unclosed summary.
func fenceBlock(d *Doc, r *rand.Rand) {
	p := d.summary
	if r.IntN(3) == 0 {
		p = d.analysis
	}
	f := pick(r, fences)
	i := d.Index(p)
	d.Insert(i+1, &Part{Kind: Fence, Body: f[1]})
	d.Insert(i, &Part{Kind: Fence, Body: f[0]})
}

// fenceAll wraps every block, from the first to the last (prose stays outside), in one
// Markdown fence; one time in four the fence is never closed. Intended: unchanged.
func fenceAll(d *Doc, r *rand.Rand) {
	first, last := -1, -1
	for i, p := range d.Parts {
		if p.Kind == Analysis || p.Kind == Summary || p.Kind == Example {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	f := pick(r, fences)
	if r.IntN(4) != 0 {
		d.Insert(last+1, &Part{Kind: Fence, Body: f[1]})
	}
	d.Insert(first, &Part{Kind: Fence, Body: f[0]})
}

// crlf ends every line with CRLF. Intended: the body with CRLF line ends, as written.
func crlf(d *Doc, r *rand.Rand) {
	d.EOL, d.BodyEOL = "\r\n", "\r\n"
}

// lineTerminators ends lines with CR, U+2028, U+2029, U+0085 (NEL) or CR CR LF throughout, or
// with CRLF on the tag lines only, or with CRLF inside bodies only. Intended: the body with
// its line terminators as written; the ones between the tags and the body are not body (NEL
// included, as FORMAT.md says).
func lineTerminators(d *Doc, r *rand.Rand) {
	switch v := r.IntN(7); v {
	case 5:
		d.EOL, d.BodyEOL = "\r\n", "\n"
	case 6:
		d.EOL, d.BodyEOL = "\n", "\r\n"
	default:
		eol := []string{"\r", "\u2028", "\u2029", "\u0085", "\r\r\n"}[v]
		d.EOL, d.BodyEOL = eol, eol
	}
}

// bom puts a byte order mark at the start of the response, before the summary opener on its
// line, or between the opener line and the body. Intended: unchanged; a BOM is JavaScript
// whitespace and never body at the body's edge.
func bom(d *Doc, r *rand.Rand) {
	switch r.IntN(3) {
	case 0:
		d.Start = "\ufeff" + d.Start
	case 1:
		d.summary.OpenIndent = "\ufeff" + d.summary.OpenIndent
	default:
		d.summary.Lead = "\ufeff" + d.summary.Lead
	}
}

// truncate cuts the response, three times in four inside the summary block (anywhere from its
// opener line to the last byte of its closer line), else anywhere; at least one byte goes. Intended: cut before the opener is whole,
// no summary (found false), unless an earlier summary block is complete; cut in the body, the
// body up to the cut without a partial closer left at the start of its last line ("</summ"),
// trimmed of line terminators; cut in the closer line, the whole body.
func truncate(d *Doc, r *rand.Rand) {
	if r.IntN(4) == 0 {
		d.CutAnywhere(r.Uint64())
		return
	}
	d.CutIn(d.summary, r.Uint64())
}
