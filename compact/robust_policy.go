package compact

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// This file is robust's policy: summary blocks, the choice among them, markers, untagged
// answers and trimming. Each function names the rule of docs/robust.md it
// implements.

// candidate is one summary block.
type candidate struct {
	body       string
	closed     bool
	sections   int
	start      int
	degenerate bool
}

// beats reports whether c should be chosen over d, c coming later in the text (rule
// "Duplicates").
func (c candidate) beats(d candidate) bool {
	if c.sections != d.sections {
		return c.sections > d.sections
	}
	if c.closed != d.closed {
		return c.closed
	}
	return c.start > d.start
}

// blocks finds the summary blocks outside analysis blocks, in text order, and returns the
// best one that is not degenerate (ok) and whether there was any block at all (seen). Where
// inline is set, a summary opener after prose on its line starts a block too (rule "Tags",
// tried when no block has content otherwise).
func (sc *scan) blocks(analysis []region, inline bool) (best candidate, ok, seen bool) {
	tags := sc.tags
	fallbacks := maxFallbacks // each block ending at a fallback closer has scanned to the end: bounded work
	sc.fenceCursor = 0
	sc.wrongCursor = -1
	for i := 0; i < len(tags); i++ {
		t := tags[i]
		if t.name != nameSummary || t.kind != opener || t.is(inCode) || !t.structural() && (!inline || sc.htmlOnLine(t)) || t.is(inAnalysis) {
			continue
		}
		if sc.emptyBefore(i) {
			seen = true // an empty block ended by the next opener: the loop of a stuck model
			continue
		}
		end, closed, next, byFallback := sc.blockEnd(i, fallbacks > 0)
		if byFallback {
			fallbacks--
		}
		c := sc.candidate(t, end.pos, closed, analysis, end.code)
		c.degenerate = c.degenerate || t.is(inExample) && isTemplate(c.body)
		sc.code = end.code[:0]
		seen = true
		if !c.degenerate && (!ok || c.beats(best)) {
			best, ok = c, true
		}
		i = next
	}
	return best, ok, seen
}

// emptyBefore reports whether the block opened by tags[i] is empty and ends, unclosed, at
// the next tag: a structural summary opener on a later line, after nothing but blanks, that
// is no HTML element (blockEnd's answer for it, found without its setup).
func (sc *scan) emptyBefore(i int) bool {
	tags := sc.tags
	if i+1 >= len(tags) {
		return false
	}
	t, u := tags[i], tags[i+1]
	if u.name != nameSummary || u.kind != opener || !u.structural() || u.line == t.line || int(u.start)-int(t.end) > 16 {
		return false
	}
	if i+2 < len(tags) && tags[i+2].name == nameSummary && tags[i+2].kind == closer && tags[i+2].line == u.line {
		return false // <summary>Title</summary>: an HTML element inside the body
	}
	if between := sc.text[t.end:u.start]; !asciiBlank(between) && trimRobust(between, sc.nel) != "" || sc.details && sc.afterDetails(u) {
		return false
	}
	sc.steps++
	return true
}

// asciiBlank reports whether s holds only ASCII JavaScript whitespace, which trimRobust
// removes whole: the common gap between two openers of a loop, checked without TrimFunc.
func asciiBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\v', '\f', '\r':
		default:
			return false
		}
	}
	return true
}

// maxFallbacks is how many blocks of one answer may end at a fallback closer (a wrong closer
// or a fenced one). Finding one scans to the end of the text, so an unbounded number would
// make a loop of such blocks quadratic; retries in real answers stay well under it.
const maxFallbacks = 8

// htmlOnLine reports an opener written right after a <details> tag on its line: an HTML
// element, not a summary block after prose.
func (sc *scan) htmlOnLine(t tag) bool {
	before := TrimJS(sc.text[t.line:t.start])
	lt := strings.LastIndexByte(before, '<')
	return lt >= 0 && hasPrefixFold(before[lt:], "<details") && strings.HasSuffix(before, ">")
}

// blockBound is where a block ends, with the fenced code blocks of its body.
type blockBound struct {
	pos  int
	code []region
}

