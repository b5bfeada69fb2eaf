package compact

import (
	"github.com/compacteval/compacteval/internal/textdiff"
	"iter"
	"sort"
	"strings"
	"unicode/utf8"
)

func init() {
	register(Extractor{
		Name:    "robust",
		Source:  "compacteval's own extractor, designed from the corpus and the drift matrix (compact/robust.go)",
		Extract: ExtractRobust,
	})
}

// ExtractRobust is compacteval's extractor for answers from drifting models. On a
// well-formed answer (an analysis block, then one summary block, tags alone on their lines)
// it returns exactly what ExtractSummary returns. Its policy otherwise:
//
//   - Tags: summary, analysis, think, thinking and example tags are recognised in any
//     letter case, with attributes (<summary type="final">), with spaces inside (</ summary>,
//     </summary >), and, for summary, misspelled by one letter (<sumary>). A tag counts only
//     where it stands at the start of a line (after blanks, a BOM or zero-width characters)
//     or, for a closer, at the end of one; a tag inside `inline code` or in the middle of a
//     sentence is a mention, not structure.
//   - Analysis: an analysis (or think) block runs from its opener to the first closer that
//     names analysis, think or thinking (a model that closes <analysis> with </think> still
//     closed it); unclosed, it runs to the next summary opener, else to the end. A closer
//     written right after the summary's closer ends the analysis at the summary. A mid-line
//     opener followed directly by its closer (no tag between) is a closed block too.
//     Nothing inside an analysis block is ever returned, except where a summary quotes one
//     in a fenced code block; neither is a bare opener.
//   - Echoed templates: summary blocks inside an <example> wrapper whose body is the
//     prompt's placeholders ([Detailed description]) are skipped; a wrapper around real
//     content is ignored.
//   - Blocks: a summary block runs from its opener to the first closer after it that is not
//     inside a fenced code block opened in the body and not part of an HTML element in the
//     body (a one-line <summary>...</summary> pair, or a <summary> right after <details>).
//     A body whose code fence swallows every closer ends at the first one; a body with no
//     summary closer but an </analysis> line after it ends there (a wrong closer). A new
//     opener before any closer ends the block there, unclosed (a retry or a loop).
//   - Duplicates: of several blocks, the one with the most of the nine numbered sections
//     wins; among equals, a closed block beats an unclosed one and a later block an earlier
//     one (the model's last complete word). A one-line sign-off block (<summary>Done.</summary>)
//     or a patch of two sections does not displace a full summary.
//   - Truncation: an unclosed block runs to the end of the text, minus a partial closing tag
//     (</summ). A block with no content besides section headings or tags is no summary.
//   - Fences: a fence line right after the opener and right before the closer is a wrapper
//     and is dropped; a fence opened on the line before the opener is closed by the first
//     fence line of the same character in the body; fences around the whole answer are
//     outside the tags anyway.
//   - No tags: [summary]...[/summary] brackets, or a line holding only a Summary heading or
//     label (## Summary, **Summary:**, Summary:), marks the start of the summary, which runs to
//     the end. Without any of these there is no summary: the analysis or a refusal is never
//     passed off as one.
//   - Trim: JavaScript's trim, plus zero-width characters next to the tags, plus U+0085
//     where the answer uses it as its line terminator.
//
// It runs in time linear in the length of the text.
func ExtractRobust(text string) Extraction {
	if e, ok := wellFormed(text); ok {
		return e
	}
	sc := scanTags(text)
	cands := sc.summaryBlocks()
	best := -1
	for i, c := range cands {
		if c.degenerate {
			continue
		}
		if best < 0 || c.beats(cands[best]) {
			best = i
		}
	}
	if best >= 0 {
		c := cands[best]
		if seed := Extract(text); seed.OK && seed.Summary == c.body {
			return seed // the same answer: report seed's path
		}
		path := PathBlock
		if !c.closed {
			path = PathOpenerToEnd
		}
		return Extraction{Summary: c.body, OK: true, Path: path}
	}
	if body, ok := sc.marker(); ok {
		return Extraction{Summary: body, OK: true, Path: PathMarker}
	}
	return Extraction{Path: PathNone}
}

