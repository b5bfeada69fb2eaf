package compact

import (
	"strings"
	"unicode/utf8"
)

// This file is robust's scanner: the lines, tags and fence lines of a text, found in one
// pass over it. The policy reads them: one file per rule of docs/robust.md
// (robust_rule_*.go, each headed by the rule as docs/robust.md states it). Every scan is
// linear: each byte is looked at a bounded number of times (TestRobustLinear counts the
// instructions at two sizes).

type tagKind uint8

const (
	opener tagKind = iota
	closer
)

type tagName uint8

const (
	nameSummary tagName = iota + 1
	nameAnalysis
	nameThink // think and thinking
	nameExample
)

type tagFlags uint8

const (
	atLineStart   tagFlags = 1 << iota // only blanks or invisible characters before it on its line
	atLineEnd                          // only blanks after it on its line
	inCode                             // inside `inline code` on its line
	afterCloser                        // right after another closing tag (blanks between)
	inAnalysis                         // inside an analysis or think block (scan.regions)
	inExample                          // inside an example wrapper (scan.regions)
	inDetails                          // a structural summary opener right after <details> (scan.afterDetails)
	structuralTag                      // isStructural holds for the tag, found once by scanTags
)

// tag is one recognised tag in the text. Positions are byte offsets; line is the offset of
// the start of its line, which identifies the line.
type tag struct {
	start, end, line int32
	tagMeta
}

// tagMeta is what a tag is, apart from where. It makes a tag four fields, which the
// compiler keeps in registers: a struct of more lives in memory, where its fields are
// written one by one and then copied whole, a load that waits for the stores before it
// (on closer-chains, 950 of 4,240 ms of a CPU profile at six fields: plainTag's return
// and its call).
type tagMeta struct {
	name  tagName
	kind  tagKind
	flags tagFlags
}

func (t tag) is(f tagFlags) bool { return t.flags&f != 0 }

// structural reports whether t is structure rather than a mention (isStructural, rule
// "Tags"), as scanTags recorded it.
func (t tag) structural() bool { return t.flags&structuralTag != 0 }

// analysisLike reports a tag that opens or closes an analysis block (analysis, think).
func (t tag) analysisLike() bool { return t.name == nameAnalysis || t.name == nameThink }

// fenceLine is a line whose first non-blank characters are ``` or ~~~.
type fenceLine struct {
	start, end int32 // the line, terminator excluded
	char       byte
}

// scan is the text with its tags and fence lines.
type scan struct {
	text          string
	nel           bool // U+0085 is the line terminator
	simple        bool // "\n" is the only line terminator
	cr            bool // the text holds '\r'
	onlyLF        bool // simple, and no U+0085 either, which eachLine and hasContent split at always
	shortcuts     bool // take the paths for common cases (lineTag, plainTag, ...), not only the general code
	tags          []tag
	fences        []fenceLine
	code          []region // scratch for blockEnd
	fenceCursor   int      // the first fence line after the last block opener's line
	inlineOpeners int      // summary openers after prose, outside code
	openAnalysis  bool     // an analysis block runs unclosed to the end
	details       bool     // the text holds <details (any case), found by scanTags
	enderKnown    bool     // lastEnder is known
	lastEnder     int      // the last tag that can end a block (scan.enderAfter), -1 for none
	wrongFrom     int      // nextWrongCloser's first question since its cursor was set
	wrongCursor   int      // nextWrongCloser's last answer, -1 before the first
	regionHint    int      // firstRegionAfter's last answer
	fenceRuns     int8     // 1 where the text holds ``` or ~~~, -1 where it holds neither, 0 before mayHoldFence asks

	// scan.bodyOf's last answers from its second question on (most answers ask one), and
	// the entry the next one replaces, -1 after the first question
	bodies   *[4]bodyMemo
	bodyNext int
}

// bodyMemo is one answer of blockBody, for scan.bodyOf.
type bodyMemo struct {
	raw, body              string
	closed, degenerate, ok bool
}

func newScan(text string, shortcuts bool) *scan {
	sc := &scan{text: text, shortcuts: shortcuts, wrongCursor: -1}
	sc.cr = strings.IndexByte(text, '\r') >= 0
	sc.nel = !sc.cr && strings.IndexByte(text, '\n') < 0 && strings.Contains(text, "\u0085")
	sc.simple = !sc.nel && !sc.cr && !hasLineSeparator(text)
	sc.onlyLF = shortcuts && sc.simple && !containsByLast(text, "\u0085")
	sc.scanTags()
	sc.scanFences(sc.fencesFrom())
	sc.markDetails()
	return sc
}

// markDetails flags the structural summary openers that follow a <details> line (rule
// "Blocks": an HTML element in the body), each read once however many blocks ask.
func (sc *scan) markDetails() {
	if !sc.details {
		return
	}
	for i, t := range sc.tags {
		if t.name == nameSummary && t.kind == opener && t.structural() && sc.afterDetails(t) {
			sc.tags[i].flags |= inDetails
		}
	}
}

// fencesFrom returns where the fence lines that can matter start: only summary blocks read
// them (scan.blockEnd from the opener's line on, scan.fenceBefore up to three lines before
// it), so from three lines before the first summary opener's line; len(text) without one.
func (sc *scan) fencesFrom() int {
	if !sc.shortcuts {
		return 0
	}
	for _, t := range sc.tags {
		if t.name == nameSummary && t.kind == opener {
			l := int(t.line)
			for n := 0; n < 3 && l > 0; n++ {
				l = sc.prevLine(l)
			}
			return max(l, 0)
		}
	}
	return len(sc.text)
}

