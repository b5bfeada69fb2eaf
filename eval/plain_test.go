package eval

import (
	"hash/fnv"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/compacteval/compacteval/corpus"
)

// The plain forms below are the definitions of what scoring computes, as they were first
// written; the faster forms the package uses are held equal to them by FuzzFastPaths.

// go test -run='^$' -fuzz='^FuzzFastPaths$' -fuzztime=30s ./eval
//
// FuzzFastPaths checks the fast forms of text's normalization, of a summary index built
// from text and of the masking of copied words against their plain forms, text being a
// summary and its own source: its first half of lines said by the user, the second half
// and all its lines joined in one by the assistant.
func FuzzFastPaths(f *testing.F) {
	for _, s := range fastPathSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkFastPaths(t, text)
	})
}

// fastPathSeeds are texts where a fast path could part from its plain form: non-ASCII
// capitals and spaces, runes whose lower case is ASCII (the Kelvin sign), combining marks,
// invalid UTF-8, quotes, runs of spaces, and lines copied in runs of CopyRun words.
func fastPathSeeds() []string {
	return []string{
		"",
		" ",
		"a  b",
		"a b",
		" leading and trailing ",
		"trailing ",
		"a\n\u00a0b\n\u2003\u2003c \u00a0\nd\u00a0",
		"İstanbul ẞtraße \u212Aelvin \u212A8s K8S",
		"e\u0301te\u0301 cafe\u0301 Ångström",
		"tab\there\vvertical\fform\rreturn",
		"nbsp\u00a0here\u2003em\u0085nel",
		"‘quoted’ “double” `code` *bold* 'single' \"plain\"",
		"\xff\xfe invalid \xe2\x80 utf8 \xe2",
		"Run `os.ReadFile` and std::vector::push_back, then ..a.b:: and :x:.",
		"./src/App.TSX:12:3, Makefile, .eslintrc.json, path/to/file.go#L12, a=b/c.py, http://x.io/a.go",
		"### Current Work:\n- fixed 12 failing tests, 42% done; 1.5GB used\n- the build is still running\n```\ncode Fence(x)\n```\n~~~\nmore\n~~~",
		"we fixed the flaky export job and the retries now back off with jitter between the attempts as asked\nwe fixed the flaky export job and the retries now back off with jitter between the attempts as asked",
		"Please never push to main without asking me first, ever\nsecond line of the user's that the assistant never said",
		"Error: cannot find module 'x' in the current working directory of the build step at all",
	}
}

func TestFastPathsMatchPlain(t *testing.T) {
	texts := fastPathSeeds()
	for _, dir := range []string{"../corpus/cases", "testdata/cases"} {
		for _, c := range loadEvalCases(t, dir) {
			texts = append(texts, c.Intended.Summary)
			for _, m := range c.Conversation {
				texts = append(texts, m.Text)
			}
		}
	}
	for _, s := range texts {
		checkFastPaths(t, s)
	}
}

func checkFastPaths(t *testing.T, text string) {
	t.Helper()
	if got, want := normText(text), normTextRunes(text); got != want {
		t.Fatalf("normText(%q) = %q, want %q (normTextRunes)", text, got, want)
	}
	if got, want := normLines(text), normLinesPlain(text); got != want {
		t.Fatalf("normLines(%q) = %q, want %q (normLinesPlain)", text, got, want)
	}
	scanChunks(text, func(c string, _ bool) {
		for _, part := range strings.Split(c, "=") {
			if got, want := trimChunk(part), trimChunkPlain(part); got != want {
				t.Fatalf("trimChunk(%q) = %q, want %q (trimChunkPlain)", part, got, want)
			}
		}
	})
	got, want := newSummaryIndex(text), newSummaryIndexPlain(text)
	got.holdsLineWords(nil) // reads the lines' words, which the plain form reads at once
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("newSummaryIndex(%q) = %+v, want %+v (newSummaryIndexPlain)", text, got, want)
	}
	lines := strings.Split(text, "\n")
	joined := strings.Join(lines, " ") // longer runs across the lines
	src := newCopySources([]corpus.Message{
		{Role: corpus.RoleUser, Text: strings.Join(lines[:len(lines)/2], "\n")},
		{Role: corpus.RoleAssistant, Text: strings.Join(lines[len(lines)/2:], "\n") + "\n" + joined},
	})
	lines = append(lines, joined)
	for _, line := range lines {
		if got, want := hashString(line), hashStringPlain(line); got != want {
			t.Fatalf("hashString(%q) = %x, want %x (hash/fnv)", line, got, want)
		}
		if w := strings.Fields(line); hashWords(w) != hashWordsPlain(w) {
			t.Fatalf("hashWords(%q) = %x, want %x (hash/fnv)", w, hashWords(w), hashWordsPlain(w))
		}
		for _, user := range []bool{false, true} {
			for _, quotes := range []bool{false, true} {
				k, c, w := src.maskCopied(line, user, quotes)
				pk, pc, pw := src.maskCopiedPlain(line, user, quotes)
				if k != pk || c != pc || w != pw {
					t.Fatalf("maskCopied(%q, %v, %v) = %q, %d, %d, want %q, %d, %d (maskCopiedPlain)", line, user, quotes, k, c, w, pk, pc, pw)
				}
			}
		}
		// score masks a line outside the user's sections again without the user's
		// lines only when the first masking left nothing.
		if k, _, _ := src.maskCopied(line, false, true); k != "" {
			if again, _, _ := src.maskCopied(line, true, true); again != k {
				t.Fatalf("maskCopied(%q) = %q with the user's lines, %q without", line, k, again)
			}
		}
	}
}

