package compact

import (
	"sort"
	"strings"
)

// Rule "Analysis" of docs/robust.md, as it states it: an analysis (or think) block runs from its
// opener to the first closer that names analysis, think or thinking (a model that closes
// `<analysis>` with `</think>` still closed it); a closer with text after it on its line
// (`</analysis>x`) is passed over for a later one at a line end, except where a whole summary
// block, its opener at a line start, comes between them. It ends earlier, at the summary opener, in
// two cases: a closer written right after the summary's closer (`</summary></analysis>`), and a
// summary opener alone on its line with no summary closer before the analysis closer (the analysis
// was left open and the summary closed with `</analysis>`). Unclosed, it runs to a summary closer
// that comes before any summary opener (the analysis closed with the wrong closer), else to the
// next summary opener that is not prose about the tag (one followed on its line by a lower-case
// word, with no summary closer after it: `<summary> has to hold all nine sections`), else to the
// end; but one that runs to such a summary closer and was opened on the line after a fence line
// ends earlier, at the first bare fence line of that character (the model closed the fence, not the
// analysis). An analysis closer with no opener, before any summary opener (an orphan), makes the
// text before it, back to the last analysis block, analysis. An opener whose next tag is its closer
// is a closed block too where the opener is mid-line or the closer is on its line
// (`<analysis></analysis>` before prose). A block written inside a tag
// (`</summary<analysis></analysis>>`) takes the tag with it. Nothing inside an analysis block is
// ever returned, except where a summary quotes one in a fenced code block.
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// region is a span of the text to skip: an analysis or think block, or an example wrapper.
type region struct{ start, end int }