// hasLineSeparator reports whether s holds U+2028 or U+2029. Both start E2 80, which most
// texts hold a few times (a dash, an arrow, a curly quote): one search for the E2 finds
// either. After 16 E2 that start neither, a text of dashes and quotes, the rest is searched
// by each one's last byte (containsByLast), which text rarely holds.
func hasLineSeparator(s string) bool {
	at := 0
	for range 16 {
		i := strings.IndexByte(s[at:], 0xe2)
		if i < 0 {
			return false
		}
		j := at + i
		if j+2 < len(s) && s[j+1] == 0x80 && (s[j+2] == 0xa8 || s[j+2] == 0xa9) {
			return true
		}
		at = j + 1
	}
	return containsByLast(s[at:], "\u2028") || containsByLast(s[at:], "\u2029")
}

// containsByLast is strings.Contains for a short multi-byte character, searching for its
// last byte, which text rarely holds, rather than for its first (E2 for U+2028 begins every
// dash and curly quote, C2 for U+0085 every no-break space).
func containsByLast(s, seq string) bool {
	last, n := seq[len(seq)-1], len(seq)-1
	for at := 0; ; {
		i := strings.IndexByte(s[at:], last)
		if i < 0 {
			return false
		}
		if j := at + i; j >= n && s[j-n:j] == seq[:n] {
			return true
		}
		at += i + 1
	}
}

// terminatorLen returns the length of the line terminator at s[i], or 0; U+0085 counts
// only where nel says the text ends its lines with it.
func terminatorLen(s string, i int, nel bool) int {
	if !nel && s[i] == 0xc2 {
		return 0
	}
	return TerminatorLen(s, i)
}

// lineEnd returns the end of the line holding position i (the start of its terminator).
func (sc *scan) lineEnd(i int) int {
	if sc.simple {
		k := strings.IndexByte(sc.text[i:], '\n')
		if k < 0 {
			return len(sc.text)
		}
		return i + k
	}
	lead := &terminatorLead[0]
	if sc.nel {
		lead = &terminatorLead[1]
	}
	s := sc.text
	for j := i; j < len(s); j++ {
		if lead[s[j]] && terminatorLen(s, j, sc.nel) > 0 {
			return j
		}
	}
	return len(s)
}

// terminatorLead holds the bytes a line terminator starts with: "\n", "\r", the E2 of U+2028
// and U+2029, and in [1], where U+0085 ends lines, its C2. A byte outside it needs no
// terminatorLen.
var terminatorLead = func() (t [2][256]bool) {
	for _, c := range []byte{'\n', '\r', 0xe2} {
		t[0][c], t[1][c] = true, true
	}
	t[1][0xc2] = true
	return t
}()

// lineStart returns the start of the line holding position i, looking back no further
// than lo (a known line start at or before i).
func (sc *scan) lineStart(i, lo int) int {
	if sc.simple {
		k := strings.LastIndexByte(sc.text[lo:i], '\n')
		return lo + k + 1
	}
	s := sc.text
	for j := i; j > lo; j-- {
		if terminatorLast[s[j-1]] && sc.endsTerminator(j) {
			return j
		}
	}
	return lo
}

// terminatorLast holds the bytes a line terminator ends with: "\n", "\r", the 85 of U+0085,
// the A8 and A9 of U+2028 and U+2029.
var terminatorLast = func() (t [256]bool) {
	for _, c := range []byte{'\n', '\r', 0x85, 0xa8, 0xa9} {
		t[c] = true
	}
	return t
}()

// lineStartAfter is lineStart for a scan that moves forward: lo is the line after the
// last one it looked at, so that a vectorised search per line (LastIndexByte reads byte by
// byte) reads each byte once over the whole scan.
func (sc *scan) lineStartAfter(i, lo int) int {
	if !sc.simple {
		return sc.lineStart(i, lo)
	}
	for {
		k := strings.IndexByte(sc.text[lo:i], '\n')
		if k < 0 {
			return lo
		}
		lo += k + 1
	}
}

// endsTerminator reports whether a line terminator ends right before position j.
func (sc *scan) endsTerminator(j int) bool {
	s := sc.text
	switch c := s[j-1]; {
	case c == '\n' || c == '\r':
		return true
	case c == 0x85:
		return sc.nel && j >= 2 && s[j-2] == 0xc2
	case c == 0xa8 || c == 0xa9:
		return j >= 3 && s[j-3] == 0xe2 && s[j-2] == 0x80
	}
	return false
}

// oneTerminator reports whether text[from:to] is one line terminator of more than one
// byte ("\r\n", U+0085 where it ends lines, U+2028, U+2029), which trimRobust trims to
// nothing (TestOneTerminatorTrims): the gap between two openers of a loop of them, where
// trimRobust would decode it, or trim it byte by byte, for each. Without shortcuts it says no, and trimRobust is
// asked (FuzzRobustShortcutsAgree holds the two equal).
func (sc *scan) oneTerminator(from, to int) bool {
	s := sc.text[from:to]
	return sc.shortcuts && (s == "\r\n" || s == "\u2028" || s == "\u2029" || sc.nel && s == "\u0085")
}

// nextLine returns the start of the line after the one ending at end (its terminator
// skipped), or -1 at the end of the text.
func (sc *scan) nextLine(end int) int {
	if end >= len(sc.text) {
		return -1
	}
	if sc.simple {
		return end + 1
	}
	return end + terminatorLen(sc.text, end, sc.nel)
}

// prevLine returns the start of the line before the one starting at start, or -1.
func (sc *scan) prevLine(start int) int {
	if start == 0 {
		return -1
	}
	return sc.lineStart(start-sc.termLenBefore(start), 0)
}

// termLenBefore returns the length of the line terminator that ends right before start.
func (sc *scan) termLenBefore(start int) int {
	s := sc.text
	switch s[start-1] {
	case '\n':
		if start >= 2 && s[start-2] == '\r' {
			return 2
		}
		return 1
	case '\r':
		return 1
	case 0x85:
		return 2
	}
	return 3
}