// normLinesPlain is normLines: normText line by line.
func normLinesPlain(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = normTextRunes(l)
	}
	return strings.Join(lines, "\n")
}

// trimChunkPlain is trimChunk.
func trimChunkPlain(c string) string {
	c = strings.TrimRight(c, ".,:;!?")
	c = strings.TrimLeft(c, ":")
	if j := strings.Index(c, "#L"); j > 0 {
		c = c[:j]
	}
	for k := 0; k < 2; k++ {
		j := strings.LastIndexByte(c, ':')
		if j <= 0 || j == len(c)-1 || strings.Trim(c[j+1:], "0123456789") != "" {
			break
		}
		c = c[:j]
	}
	return strings.TrimRight(c, ".,:;!?")
}

// newSummaryIndexPlain is newSummaryIndex.
func newSummaryIndexPlain(summary string) *summaryIndex {
	x := &summaryIndex{
		text:     summary,
		norm:     normLinesPlain(summary),
		idents:   map[string]bool{},
		code:     map[string]bool{},
		paths:    map[string]bool{},
		suffixes: map[string]bool{},
		prefixes: map[string]bool{},
		words:    map[string]bool{},
		quants:   quantityIndex{},
	}
	for _, l := range strings.Split(x.norm, "\n") {
		x.quants.addLine(strings.Fields(l))
		x.states.addLine(strings.Fields(l))
		if l != "" {
			w := map[string]bool{}
			eachWord(l, func(s string) bool { w[s] = true; return true })
			x.lineWords = append(x.lineWords, w)
		}
	}
	x.lineWordsRead = true
	inFence := false
	for _, line := range strings.Split(summary, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		x.indexLinePlain(line, inFence)
	}
	scanChunks(summary, func(c string, call bool) {
		if strings.Contains(c, "://") {
			return
		}
		for _, part := range strings.Split(c, "=") {
			x.addPath(trimChunkPlain(part))
		}
	})
	eachWord(summary, func(w string) bool {
		x.words[w] = true
		return true
	})
	return x
}

func (x *summaryIndex) indexLinePlain(s string, code bool) {
	ticks := 0
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
			run := strings.Trim(s[start:i], ".:")
			asCode := code || ticks%2 == 1 || i < len(s) && s[i] == '('
			x.addNamePlain(run, asCode)
			start = -1
		}
		if i < len(s) && s[i] == '`' {
			ticks++
		}
	}
}

func (x *summaryIndex) addNamePlain(run string, asCode bool) {
	if run == "" {
		return
	}
	lower := strings.ToLower(run)
	x.idents[lower] = true
	if asCode || shaped(run) {
		x.code[lower] = true
	}
	if !strings.ContainsAny(run, ".:") {
		return
	}
	for _, p := range strings.FieldsFunc(run, func(r rune) bool { return r == '.' || r == ':' }) {
		lp := strings.ToLower(p)
		x.idents[lp] = true
		if asCode || shaped(p) {
			x.code[lp] = true
		}
	}
}

func hashStringPlain(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func hashWordsPlain(words []string) uint64 {
	h := fnv.New64a()
	for _, w := range words {
		h.Write([]byte(w))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// maskCopiedPlain is maskCopied.
func (s copySources) maskCopiedPlain(line string, userSection, quotes bool) (kept string, copied, words int) {
	type field struct {
		start, end int
		norm       string
	}
	var fs []field
	start := -1
	for i, r := range line + " " {
		if unicode.IsSpace(r) {
			if start >= 0 {
				if n := normTextRunes(line[start:i]); n != "" {
					fs = append(fs, field{start, i, n})
				}
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	sources := []copySource{s.others}
	if !userSection {
		sources = append(sources, s.user)
	}
	if n := normTextRunes(line); len(n) >= minCopiedLine {
		h := hashStringPlain(n)
		for _, src := range sources {
			if _, ok := src.lines[h]; ok {
				return "", len(fs), len(fs)
			}
		}
	}
	if len(fs) < CopyRun || quotes && quotable(line) {
		return line, 0, len(fs)
	}
	covered := make([]bool, len(fs))
	run := make([]string, CopyRun)
	for i := 0; i+CopyRun <= len(fs); i++ {
		for k := range run {
			run[k] = fs[i+k].norm
		}
		if _, ok := s.others.runs[hashWordsPlain(run)]; ok {
			for k := i; k < i+CopyRun; k++ {
				covered[k] = true
			}
		}
	}
	var b strings.Builder
	prevEnd := 0
	for i, f := range fs {
		if covered[i] {
			copied++
			if prevEnd >= 0 {
				b.WriteString(line[prevEnd:f.start])
				b.WriteByte('\n')
			}
			prevEnd = -1
			continue
		}
		if prevEnd < 0 {
			prevEnd = f.start
		}
	}
	if copied == 0 {
		return line, 0, len(fs)
	}
	if prevEnd >= 0 {
		b.WriteString(line[prevEnd:])
	}
	return b.String(), copied, len(fs)
}
