package eval

import (
	"slices"
	"strings"
)

// summaryIndex holds a summary in the forms facts are matched against.
type summaryIndex struct {
	text string // the summary as given
	norm string // normText of the whole summary
	// idents holds every name and qualified name in the summary and each part of the
	// qualified ones, lowercased; code holds those written as code: shaped, followed by
	// "(", or inside backticks or a code fence.
	idents, code map[string]bool
	// paths holds the path-like chunks of the summary, normalized as pathKey does;
	// suffixes and prefixes their tails and heads at "/" boundaries.
	paths, suffixes, prefixes map[string]bool
	words                     map[string]bool   // stemmed content words
	quants                    quantityIndex     // numbers and the words after them
	lineWords                 []map[string]bool // stemmed content words per line; see holdsLineWords
	lineWordsRead             bool
	states                    stateIndex // lines that say a state of work
}

func newSummaryIndex(summary string) *summaryIndex {
	// Maps sized for the summary's words, so that they rarely grow while filled: a
	// word is 6 or 7 bytes with its space, and a summary repeats many.
	n := len(summary) / 16
	x := &summaryIndex{
		text:     summary,
		norm:     normLines(summary),
		idents:   make(map[string]bool, n),
		code:     make(map[string]bool, n/4),
		paths:    make(map[string]bool, n/16),
		suffixes: make(map[string]bool, n/8),
		prefixes: make(map[string]bool, n/8),
		words:    make(map[string]bool, n),
		quants:   make(quantityIndex, n/16),
	}
	var words []string // the words of a line, reused
	for l := range strings.SplitSeq(x.norm, "\n") {
		words = slices.AppendSeq(words[:0], strings.FieldsSeq(l))
		x.quants.addLine(words)
		x.states.addLine(words)
	}
	x.indexNames(summary)
	scanChunks(summary, func(c string, call bool) {
		if strings.Contains(c, "://") {
			return
		}
		for part := range strings.SplitSeq(c, "=") {
			x.addPath(trimChunk(part))
		}
	})
	eachWord(summary, func(w string) bool {
		x.words[w] = true
		return true
	})
	return x
}

// indexNames fills idents and code from the runs of name characters, dots and colons.
// Backticks pair within a line and a fence makes its lines code, so that what a line
// holds depends on it and the fences above it only.
func (x *summaryIndex) indexNames(s string) {
	var open byte
	for _, line := range strings.Split(s, "\n") {
		var delim bool
		if open, delim = fenceStep(strings.TrimSpace(line), open); delim {
			continue
		}
		x.indexLine(line, open != 0)
	}
}

func (x *summaryIndex) indexLine(s string, code bool) {
	ticks := 0 // backticks seen on this line: odd inside inline code
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			b := s[i]
			if isLetter(b) || isDigit(b) || b == '_' || b == '$' || b == '.' || b == ':' {
				if start < 0 {
					start = i
				}
				continue
			}
		}
		if start >= 0 {
			run := trimDots(s[start:i])
			asCode := code || ticks%2 == 1 || i < len(s) && s[i] == '('
			x.addName(run, asCode)
			start = -1
		}
		if i < len(s) && s[i] == '`' {
			ticks++
		}
	}
}

// normLines is normText line by line, the lines joined by "\n": keys hold no line break,
// so no key matches across two lines, and removing a line never makes one match.
func normLines(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for {
		j := strings.IndexByte(s, '\n')
		if j < 0 {
			writeNormText(&b, s)
			return b.String()
		}
		writeNormText(&b, s[:j])
		b.WriteByte('\n')
		s = s[j+1:]
	}
}

// trimDots is strings.Trim(run, ".:").
func trimDots(run string) string {
	for run != "" && (run[0] == '.' || run[0] == ':') {
		run = run[1:]
	}
	for run != "" && (run[len(run)-1] == '.' || run[len(run)-1] == ':') {
		run = run[:len(run)-1]
	}
	return run
}

// addName indexes a run of name characters, dots and colons, which are all ASCII: its
// parts lowercased are parts of it lowercased.
func (x *summaryIndex) addName(run string, asCode bool) {
	if run == "" {
		return
	}
	lower := strings.ToLower(run)
	x.idents[lower] = true
	if asCode || shaped(run) {
		x.code[lower] = true
	}
	if strings.IndexByte(run, '.') < 0 && strings.IndexByte(run, ':') < 0 {
		return
	}
	start := -1 // the parts between dots and colons, as strings.FieldsFunc splits them
	for i := 0; i <= len(run); i++ {
		if i < len(run) && run[i] != '.' && run[i] != ':' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start < 0 {
			continue
		}
		p, lp := run[start:i], lower[start:i]
		start = -1
		x.idents[lp] = true
		if asCode || shaped(p) {
			x.code[lp] = true
		}
	}
}