// scanTags finds every tag, line by line, looking at each byte of a line holding a '<' a
// bounded number of times (rules "Tags").
func (sc *scan) scanTags() {
	text := sc.text
	sc.tags = make([]tag, 0, min(strings.Count(text, "<"), len(text)/10)+1)
	lineEnd := -1 // end of the current line; -1 before the first
	lineStart, firstVisible, contentEnd := 0, 0, 0
	tickPos, ticks, tickAfter := 0, 0, -1 // tickAfter: the next '`' on the line after a tag
	tickFirst := -1                       // the first '`' of the line (lineEnd for none); -1 before it is looked for
	gtNext, ltNext := -1, -1              // the next '>' and '<' at or after a position of the current line
	prev := -1                            // index of the previous tag on the current line
	for pos := 0; pos < len(text); {
		i := nextTagStart(text, pos) // a '<' that starts no tag, nor <details, is passed without reading its line
		if i < 0 {
			break
		}
		if sc.shortcuts && i >= lineEnd && (i == 0 || text[i-1] == '\n' || !sc.simple && sc.endsTerminator(i)) {
			if t, ok := sc.lineTag(i); ok {
				// A tag alone on its line: the flags the rest of this loop would set, without
				// finding the line's bounds.
				sc.tags = append(sc.tags, t)
				lineEnd, pos = int(t.end), int(t.end)
				if sc.simple {
					if e := sc.repeatLines(t); e >= 0 {
						lineEnd, pos = e, e // the next lines repeat this one, or a loop of lines ending with it
					}
				} else if sc.cr { // asked here: a call on every line costs 5% on lines ending at U+0085
					if e := sc.repeatLineTagCRLF(t); e >= 0 {
						lineEnd, pos = e, e // the next lines repeat this one, ending at "\r\n"
					}
				}
				continue
			}
		}
		if i >= lineEnd {
			if prev >= 0 && prev == len(sc.tags)-1 && sc.shortcuts && sc.simple {
				// The line before, read the long way, is done: the lines after it that repeat
				// it hold its tags again, found without reading them (a looping model writes
				// "\u200b<summary>" on thousands of lines).
				if e := sc.repeatLine(prev, lineEnd); e > lineEnd {
					lineEnd, pos = e, e
					continue
				}
			}
			lo := 0
			if lineEnd >= 0 {
				lo = sc.nextLine(lineEnd)
			}
			lineStart = sc.lineStartAfter(i, lo)
			lineEnd = sc.lineEnd(i)
			firstVisible = sc.firstVisible(lineStart, lineEnd)
			contentEnd = sc.contentEnd(lineStart, lineEnd)
			tickPos, ticks, tickAfter, tickFirst = lineStart, 0, -1, -1
			gtNext, ltNext, prev = -1, -1, -1
		}
		if tickFirst < 0 && sc.shortcuts {
			tickFirst = sc.indexByteIn(lineStart, lineEnd, '`')
		}
		if tickFirst < i { // else no backtick before the tag: a line of many tags is not counted once per tag
			ticks += strings.Count(text[tickPos:i], "`")
		}
		tickPos = i
		var t tag
		ok := false
		if sc.shortcuts {
			t, ok = plainTag(text[:lineEnd], i) // the four tags as the prompt spells them, without a call to parseTag
		}
		if !ok {
			t, ok = sc.parseTag(i, lineEnd, &gtNext, &ltNext)
		}
		if !ok {
			if !sc.details && i+1 < len(text) && text[i+1]|0x20 == 'd' && hasPrefixFold(text[i:], "<details") {
				sc.details = true // every '<' that starts no tag is looked at
			}
			pos = i + 1
			continue
		}
		t.line = int32(lineStart)
		if i == firstVisible {
			t.flags |= atLineStart
		}
		if int(t.end) >= contentEnd {
			t.flags |= atLineEnd
		}
		if ticks%2 == 1 {
			// Inside `code` when a backtick follows on the line: the next one after the tag,
			// found once for every tag up to it.
			if tickAfter < int(t.end) {
				tickAfter = sc.indexByteIn(int(t.end), lineEnd, '`')
			}
			if tickAfter < lineEnd {
				t.flags |= inCode
			}
		}
		if prev >= 0 && sc.tags[prev].kind == closer && sc.onlyInvisible(int(sc.tags[prev].end), i) {
			t.flags |= afterCloser
		}
		if isStructural(t.kind, t.flags) {
			t.flags |= structuralTag
		}
		prev = len(sc.tags)
		if t.name == nameSummary && t.kind == opener && t.flags&(atLineStart|afterCloser|inCode) == 0 {
			sc.inlineOpeners++
		}
		sc.tags = append(sc.tags, t)
		pos = int(t.end)
	}
}

// nextTagStart returns the position of the first '<' at or after pos that may start a tag
// or "<details" (mayStartTag), or -1: in one small loop, so that a text of '<' that start
// nothing (a line of them, one on each line) costs a few instructions a byte.
func nextTagStart(text string, pos int) int {
	// In a loop of tags the next '<' comes right after the last tag or its line terminator:
	// six bytes by hand before the vectorised search, whose setup costs more.
	k, near := 0, min(pos+6, len(text))
	for pos+k < near && text[pos+k] != '<' {
		k++
	}
	if pos+k == near {
		j := strings.IndexByte(text[near:], '<')
		if j < 0 {
			return -1
		}
		k += j
	}
	for i := pos + k; ; {
		if i+1 < len(text) && tagStartByte[text[i+1]] && (isASCIILetter(text[i+1]) || closerNameStart(text, i) || mayStartTag(text, i)) {
			return i // a letter after '<' is one tagStartByte holds: a name may start there
		}
		// As nextLtBefore: the next 16 bytes by hand, then a vectorised search.
		end := min(i+17, len(text))
		for i++; i < end && text[i] != '<'; i++ {
		}
		if i == end {
			if i == len(text) {
				return -1
			}
			if k = strings.IndexByte(text[i:], '<'); k < 0 {
				return -1
			}
			i += k
		}
	}
}

