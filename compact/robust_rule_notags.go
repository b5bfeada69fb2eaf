package compact

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Rule "No tags" of docs/robust.md, as it states it: an orphan `</summary>` (a structural closer
// that closes no block) ends a summary that starts after the last structural tag or analysis block
// before it and has content (right after an analysis block, an example block or a block that is the
// template echoed, any; else at least two numbered sections); `[summary]...[/summary]` brackets
// hold one; a line holding only a Summary heading or label (`## Summary`, `**Summary:**`,
// `Summary:`) followed by at least three numbered sections marks the start of one, which runs to
// the end (PathMarker). An answer with no summary block at all and no marker returns its text minus
// analysis blocks, up to an orphan `</summary>` (PathUntagged). It is no summary when only tags,
// headings, fences and labels remain, when the analysis runs unclosed to the end, or when the text
// is a tool call printed as text or a refusal.
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

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
	lines := sc.lineCursor()
	for start := 0; start >= 0; {
		if headingTried[0] && (lastAnalysis <= start || headingTried[1]) {
			// Only a [summary] line can still be a marker: go to the next line with a '['.
			k := strings.IndexByte(text[start:], '[')
			if k < 0 {
				break
			}
			start = sc.lineStartAfter(start+k, start)
		}
		if start >= 0 && start < len(text) && !markerStart(text[start]) {
			// No marker line (a marker line starts with a blank, '[', a heading mark or S):
			// only where the next line starts matters. Asked only where start moves, so that
			// a loop of lines that may be markers costs no call per line.
			start = sc.nextMarkerLine(start, &lines)
		}
		if start < 0 {
			break
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
			}
			if closeAt != failedClose {
				body := trimRobust(sc.cutRegions(end, closeAt, analysis, nil), sc.nel)
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
// block, an example block or a block that is the template echoed any, else at least two
// numbered sections.
func (sc *scan) beforeOrphan(analysis []region) (string, bool) {
	text := sc.text
	open := false           // a structural opener waits for the closer of its block
	after := 0              // the end of the last structural tag
	example := false        // the last structural tag closes an example block
	openEnd := 0            // the end of the structural opener that open waits with
	block := [2]int{-1, -1} // the body of the block the last structural tag closed
	for _, t := range sc.tags {
		if !t.structural() || t.is(inAnalysis) {
			continue
		}
		prev, afterExample, prevBlock := after, example, block
		after, example, block = int(t.end), t.name == nameExample && t.kind == closer && t.is(inExample), [2]int{-1, -1}
		if t.name != nameSummary {
			continue
		}
		if t.kind == opener {
			open, openEnd = true, int(t.end)
			continue
		}
		if open {
			open = false // the closer of a block, which the blocks rule judged: no orphan
			block = [2]int{openEnd, int(t.start)}
			continue
		}
		from, afterAnalysis := prev, false
		if k := sort.Search(len(analysis), func(k int) bool { return analysis[k].end > int(t.start) }); k > 0 && analysis[k-1].end >= prev {
			from, afterAnalysis = analysis[k-1].end, true
		}
		body := trimRobust(text[from:t.start], sc.nel)
		if hasContentIn(body, sc.onlyLF) && (afterAnalysis || afterExample || sectionsUpTo(body, 2) >= 2 ||
			prevBlock[0] >= 0 && isTemplate(trimRobust(text[prevBlock[0]:prevBlock[1]], sc.nel))) {
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

// nextMarkerLine returns the first line start at or after start, a line start, whose line
// can be a marker line (markerStart): that start, len(text), or -1 where the last line has no
// terminator. With shortcuts (lines.on) a line that a tag starts and a line terminator
// follows is passed without a search for its end (a tag never spans a line end), and in a
// scan.simple text the lines up to the next tag are passed in one loop (skipLinesLF), so
// that a loop of short lines costs no call per line; without shortcuts each line is asked
// for its bounds (FuzzRobustShortcutsAgree holds the two equal).
func (sc *scan) nextMarkerLine(start int, lines *lineCursor) int {
	text := sc.text
	if !lines.on {
		for start >= 0 && start < len(text) && !markerStart(text[start]) {
			_, start = sc.lineBounds(start)
		}
		return start
	}
	tags, k := lines.tags, lines.next
	for start >= 0 && start < len(text) && !markerLead[text[start]] {
		for k < len(tags) && int(tags[k].start) < start {
			k++
		}
		limit := len(text) // the next tag's start: the lines before it are passed by skipLinesLF
		if k < len(tags) {
			limit = int(tags[k].start)
			if e := int(tags[k].end); limit == start && e < len(text) {
				if text[e] == '\n' {
					start = e + 1
					continue
				}
				if !sc.simple {
					if n := terminatorLen(text, e, sc.nel); n > 0 {
						start = e + n // the terminator that ends the tag's line
						continue
					}
				}
			}
		}
		if !sc.simple {
			_, start = sc.lineBounds(start)
			continue
		}
		// A tag that starts this line and does not end it: this line is read by hand.
		if start = skipLinesLF(text, start, max(limit, start+1)); start < 0 {
			return -1 // the cursor is not asked again
		}
	}
	lines.next = k
	return start
}

// skipLinesLF returns the start of the first line from start on, a line start, that begins
// before limit with a byte markerLead holds, else the first line start at or after limit,
// len(text) or -1 where the last line has no terminator; lines end at "\n" alone. A line's
// end is searched by hand over 16 bytes, as indexByteNear does, before a vectorised search.
func skipLinesLF(text string, start, limit int) int {
	for start < limit && !markerLead[text[start]] {
		e, near := start, min(start+16, len(text))
		for e < near && text[e] != '\n' {
			e++
		}
		if e == near {
			if near == len(text) {
				return -1
			}
			k := strings.IndexByte(text[near:], '\n')
			if k < 0 {
				return -1
			}
			e = near + k
		}
		start = e + 1
	}
	return start
}

// markerLead is markerStart as a table, for nextMarkerLine's loop.
var markerLead = func() (t [256]bool) {
	for c := range 256 {
		t[c] = markerStart(byte(c))
	}
	return t
}()

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
	// The ends lose their tag lines as a block's body does (rule "Trim"): cutting a closed
	// analysis block out of "<analysis<analysis></analysis>>" leaves "<analysis>".
	body := trimTagLines(trimRobust(trimPartialCloser(sc.cutRegions(0, end, analysis, nil)), sc.nel), sc.nel)
	if !hasProse(body) || isToolCall(body) || isRefusal(body) {
		return "", false
	}
	return body, true
}

// hasProse is hasContent without Summary and Analysis labels ("Summary:", "## Summary") and
// code fence lines: whether a line of body isProseLine. Its plain form, eachLine and
// isProseLine for each line, is hasProseRef (robust_lines_test.go).
//
// A line's answer depends on the line alone, so a line equal to the one before it needs no
// second look, and nor do the copies of it that follow (a loop of one line, found by
// repeatedLines): judged line by line a loop of "Summary" lines cost twelve times as much.
// That skip is taken where "\n" is the only terminator, as eachLine then splits at "\n" alone.
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

// isProseLine is hasProse's question for one line.
func isProseLine(line string) bool {
	l := strings.TrimSpace(line)
	if h := trimLabel(l); equalFold(h, "summary") || equalFold(h, "analysis") || isFenceLine(l) {
		return false
	}
	// l is trimmed: tagShapedOnly is false unless it opens with '<' or an invisible
	// character (asked here, as the call is not inlined).
	return l != "" && !((l[0] == '<' || l[0] >= utf8.RuneSelf) && tagShapedOnly(l)) && !isHeadingOnly(l)
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

// mayHoldToolCall reports whether body holds a '{' or a markup prefix of toolCallOpeners
// (any case): false means that no line of body is a tool call.
func mayHoldToolCall(body string) bool {
	if strings.IndexByte(body, '{') >= 0 {
		return true
	}
	for at := 0; ; at++ {
		if at = nextLtBefore(body, at, &toolCallStart); at < 0 {
			return false
		}
		for _, p := range toolCallOpeners {
			if hasPrefixFold(body[at:], p) {
				return true
			}
		}
	}
}

// toolCallStart holds the letters after the '<' of toolCallOpeners, in either case: f, i, t.
var toolCallStart = func() (t [256]bool) {
	for _, c := range "fFiItT" {
		t[c] = true
	}
	return t
}()

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