// addPath indexes a chunk of the summary that may name a path. It is more lenient than
// extraction: any chunk with a "/" and a letter, a file name, or a folder written as one
// (screenshots/, ./design) counts.
func (x *summaryIndex) addPath(c string) {
	if c == "" || !pathChars(c) {
		return
	}
	folder := strings.HasSuffix(c, "/") || strings.HasPrefix(c, "./") || strings.HasPrefix(c, "../")
	p := strings.ToLower(strings.TrimPrefix(strings.TrimRight(c, "/"), "./"))
	if p == "" || p == "." || p == ".." || !strings.Contains(p, "/") && !folder && !isFileName(p) && !dotfile(p) {
		return
	}
	x.paths[p] = true
	for j := 0; j < len(p); j++ {
		if p[j] != '/' {
			continue
		}
		if j > 0 {
			x.prefixes[p[:j]] = true
		}
		if j+1 < len(p) {
			x.suffixes[p[j+1:]] = true
		}
	}
	x.suffixes[p] = true
}

// dotfile reports whether p names a dotfile (.dialyzerignore, .eslintrc.json): a summary
// naming one names the file, whatever the list of known names says.
func dotfile(p string) bool {
	return len(p) >= 3 && p[0] == '.' && isLetter(p[1])
}

// mentions is holds without the rule that a plain name must be written as code: whether
// the text names the fact at all.
func (x *summaryIndex) mentions(f *Fact) bool {
	if f.Kind == KindIdentifier && f.plain {
		return x.idents[f.key]
	}
	return x.holds(f)
}

// holds reports whether the summary holds fact f; the package documentation gives the
// rules per kind.
func (x *summaryIndex) holds(f *Fact) bool {
	switch f.Kind {
	case KindPath:
		if x.suffixes[f.key] || x.prefixes[f.key] {
			return true
		}
		for p := f.key; ; {
			if x.paths[p] {
				return true
			}
			j := strings.IndexByte(p, '/')
			if j < 0 {
				return false
			}
			p = p[j+1:]
		}
	case KindIdentifier:
		names := x.idents
		if f.plain {
			names = x.code
		}
		return names[f.key] || f.alt != "" && x.idents[f.alt]
	case KindError:
		if strings.Contains(x.norm, f.key) {
			return true
		}
		for _, k := range f.alts {
			if strings.Contains(x.norm, k) {
				return true
			}
		}
		words := strings.Fields(f.key)
		return len(words) > 6 && strings.Contains(x.norm, strings.Join(words[:6], " "))
	case KindQuantity:
		return x.quants[f.key]
	case KindState:
		if f.words != nil {
			return x.holdsLineWords(f.words)
		}
		return x.states.holds(f)
	case KindToolCall:
		if f.words == nil {
			return containsWord(x.norm, f.alt)
		}
		return x.holdsWords(f.words)
	case KindRequest:
		hit := 0
		for _, w := range f.words {
			if x.words[w] {
				hit++
			}
		}
		return 2*hit >= len(f.words)
	case KindConstraint:
		if len(f.alts) > 0 {
			for _, piece := range f.alts {
				if !strings.Contains(x.norm, piece) {
					return false
				}
			}
			return true
		}
		return strings.Contains(x.norm, f.key)
	case KindToolID:
		return holdsToolID(x.norm, f)
	default: // command, url, probe
		return strings.Contains(x.norm, f.key)
	}
}

// holdsWords reports whether the summary holds at least half of words.
func (x *summaryIndex) holdsWords(words []string) bool {
	hit := 0
	for _, w := range words {
		if x.words[w] {
			hit++
		}
	}
	return 2*hit >= len(words)
}

// holdsLineWords reports whether one line of the summary holds at least half of words.
// Only to-do items need the words per line: they are read when first asked for.
func (x *summaryIndex) holdsLineWords(words []string) bool {
	if !x.lineWordsRead {
		for l := range strings.SplitSeq(x.norm, "\n") {
			if l != "" {
				w := map[string]bool{}
				eachWord(l, func(s string) bool { w[s] = true; return true })
				x.lineWords = append(x.lineWords, w)
			}
		}
		x.lineWordsRead = true
	}
	for _, line := range x.lineWords {
		hit := 0
		for _, w := range words {
			if line[w] {
				hit++
			}
		}
		if 2*hit >= len(words) {
			return true
		}
	}
	return false
}
