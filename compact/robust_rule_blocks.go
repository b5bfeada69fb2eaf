package compact

import "strings"

// Rule "Blocks" of docs/robust.md, as it states it: a summary block runs from its opener to the
// first closer after it that is not inside a fenced code block opened in the body, not part of an
// HTML element in the body (a `<summary>...</summary>` pair on a line of its own, or a `<summary>`
// right after `<details>`) and not a pair the summary quotes on its own line. A body whose code
// fence swallows every closer ends at the first one; a body with no summary closer but an
// `</analysis>` line after it ends there (a wrong closer); at most eight blocks may end at such a
// fallback. A new opener before any closer ends the block there, unclosed (a retry or a loop).
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// blocks finds the summary blocks outside analysis blocks, in text order, and returns the
// best one that is not degenerate (ok) and whether there was any block at all (seen). Where
// inline is set, a summary opener after prose on its line starts a block too (rule "Tags",
// tried when no block has content otherwise).
func (sc *scan) blocks(analysis []region, inline bool) (best candidate, ok, seen bool) {
	tags := sc.tags
	fallbacks := maxFallbacks // each block ending at a fallback closer has scanned to the end: bounded work
	sc.fenceCursor = 0
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
		if !c.degenerate && (!ok || c.beats(&best)) {
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
	t, u := &tags[i], &tags[i+1]
	if u.name != nameSummary || u.kind != opener || !u.structural() || u.line == t.line || int(u.start)-int(t.end) > 16 {
		return false
	}
	if i+2 < len(tags) && tags[i+2].name == nameSummary && tags[i+2].kind == closer && tags[i+2].line == u.line {
		return false // <summary>Title</summary>: an HTML element inside the body
	}
	if (u.start != t.end+1 || sc.text[t.end] != '\n') && !sc.oneTerminator(int(t.end), int(u.start)) && trimRobust(sc.text[t.end:u.start], sc.nel) != "" || u.is(inDetails) {
		return false
	}
	return true
}

// maxFallbacks is how many blocks of one answer may end at a fallback closer (a wrong closer
// or a fenced one). Finding one scans to the end of the text, so an unbounded number would
// make a loop of such blocks quadratic; retries in real answers stay well under it.
const maxFallbacks = 8

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
	if fi == len(sc.fences) && !sc.enderAfter(i) {
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
		for ; fi < len(sc.fences) && sc.fences[fi].start <= u.line; fi++ {
			f := sc.fences[fi]
			switch {
			case outer != 0 && !fence && f.char == outer && sc.bareFence(f):
				outer = 0 // closes the fence opened just before the opener (a line with an info string opens one)
			case !fence:
				fence, open = true, f.char
				if len(b.code) == cap(b.code) {
					// Doubled, not grown by append's quarter for large slices: a block that
					// runs to the end over a text of fences allocated five times its regions.
					// No more regions than fences left can open.
					grown := make([]region, len(b.code), min(max(2*cap(b.code), 16), len(b.code)+len(sc.fences)-fi))
					copy(grown, b.code)
					b.code = grown
				}
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
		if u.kind == opener && u.structural() && u.is(inDetails) {
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
	body, degenerate := sc.bodyOf(sc.cutRegions(int(t.end), end, analysis, code), closed)
	return candidate{body: body, closed: closed, start: int(t.start), sections: -1, degenerate: degenerate}
}

// blockBody returns the body of a block from its text, analysis blocks cut out, and whether
// that body is degenerate.
func blockBody(body string, closed, nel, onlyLF bool) (string, bool) {
	if !closed {
		body = trimPartialCloser(body)
	}
	body = trimRobust(body, nel)
	body = stripWrapperFence(body)
	body = removeNestedAnalysis(body)
	body = trimTagLines(body, nel)
	return body, !hasContentIn(body, onlyLF) || isTemplate(body)
}