// blockEnd returns where the block opened by tags[i] ends (rule "Blocks"): at the first
// closer after it that is not inside a fenced code block opened in the body and not part of
// an HTML element or a quoted pair in the body; at a new opener (unclosed); else at a wrong
// closer or the first fenced closer (byFallback, where fallbacks allows); else at the end.
// next is the index of the last tag the block used.
func (sc *scan) blockEnd(i int, fallbacks bool) (b blockBound, closed bool, next int, byFallback bool) {
	tags := sc.tags
	t := tags[i]
	b.pos, next = len(sc.text), len(tags)
	b.code = sc.code[:0] // reused: a block's code regions are needed only while it is built
	fence := false
	for sc.fenceCursor < len(sc.fences) && sc.fences[sc.fenceCursor].start <= t.line {
		sc.fenceCursor++ // openers come in text order: one pass over the fences for every block
	}
	fi := sc.fenceCursor
	if sc.shortcuts && fi == len(sc.fences) && !sc.enderAfter(i) {
		// Nothing after the opener can end the block and no fence line can change what
		// the loop below would see: it would read every tag to the end for the first
		// wrong closer. Found with a cursor instead, so that a loop of such blocks (each a
		// fallback) is read once, not once per block.
		if w := sc.nextWrongCloser(i + 1); fallbacks && w < len(tags) && !tags[w].is(inAnalysis) {
			b.pos = int(tags[w].start)
			return b, true, w, true
		}
		return b, false, next, false
	}
	fenced := -1               // the first structural closer skipped as inside a fence
	wrongCloser := -1          // the first </analysis> closing the block instead of </summary>
	html := 0                  // open HTML <summary> elements inside <details>
	outer := sc.fenceBefore(t) // the fence character of a fence wrapping the block, or 0
	var open byte              // the fence character of the open code block
	for j := i + 1; j < len(tags); j++ {
		u := tags[j]
		sc.steps++
		for ; fi < len(sc.fences) && sc.fences[fi].start <= u.line; fi++ {
			f := sc.fences[fi]
			switch {
			case outer != 0 && !fence && f.char == outer && sc.bareFence(f):
				outer = 0 // closes the fence opened just before the opener (a line with an info string opens one)
			case !fence:
				fence, open = true, f.char
				b.code = append(b.code, region{int(f.start), len(sc.text)})
			case f.char == open: // models reopen with an info string where they mean to close
				fence = false
				b.code[len(b.code)-1].end = int(f.end)
			}
		}
		if u.name == nameSummary && u.is(inAnalysis) {
			continue
		}
		if u.name == nameAnalysis && u.kind == closer && u.structural() && !fence && wrongCloser < 0 {
			wrongCloser = j // a candidate closer if no summary closer follows
		}
		if u.name != nameSummary || u.is(inCode) {
			continue
		}
		if fence {
			if fenced < 0 && u.kind == closer && u.structural() {
				fenced = j
			}
			continue
		}
		if u.kind == opener && (u.line != t.line || !u.structural()) && j+1 < len(tags) && tags[j+1].name == nameSummary &&
			tags[j+1].kind == closer && tags[j+1].line == u.line {
			// An inline <summary>Title</summary> element inside the body (HTML <details>), or a
			// pair the summary quotes.
			j++
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
			b.pos, next = int(u.start), j-1
			return b, false, next, false
		}
		if u.kind == closer && (u.structural() || u.line == t.line) {
			b.pos, next = int(u.start), j
			return b, true, next, false
		}
	}
	if fallbacks && wrongCloser >= 0 && !tags[wrongCloser].is(inAnalysis) {
		// The model closed its summary with </analysis>.
		b.pos = int(tags[wrongCloser].start)
		return b, true, wrongCloser, true
	}
	if fallbacks && fenced >= 0 {
		// The body opened a code fence that it never closed before </summary>.
		b.pos = int(tags[fenced].start)
		return b, true, fenced, true
	}
	return b, false, next, false
}

// enderAfter reports whether a tag after tags[i] could end a block in blockEnd's loop: a
// summary closer, or a structural summary opener that is no HTML element, outside analysis
// blocks and code spans. The last such tag is found once, from the end.
func (sc *scan) enderAfter(i int) bool {
	if !sc.enderKnown {
		sc.enderKnown, sc.lastEnder = true, -1
		for j := len(sc.tags) - 1; j >= 0; j-- {
			sc.steps++
			u := sc.tags[j]
			if u.name != nameSummary || u.is(inAnalysis) || u.is(inCode) {
				continue
			}
			if u.kind == closer || u.structural() && !(sc.details && sc.afterDetails(u)) {
				sc.lastEnder = j
				break
			}
		}
	}
	return sc.lastEnder > i
}

// nextWrongCloser returns the index of the first structural </analysis> at or after index
// from (len(tags) for none), blockEnd's wrong closer where no fence intervenes. The blocks
// ask in text order, so a cursor moves forward once over the tags.
func (sc *scan) nextWrongCloser(from int) int {
	if sc.wrongCursor < from {
		sc.wrongCursor = from
		for sc.wrongCursor < len(sc.tags) {
			u := sc.tags[sc.wrongCursor]
			if u.name == nameAnalysis && u.kind == closer && u.structural() {
				break
			}
			sc.steps++
			sc.wrongCursor++
		}
	}
	return sc.wrongCursor
}

// fenceBefore returns the fence character (` or ~) when the last non-blank line before tag
// t's line, at most three lines up, is a fence line: the block is wrapped in a fence, and
// the first fence line of the same character in its body closes that one (rule "Fences").
// It returns 0 otherwise.
func (sc *scan) fenceBefore(t tag) byte {
	if len(sc.fences) == 0 || !t.is(atLineStart) || TrimJS(sc.text[t.line:t.start]) != "" {
		return 0
	}
	l := int(t.line)
	for n := 0; n < 3; n++ {
		if l = sc.prevLine(l); l < 0 {
			return 0
		}
		if line := TrimJS(sc.text[l:sc.lineEnd(l)]); line != "" {
			return fenceOf(line).char
		}
	}
	return 0
}

// bareFence reports a fence line without an info string: "```", not "```yaml".
func (sc *scan) bareFence(f fenceLine) bool {
	l := strings.TrimRight(TrimJS(sc.text[f.start:f.end]), string(f.char))
	return l == ""
}