// regions returns the analysis and think blocks and the example wrappers, in text order
// (rules "Analysis" and "Echoed templates").
func (sc *scan) regions() (analysis []region, examples []region) {
	tags := sc.tags
	n := len(tags)
	// For each tag index, the next structural analysis closer, the next analysis closer of
	// any kind, the next structural summary opener, the next example closer and the next
	// structural summary closer at or after it (n for none): one backward pass, so the scan
	// stays linear.
	next := make([]nextTags, n+1)
	nx := nextTags{int32(n), int32(n), int32(n), int32(n), int32(n)} // next[j+1]
	next[n] = nx
	for j := n - 1; j >= 0; j-- {
		u := tags[j]
		if u.kind == closer && u.name == nameSummary && u.structural() {
			nx.sumClose = int32(j)
		}
		switch {
		case u.kind == closer && u.analysisLike():
			nx.anyClose = int32(j)
			if u.structural() {
				nx.structClose = int32(j)
			}
		case u.kind == opener && u.name == nameSummary && u.structural():
			if int(nx.sumClose) < n || !sc.proseAfter(u) {
				nx.summary = int32(j)
			}
		case u.kind == closer && u.name == nameExample:
			nx.example = int32(j)
		}
		next[j] = nx
	}
	regionEnd := 0       // the end of the last analysis block
	summarySeen := false // a structural summary opener outside analysis came before
	for i := 0; i < n; i++ {
		if len(analysis) > 0 {
			regionEnd = analysis[len(analysis)-1].end
		}
		t := tags[i]
		if t.kind == opener && t.name == nameSummary && t.structural() {
			summarySeen = true
		}
		if t.kind == closer && t.analysisLike() && t.structural() && !summarySeen {
			// An orphan closer: what came before it, back to the last analysis block, is
			// analysis whose opener was lost.
			analysis = append(analysis, region{regionEnd, int(t.end)})
			continue
		}
		if t.kind != opener {
			continue
		}
		if !t.structural() {
			// A mid-line analysis opener, even in `code`, opens a block when its closer is the
			// next tag: a closed block with nothing tag-like inside, which is never returned.
			if t.analysisLike() && i+1 < n && tags[i+1].kind == closer && tags[i+1].analysisLike() {
				analysis = append(analysis, region{int(t.start), int(tags[i+1].end)})
				i++
			}
			continue
		}
		switch t.name {
		case nameAnalysis, nameThink:
			if i+1 < n && tags[i+1].kind == closer && tags[i+1].analysisLike() && tags[i+1].line == t.line {
				// Its closer on its line (`<analysis></analysis>` before prose): closed there,
				// whatever follows the closer.
				analysis = append(analysis, region{int(t.start), int(tags[i+1].end)})
				i++
				continue
			}
			if j := int(next[i+1].structClose); j < n {
				if a := int(next[i+1].anyClose); a < j {
					if k := int(next[a+1].summary); k < j && int(next[k].sumClose) < j {
						// A closer with text after it on its line (`</analysis>x`), then a
						// whole summary block before the next analysis closer: the analysis
						// ended at the first closer, the block is the summary.
						analysis = append(analysis, region{int(t.start), int(tags[a].end)})
						i = a
						continue
					}
				}
				if k := int(next[i+1].summary); k < j && tags[j-1].name == nameSummary && tags[j-1].kind == closer &&
					sc.onlyInvisible(int(tags[j-1].end), int(tags[j].start)) {
					// The analysis was closed only after the summary: it ends at the summary.
					analysis = append(analysis, region{int(t.start), int(tags[k].start)})
					i = k - 1
					continue
				}
				if k := int(next[i+1].summary); k < j && int(next[k].sumClose) > j && tags[k].is(atLineStart) && tags[k].is(atLineEnd) {
					// A summary opener alone on its line, and no summary closer before the
					// analysis closer: the analysis was left open and the summary closed with
					// </analysis>. (An opener followed by prose on its line is prose about it.)
					analysis = append(analysis, region{int(t.start), int(tags[k].start)})
					i = k - 1
					continue
				}
				analysis = append(analysis, region{int(t.start), int(tags[j].end)})
				i = j
			} else if j := int(next[i+1].anyClose); j < n {
				analysis = append(analysis, region{int(t.start), int(tags[j].end)})
				i = j
			} else if s, e := sc.fenceClosingAnalysis(t, wrongCloserEnd(tags, next[i+1])); e >= 0 {
				// Opened inside a fence that closes before the analysis would end: the model
				// closed the fence, not the analysis. Both fence lines are the analysis's.
				analysis = append(analysis, region{max(s, regionEnd), e})
				for i+1 < n && int(tags[i+1].start) < e {
					i++
				}
			} else if j := int(next[i+1].sumClose); j < int(next[i+1].summary) {
				// Closed by a summary closer before any summary opener: the wrong closer.
				analysis = append(analysis, region{int(t.start), int(tags[j].end)})
				i = j
			} else if j := int(next[i+1].summary); j < n {
				analysis = append(analysis, region{int(t.start), int(tags[j].start)})
				i = j - 1
			} else {
				analysis = append(analysis, region{int(t.start), len(sc.text)})
				sc.openAnalysis = true
				i = n
			}
		case nameExample:
			if j := int(next[i+1].example); j < n {
				examples = append(examples, region{int(t.start), int(tags[j].end)})
			}
		}
	}
	for i := range analysis {
		analysis[i] = sc.widenInTag(analysis[i])
	}
	sc.mark(analysis, inAnalysis)
	sc.mark(examples, inExample)
	return analysis, examples
}

// widenInTag returns r, an analysis block, widened to the tag it is written inside
// (`</summary<analysis></analysis>>`: a '<' before it on its line with no '>' between, a
// '>' right after it), so that cutting it leaves no tag made of the two ends (rule
// "Analysis"). The walk back stops at the '>' that ends the block before.
func (sc *scan) widenInTag(r region) region {
	text := sc.text
	if r.start == 0 || r.end >= len(text) || text[r.end] != '>' || text[r.start] != '<' {
		return r
	}
	for p := r.start - 1; p >= 0; p-- {
		switch c := text[p]; {
		case c == '<':
			return region{p, r.end + 1}
		case c == '>' || c == '\n' || c == '\r':
			return r
		case c == 0x85 && sc.nel && p > 0 && text[p-1] == 0xc2:
			return r
		case (c == 0xa8 || c == 0xa9) && p >= 2 && text[p-1] == 0x80 && text[p-2] == 0xe2:
			return r
		}
	}
	return r
}