// wellFormed recognises the answer the prompt asks for: optional blanks, one analysis
// block, one summary block, tags alone on their lines with "\n" endings, no other tag. There
// robust returns what seed returns.
func wellFormed(text string) (Extraction, bool) {
	s := TrimJS(text)
	if strings.Count(s, "<summary>") != 1 || strings.Count(s, "</summary>") != 1 ||
		strings.Count(s, "<analysis>") > 1 || strings.Count(s, "</analysis>") != strings.Count(s, "<analysis>") ||
		strings.ContainsAny(s, "\r\u2028\u2029\u0085") {
		return Extraction{}, false
	}
	if strings.Contains(s, "<analysis>") && !strings.HasPrefix(s, "<analysis>\n") {
		return Extraction{}, false
	}
	i := strings.Index(s, "\n<summary>\n")
	j := strings.Index(s, "\n</summary>")
	if i < 0 || j < i || !strings.HasSuffix(s, "\n</summary>") {
		return Extraction{}, false
	}
	if a := strings.Index(s, "\n</analysis>\n"); strings.Contains(s, "<analysis>") && (a < 0 || a > i) {
		return Extraction{}, false
	}
	e := Extract(text)
	if !e.OK || e.Path != PathLineAnchored || sectionCount(e.Summary) < 5 || isFenceLine(firstLine(e.Summary)) {
		return Extraction{}, false
	}
	return e, true
}

type tagKind int

const (
	opener tagKind = iota
	closer
)

// tag is one recognised tag in the text.
type tag struct {
	name       string // summary, analysis, think or example
	kind       tagKind
	start, end int
	lineStart  bool // only blanks or invisible characters before it on its line
	lineEnd    bool // only blanks after it on its line
	inCode     bool // inside `inline code` on its line
	line       int  // index of its line
}

// structural reports whether a tag is structure rather than a mention in prose.
func (t tag) structural() bool {
	if t.inCode {
		return false
	}
	return t.lineStart || t.kind == closer && t.lineEnd
}

// scan is the text split into lines, with its tags.
type scan struct {
	text  string
	lines []span // line contents, terminators excluded
	tags  []tag
	nel   bool // U+0085 is the line terminator
}

type span struct{ start, end int }

func scanTags(text string) *scan {
	sc := &scan{text: text}
	sc.nel = strings.Contains(text, "\u0085") && !strings.ContainsAny(text, "\n\r")
	sc.lines = make([]span, 0, strings.Count(text, "\n")+1)
	sc.tags = make([]tag, 0, strings.Count(text, "<"))
	start := 0
	for i := 0; i < len(text); {
		n := lineTerminatorLen(text, i, sc.nel)
		if n == 0 {
			i++
			continue
		}
		sc.lines = append(sc.lines, span{start, i})
		i += n
		start = i
	}
	sc.lines = append(sc.lines, span{start, len(text)})
	for li, ln := range sc.lines {
		line := text[ln.start:ln.end]
		ticks := 0
		for i := 0; i < len(line); i++ {
			switch line[i] {
			case '`':
				ticks++
				continue
			case '<':
			default:
				continue
			}
			t, ok := parseTag(line, i)
			if !ok {
				continue
			}
			t.start += ln.start
			t.end += ln.start
			t.line = li
			t.lineStart = onlyInvisible(line[:i])
			t.lineEnd = TrimJS(line[t.end-ln.start:]) == ""
			t.inCode = ticks%2 == 1 && strings.IndexByte(line[t.end-ln.start:], '`') >= 0
			sc.tags = append(sc.tags, t)
			i = t.end - ln.start - 1
		}
	}
	return sc
}

// lineTerminatorLen returns the length of the line terminator at s[i], or 0; U+0085 counts
// only where nel says the text ends its lines with it.
func lineTerminatorLen(s string, i int, nel bool) int {
	if !nel && s[i] == 0xc2 {
		return 0
	}
	return textdiff.TerminatorLen(s, i)
}