// nextLtBefore returns the position of the first '<' at or after pos that a byte of set
// follows, or -1. After a '<' it passes over, it reads up to 16 bytes itself before the
// next vectorised search, whose setup costs more than a dense run of '<' does.
func nextLtBefore(text string, pos int, set *[256]bool) int {
	k := strings.IndexByte(text[pos:], '<')
	if k < 0 {
		return -1
	}
	for i := pos + k; ; {
		if i+1 < len(text) && set[text[i+1]] {
			return i
		}
		end := min(i+17, len(text))
		for i++; i < end && text[i] != '<'; i++ {
		}
		if i == end {
			if i == len(text) {
				return -1
			}
			if k = strings.IndexByte(text[i:], '<'); k < 0 {
				return -1
			}
			i += k
		}
	}
}

// tagStartByte holds the bytes that may follow the '<' of a tag or of "<details": blanks, '/'
// and the first letters that mayStartTag accepts.
var tagStartByte = func() (t [256]bool) {
	for c := range 256 {
		switch byte(c) | 0x20 {
		case 's', 'a', 't', 'e', 'd':
			t[c] = true
		}
	}
	t[' '], t['\t'], t['/'] = true, true, true
	return t
}()

// closerNameStart reports whether the '<' at text[i] starts "</" and a letter mayStartTag
// accepts there (s, a, t or e): mayStartTag's answer for a closer written without blanks,
// without its call.
func closerNameStart(text string, i int) bool {
	if i+2 >= len(text) || text[i+1] != '/' {
		return false
	}
	switch text[i+2] | 0x20 {
	case 's', 'a', 't', 'e':
		return true
	}
	return false
}

// mayStartTag reports whether the '<' at text[i] may start a tag or "<details": the first
// letter of a tag's name (after blanks and '/', which parseTag skips as well) is s, a, t or
// e in any case (summary, its misspellings, which keep "su", analysis, think, thinking,
// example). A '<' followed by anything else is passed without reading its line.
func mayStartTag(text string, i int) bool {
	j := i + 1
	if j < len(text) && text[j]|0x20 == 'd' {
		return true
	}
	j = skipBlanks(text, j)
	if j < len(text) && text[j] == '/' {
		j = skipBlanks(text, j+1)
	}
	if j >= len(text) {
		return false
	}
	switch text[j] | 0x20 {
	case 's', 'a', 't', 'e':
		return true
	}
	return false
}

// lineTag reads the tag at text[i], the start of a line, when it is written without blanks
// and ends its line: <summary>, </analysis>. It returns the tag with the flags scanTags gives it (at the start and the end
// of its line, no code span, nothing before it), and false for anything else, which
// scanTags reads the long way.
func (sc *scan) lineTag(i int) (tag, bool) {
	text := sc.text
	t := tag{start: int32(i), line: int32(i), tagMeta: tagMeta{kind: opener, flags: atLineStart | atLineEnd | structuralTag}} // isStructural
	j := i + 1
	if j < len(text) && text[j] == '/' {
		t.kind = closer
		j++
	}
	var k int
	switch rest := text[j:]; {
	case strings.HasPrefix(rest, "summary>"):
		k, t.name = j+len("summary"), nameSummary
	case strings.HasPrefix(rest, "analysis>"):
		k, t.name = j+len("analysis"), nameAnalysis
	default:
		for k = j; k < len(text) && k-j <= 8 && isASCIILetter(text[k]); k++ {
		}
		if k >= len(text) || text[k] != '>' {
			return tag{}, false
		}
		name, ok := tagNameOf(text[j:k])
		if !ok {
			return tag{}, false
		}
		t.name = name
	}
	if k+1 < len(text) && text[k+1] != '\n' && (sc.simple || terminatorLen(text, k+1, sc.nel) == 0) {
		return tag{}, false
	}
	t.end = int32(k + 1)
	return t, true
}

// repeatLineTag appends the tags of the lines after t's that repeat t's line exactly (a
// looping model writes "<summary>" on thousands of lines): what lineTag reads on each. It
// returns the end of the last tag appended, t.end for none. Only a scan.simple text asks:
// its lines end at "\n" alone.
//
// The repeats are found as a period of the text: where text[x] == text[x-n] for every x
// from the next line on (n the length of t's line with its "\n"), each line of n bytes that
// ends there is t's line again. The period is checked in chunks that double (a vectorised
// compare), not line by line.
func (sc *scan) repeatLineTag(t tag) int {
	text := sc.text
	start, end := int(t.start), int(t.end)
	if !sc.simple || end >= len(text) || text[end] != '\n' {
		return end
	}
	n := end + 1 - start
	p := end + 1 // text[x] == text[x-n] for every x in [end+1, p)
	for chunk := n; p < len(text); chunk = min(2*chunk, 1<<12) {
		m := min(chunk, len(text)-p)
		if text[p:p+m] != text[p-n:p-n+m] {
			for text[p] == text[p-n] {
				p++ // fewer than m bytes, and m is at most twice what matched before
			}
			break
		}
		p += m
	}
	// Line k starts at start+k*n and ends at e = start+k*n+n-1: its bytes repeat t's line
	// where e <= p, and its end is a "\n" where e < p (the period) or the end of the text.
	for e := end + n; e < p || e == len(text) && e == p; e += n {
		t.start, t.end, t.line = t.start+int32(n), t.end+int32(n), t.line+int32(n)
		sc.tags = append(sc.tags, t)
		end = e
	}
	return end
}