// afterDetails reports whether the last non-blank line before tag t's line (or t's own
// line, before t) opens an HTML <details> element.
func (sc *scan) afterDetails(t tag) bool {
	if !sc.details {
		return false
	}
	before := TrimJS(sc.text[t.line:t.start])
	l := int(t.line)
	for n := 0; before == "" && n < 3; n++ {
		if l = sc.prevLine(l); l < 0 {
			break
		}
		before = TrimJS(sc.text[l:sc.lineEnd(l)])
	}
	return hasPrefixFold(before, "<details") && strings.HasSuffix(before, ">")
}

// candidate builds the block from opener t to end, leaving out analysis blocks inside it
// except those quoted in its fenced code (rules "Analysis", "Truncation", "Fences", "Trim").
func (sc *scan) candidate(t tag, end int, closed bool, analysis, code []region) candidate {
	if raw := sc.text[t.end:end]; len(raw) <= 16 && trimRobust(raw, sc.nel) == "" {
		return candidate{closed: closed, start: int(t.start), degenerate: true} // the common empty block of a loop
	}
	body := sc.cutRegions(int(t.end), end, analysis, code)
	if sc.shortcuts && (asciiBlank(body) || !hasContentIn(body, sc.onlyLF)) {
		// What is left of a loop's block. The trims below only take a partial closer, blanks
		// and a leading analysis block from the ends, and no line without content gains any
		// by that, so the block would be degenerate anyway; its sections are never compared.
		return candidate{closed: closed, start: int(t.start), degenerate: true}
	}
	if !closed {
		body = trimPartialCloser(body)
	}
	body = trimRobust(body, sc.nel)
	body = stripWrapperFence(body)
	body = removeNestedAnalysis(body)
	body = trimTagLines(body, sc.nel)
	sc.steps += len(body)
	c := candidate{body: body, closed: closed, start: int(t.start)}
	c.sections = sectionCount(body)
	c.degenerate = !hasContentIn(body, sc.onlyLF) || isTemplate(body)
	return c
}

// cutRegions returns text[from:to] without the parts that fall in rs (sorted, disjoint),
// keeping those that start inside one of code: an analysis block quoted in a fenced code
// block of a summary is part of the summary. Only the regions within from:to are visited.
func (sc *scan) cutRegions(from, to int, rs, code []region) string {
	text := sc.text
	i := sc.firstRegionAfter(rs, from)
	// The kept parts: the first one as bounds, a copy only once a second one comes (the
	// common block holds one part, which is returned without copying).
	var b strings.Builder
	first, firstEnd := -1, -1
	keep := func(a, z int) {
		switch {
		case a >= z:
		case first < 0:
			first, firstEnd = a, z
		default:
			if b.Len() == 0 {
				b.Grow(to - first)
				b.WriteString(text[first:firstEnd])
			}
			b.WriteString(text[a:z])
		}
	}
	cut := false
	for ; i < len(rs) && rs[i].start < to; i++ {
		sc.steps++
		if len(code) > 0 && inRegions(code, rs[i].start) {
			continue
		}
		cut = true
		keep(from, rs[i].start)
		from = max(from, rs[i].end)
	}
	if !cut {
		return text[from:to]
	}
	keep(from, to)
	switch {
	case b.Len() > 0:
		return b.String()
	case first < 0:
		return ""
	}
	return text[first:firstEnd]
}

// firstRegionAfter returns the index of the first of rs (sorted, disjoint) that ends after
// pos. The blocks ask in text order, so it looks on from the last answer first and
// searches only when that is far or behind.
func (sc *scan) firstRegionAfter(rs []region, pos int) int {
	i := sc.regionHint
	if i > len(rs) || i > 0 && rs[i-1].end > pos {
		i = 0
	}
	for n := 0; i < len(rs) && rs[i].end <= pos; n++ {
		if n == 8 {
			i += sort.Search(len(rs)-i, func(k int) bool { return rs[i+k].end > pos })
			break
		}
		i++
	}
	sc.regionHint = i
	return i
}

// trimPartialCloser removes a closing tag cut short at the end of an unclosed block (rule
// "Truncation").
//
// Only a '<' in the last len("</summary") bytes can start one, so only they are searched
// (LastIndexByte is not vectorised).
func trimPartialCloser(body string) string {
	if len(body) == 0 {
		return body
	}
	// A fragment is a prefix of "</summary" or "<summary" that ends the body: its last
	// character is one of theirs, in either case (a blank or a line end is none).
	switch body[len(body)-1] | 0x20 {
	case '<', '/', 's', 'u', 'm', 'a', 'r', 'y':
	default:
		return body
	}
	from := max(0, len(body)-len("</summary"))
	k := strings.LastIndexByte(body[from:], '<')
	if k < 0 {
		return body
	}
	i := from + k
	frag := body[i:]
	if hasPrefixFold("</summary", frag) || hasPrefixFold("<summary", frag) {
		return body[:i]
	}
	return body
}

// equalFold reports whether a and b are equal, ASCII letters in any case.
func equalFold(a, b string) bool { return len(a) == len(b) && asciiEqualFold(a, b) }

// hasPrefixFold reports whether s begins with prefix, ASCII letters in any case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && asciiEqualFold(s[:len(prefix)], prefix)
}