// parseTag reads a tag at line[i] ('<'): an optional '/', blanks, a name, then for openers
// anything up to '>' on the line (attributes), for closers blanks and '>'.
func parseTag(line string, i int) (tag, bool) {
	j := i + 1
	t := tag{kind: opener, start: i}
	j = skipBlanks(line, j)
	if j < len(line) && line[j] == '/' {
		t.kind = closer
		j = skipBlanks(line, j+1)
	}
	k := j
	for k < len(line) && isASCIILetter(line[k]) {
		k++
	}
	name := strings.ToLower(line[j:k])
	switch {
	case name == "summary" || summaryMisspelling(name):
		t.name = "summary"
	case name == "analysis" || name == "example":
		t.name = name
	case name == "think" || name == "thinking":
		t.name = "think"
	default:
		return tag{}, false
	}
	if t.kind == closer || k < len(line) && line[k] != ' ' && line[k] != '>' {
		k = skipBlanks(line, k)
		if k >= len(line) || line[k] != '>' {
			return tag{}, false
		}
		t.end = k + 1
		return t, true
	}
	gt := strings.IndexByte(line[k:], '>')
	if gt < 0 || strings.IndexByte(line[k:k+gt], '<') >= 0 {
		return tag{}, false
	}
	t.end = k + gt + 1
	return t, true
}

// summaryMisspelling reports a tag name one edit away from "summary" that keeps its first
// two letters (sumary, summery, summmary), as small models write it. "summaries" and other
// words are two or more edits away.
func summaryMisspelling(name string) bool {
	const want = "summary"
	if len(name) < len(want)-1 || len(name) > len(want)+1 || name == want || !strings.HasPrefix(name, "su") {
		return false
	}
	return editDistanceAtMostOne(name, want)
}

func editDistanceAtMostOne(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// invisible reports characters that may stand before a tag without making it a mention.
func invisible(r rune) bool {
	return IsJSSpace(r) || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\u180e' || r == '\u0085'
}

func onlyInvisible(s string) bool {
	for _, r := range s {
		if !invisible(r) {
			return false
		}
	}
	return true
}

// trimRobust is TrimJS plus the invisible characters; U+0085 only where it ends lines.
func trimRobust(s string, nel bool) string {
	cut := func(r rune) bool { return invisible(r) && (r != '\u0085' || nel) }
	return strings.TrimFunc(s, cut)
}

// region is a span of the text to skip: an analysis or think block.
type region struct{ start, end int }

// regions returns the analysis and think blocks and the example wrappers, in text order.
func (sc *scan) regions() (analysis []region, examples []region) {
	tags := sc.tags
	// For each tag index, the next structural analysis closer, the next analysis closer of
	// any kind, the next structural summary opener and the next example closer at or after
	// it (len(tags) for none): one backward pass, so the scan stays linear.
	n := len(tags)
	nextStruct, nextAny, nextSummary, nextExample := make([]int, n+1), make([]int, n+1), make([]int, n+1), make([]int, n+1)
	nextStruct[n], nextAny[n], nextSummary[n], nextExample[n] = n, n, n, n
	for j := n - 1; j >= 0; j-- {
		nextStruct[j], nextAny[j], nextSummary[j], nextExample[j] = nextStruct[j+1], nextAny[j+1], nextSummary[j+1], nextExample[j+1]
		u := tags[j]
		switch {
		case u.kind == closer && (u.name == "analysis" || u.name == "think"):
			nextAny[j] = j
			if u.structural() {
				nextStruct[j] = j
			}
		case u.kind == opener && u.name == "summary" && u.structural():
			nextSummary[j] = j
		case u.kind == closer && u.name == "example":
			nextExample[j] = j
		}
	}
	for i := 0; i < n; i++ {
		t := tags[i]
		if t.kind != opener {
			continue
		}
		if !t.structural() {
			// A mid-line analysis opener, even in `code`, opens a block when its closer is the
			// next tag: a closed block with nothing tag-like inside, which is never returned.
			if (t.name == "analysis" || t.name == "think") && i+1 < n && tags[i+1].kind == closer &&
				(tags[i+1].name == "analysis" || tags[i+1].name == "think") {
				analysis = append(analysis, region{t.start, tags[i+1].end})
				i++
			}
			continue
		}
		switch t.name {
		case "analysis", "think":
			if j := nextStruct[i+1]; j < n {
				if k := nextSummary[i+1]; k < j && j > 0 && tags[j-1].name == "summary" && tags[j-1].kind == closer &&
					onlyInvisible(sc.text[tags[j-1].end:tags[j].start]) {
					// The analysis was closed only after the summary: it ends at the summary.
					analysis = append(analysis, region{t.start, tags[k].start})
					i = k - 1
					continue
				}
				analysis = append(analysis, region{t.start, tags[j].end})
				i = j
			} else if j := nextAny[i+1]; j < n {
				analysis = append(analysis, region{t.start, tags[j].end})
				i = j
			} else if j := nextSummary[i+1]; j < n {
				analysis = append(analysis, region{t.start, tags[j].start})
				i = j - 1
			} else {
				analysis = append(analysis, region{t.start, len(sc.text)})
				i = n
			}
		case "example":
			if j := nextExample[i+1]; j < n {
				examples = append(examples, region{t.start, tags[j].end})
			}
		}
	}
	return analysis, examples
}

// inRegions reports whether pos falls in one of rs, which are sorted and disjoint.
func inRegions(rs []region, pos int) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].end > pos })
	return i < len(rs) && rs[i].start <= pos
}