// wrongCloserEnd returns the end of the summary closer before any summary opener that the
// unclosed analysis opened by the tag before those next describes runs to (rule
// "Analysis"), or -1 where there is none.
func wrongCloserEnd(tags []tag, next nextTags) int {
	if j := int(next.sumClose); j < int(next.summary) {
		return int(tags[j].end)
	}
	return -1
}

// nextTags holds, for a tag index, the index of the next tag of five kinds at or after it
// (the number of tags for none): a structural analysis closer, an analysis closer of any
// kind, a structural summary opener that is not prose about the tag (proseAfter, with no
// summary closer after it), an example closer and a structural summary closer.
type nextTags struct{ structClose, anyClose, summary, example, sumClose int32 }

// proseAfter reports a tag followed on its line, after blanks, by a lower-case ASCII letter:
// a sentence of which the tag is the subject (`<summary> has to hold all nine sections`),
// not the start of a block's content (rule "Analysis"). Only the blanks after the tag are
// read, and each tag is asked once.
func (sc *scan) proseAfter(t tag) bool {
	if t.is(atLineEnd) {
		return false
	}
	text := sc.text
	i := int(t.end)
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && 'a' <= text[i] && text[i] <= 'z'
}

// fenceClosingAnalysis returns the start of a fence line opened on the line before the
// unclosed analysis opener t and the end of the first bare fence line (rule "Fences") that
// closes it, where that line starts before limit; end is -1 where there is none. Only an
// analysis that would run to a summary closer asks: elsewhere a bare fence line may as well
// open code inside the analysis, and nothing after it says otherwise. The lines
// read are the analysis block's own, so an answer's lines are read once.
func (sc *scan) fenceClosingAnalysis(t tag, limit int) (start, end int) {
	if limit < 0 {
		return -1, -1 // no summary closer: no line before it to read (a loop of unclosed openers)
	}
	c, open := sc.fenceLineBefore(t)
	if c == 0 {
		return -1, -1
	}
	for l := sc.nextLine(sc.lineEnd(int(t.line))); l >= 0 && l < limit; {
		e, next := sc.lineBounds(l)
		if s := TrimJS(sc.text[l:e]); len(s) >= 3 && s[0] == c && strings.TrimRight(s, string(c)) == "" {
			return open, e
		}
		l = next
	}
	return -1, -1
}

// mark sets flag f on every tag that starts inside one of rs (sorted, disjoint), so that
// the policy asks a tag rather than searching the regions for it.
func (sc *scan) mark(rs []region, f tagFlags) {
	k := 0
	for i := range sc.tags {
		if k == len(rs) {
			break
		}
		pos := int(sc.tags[i].start)
		for k < len(rs) && rs[k].end <= pos {
			k++
		}
		if k < len(rs) && rs[k].start <= pos {
			sc.tags[i].flags |= f
		}
	}
}

// inRegions reports whether pos falls in one of rs, which are sorted and disjoint.
func inRegions(rs []region, pos int) bool {
	if len(rs) == 0 {
		return false
	}
	i := sort.Search(len(rs), func(i int) bool { return rs[i].end > pos })
	return i < len(rs) && rs[i].start <= pos
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

// cutRegions returns text[from:to] without the parts that fall in rs (sorted, disjoint),
// keeping those that start inside one of code: an analysis block quoted in a fenced code
// block of a summary is part of the summary. Only the regions within from:to are visited.
func (sc *scan) cutRegions(from, to int, rs, code []region) string {
	text := sc.text
	i := sc.firstRegionAfter(rs, from)
	if i == len(rs) || rs[i].start >= to {
		return text[from:to] // no region in it
	}
	if rs[i].end >= to && len(code) == 0 {
		// One region, which runs on past to (an analysis opened in the block that the
		// next opener ends): the part before it, what the loop below keeps.
		return text[from:max(from, rs[i].start)]
	}
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