// stripWrapperFence drops a fence line that opens the body and the one that closes it
// (rule "Fences").
//
// A body that opens with a visible ASCII character other than '`' and '~' opens with no
// fence line: it is returned without looking for the end of its first line.
func stripWrapperFence(body string) string {
	if len(body) > 0 && body[0] < utf8.RuneSelf && !asciiSpace(body[0]) && body[0] != '`' && body[0] != '~' {
		return body
	}
	first, rest, ok := strings.Cut(body, "\n")
	if !ok || !isFenceLine(first) {
		return body
	}
	i := strings.LastIndexByte(strings.TrimRight(rest, " \t\r\n"), '\n')
	last := TrimJS(rest[i+1:])
	if !isFenceLine(last) || countUpTo(rest, "```", 2) > 1 {
		return body
	}
	return TrimJS(rest[:max(i, 0)])
}

// removeNestedAnalysis drops an <analysis>...</analysis> block that opens the body (rule
// "Analysis").
func removeNestedAnalysis(body string) string {
	if !hasPrefixFold(body, "<analysis>") {
		return body
	}
	end := indexFold(body, "</analysis>", 0)
	if end < 0 {
		return body
	}
	return TrimJS(body[end+len("</analysis>"):])
}

// trimTagLines drops the lines at the ends of a body that hold one summary, analysis or
// think tag alone (rule "Trim"): an opener or a closer left over where the block was cut
// (<sumary><analysis> then the text). Only a body that opens with '<' or ends with '>' can
// have one, and only its first or last line is read; a body with a code fence keeps them.
func trimTagLines(body string, nel bool) string {
	if (len(body) == 0 || body[0] != '<' && body[len(body)-1] != '>') || strings.Contains(body, "```") || strings.Contains(body, "~~~") {
		return body // a tag line in fenced code is quoted
	}
	for len(body) > 0 && body[0] == '<' {
		end, next := len(body), len(body)
		for i := 0; i < len(body); i++ {
			if n := TerminatorLen(body, i); n > 0 {
				end, next = i, i+n
				break
			}
		}
		if !isTagLine(body[:end]) {
			break
		}
		body = trimRobust(body[next:], nel)
	}
	for len(body) > 0 && body[len(body)-1] == '>' {
		start := 0 // the start of the last line
		for i := len(body) - 1; i > 0; i-- {
			if c := body[i-1]; c == '\n' || c == '\r' || (c == 0x85 || c == 0xa8 || c == 0xa9) && endsTerminatorAt(body, i) {
				start = i
				break
			}
		}
		if !isTagLine(body[start:]) {
			break
		}
		body = trimRobust(body[:start], nel)
	}
	return body
}

// endsTerminatorAt reports whether a U+0085, U+2028 or U+2029 ends right before s[i].
func endsTerminatorAt(s string, i int) bool {
	switch s[i-1] {
	case 0x85:
		return i >= 2 && s[i-2] == 0xc2
	case 0xa8, 0xa9:
		return i >= 3 && s[i-3] == 0xe2 && s[i-2] == 0x80
	}
	return false
}

// isTagLine reports a line that is one summary, analysis or think tag and blanks: <analysis>,
// </ Summary >, <sumary>.
func isTagLine(line string) bool {
	l := strings.TrimFunc(line, invisible)
	if len(l) < 3 || l[0] != '<' || l[len(l)-1] != '>' {
		return false
	}
	j := skipBlanks(l, 1)
	if j < len(l) && l[j] == '/' {
		j = skipBlanks(l, j+1)
	}
	k := j
	for k < len(l) && isASCIILetter(l[k]) {
		k++
	}
	name, ok := tagNameOf(l[j:k])
	return ok && name != nameExample && skipBlanks(l, k) == len(l)-1
}