// repeatLine appends the tags of the lines after the line ending at end, whose last tag is
// sc.tags[last], that repeat it exactly: the same tags with the same flags, as scanTags finds
// a tag's flags from its line alone. It returns the end of the last line it read the tags
// of, end for none. Only a scan.simple text asks: its lines end at "\n" alone. The repeats
// are found as a period of the text, as repeatLineTag finds them.
func (sc *scan) repeatLine(last, end int) int {
	text := sc.text
	start := int(sc.tags[last].line)
	n := end + 1 - start
	if end+n > len(text) || end+n < len(text) && text[end+n] != '\n' || text[end] != '\n' || text[end+1] != text[start] {
		return end // the next line is no repeat: another length, or another first byte
	}
	first := last
	for first > 0 && sc.tags[first-1].line == sc.tags[last].line {
		first--
	}
	p := repeatsFrom(text, end+1, n, 0)
	tags := sc.tags[first : last+1]
	for e, d := end+n, int32(n); e < p || e == len(text) && e == p; e, d = e+n, d+int32(n) {
		for _, t := range tags {
			t.start, t.end, t.line = t.start+d, t.end+d, t.line+d
			if t.name == nameSummary && t.kind == opener && t.flags&(atLineStart|afterCloser|inCode) == 0 {
				sc.inlineOpeners++
			}
			sc.tags = append(sc.tags, t)
		}
		end = e
	}
	return end
}

// repeatLines appends the tags of the lines after t's, a tag alone on its line, that repeat
// its line (repeatLineTag) or its line and the one before, where the tag before t is alone
// on that line (repeatLinePair). It returns the end of the last tag appended, -1 for none.
// Only a scan.simple text asks.
func (sc *scan) repeatLines(t tag) int {
	text := sc.text
	i, e := int(t.start), int(t.end)
	if e+2 >= len(text) || text[e] != '\n' {
		return -1
	}
	if text[e+1] == text[i] && text[e+2] == text[i+1] {
		return sc.repeatLineTag(t) // the next line starts as this one does
	}
	// The next line starts as the line before did, a tag alone on it: the two lines may
	// repeat.
	if n := len(sc.tags); n >= 2 {
		if q := &sc.tags[n-2]; int(q.end)+1 == i && q.start == q.line && text[e+2] == text[q.start+1] && text[e+1] == text[q.start] {
			return sc.repeatLinePair(*q, t)
		}
		return sc.repeatUnit(t)
	}
	return -1
}

// repeatUnit appends the tags of a loop of lines that ends with t, the last tag, alone on
// its line (think blocks, <details> before each summary opener, fences between openers).
// Where one of the four tags before t, r, is the same tag and the three bytes after each
// match, the text from t on may repeat the text from r on, found as a period of the text.
// Where it does, r ends its line as t does, and the lines after r's up to t's repeat whole,
// each the same bytes between the same terminators: they hold the same tags with the same
// flags (scanTags finds a tag's flags from its line alone), appended again for each repeat.
// It returns the end of the last tag appended, -1 for none. Only a scan.simple text asks,
// with t's line ending at a "\n" and two bytes after it.
func (sc *scan) repeatUnit(t tag) int {
	text := sc.text
	last, end := len(sc.tags)-1, int(t.end)
	for r := last - 1; r >= 0 && r >= last-4; r-- {
		q := sc.tags[r]
		re := int(q.end) // re+3 <= end+2 < len(text)
		if q.end-q.start != t.end-t.start || q.name != t.name || q.kind != t.kind || text[re:re+3] != text[end:end+3] {
			continue
		}
		// text[x] == text[x-period] for every x in [t.start, p): a repeat of the lines after
		// r's up to t's ends at end+shift, a "\n" before p or the end of the text.
		period := int(t.start - q.start)
		p := repeatsFrom(text, int(t.start), period, 0)
		pushed := -1
		for shift := period; end+shift < p || end+shift == p && p == len(text); shift += period {
			for _, g := range sc.tags[r+1 : last+1] {
				d := int32(shift)
				g.start, g.end, g.line = g.start+d, g.end+d, g.line+d
				if g.name == nameSummary && g.kind == opener && g.flags&(atLineStart|afterCloser|inCode) == 0 {
					sc.inlineOpeners++
				}
				sc.tags = append(sc.tags, g)
			}
			pushed = end + shift
		}
		return pushed
	}
	return -1
}

// repeatLineTagCRLF is repeatLineTag for t's line ending at "\r\n" (a model writing
// Windows line ends), in a text of any line ends: each repeat of the line with its "\r\n",
// whole in the run, holds the same tag alone on its line. It returns the end of the last tag
// appended, -1 for none.
func (sc *scan) repeatLineTagCRLF(t tag) int {
	text := sc.text
	i, end := int(t.start), int(t.end)
	if end+3 >= len(text) || text[end] != '\r' || text[end+1] != '\n' || text[end+2] != '<' || text[end+3] != text[i+1] {
		return -1
	}
	n := end + 2 - i // the line and its "\r\n"
	p := repeatsFrom(text, end+2, n, 0)
	last := -1
	for e := end + n; e+1 < p; e += n {
		t.start, t.end, t.line = t.start+int32(n), t.end+int32(n), t.line+int32(n)
		sc.tags = append(sc.tags, t)
		last = e
	}
	return last
}

// repeatLinePair is repeatLineTag for a loop of two lines (<analysis> and <summary> on
// lines of their own, again and again): q and t, the last two tags, are each alone on its
// line, t's the line after q's. Where the lines after t's repeat the two, found as a period
// of the text, the tags read on each repeat (q's and t's again, as the lines are the same
// bytes between the same terminators) are appended. It returns the end of the last tag
// appended, -1 for none. Only a scan.simple text asks: its lines end at "\n" alone.
func (sc *scan) repeatLinePair(q, t tag) int {
	text := sc.text
	n := int(t.end) + 1 - int(q.start)
	p := repeatsFrom(text, int(t.end)+1, n, 0) // text[x] == text[x-n] for every x in [t.end+1, p)
	last := -1
	for shift := int32(n); ; shift += int32(n) {
		for _, g := range [2]tag{q, t} {
			// The repeat of g's line holds its bytes where it ends before p, and ends at a
			// "\n" there, or at the end of the text.
			e := int(g.end + shift)
			if e > p || e == p && e != len(text) {
				return last
			}
			g.start, g.end, g.line = g.start+shift, g.end+shift, g.line+shift
			sc.tags = append(sc.tags, g)
			last = e
		}
	}
}