// candidate is one summary block.
type candidate struct {
	body       string
	closed     bool
	sections   int
	start      int
	degenerate bool
}

// beats reports whether c should be chosen over d (c comes later in the text).
func (c candidate) beats(d candidate) bool {
	if c.sections != d.sections {
		return c.sections > d.sections
	}
	if c.closed != d.closed {
		return c.closed
	}
	return c.start > d.start
}

// summaryBlocks returns every summary block outside analysis blocks, in text order.
func (sc *scan) summaryBlocks() []candidate {
	analysis, examples := sc.regions()
	var out []candidate
	tags := sc.tags
	for i := 0; i < len(tags); i++ {
		t := tags[i]
		if t.name != "summary" || t.kind != opener || !t.structural() || inRegions(analysis, t.start) {
			continue
		}
		end, closed, next := len(sc.text), false, len(tags)
		fence := false
		fenceLine := -1
		fenced := -1               // the first structural closer skipped as inside a fence
		var code []region          // fenced code blocks in the body
		wrongCloser := -1          // the first </analysis> closing the block instead of </summary>
		html := 0                  // open HTML <summary> elements inside <details>
		outer := sc.fenceBefore(t) // the fence character of a fence wrapping the block, or 0
		var open byte              // the fence character of the open code block
		for j := i + 1; j < len(tags); j++ {
			u := tags[j]
			for l := max(fenceLine+1, t.line+1); l <= u.line && l < len(sc.lines); l++ {
				f := fenceOf(sc.line(l))
				switch {
				case f.char == 0:
				case outer != 0 && !fence && f.char == outer:
					outer = 0 // closes the fence opened just before the opener
				case !fence:
					fence, open = true, f.char
					code = append(code, region{sc.lines[l].start, len(sc.text)})
				case f.char == open: // models reopen with an info string where they mean to close
					fence = false
					code[len(code)-1].end = sc.lines[l].end
				}
				fenceLine = l
			}
			if inRegions(analysis, u.start) && u.name == "summary" {
				continue
			}
			if u.name == "analysis" && u.kind == closer && u.structural() && !fence && wrongCloser < 0 {
				wrongCloser = j // a candidate closer if no summary closer follows
			}
			if u.name != "summary" || u.inCode {
				continue
			}
			if fence {
				if fenced < 0 && u.kind == closer && u.structural() {
					fenced = j
				}
				continue
			}
			if u.kind == opener && u.line != t.line && j+1 < len(tags) && tags[j+1].name == "summary" &&
				tags[j+1].kind == closer && tags[j+1].line == u.line {
				j++ // an inline <summary>Title</summary> element inside the body (HTML <details>)
				continue
			}
			if u.kind == opener && u.structural() && sc.afterDetails(u) {
				html++ // <details> then <summary> on its own line: an HTML element in the body
				continue
			}
			if u.kind == closer && html > 0 {
				html--
				continue
			}
			if u.kind == opener && u.structural() {
				end, next = u.start, j-1
				break
			}
			if u.kind == closer && (u.structural() || u.line == t.line) {
				end, closed, next = u.start, true, j
				break
			}
		}
		if !closed && next == len(tags) && wrongCloser >= 0 && !inRegions(analysis, tags[wrongCloser].start) {
			// The model closed its summary with </analysis>.
			end, closed, next = tags[wrongCloser].start, true, wrongCloser
		}
		if !closed && next == len(tags) && fenced >= 0 {
			// The body opened a code fence that it never closed before </summary>.
			end, closed, next = tags[fenced].start, true, fenced
		}
		c := sc.candidate(t, end, closed, outside(analysis, code))
		c.degenerate = c.degenerate || inRegions(examples, t.start) && isTemplate(c.body)
		out = append(out, c)
		i = next
	}
	return out
}