// trimRobust is TrimJS plus the invisible characters; U+0085 only where it ends lines (rule
// "Trim").
//
// An ASCII character is invisible exactly when it is a JavaScript blank (asciiSpace), and is
// one byte whatever follows: the ASCII ends are trimmed byte by byte, and TrimFunc, which
// decodes a rune for each character, runs only where an end is not ASCII.
func trimRobust(s string, nel bool) string {
	if s = trimASCIISpace(s); len(s) == 0 || s[0] < utf8.RuneSelf && s[len(s)-1] < utf8.RuneSelf {
		return s
	}
	cut := func(r rune) bool { return invisible(r) && (r != '\u0085' || nel) }
	return strings.TrimFunc(s, cut)
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

// eachLine calls f with the lines of s split at every line terminator (\n, \r\n, \r,
// U+2028, U+2029, U+0085), terminators dropped, until f returns false. A text with none but
// "\n" is split with IndexByte.
func eachLine(s string, f func(string) bool) {
	if onlyNewlines(s) {
		for {
			line, rest, ok := strings.Cut(s, "\n")
			if !f(line) || !ok {
				return
			}
			s = rest
		}
	}
	start := 0
	for i := 0; i < len(s); {
		n := TerminatorLen(s, i)
		if n == 0 {
			i++
			continue
		}
		if !f(s[start:i]) {
			return
		}
		i += n
		start = i
	}
	f(s[start:])
}

// sectionCount counts which of the nine numbered sections have a heading line in s (rule
// "Duplicates").
func sectionCount(s string) int { return sectionsUpTo(s, 9) }

// sectionsUpTo is sectionCount, stopping once it has counted limit (at least 1) sections:
// the tests that only ask for "at least limit" need not read the rest of a long summary.
//
// A heading line is, after the marks " \t#*>-", a digit 1-9, '.' or ')' and one more
// character. Rather than split s into lines, it visits each '.' and ')' (a vectorised
// search: a body without them costs two passes) and reads around it: the digit before, the
// marks back to the start of the line, and the character after. That is the line-by-line
// count: a line starts at the start of s or after a terminator as eachLine splits them
// (lineStartAt), and the character after is on the line when no terminator starts there.
// Each byte is read at most once more: the runs of marks read back end at distinct digits.
func sectionsUpTo(s string, limit int) int {
	var seen [10]bool
	n := 0
	for _, punct := range [...]byte{'.', ')'} {
		for at := 1; n < limit && at < len(s); {
			k := strings.IndexByte(s[at:], punct)
			if k < 0 {
				break
			}
			p := at + k // p >= 1: a digit may stand before it
			at = p + 1
			d := s[p-1]
			if d < '1' || d > '9' || seen[d-'0'] || p+1 >= len(s) || TerminatorLen(s, p+1) > 0 {
				continue
			}
			i := p - 1
			for i > 0 && isSectionMark(s[i-1]) {
				i--
			}
			if lineStartAt(s, i) {
				seen[d-'0'] = true
				n++
			}
		}
	}
	return n
}

func isSectionMark(c byte) bool {
	return c == ' ' || c == '\t' || c == '#' || c == '*' || c == '>' || c == '-'
}

// lineStartAt reports whether a line of s, as eachLine splits them, starts at i, where s[i]
// is ASCII and no terminator byte: at the start of s, or right after \n, \r (not followed
// by the \n of \r\n, as s[i] is no '\n'), U+2028 or U+2029 (isLineStart), or U+0085.
// Their lead bytes are never a later byte of another terminator, so eachLine, reading from
// the start, reads each of them as a terminator.
func lineStartAt(s string, i int) bool {
	return isLineStart(s, i) || i >= 2 && s[i-2:i] == "\u0085"
}

// hasContent reports whether a body says anything besides headings, tags and blanks (rule
// "Truncation").
func hasContent(body string) bool { return hasContentIn(body, false) }

// hasContentIn is hasContent for a body known to end its lines with "\n" alone where simple
// is set (a part of a scan.onlyLF text), whose lines need no search for other terminators.
func hasContentIn(body string, simple bool) bool {
	// Line by line, as eachLine splits them, but without first looking for every kind of
	// terminator in the whole body: the first lines decide most bodies.
	nl := -1 // the next '\n' at or after start, or len(body)
	for start := 0; ; {
		if nl < start {
			nl = len(body)
			if k := strings.IndexByte(body[start:], '\n'); k >= 0 {
				nl = start + k
			}
		}
		end, n := nl, 0
		if nl < len(body) {
			n = 1
		}
		for i := start; i < nl && !simple; i++ {
			if c := body[i]; c == '\r' || c == 0xc2 || c == 0xe2 {
				if m := TerminatorLen(body, i); m > 0 {
					end, n = i, m
					break
				}
			}
		}
		if isContentLine(body[start:end]) {
			return true
		}
		if n == 0 {
			return false
		}
		start = end + n
	}
}

// isContentLine reports a line that says something: not blank, not only tags, not a bare
// section heading.
func isContentLine(line string) bool {
	l := strings.TrimSpace(line)
	// l is trimmed: tagShapedOnly is false unless it opens with '<' (asked here, as the
	// call is not inlined).
	return l != "" && !(l[0] == '<' && tagShapedOnly(l)) && !isHeadingOnly(l)
}

// tagShapedOnly reports whether l is made of <...> tokens and blanks alone: tags, known or
// broken (<summ\xb3ry>), are not content. After the first token a blank is any invisible
// character, a Unicode space between two tags as much as an ASCII one.
func tagShapedOnly(l string) bool {
	prev, last := -1, -1 // the starts of the last two tokens
	for i, n := 0, 0; ; n++ {
		for i < len(l) {
			c := l[i]
			if c == ' ' || c == '\t' {
				i++
				continue
			}
			if n == 0 {
				break
			}
			r, size := rune(c), 1
			if c >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(l[i:])
			}
			if !invisible(r) {
				break
			}
			i += size
		}
		if i == len(l) {
			return true
		}
		if n >= 2 && n&(n-1) == 0 && prev >= 0 {
			// At the 2nd, 4th, 8th... token: the copies that follow of the last token, or of
			// the last two, with their blanks, are tag-shaped as they are (a loop of tags is
			// read in a few comparisons; a line of other tags pays a failed comparison for
			// each power of two).
			p := i - last
			r := repeatedLines(l, i, p)
			if r == 0 {
				p = i - prev
				r = repeatedLines(l, i, p)
			}
			if r > 0 {
				i += r * p
				prev, last = -1, -1
				continue // blanks may follow the last copy
			}
		}
		if l[i] != '<' {
			return false
		}
		j := i + 1 // the first '<' or '>' after it, which must be '>'
		for j < len(l) && l[j] != '<' && l[j] != '>' {
			j++
		}
		if j == len(l) || l[j] != '>' {
			return false
		}
		prev, last = last, i
		i = j + 1
	}
}

