package compact

import (
	"strings"
	"unicode/utf8"
)

// This file is robust's fast path: the answer most models write, one summary block (after
// an optional analysis block) with tags alone on their lines, however many tags the prose
// mentions. It reads each '<' once, keeps only the structural tags, and gives up (the full
// scan then decides) on anything whose effect it would have to work out: a tag after a
// closer, an opener with attributes, a mid-line analysis closer, a structural tag outside
// the shape, a long run of blanks next to a tag, a block without content. Where it answers,
// it returns what the full scan returns (TestRobustFastAgrees, FuzzRobustFastAgrees).

// fastWalk bounds the blanks read next to one tag: a longer run sends the text to the full
// scan, so that a line of many tags after a long blank prefix is not read once per tag.
const fastWalk = 64

// fastTag is a structural tag of the fast path.
type fastTag struct {
	start, end int
	name       tagName
	kind       tagKind
	lineStart  bool // only invisible characters before it on its line
}

func (t fastTag) analysisLike() bool { return t.name == nameAnalysis || t.name == nameThink }

// fast is one run of the fast path over text.
type fast struct {
	text string
}

// fastBlock returns robust's extraction of text and true where the fast path applies, and
// false where the full scan has to decide.
func fastBlock(text string) (Extraction, bool) {
	f := fast{text: text}
	return f.extract()
}

func (f *fast) extract() (Extraction, bool) {
	text := f.text
	// With a "\n" somewhere, U+0085 is no line terminator (scan.nel).
	if strings.IndexByte(text, '\n') < 0 {
		return Extraction{}, false
	}
	var st [4]fastTag // the structural tags, in text order
	n, tags := 0, 0
	lastEnd, lastCloser := -1, false // the previous tag
	for pos := 0; pos < len(text); {
		if tags > pos/32+64 {
			return Extraction{}, false // a loop of mentions, not prose that mentions tags
		}
		i := nextTagStart(text, pos)
		if i < 0 {
			break
		}
		t, ok, giveUp := f.parse(i)
		if giveUp {
			return Extraction{}, false
		}
		if !ok {
			pos = i + 1
			continue
		}
		pos = t.end
		tags++
		p, lineStart, ok := f.blanksBefore(i)
		if !ok || !lineStart && lastCloser && p == lastEnd {
			return Extraction{}, false // a long blank run, or a tag right after a closer
		}
		lastEnd, lastCloser = t.end, t.kind == closer
		t.lineStart = lineStart
		structural := lineStart
		if !structural && t.kind == closer {
			if structural, ok = f.blanksAfter(t.end); !ok {
				return Extraction{}, false
			}
		}
		if !structural {
			if t.kind == closer && t.analysisLike() {
				return Extraction{}, false // may close a mid-line analysis opener
			}
			continue // a mention: inert in this shape
		}
		if n == len(st) {
			return Extraction{}, false
		}
		st[n] = t
		n++
	}
	var open, close fastTag
	switch {
	case n == 2:
		open, close = st[0], st[1]
	case n == 4 && st[0].analysisLike() && st[0].kind == opener && st[1].analysisLike() && st[1].kind == closer:
		open, close = st[2], st[3]
	default:
		return Extraction{}, false
	}
	if open.name != nameSummary || open.kind != opener || close.name != nameSummary || close.kind != closer || !close.lineStart {
		return Extraction{}, false
	}
	if alone, ok := f.blanksAfter(open.end); !ok || !alone {
		return Extraction{}, false // a tag after the opener on its line would end the block
	}
	// scan.candidate for a closed block with no analysis inside; one block, so no
	// sections to compare.
	body := trimRobust(text[open.end:close.start], false)
	body = stripWrapperFence(body)
	body = removeNestedAnalysis(body)
	if !hasContent(body) || isTemplate(body) {
		return Extraction{}, false
	}
	if seed := Extract(text); seed.OK && seed.Summary == body {
		return seed, true // the same answer: report seed's path
	}
	return Extraction{Summary: body, OK: true, Path: PathBlock}, true
}

// parse reads the tag at text[i] ('<') as scan.parseTag does. It gives up on an opener with
// something after its name (attributes), whose end the full scan finds on the line.
func (f *fast) parse(i int) (t fastTag, ok, giveUp bool) {
	text := f.text
	j := skipBlanks(text, i+1)
	t = fastTag{kind: opener, start: i}
	if j < len(text) && text[j] == '/' {
		t.kind = closer
		j = skipBlanks(text, j+1)
	}
	k := j
	for k < len(text) && isASCIILetter(text[k]) {
		k++
	}
	name, ok := tagNameOf(text[j:k])
	if !ok {
		return fastTag{}, false, false
	}
	t.name = name
	switch {
	case k < len(text) && text[k] == '>':
		t.end = k + 1
		return t, true, false
	case t.kind == opener && k < len(text) && text[k] == ' ':
		return fastTag{}, false, true
	}
	// A closer, or an opener followed by a tab: blanks, then '>' (blanks never end a line).
	k2 := skipBlanks(text, k)
	if k2 >= len(text) || text[k2] != '>' {
		return fastTag{}, false, false
	}
	t.end = k2 + 1
	return t, true, false
}

// blanksBefore walks back from i over invisible characters. It returns where the walk
// stopped, whether it reached the start of the line, and false after fastWalk bytes.
func (f *fast) blanksBefore(i int) (p int, lineStart, ok bool) {
	text := f.text
	for p = i; i-p <= fastWalk; {
		if p == 0 {
			return p, true, true
		}
		c := text[p-1]
		switch {
		case c == '\n' || c == '\r':
			return p, true, true
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			p--
			continue
		case c < utf8.RuneSelf:
			return p, false, true
		}
		r, size := utf8.DecodeLastRuneInString(text[:p])
		switch {
		case r == '\u2028' || r == '\u2029':
			return p, true, true
		case size == 1 && r == utf8.RuneError || !invisible(r):
			return p, false, true
		}
		p -= size
	}
	return p, false, false
}

// blanksAfter reports whether only invisible characters follow position e on its line (a
// closer there ends its line), and false after fastWalk bytes.
func (f *fast) blanksAfter(e int) (lineEnd, ok bool) {
	text := f.text
	for q := e; q-e <= fastWalk; {
		if q == len(text) {
			return true, true
		}
		c := text[q]
		switch {
		case c == '\n' || c == '\r':
			return true, true
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			q++
			continue
		case c < utf8.RuneSelf:
			return false, true
		}
		r, size := utf8.DecodeRuneInString(text[q:])
		switch {
		case r == '\u2028' || r == '\u2029':
			return true, true
		case size == 1 && r == utf8.RuneError || !invisible(r):
			return false, true
		}
		q += size
	}
	return false, false
}