// fenceBefore returns the fence character (` or ~) when the last non-blank line before tag
// t's line is a fence line: the block is wrapped in a fence, and the first fence line of
// the same character in its body closes that one. It returns 0 otherwise.
func (sc *scan) fenceBefore(t tag) byte {
	if TrimJS(sc.text[sc.lines[t.line].start:t.start]) != "" {
		return 0
	}
	for l := t.line - 1; l >= 0 && l >= t.line-3; l-- {
		if line := TrimJS(sc.line(l)); line != "" {
			return fenceOf(line).char
		}
	}
	return 0
}

// afterDetails reports whether the last non-blank line before tag t's line (or t's own
// line, before t) opens an HTML <details> element.
func (sc *scan) afterDetails(t tag) bool {
	before := TrimJS(sc.text[sc.lines[t.line].start:t.start])
	for l := t.line - 1; before == "" && l >= 0 && l >= t.line-3; l-- {
		before = TrimJS(sc.line(l))
	}
	before = strings.ToLower(before)
	return strings.HasPrefix(before, "<details") && strings.HasSuffix(before, ">")
}

func (sc *scan) line(i int) string { return sc.text[sc.lines[i].start:sc.lines[i].end] }

// candidate builds the block from opener t to end, leaving out analysis blocks inside it.
func (sc *scan) candidate(t tag, end int, closed bool, analysis []region) candidate {
	body := cutRegions(sc.text, t.end, end, analysis)
	if !closed {
		body = trimPartialCloser(body)
	}
	body = trimRobust(body, sc.nel)
	body = stripWrapperFence(body)
	body = removeNestedAnalysis(body)
	c := candidate{body: body, closed: closed, start: t.start}
	c.sections = sectionCount(body)
	c.degenerate = !hasContent(body) || isTemplate(body)
	return c
}

// outside returns the regions of rs that do not start inside one of code: an analysis
// block quoted in a fenced code block of a summary is part of the summary.
func outside(rs, code []region) []region {
	if len(code) == 0 {
		return rs
	}
	var out []region
	for _, r := range rs {
		if !inRegions(code, r.start) {
			out = append(out, r)
		}
	}
	return out
}

// cutRegions returns text[from:to] without the parts that fall in rs (sorted, disjoint).
func cutRegions(text string, from, to int, rs []region) string {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].end > from })
	if i == len(rs) || rs[i].start >= to {
		return text[from:to]
	}
	var b strings.Builder
	for ; i < len(rs) && rs[i].start < to; i++ {
		if rs[i].start > from {
			b.WriteString(text[from:rs[i].start])
		}
		from = max(from, rs[i].end)
	}
	if from < to {
		b.WriteString(text[from:to])
	}
	return b.String()
}

// trimPartialCloser removes a closing tag cut short at the end of an unclosed block.
func trimPartialCloser(body string) string {
	i := strings.LastIndexByte(body, '<')
	if i < 0 || len(body)-i > len("</summary") {
		return body
	}
	frag := strings.ToLower(body[i:])
	if strings.HasPrefix("</summary", frag) || strings.HasPrefix("<summary", frag) {
		return body[:i]
	}
	return body
}

// stripWrapperFence drops a fence line that opens the body and the one that closes it.
func stripWrapperFence(body string) string {
	first, rest, ok := strings.Cut(body, "\n")
	if !ok || !isFenceLine(first) {
		return body
	}
	i := strings.LastIndexByte(strings.TrimRight(rest, " \t\r\n"), '\n')
	last := TrimJS(rest[i+1:])
	if !isFenceLine(last) || strings.Count(rest, "```") > 1 {
		return body
	}
	return TrimJS(rest[:max(i, 0)])
}

// removeNestedAnalysis drops an <analysis>...</analysis> block that opens the body.
func removeNestedAnalysis(body string) string {
	if !strings.HasPrefix(strings.ToLower(body), "<analysis>") {
		return body
	}
	end := indexFold(body, "</analysis>", 0)
	if end < 0 {
		return body
	}
	return TrimJS(body[end+len("</analysis>"):])
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func isFenceLine(line string) bool { return fenceOf(line).char != 0 }

// fence is a code fence line: its character, 0 for a line that is no fence.
type fence struct{ char byte }

func fenceOf(line string) fence {
	l := TrimJS(line)
	switch {
	case strings.HasPrefix(l, "```"):
		return fence{'`'}
	case strings.HasPrefix(l, "~~~"):
		return fence{'~'}
	}
	return fence{}
}

// anyLines yields the lines of s split at every line terminator (\n, \r\n, \r, U+2028,
// U+2029, U+0085), terminators dropped.
func anyLines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := 0
		for i := 0; i < len(s); {
			n := lineTerminatorLen(s, i, true)
			if n == 0 {
				i++
				continue
			}
			if !yield(s[start:i]) {
				return
			}
			i += n
			start = i
		}
		yield(s[start:])
	}
}