// firstVisible returns the position of the first character of text[start:end] that is not
// invisible, or end.
func (sc *scan) firstVisible(start, end int) int {
	if start < end && sc.text[start] > ' ' && sc.text[start] < 0x80 {
		return start // the common line that starts with a visible ASCII character
	}
	i := start
	for i < end && (sc.text[i] == ' ' || sc.text[i] == '\t' || sc.text[i] == '\v' || sc.text[i] == '\f') {
		i++ // the ASCII blanks, without decoding
	}
	for i < end && sc.text[i] >= utf8.RuneSelf {
		size := 3
		if i+3 > end || sc.text[i:i+3] != "\u200b" { // a zero-width space, the common one, without decoding
			var r rune
			r, size = utf8.DecodeRuneInString(sc.text[i:end])
			if !invisible(r) || size == 1 && r == utf8.RuneError {
				break
			}
		}
		i += size
		for i < end && (sc.text[i] == ' ' || sc.text[i] == '\t' || sc.text[i] == '\v' || sc.text[i] == '\f') {
			i++
		}
	}
	return i
}

// contentEnd returns the end of text[start:end] without trailing invisible characters: a
// closer followed by a U+0085 (an ellipsis mis-decoded, or a line end) ends its line as one
// followed by blanks does.
func (sc *scan) contentEnd(start, end int) int {
	if end > start && sc.text[end-1] > ' ' && sc.text[end-1] < 0x80 {
		return end
	}
	j := end
	for j > start {
		r, size := utf8.DecodeLastRuneInString(sc.text[start:j])
		if size == 1 && r == utf8.RuneError || !invisible(r) {
			break
		}
		j -= size
	}
	return j
}

func (sc *scan) onlyInvisible(from, to int) bool {
	return onlyInvisible(sc.text[from:to])
}

// parseTag reads a tag at text[i] ('<') on a line ending at end: an optional '/', blanks, a
// name, then for openers anything up to '>' on the line (attributes), for closers blanks
// and '>'. gtNext and ltNext cache the next '>' and '<' of the line, so that a line of many
// openers is searched once.
func (sc *scan) parseTag(i, end int, gtNext, ltNext *int) (tag, bool) {
	text := sc.text
	j := skipBlanks(text[:end], i+1)
	t := tag{start: int32(i), tagMeta: tagMeta{kind: opener}}
	if j < end && text[j] == '/' {
		t.kind = closer
		j = skipBlanks(text[:end], j+1)
	}
	k := j
	for k < end && isASCIILetter(text[k]) {
		k++
	}
	name, ok := tagNameOf(text[j:k])
	if !ok {
		return tag{}, false
	}
	t.name = name
	if t.kind == closer || k < end && text[k] != ' ' && text[k] != '>' {
		k2 := skipBlanks(text[:end], k)
		if k2 >= end || text[k2] != '>' {
			return tag{}, false
		}
		t.end = int32(k2 + 1)
		return t, true
	}
	if k < end && text[k] == '>' {
		t.end = int32(k + 1) // the plain <summary>: nothing to search
		return t, true
	}
	if *gtNext < k {
		*gtNext = sc.indexByteIn(k, end, '>')
	}
	if *ltNext < k {
		*ltNext = sc.indexByteIn(k, end, '<')
	}
	if *gtNext >= end || *ltNext < *gtNext {
		return tag{}, false
	}
	t.end = int32(*gtNext + 1)
	return t, true
}

// plainTag reads the tag at text[i] when it is one of the four the prompt asks for, spelled
// as it spells them (<summary>, </summary>, <analysis>, </analysis>): parseTag's answer
// for them, found by comparing bytes. scanTags asks it before parseTag where it takes
// shortcuts (FuzzRobustShortcutsAgree holds the two equal).
func plainTag(text string, i int) (tag, bool) {
	rest := text[i+1:]
	t := tag{start: int32(i), tagMeta: tagMeta{kind: opener}}
	if len(rest) > 0 && rest[0] == '/' {
		t.kind, rest = closer, rest[1:]
	}
	switch {
	case strings.HasPrefix(rest, "summary>"):
		t.name = nameSummary
	case len(rest) > len("analysis") && rest[:len("analysis")] == "analysis" && rest[len("analysis")] == '>':
		t.name = nameAnalysis // compared as eight bytes and one: nine are compared by a call
	default:
		return tag{}, false
	}
	t.end = int32(len(text) - len(rest) + len(tagText[t.name]) + 1)
	return t, true
}

var tagText = [...]string{nameSummary: "summary", nameAnalysis: "analysis"}