// isHeadingOnly reports a section heading with nothing after it: "3. Files and Code Sections:".
func isHeadingOnly(l string) bool {
	i := 0 // strings.TrimLeft(l, "#* "), without building its set for every line
	for i < len(l) && (l[i] == '#' || l[i] == '*' || l[i] == ' ') {
		i++
	}
	l = l[i:]
	if len(l) < 3 || l[0] < '1' || l[0] > '9' || l[1] != '.' {
		return false
	}
	j := len(l) // strings.TrimRight(l, "* ")
	for j > 0 && (l[j-1] == '*' || l[j-1] == ' ') {
		j--
	}
	// A string has no more runes than bytes: only a long line needs counting.
	return j > 0 && l[j-1] == ':' && (len(l) < 60 || utf8.RuneCountInString(l) < 60)
}

// isTemplate reports a body made of the prompt's placeholders ("[Detailed description]"),
// rule "Echoed templates". Fewer than three ']' cannot make one.
func isTemplate(body string) bool {
	brackets := strings.Count(body, "]") // at least one for each placeholder line
	if brackets < 3 {
		return false
	}
	placeholders, content := 0, 0
	eachLine(body, func(line string) bool {
		l := strings.TrimSpace(line)
		i := 0 // strings.TrimLeft(l, "-*"), without building its set for every line
		for i < len(l) && (l[i] == '-' || l[i] == '*') {
			i++
		}
		l = strings.TrimSpace(l[i:])
		switch {
		case l == "" || isHeadingOnly(l):
		case isPlaceholder(l):
			placeholders++
		default:
			content++
		}
		return content < brackets // past that, placeholders can no longer outnumber content
	})
	return placeholders >= 3 && placeholders > content
}

// isPlaceholder reports a line that is one of the prompt's placeholders: a bracketed phrase
// with a word of three letters or more ("[Detailed description]", "[Task 1]"), or "[...]".
// A bracketed letter ("[C]") or an empty pair ("[]") is written content, however short.
func isPlaceholder(l string) bool {
	if len(l) < 2 || l[0] != '[' || l[len(l)-1] != ']' {
		return false
	}
	inner, run := l[1:len(l)-1], 0
	if inner == "..." {
		return true
	}
	for i := 0; i < len(inner) && run < 3; i++ {
		if isASCIILetter(inner[i]) {
			run++
		} else {
			run = 0
		}
	}
	return run >= 3
}

// marker finds a summary without an opening tag (rule "No tags"): before an orphan
// </summary> line (from the end of the analysis; a closer after a structural opener closes
// that block, which blocks judged), after [summary] (up to [/summary]), or
// after a line that holds only a Summary heading or label, outside analysis blocks. A marker
// whose body fails makes every later marker of its kind with the same end fail too (their
// bodies are parts of its body), so each is tried once.
func (sc *scan) marker(analysis []region) (string, bool) {
	text := sc.text
	if body, ok := sc.beforeOrphan(analysis); ok {
		return body, true
	}
	lastAnalysis := -1
	if len(analysis) > 0 {
		lastAnalysis = analysis[len(analysis)-1].start
	}
	closeAt, failedClose := -1, -2 // the next [/summary] at or after a position (len(text) for none)
	var headingTried [2]bool       // a heading before the last analysis block, one after it
	tags, ti := sc.tags, 0         // ti: the first tag at or after start, where a line opens with '<'
	for start := 0; start >= 0; {
		if headingTried[0] && (lastAnalysis <= start || headingTried[1]) {
			// Only a [summary] line can still be a marker: go to the next line with a '['.
			k := strings.IndexByte(text[start:], '[')
			if k < 0 {
				sc.steps += len(text) - start
				break
			}
			sc.steps += k
			start = sc.lineStartAfter(start+k, start)
		}
		// A line that opens with a tag is no marker line (markerStart('<') is false), and one
		// whose tag is followed by "\n" ends there: a tag never spans a line end. A loop of
		// tag lines is passed without searching for its line ends.
		if start < len(text) && text[start] == '<' {
			for ti < len(tags) && int(tags[ti].start) < start {
				ti++ // each tag is passed once over the scan
			}
			if ti < len(tags) && int(tags[ti].start) == start {
				if e := int(tags[ti].end); e < len(text) && text[e] == '\n' {
					sc.steps += e + 1 - start
					start = e + 1
					continue
				}
			}
		}
		end, next := sc.lineBounds(start)
		if start == end || !markerStart(text[start]) || inRegions(analysis, start) {
			start = next // a marker line starts with a blank, '[', a heading mark or S
			continue
		}
		l := TrimJS(text[start:end])
		if equalFold(l, "[summary]") {
			if closeAt < end {
				closeAt = indexBracketCloser(text, end) // not ToLower: it can change lengths
				if closeAt < 0 {
					closeAt = len(text)
				}
				sc.steps += closeAt - end
			}
			if closeAt != failedClose {
				body := trimRobust(sc.cutRegions(end, closeAt, analysis, nil), sc.nel)
				sc.steps += len(body)
				if hasContentIn(body, sc.onlyLF) {
					return body, true
				}
				failedClose = closeAt
			}
			start = next
			continue
		}
		after := 0
		if lastAnalysis > start {
			after = 1
		}
		if h := trimLabel(l); equalFold(h, "summary") && next >= 0 && !headingTried[after] {
			headingTried[after] = true
			to := len(text)
			if after == 1 {
				to = lastAnalysis
			}
			body := trimRobust(sc.cutRegions(next, max(next, to), analysis, nil), sc.nel)
			sc.steps += len(body)
			if hasContentIn(body, sc.onlyLF) && sectionsUpTo(body, 3) >= 3 {
				return body, true
			}
		}
		start = next
	}
	return "", false
}