// sectionCount counts which of the nine numbered sections have a heading line in s.
func sectionCount(s string) int {
	var seen [10]bool
	n := 0
	for line := range anyLines(s) {
		l := strings.TrimLeft(line, " \t#*>-")
		if len(l) < 3 || l[0] < '1' || l[0] > '9' || l[1] != '.' && l[1] != ')' {
			continue
		}
		if d := l[0] - '0'; !seen[d] {
			seen[d] = true
			n++
		}
	}
	return n
}

// hasContent reports whether a body says anything besides headings, tags and blanks.
func hasContent(body string) bool {
	for line := range anyLines(body) {
		l := strings.TrimSpace(line)
		if l == "" {
			continue
		}
		if tagShapedOnly(l) {
			continue // tags, known or broken (<summ\xb3ry>), are not content
		}
		if isHeadingOnly(l) {
			continue
		}
		return true
	}
	return false
}

// tagShapedOnly reports whether l is made of <...> tokens and blanks alone.
func tagShapedOnly(l string) bool {
	for l != "" {
		l = strings.TrimLeft(l, " \t")
		if l == "" {
			break
		}
		if l[0] != '<' {
			return false
		}
		end := strings.IndexAny(l[1:], "<>")
		if end < 0 || l[1+end] != '>' {
			return false
		}
		l = l[end+2:]
	}
	return true
}

// isHeadingOnly reports a section heading with nothing after it: "3. Files and Code Sections:".
func isHeadingOnly(l string) bool {
	l = strings.TrimLeft(l, "#* ")
	if len(l) < 3 || l[0] < '1' || l[0] > '9' || l[1] != '.' {
		return false
	}
	return strings.HasSuffix(strings.TrimRight(l, "* "), ":") && utf8.RuneCountInString(l) < 60
}

// isTemplate reports a body made of the prompt's placeholders ("[Detailed description]").
func isTemplate(body string) bool {
	placeholders, content := 0, 0
	for line := range anyLines(body) {
		l := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*"))
		switch {
		case l == "" || isHeadingOnly(l):
		case strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]"):
			placeholders++
		default:
			content++
		}
	}
	return placeholders >= 3 && placeholders > content
}

// marker finds a summary without an opening tag: before an orphan </summary> line (from the
// end of the analysis), after [summary] (up to [/summary]), or after a line that holds only a
// Summary heading or label, outside analysis blocks.
func (sc *scan) marker() (string, bool) {
	analysis, _ := sc.regions()
	for _, t := range sc.tags {
		if t.name != "summary" || t.kind != closer || !t.structural() || inRegions(analysis, t.start) {
			continue
		}
		from := 0
		for _, r := range analysis {
			if r.end <= t.start {
				from = r.end
			}
		}
		if body := trimRobust(sc.text[from:t.start], sc.nel); hasContent(body) && sectionCount(body) >= 3 {
			return body, true
		}
		break
	}
	for li := range sc.lines {
		ln := sc.lines[li]
		if inRegions(analysis, ln.start) {
			continue
		}
		l := strings.ToLower(TrimJS(sc.line(li)))
		if l == "[summary]" {
			rest := sc.text[ln.end:]
			if k := indexFold(rest, "[/summary]", 0); k >= 0 { // not ToLower: it can change lengths
				rest = rest[:k]
			}
			if body := trimRobust(rest, sc.nel); hasContent(body) {
				return body, true
			}
			continue
		}
		l = strings.Trim(l, "#*_ :")
		if l == "summary" && li+1 < len(sc.lines) {
			body := trimRobust(sc.text[sc.lines[li+1].start:], sc.nel)
			if end := len(analysis); end > 0 && analysis[end-1].start > ln.start {
				body = trimRobust(sc.text[sc.lines[li+1].start:analysis[end-1].start], sc.nel)
			}
			if hasContent(body) && sectionCount(body) >= 3 {
				return body, true
			}
		}
	}
	return "", false
}