// indexByteIn returns the position of the first c in text[from:end], or end.
func (sc *scan) indexByteIn(from, end int, c byte) int {
	k := strings.IndexByte(sc.text[from:end], c)
	if k < 0 {
		return end
	}
	return from + k
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// scanFences finds the fence lines from the line start from on: one search per fence
// string, a line skipped once it holds a hit.
func (sc *scan) scanFences(from int) {
	a, b := sc.fenceHits(from, "```", '`'), sc.fenceHits(from, "~~~", '~')
	if len(b) == 0 {
		sc.fences = a
		return
	}
	sc.fences = mergeFences(a, b)
}

// mergeFences merges a and b, each in text order, into one list in text order. A line is a
// fence of one kind only (its first character is a backtick or a tilde), so no start is in
// both. A merge, not a sort: with many fences of both kinds a sort was most of the scan.
func mergeFences(a, b []fenceLine) []fenceLine {
	out := make([]fenceLine, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i].start < b[j].start {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

func (sc *scan) fenceHits(from int, s string, c byte) []fenceLine {
	text := sc.text
	if !strings.Contains(text[from:], s) {
		return nil
	}
	// Each fence holds three c: at most a third of them, counted by a vectorised pass.
	out := make([]fenceLine, 0, strings.Count(text[from:], string(c))/3)
	lo := from // a line start at or before pos
	tryRepeat := 8
	for pos := from; pos < len(text); {
		k := indexRun3(text[pos:], c)
		if k < 0 {
			break
		}
		i := pos + k
		start, fence := i, false // the fence that starts its line, found without looking back
		if i > lo && !(sc.simple && text[i-1] == '\n' && sc.shortcuts) {
			start, fence = sc.fenceLineStart(i, lo)
		} else {
			fence = start == i && sc.shortcuts || sc.firstJS(start, i) == i
		}
		end := len(text) // the end of i's line: a fence line is short, its "\n" found by hand
		if !sc.simple {
			end = sc.lineEnd(i)
		} else if k := indexByteNear(text[i+3:], '\n'); k >= 0 {
			end = i + 3 + k
		}
		if fence {
			out = append(out, fenceLine{int32(start), int32(end), c})
			if len(out) == tryRepeat && sc.shortcuts && sc.simple {
				// A loop of fenced blocks: the fences of the loop again. Asked at 8, 16, 32 ...
				// fences, a few times a text.
				tryRepeat *= 2
				out, end = sc.repeatFences(out, end)
			}
		}
		next := sc.nextLine(end)
		if next < 0 {
			break
		}
		pos, lo = next, next
	}
	return out
}

// fenceLineStart returns the start of the line holding position i, which is after lo (a
// line start), and whether only JavaScript blanks stand before i on it (a fence line). In a
// scan.simple text a run of ASCII blanks is read back from i, so that a run of backticks
// inside a line costs no search for its line's start; elsewhere, or before a non-ASCII
// character, it finds the line's start.
func (sc *scan) fenceLineStart(i, lo int) (start int, fence bool) {
	text := sc.text
	if sc.shortcuts && sc.simple {
		p := i
		for p > lo && (text[p-1] == ' ' || text[p-1] == '\t' || text[p-1] == '\v' || text[p-1] == '\f') {
			p--
		}
		switch {
		case p == lo || text[p-1] == '\n':
			return p, true
		case text[p-1] < utf8.RuneSelf:
			return -1, false // a visible ASCII character before it
		}
	}
	start = sc.lineStartAfter(i, lo)
	return start, sc.firstJS(start, i) == i
}

// repeatFences appends the fence lines after the last of out, which ends at end, where the
// text from that one's line on repeats the text one to four fences back: a loop of fenced
// blocks. Whether a line is a fence line depends on the line alone, so where the text
// repeats itself period bytes back (text[x] == text[x-period]), each line that ends there
// is a fence line exactly where the line period bytes back is one: the fence lines from
// one or two back on, shifted by period, up to the last whose line ends in the repeat. It
// returns out and the end of its last fence line. Only a scan.simple text asks: its lines
// end at "\n" alone. The repeat is found as repeatLineTag finds one.
func (sc *scan) repeatFences(out []fenceLine, end int) ([]fenceLine, int) {
	text := sc.text
	last := out[len(out)-1]
	for back := 1; back <= 4 && back < len(out); back++ {
		src := len(out) - 1 - back
		period := int(last.start - out[src].start)
		// The line after the last fence line is where the one after out[src] ends up.
		if e := end + period; e > len(text) || e < len(text) && text[e] != '\n' || text[end] != '\n' {
			continue
		}
		from := int(last.start)
		if from+period > len(text) || text[from:from+period] != text[from-period:from] {
			continue // no repeat over the first period
		}
		p := repeatsFrom(text, from, period, period)
		for k := src + 1; ; k++ {
			f := out[k]
			f.start, f.end = f.start+int32(period), f.end+int32(period)
			if e := int(f.end); !(e < p || e == len(text) && e == p) {
				break
			}
			out = append(out, f)
			end = int(f.end)
		}
		return out, end
	}
	return out, end
}

// indexRun3 is strings.Index(s, c+c+c): a vectorised search for c, then a look at the
// two bytes after it, without Index's general setup for every fence of a text full of them.
func indexRun3(s string, c byte) int {
	for at := 0; ; {
		i := strings.IndexByte(s[at:], c)
		if i < 0 {
			return -1
		}
		if j := at + i; j+2 < len(s) && s[j+1] == c && s[j+2] == c {
			return j
		} else if j+2 >= len(s) {
			return -1
		}
		at += i + 1
	}
}

// firstJS returns the position of the first character of text[start:end] that JavaScript's
// trim keeps, or end.
func (sc *scan) firstJS(start, end int) int {
	i := start
	for i < end {
		r, size := utf8.DecodeRuneInString(sc.text[i:end])
		if size == 1 && r == utf8.RuneError || !IsJSSpace(r) {
			break
		}
		i += size
	}
	return i
}

// lineBounds returns sc.lineEnd(start) and the sc.nextLine of it; for a scan.simple text
// with one search and no calls, as the marker scan asks it for every line.
func (sc *scan) lineBounds(start int) (end, next int) {
	if !sc.simple {
		return sc.lineBoundsAny(start)
	}
	k := indexByteNear(sc.text[start:], '\n')
	if k < 0 {
		return len(sc.text), -1
	}
	return start + k, start + k + 1
}

// lineBoundsAny is lineBounds for a text that is not scan.simple.
func (sc *scan) lineBoundsAny(start int) (end, next int) {
	end = sc.lineEnd(start)
	return end, sc.nextLine(end)
}

// lineCursor is a forward walk over the lines of a scan with shortcuts (scan.marker): a
// line that a tag written alone on it starts and ends (lineTag's tags, as a looping model
// writes thousands of them) is known from the tag, without a search for its end.
type lineCursor struct {
	on   bool  // shortcuts: else each line is asked for its bounds
	tags []tag // sc.tags
	next int   // the first tag that may start at or after the line asked for
}

func (sc *scan) lineCursor() lineCursor {
	return lineCursor{on: sc.shortcuts, tags: sc.tags}
}

// enderAfter reports whether a tag after tags[i] could end a block in blockEnd's loop (rule
// "Blocks"): a summary closer, or a structural summary opener that is no HTML element,
// outside analysis blocks and code spans. The last such tag is found once, from the end,
// after scan.regions has marked the analysis blocks. Where it says none, blockEnd finds the
// wrong closer with nextWrongCloser rather than its loop, so that a loop of blocks that
// each end at a fallback is read once, not once per block; without shortcuts it says
// there may be one, and blockEnd reads its loop (FuzzRobustShortcutsAgree holds the two
// equal).
func (sc *scan) enderAfter(i int) bool {
	if !sc.enderKnown {
		sc.enderKnown, sc.lastEnder = true, -1
		if !sc.shortcuts {
			sc.lastEnder = len(sc.tags) // the general code: blockEnd reads its loop
		}
		for j := len(sc.tags) - 1; j >= 0 && sc.lastEnder < 0; j-- {
			u := &sc.tags[j] // the flags read at once: a loop of tags nothing ends is read to its start
			if u.name != nameSummary || u.flags&(inAnalysis|inCode) != 0 {
				continue
			}
			if u.kind == closer || u.flags&(structuralTag|inDetails) == structuralTag {
				sc.lastEnder = j
				break
			}
		}
	}
	return sc.lastEnder > i
}

// fenceRightBefore returns the character of the fence line that ends right before tag t's
// line where t starts its line, found among the fence lines the scan collected (the one
// before scan.fenceCursor, where blockEnd has moved it past t's line), else 0: there
// scan.fenceLineBefore, which reads the lines before t, returns the same character. Without
// shortcuts, or in a text that is not scan.simple, it returns 0 (FuzzRobustShortcutsAgree
// holds the two equal).
func (sc *scan) fenceRightBefore(t tag) byte {
	if !sc.shortcuts || !sc.simple || sc.fenceCursor == 0 || sc.fenceCursor > len(sc.fences) || t.start != t.line {
		return 0
	}
	if f := sc.fences[sc.fenceCursor-1]; int(f.end)+1 == int(t.line) && sc.text[f.end] == '\n' {
		return f.char
	}
	return 0
}

// bodyOf returns blockBody(raw, closed) for the text's line terminators. It remembers its
// last few answers: a loop of blocks asks about the same text again and again (each block
// of a looping model is a copy of the one before, or of the one before that), and a text
// equal to one asked about before gets the same answer. Without shortcuts it asks blockBody
// every time (FuzzRobustShortcutsAgree holds the two equal).
func (sc *scan) bodyOf(raw string, closed bool) (string, bool) {
	if !sc.shortcuts {
		return blockBody(raw, closed, sc.nel, sc.onlyLF)
	}
	if sc.bodies == nil {
		if sc.bodyNext == 0 {
			sc.bodyNext = -1
			return blockBody(raw, closed, sc.nel, sc.onlyLF)
		}
		sc.bodies, sc.bodyNext = new([4]bodyMemo), 0
	}
	for i := range sc.bodies {
		if m := &sc.bodies[i]; m.ok && m.closed == closed && m.raw == raw {
			return m.body, m.degenerate
		}
	}
	body, degenerate := blockBody(raw, closed, sc.nel, sc.onlyLF)
	sc.bodies[sc.bodyNext] = bodyMemo{raw: raw, body: body, closed: closed, degenerate: degenerate, ok: true}
	sc.bodyNext = (sc.bodyNext + 1) % len(sc.bodies)
	return body, degenerate
}

// seedWhole reports whether seed (Extract) returns the whole text, trimmed, where the scan
// found no summary closer and no analysis opener: Extract's blocks need a "</summary>" and
// it removes analysis blocks from a "<analysis>" on, and each of those the text holds is a
// tag the scan found (scanTags reads every '<' that may start a tag, and a tag holds no
// other '<'). That text holds a block's opener before its body, and is longer than any
// body robust returns: robust need not run seed to compare. Without shortcuts it reports
// false, and seed runs (FuzzRobustShortcutsAgree holds the two equal).
func (sc *scan) seedWhole() bool {
	if !sc.shortcuts {
		return false
	}
	for _, t := range sc.tags {
		if t.name == nameSummary && t.kind == closer || t.name == nameAnalysis && t.kind == opener {
			return false
		}
	}
	return true
}

// mayHoldFence reports whether the text holds ``` or ~~~ anywhere, which a fence line
// holds: where it does not, no line is one, and the rules that look for a fence line before
// a tag (scan.fenceLineBefore, for every analysis opener of a loop of them) need not read
// the lines. Without shortcuts it says there may be one, and the lines are read
// (FuzzRobustShortcutsAgree holds the two equal).
func (sc *scan) mayHoldFence() bool {
	if !sc.shortcuts {
		return true
	}
	if sc.fenceRuns == 0 {
		sc.fenceRuns = -1
		if strings.Contains(sc.text, "```") || strings.Contains(sc.text, "~~~") {
			sc.fenceRuns = 1
		}
	}
	return sc.fenceRuns > 0
}

// nextWrongCloser returns the index of the first structural </analysis> at or after index
// from (len(tags) for none), blockEnd's wrong closer where no fence intervenes. The blocks
// ask in text order, so a cursor moves forward once over the tags (once more for the
// blocks after prose, which start again from the first tag).
func (sc *scan) nextWrongCloser(from int) int {
	if sc.wrongCursor < from || from < sc.wrongFrom {
		sc.wrongFrom, sc.wrongCursor = from, from
		for sc.wrongCursor < len(sc.tags) {
			u := sc.tags[sc.wrongCursor]
			if u.name == nameAnalysis && u.kind == closer && u.structural() {
				break
			}
			sc.wrongCursor++
		}
	}
	return sc.wrongCursor
}