// beforeOrphan finds a summary before an orphan </summary> (rule "No tags"): a structural
// closer that closes no block, outside analysis; the summary runs from the end of the last
// structural tag or analysis block before it and has content: right after an analysis
// block any, else at least three numbered sections.
func (sc *scan) beforeOrphan(analysis []region) (string, bool) {
	text := sc.text
	open := false // a structural opener waits for the closer of its block
	after := 0    // the end of the last structural tag
	for _, t := range sc.tags {
		sc.steps++
		if !t.structural() || t.is(inAnalysis) {
			continue
		}
		prev := after
		after = int(t.end)
		if t.name != nameSummary {
			continue
		}
		if t.kind == opener {
			open = true
			continue
		}
		if open {
			open = false // the closer of a block, which the blocks rule judged: no orphan
			continue
		}
		from, afterAnalysis := prev, false
		if k := sort.Search(len(analysis), func(k int) bool { return analysis[k].end > int(t.start) }); k > 0 && analysis[k-1].end >= prev {
			from, afterAnalysis = analysis[k-1].end, true
		}
		body := trimRobust(text[from:t.start], sc.nel)
		sc.steps += len(body)
		if hasContentIn(body, sc.onlyLF) && (afterAnalysis || sectionsUpTo(body, 3) >= 3) {
			return body, true
		}
	}
	return "", false
}

// indexBracketCloser is indexFold(s, "[/summary]", from), from at most len(s). Its first
// two characters have no case, so every match starts with "[/" as written: it goes from one
// '/' to the next (IndexByte, vectorised; answers hold fewer '/' than '[' lines of a
// looping [summary] marker) and compares around each, instead of comparing at every byte.
func indexBracketCloser(s string, from int) int {
	const closer = "[/summary]"
	for at := from + 1; at < len(s); at++ {
		k := strings.IndexByte(s[at:], '/')
		if k < 0 {
			return -1
		}
		at += k // a match starts at at-1
		if len(s)-(at-1) < len(closer) {
			return -1 // no later match fits either
		}
		if m := s[at-1 : at-1+len(closer)]; m[0] == '[' && m[len(m)-1] == ']' && asciiEqualFold(m, closer) {
			return at - 1
		}
	}
	return -1
}

// lineBounds returns sc.lineEnd(start) and the sc.nextLine of it; for a scan.simple text
// with one search and no calls, as the marker scan asks it for every line.
func (sc *scan) lineBounds(start int) (end, next int) {
	if !sc.simple {
		end = sc.lineEnd(start)
		return end, sc.nextLine(end)
	}
	k := strings.IndexByte(sc.text[start:], '\n')
	if k < 0 {
		sc.steps += len(sc.text) - start
		return len(sc.text), -1
	}
	sc.steps += k
	return start + k, start + k + 1
}

// markerStart reports whether a line starting with byte c can be a marker line: "[summary]",
// or a Summary label after blanks and marks (non-ASCII bytes may begin JavaScript blanks).
func markerStart(c byte) bool {
	switch c {
	case '[', '#', '*', '_', ':', ' ', '\t', '\v', '\f', 's', 'S':
		return true
	}
	return c >= 0x80
}

// trimLabel removes the marks around a label: "## Summary:" and "**Summary**" give "Summary".
func trimLabel(l string) string {
	isMark := func(c byte) bool { return c == '#' || c == '*' || c == '_' || c == ' ' || c == ':' }
	i, j := 0, len(l)
	for i < j && isMark(l[i]) {
		i++
	}
	for j > i && isMark(l[j-1]) {
		j--
	}
	return l[i:j]
}

// untagged returns the text of an answer that has no summary block and no marker, minus
// its analysis blocks and up to an orphan </summary> (rule "No tags"). It is no summary
// when nothing but tags, headings, fences and Summary labels remain, when an analysis block
// runs unclosed to the end, or when the text is a tool call printed as text or a refusal.
func (sc *scan) untagged(analysis []region) (string, bool) {
	if sc.openAnalysis {
		return "", false // cut off inside the analysis: the summary never came
	}
	end := len(sc.text)
	for _, t := range sc.tags {
		if t.name == nameSummary && t.kind == closer && t.structural() && !t.is(inAnalysis) {
			end = int(t.start)
			break
		}
	}
	body := trimRobust(trimPartialCloser(sc.cutRegions(0, end, analysis, nil)), sc.nel)
	sc.steps += len(body)
	if !hasProse(body) || isToolCall(body) || isRefusal(body) {
		return "", false
	}
	return body, true
}

// hasProse is hasContent without Summary and Analysis labels ("Summary:", "## Summary") and
// code fence lines.
//
// A line's answer depends on the line alone, so a line equal to the one before it needs no
// second look, and nor do the copies of it that follow (a loop of one line, found by
// repeatedLines). That skip is taken where "\n" is the only terminator, as eachLine then
// splits at "\n" alone.
func hasProse(body string) bool {
	// The first lines decide most bodies: each of the first eight is read as eachLine
	// reads it when it holds no terminator but its "\n" (eachLine splits such a line
	// alone, whatever the rest holds), before the rest is searched for other terminators.
	start := 0
	for n := 0; n < 8; n++ {
		end := len(body)
		if k := strings.IndexByte(body[start:], '\n'); k >= 0 {
			end = start + k
		}
		line := body[start:end]
		if !onlyNewlines(line) {
			break
		}
		if isProseLine(line) {
			return true
		}
		if end == len(body) {
			return false
		}
		start = end + 1 // after a "\n": eachLine splits the rest as it splits it in body
	}
	return hasProseFrom(body[start:])
}

// hasProseFrom is hasProse without its look at the first lines.
func hasProseFrom(body string) bool {
	if !onlyNewlines(body) {
		found := false
		eachLine(body, func(line string) bool {
			found = isProseLine(line)
			return !found
		})
		return found
	}
	prev, judged := "", false
	for start := 0; ; {
		end := len(body)
		if k := strings.IndexByte(body[start:], '\n'); k >= 0 {
			end = start + k
		}
		line := body[start:end]
		switch {
		case !judged || line != prev:
			if isProseLine(line) {
				return true
			}
			prev, judged = line, true
		case end < len(body):
			end += repeatedLines(body, end+1, len(line)+1) * (len(line) + 1)
		}
		if end == len(body) {
			return false
		}
		start = end + 1
	}
}

// isProseLine is hasProse's question for one line.
func isProseLine(line string) bool {
	l := strings.TrimSpace(line)
	if h := trimLabel(l); equalFold(h, "summary") || equalFold(h, "analysis") || isFenceLine(l) {
		return false
	}
	// l is trimmed: tagShapedOnly is false unless it opens with '<' (asked here, as the
	// call is not inlined).
	return l != "" && !(l[0] == '<' && tagShapedOnly(l)) && !isHeadingOnly(l)
}

// repeatedLines returns how many whole copies of s[at-p:at] follow at at. It compares in
// strides that double while they match, then halve, so that a loop of one line costs a few
// vectorised comparisons, and it reads no more than about twice the bytes it skips plus p.
func repeatedLines(s string, at, p int) int {
	good, step := 0, p // s[at:at+good] is copies of the unit
	for ; at+good+step <= len(s) && s[at+good:at+good+step] == s[at+good-p:at+good-p+step]; step *= 2 {
		good += step
	}
	for step /= 2; step >= p; step /= 2 {
		if at+good+step <= len(s) && s[at+good:at+good+step] == s[at+good-p:at+good-p+step] {
			good += step
		}
	}
	return good / p
}

// onlyNewlines reports whether "\n" is the only line terminator of s, so that eachLine
// splits it at "\n" alone.
func onlyNewlines(s string) bool {
	return strings.IndexByte(s, '\r') < 0 && !hasLineSeparator(s) && !containsByLast(s, "\u0085")
}

// isToolCall reports a tool call printed as text: a line that opens XML function-call
// markup, or a JSON object naming a tool use.
//
// Such a line holds one of the markup prefixes at a '<' of the body, or a '{': a body with
// neither is answered without splitting it into lines (mayHoldToolCall).
func isToolCall(body string) bool {
	if !mayHoldToolCall(body) {
		return false
	}
	found := false
	eachLine(body, func(line string) bool {
		l := strings.TrimSpace(line)
		for _, p := range toolCallOpeners {
			if hasPrefixFold(l, p) {
				found = true
			}
		}
		if strings.HasPrefix(l, "{") && (strings.Contains(l, `"tool_use"`) || strings.Contains(l, `"tool_calls"`) || strings.Contains(l, `"function_call"`)) {
			found = true
		}
		return !found
	})
	return found
}

var toolCallOpeners = [...]string{"<function_calls", "<invoke", "<tool_call", "<tool_use"}

// mayHoldToolCall reports whether body holds a '{', a markup prefix of toolCallOpeners
// (any case) or more than 16 '<': false means that no line of body is a tool call. Past 16
// '<' the line-by-line pass is left to decide, so that a line of many tags costs no more
// than it did before this search.
func mayHoldToolCall(body string) bool {
	for at, n := 0, 0; ; at, n = at+1, n+1 {
		k := strings.IndexByte(body[at:], '<')
		if k < 0 {
			return strings.IndexByte(body, '{') >= 0
		}
		if n == 16 {
			return true
		}
		at += k
		if at+1 < len(body) {
			switch body[at+1] | 0x20 { // the letter after '<' of each prefix: f, i, t
			case 'f', 'i', 't':
				for _, p := range toolCallOpeners {
					if hasPrefixFold(body[at:], p) {
						return true
					}
				}
			}
		}
	}
}

// isRefusal reports a text that opens by declining to summarize.
func isRefusal(body string) bool {
	for _, p := range [...]string{"i can't", "i can\u2019t", "i cannot", "i can not", "i'm unable", "i\u2019m unable", "i am unable",
		"i won't", "i won\u2019t", "i will not", "i'm sorry", "i\u2019m sorry", "sorry, i"} {
		if hasPrefixFold(body, p) {
			return true
		}
	}
	return false
}
